// Resume after a crash (issue 13, point 2): a plan run by `diskdial compare` in a child process is
// killed (SIGKILL) while it tests, leaving its file system mounted under
// $DISKDIAL_HOME/wizard/<plan>/. Resuming unmounts that leftover — only the plan's own, proven by
// path and plan id: another plan's mount stays — and goes on to the end. And a disk pulled mid-plan
// (its loop device detached) stops the plan cleanly, leaves nothing mounted, and offers resume.
import { execFileSync, spawn } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinuxProvider, luksName, systemProbe } from '../../../../app/src/core/wizard/linux.js';
import type { EventChannel, EventMap } from '../../../../app/src/ipc/contract.js';
import type { WizardService } from '../../../../app/src/services/wizard.js';
import { rootOnly } from '../../../helpers/loopfs.js';
import { wizardSettings } from '../../../helpers/wizard-plans.js';
import { realLinux, realWizard } from '../../../helpers/wizard-real.js';
import { wizardSink } from '../../../helpers/wizard-sink.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const mainTs = pathToFileURL(path.join(root, 'app/src/cli/main.ts')).href;
const script = `const m = await import(${JSON.stringify(mainTs)}); process.exitCode = await m.main(process.argv.slice(1));`;
const MiB = 1024 * 1024;

const mountsUnder = (dir: string): string[] =>
  readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((l) => (l.split(' ')[1] ?? '').replace(/\\040/g, ' '))
    .filter((t) => t.startsWith(`${dir}/`));

describe('reclaiming what a dead plan left', () => {
  it("locks the plan's fscrypt folder, then unmounts its own mounts deepest first; another plan's and a look-alike folder's stay", async () => {
    const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-reclaim-'));
    try {
      const workDir = path.join(tmp, 'wizard', '0d1e0000-0000-4000-8000-000000000001');
      await fsp.mkdir(path.join(workDir, 'mnt-ext4-fscrypt', 'encrypted'), { recursive: true });
      await fsp.writeFile(path.join(workDir, 'fscrypt.conf'), '{}');
      const mounts = [
        { source: '/dev/sdz1', target: path.join(workDir, 'mnt-ext4-fscrypt') },
        { source: 'tmpfs', target: path.join(workDir, 'mnt-ext4-fscrypt', 'inner') },
        { source: '/dev/sdy1', target: path.join(`${workDir}-other`, 'mnt-xfs') },
        { source: '/dev/sdx1', target: '/media/me/T7' },
      ];
      const provider = createLinuxProvider({ exec: async () => '', probe: systemProbe, mounts: () => mounts });
      const ran: string[] = [];
      const undone = await provider.reclaim!(workDir, async (cmd) => {
        ran.push(`${cmd.env?.FSCRYPT_CONF ? `FSCRYPT_CONF=${cmd.env.FSCRYPT_CONF} ` : ''}${cmd.argv.join(' ')}`);
        return { stdout: '', stderr: '' };
      });
      expect(ran).toEqual([
        `umount ${path.join(workDir, 'mnt-ext4-fscrypt', 'inner')}`,
        `FSCRYPT_CONF=${path.join(workDir, 'fscrypt.conf')} fscrypt lock ${path.join(workDir, 'mnt-ext4-fscrypt', 'encrypted')} --quiet`,
        `umount ${path.join(workDir, 'mnt-ext4-fscrypt')}`,
      ]);
      expect(undone).toEqual([path.join(workDir, 'mnt-ext4-fscrypt', 'inner'), path.join(workDir, 'mnt-ext4-fscrypt')]);
      // A LUKS mapping is the plan's only by its name: diskdial-<plan id>.
      expect(luksName(workDir)).toBe('diskdial-0d1e0000-0000-4000-8000-000000000001');
    } finally {
      await fsp.rm(tmp, { recursive: true, force: true });
    }
  });
});

describe.runIf(rootOnly())('a plan that died or lost its disk (root: a disk image)', () => {
  let dir: string;
  let home: string;
  let img: string;
  let loop = '';
  const { provider, run } = realLinux();

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-wizard-crash-'));
    home = path.join(dir, 'home');
    img = path.join(dir, 'disk.img');
    execFileSync('truncate', ['-s', '160M', img]);
    loop = execFileSync('losetup', ['--find', '--partscan', '--show', img], { encoding: 'utf8' }).trim();
  });
  afterAll(async () => {
    for (const m of mountsUnder(dir).reverse()) execFileSync('umount', ['-l', m]);
    if (loop) execFileSync('losetup', ['-d', loop], { stdio: 'ignore' });
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const service = (): WizardService => realWizard(home, { provider, run });

  it('SIGKILL while testing leaves the plan mounted; resume unmounts only its own leftovers and finishes', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        tsx,
        '--input-type=module',
        '-e',
        script,
        'compare',
        '--device',
        loop,
        '--formats',
        'ext4,exfat',
        '--final',
        'ext4',
        '--plan',
        'quick',
        '--size',
        '64MiB',
        '--runs',
        '20',
        '--rest',
        '0',
        '--confirm',
        path.basename(loop),
      ],
      { env: { ...process.env, DISKDIAL_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_c, sig) => r(sig)));
    const planId = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        const id = /diskdial: plan (\S+):/.exec(stderr)?.[1];
        // Testing: the file system is mounted in the plan's folder and the engine is writing.
        if (id && /\[1\/2\] ext4: Write/.test(stderr)) resolve(id);
      });
      void exited.then(() => reject(new Error(`the plan ended before it was killed: ${stderr}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const workDir = path.join(home, 'wizard', planId);
    expect(mountsUnder(workDir)).toEqual([path.join(workDir, 'mnt-ext4')]);

    // Another plan's mount (a tmpfs standing in for it) is not this plan's to undo.
    const otherPlan = path.join(home, 'wizard', `${planId}-other`, 'mnt-exfat');
    await fsp.mkdir(otherPlan, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', otherPlan]);
    try {
      const svc = service();
      expect((await svc.unfinished()).map((p) => p.id)).toContain(planId);
      const s = wizardSink();
      // A smaller plan to finish: the plan file is the one the killed process wrote.
      const state = await svc.resume(planId, path.basename(loop));
      state.settings.runs = 1;
      state.settings.sizes = [16 * MiB];
      svc.start(state, s);
      const done = await s.done;
      expect(done.outcome, JSON.stringify(done.error)).toBe('finished');
      expect(s.messages).toContain(`Cleaned up after the interrupted run: ${path.join(workDir, 'mnt-ext4')}`);
      expect(mountsUnder(workDir)).toEqual([]);
      expect(mountsUnder(path.dirname(otherPlan))).toEqual([otherPlan]);
      expect((await svc.plans.get(planId))!).toMatchObject({ status: 'done', steps: [{ status: 'done' }, { status: 'done' }] });
    } finally {
      execFileSync('umount', [otherPlan]);
    }
  }, 180_000);

  it('a disk pulled mid-plan stops it cleanly: nothing left mounted, the plan offered for resume, and resumable once the disk is back', async () => {
    const svc = service();
    const s = wizardSink();
    let pulled = false;
    const name = path.basename(loop);
    const disk = (await svc.listDisks()).find((d) => d.path === loop)!;
    const state = await svc.begin(
      wizardSettings({ device: loop, identity: { path: loop, sizeBytes: disk.sizeBytes }, confirmName: name, formats: ['ext4', 'exfat'] }),
    );
    const watched = {
      ...s,
      send<C extends EventChannel>(c: C, d: EventMap[C]) {
        // Pulled while ext4 is being tested: the loop device goes as soon as nothing holds it.
        if (!pulled && c === 'wizard.progress' && (d as EventMap['wizard.progress']).stage === 'testing') {
          pulled = true;
          execFileSync('losetup', ['-d', loop]);
        }
        s.send(c, d);
      },
    };
    svc.start(state, watched);
    const done = await s.done;
    expect(pulled).toBe(true);
    expect(done).toMatchObject({
      outcome: 'failed',
      error: { code: 'ERR_DISK_GONE', message: `Stopped before erasing ${loop}: the disk is no longer there (unplugged?).` },
    });
    expect(mountsUnder(path.join(home, 'wizard'))).toEqual([]);
    const saved = (await svc.plans.get(state.id))!;
    expect(saved.steps.map((x) => x.status)).toEqual(['done', 'failed']);
    expect((await svc.unfinished()).map((p) => p.id)).toContain(state.id);

    // The same image back at the same device: the same disk, so the plan resumes and finishes.
    execFileSync('losetup', ['--partscan', loop, img]);
    const again = wizardSink();
    svc.start(await svc.resume(state.id, name), again);
    expect((await again.done).outcome).toBe('finished');
  }, 120_000);
});
