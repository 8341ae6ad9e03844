// The format-and-compare wizard on Linux. Unit: lsblk's JSON as disks with the safety rules,
// the formats this machine can make, the commands. Real (root): a disk image on a loop device
// (attached with partition scanning and direct I/O, as an external disk would behave), erased into
// ext4, ext4 + fscrypt, XFS, Btrfs, exFAT and NTFS in turn and tested; every safety rule refused
// on the real device; a plan interrupted after a format, and one whose process died mid-format,
// resumed.
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTest } from '../../../../app/src/core/engine.js';
import { HistoryStore } from '../../../../app/src/core/history.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { createCommandRunner } from '../../../../app/src/core/exec/commands.js';
import {
  linuxFormats,
  mkfsCommand,
  mountCommand,
  parseBlkidExport,
  parseLsblk,
  partitionCommands,
  systemProbe,
} from '../../../../app/src/core/wizard/linux.js';
import { PlanStore } from '../../../../app/src/core/wizard/plan-store.js';
import type { Command } from '../../../../app/src/core/wizard/provider.js';
import { checkDisk, runPlan } from '../../../../app/src/core/wizard/run-plan.js';
import type { WizardPlanState } from '../../../../app/src/model/wizard/types.js';
import { type WizardService } from '../../../../app/src/services/wizard.js';
import type { WizardSettings } from '../../../../app/src/model/settings.js';
import { rootOnly } from '../../../helpers/loopfs.js';
import { listingProvider, stoppedPlan, wizardSettings } from '../../../helpers/wizard-plans.js';
import { attachImage, detachImage, realLinux, realWizard } from '../../../helpers/wizard-real.js';
import { wizardSink } from '../../../helpers/wizard-sink.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixture = (name: string): string => readFileSync(path.join(root, 'test/fixtures/wizard', name), 'utf8');
const MiB = 1024 * 1024;

describe('disks from lsblk', () => {
  const disks = parseLsblk(fixture('lsblk.json'), { backingFile: (n) => (n === 'loop3' ? '/home/me/disk.img' : undefined) });
  const by = (p: string) => disks.find((d) => d.path === p)!;

  it('offers external disks and disk images; never the system disk; internal ones only behind the switch', () => {
    expect(disks.map((d) => d.path)).toEqual(['/dev/loop3', '/dev/sda', '/dev/sdb', '/dev/nvme0n1', '/dev/nvme1n1']);
    expect(by('/dev/nvme0n1')).toMatchObject({ system: true, offered: false, reason: 'It holds the running system (mounted at /).' });
    expect(by('/dev/nvme1n1')).toMatchObject({
      internal: true,
      system: false,
      offered: false,
      reason: 'It is an internal disk: turn on "Show internal disks" to use it.',
    });
    expect(by('/dev/sdb')).toMatchObject({
      name: 'Portable SSD T7',
      model: 'Portable SSD T7',
      serial: 'S5SXNG0R1234',
      bus: 'usb',
      internal: false,
      offered: true,
      sizeBytes: 1000204886016,
    });
    expect(by('/dev/sdb').partitions).toEqual([{ path: '/dev/sdb1', sizeBytes: 1000202788864, fs: 'exfat', label: 'T7', mountpoints: [] }]);
    expect(by('/dev/loop3')).toMatchObject({ name: 'loop3', bus: 'loop', backingFile: '/home/me/disk.img', offered: true });
    // A swap partition makes the disk the system's too.
    expect(by('/dev/sda')).toMatchObject({ system: true, offered: false, reason: 'It holds the running system (swap).' });
    // zram and unattached loop devices are not listed.
    expect(disks.some((d) => d.path.includes('zram') || d.path === '/dev/loop0')).toBe(false);
    const withInternal = parseLsblk(fixture('lsblk.json'), { includeInternal: true });
    expect(withInternal.find((d) => d.path === '/dev/nvme1n1')).toMatchObject({ offered: true });
    expect(withInternal.find((d) => d.path === '/dev/nvme0n1')).toMatchObject({ offered: false });
  });

  it('a mounted partition makes a disk "in use" unless the wizard mounted it', () => {
    const withMount = (mountpoint: string): string => {
      const json = JSON.parse(fixture('lsblk.json')) as {
        blockdevices: Array<{ name: string; children?: Array<{ mountpoints: Array<string | null> }> }>;
      };
      json.blockdevices.find((d) => d.name === 'sdb')!.children![0]!.mountpoints = [mountpoint];
      return JSON.stringify(json);
    };
    const sdb = (json: string, own?: (m: string) => boolean) =>
      parseLsblk(json, own ? { ownMount: own } : {}).find((d) => d.path === '/dev/sdb')!;
    expect(sdb(withMount('/media/me/T7'))).toMatchObject({
      offered: false,
      reason: '/dev/sdb1 is in use (mounted at /media/me/T7): unmount it first.',
    });
    expect(
      sdb(withMount('/home/me/.local/share/diskdial/wizard/p1/mnt-xfs'), (m) => m.startsWith('/home/me/.local/share/diskdial/wizard/')),
    ).toMatchObject({ offered: true, system: false });
    expect(sdb(withMount('/home/me/Videos'))).toMatchObject({
      offered: false,
      system: true,
      reason: 'It holds the running system (mounted at /home/me/Videos).',
    });
    expect(sdb(withMount('/tmp/dd/wizard/p1/mnt-xfs'), (m) => m.startsWith('/tmp/dd/wizard/'))).toMatchObject({
      offered: true,
      system: false,
    });
    // The wizard's own mount points are not system paths even when they sit under one.
    expect(sdb(withMount('/var/lib/diskdial/wizard/p1/mnt-xfs'), (m) => m.startsWith('/var/lib/diskdial/wizard/'))).toMatchObject({
      system: false,
      offered: true,
    });
  });
});

describe('file systems lsblk leaves blank (no udev database)', () => {
  it('takes them from blkid, and lsblk wins where it has one', () => {
    const blkid = parseBlkidExport(
      'DEVNAME=/dev/sdb1\nUUID=c982\nBLOCK_SIZE=1024\nTYPE=ext4\n\nDEVNAME=/dev/loop3\nLABEL=My\\ Clips\nTYPE=exfat\n\nDEVNAME=/dev/sdc\nPTTYPE=gpt\n',
    );
    expect([...blkid]).toEqual([
      ['/dev/sdb1', { fs: 'ext4' }],
      ['/dev/loop3', { fs: 'exfat', label: 'My Clips' }],
      ['/dev/sdc', {}],
    ]);
    const json = JSON.parse(fixture('lsblk.json')) as {
      blockdevices: Array<{ name: string; fstype?: string | null; label?: string | null; children?: Array<{ fstype?: string | null }> }>;
    };
    const sdb = json.blockdevices.find((d) => d.name === 'sdb')!;
    const lsblkFs = sdb.children![0]!.fstype;
    for (const d of json.blockdevices) for (const x of [d, ...(d.children ?? [])]) Object.assign(x, { fstype: null, label: null });
    const blank = parseLsblk(JSON.stringify(json));
    expect(blank.find((d) => d.path === '/dev/sdb')!.partitions[0]!.fs).toBeUndefined();
    const filled = parseLsblk(JSON.stringify(json), { blkid: (dev) => blkid.get(dev) });
    expect(filled.find((d) => d.path === '/dev/sdb')!.partitions[0]).toMatchObject({ path: '/dev/sdb1', fs: 'ext4' });
    // lsblk's own answer stands when it has one.
    const both = parseLsblk(fixture('lsblk.json'), { blkid: () => ({ fs: 'xfs' }) });
    expect(both.find((d) => d.path === '/dev/sdb')!.partitions[0]!.fs).toBe(lsblkFs);
  });
});

describe('formats and commands', () => {
  it('says which formats this machine can make, and why not', () => {
    const formats = linuxFormats({
      has: (c) => !['mkfs.vfat', 'cryptsetup'].includes(c),
      filesystems: new Set(['ext4', 'xfs', 'btrfs', 'fuseblk']),
      deviceMapper: false,
    });
    const by = Object.fromEntries(formats.map((f) => [f.id, f]));
    expect(formats.filter((f) => f.available).map((f) => f.id)).toEqual(['ext4', 'ext4-fscrypt', 'xfs', 'btrfs', 'exfat', 'ntfs']);
    expect(by['ext4-luks']!.reason).toBe('Cryptsetup is not installed (Debian: cryptsetup).');
    expect(by.fat32!.reason).toBe('Mkfs.vfat is not installed (Debian: dosfstools).');
    const noDm = linuxFormats({ has: () => true, filesystems: new Set(['ext4']), deviceMapper: false });
    expect(noDm.find((f) => f.id === 'ext4-luks')!.reason).toBe('This kernel has no device-mapper (dm-crypt), so LUKS cannot be used.');
    expect(noDm.find((f) => f.id === 'fat32')!.reason).toBe('This kernel cannot mount FAT (no vfat module).');
    expect(by['ext4-fscrypt']).toMatchObject({ label: 'ext4 (fscrypt encrypted)', encrypted: true });
    // This machine (CI installs every tool): the six the issue names can all be made.
    const here = linuxFormats(systemProbe());
    for (const id of ['ext4', 'ext4-fscrypt', 'xfs', 'btrfs', 'exfat', 'ntfs'])
      expect(
        here.find((f) => f.id === id),
        id,
      ).toMatchObject({ available: true });
  });

  it('builds argv commands: wipe, one GPT partition of the right type, mkfs, mount', () => {
    const [disk] = parseLsblk(fixture('lsblk.json')).filter((d) => d.path === '/dev/sdb');
    const cmds = partitionCommands(disk!, 'exfat');
    expect(cmds.map((c) => c.argv)).toEqual([
      ['wipefs', '--all', '--quiet', '/dev/sdb1'],
      ['wipefs', '--all', '--quiet', '/dev/sdb'],
      ['sfdisk', '--quiet', '--wipe', 'always', '/dev/sdb'],
      ['partx', '--update', '/dev/sdb'],
    ]);
    expect(cmds[2]!.stdin).toBe('label: gpt\n,,EBD0A0A2-B9E5-4433-87C0-68B6B72699C7\n');
    expect(partitionCommands(disk!, 'xfs')[2]!.stdin).toBe('label: gpt\n,,L\n');
    expect(cmds.every((c) => c.privileged)).toBe(true);
    expect(mkfsCommand('ext4-fscrypt', '/dev/sdb1', 'DISKDIAL').argv).toEqual([
      'mkfs.ext4',
      '-q',
      '-F',
      '-O',
      'encrypt',
      '-L',
      'DISKDIAL',
      '/dev/sdb1',
    ]);
    expect(mkfsCommand('ntfs', '/dev/sdb1', 'DISKDIAL').argv).toEqual(['mkntfs', '-Q', '-F', '-q', '-L', 'DISKDIAL', '/dev/sdb1']);
    expect(mountCommand('exfat', '/dev/sdb1', '/m', { filesystems: new Set() }, { uid: 1000, gid: 1000 }).argv).toEqual([
      'mount',
      '-t',
      'exfat-fuse',
      '-o',
      'uid=1000,gid=1000',
      '/dev/sdb1',
      '/m',
    ]);
    expect(mountCommand('ntfs', '/dev/sdb1', '/m', { filesystems: new Set(['ntfs3']) }).argv).toEqual([
      'mount',
      '-t',
      'ntfs3',
      '/dev/sdb1',
      '/m',
    ]);
  });

  it('runs commands as argv, adds pkexec for privileged ones when not root, and says what failed in words', async () => {
    const seen: Command[] = [];
    const direct = createCommandRunner({ elevate: 'direct', onCommand: (c) => seen.push(c) });
    expect((await direct({ argv: ['cat'], privileged: false, stdin: 'from stdin; $(not a shell)', why: 'Echoing' })).stdout).toBe(
      'from stdin; $(not a shell)',
    );
    await expect(
      direct({ argv: ['sh', '-c', 'echo "mkfs: device is busy" >&2; exit 3'], privileged: false, why: 'Making XFS on /dev/sdb1' }),
    ).rejects.toMatchObject({
      code: 'ERR_COMMAND',
      message: 'Making XFS on /dev/sdb1 failed: mkfs: device is busy (sh exited with 3).',
    });
    await expect(direct({ argv: ['no-such-mkfs'], privileged: false, why: 'Making ZFS' })).rejects.toMatchObject({
      code: 'ERR_TOOL_MISSING',
      message: 'Making ZFS failed: no-such-mkfs is not installed.',
    });
    const env = await direct({
      argv: ['sh', '-c', 'echo $FSCRYPT_CONF'],
      privileged: false,
      env: { FSCRYPT_CONF: '/plan/fscrypt.conf' },
      why: 'env',
    });
    expect(env.stdout.trim()).toBe('/plan/fscrypt.conf');
    expect(seen).toHaveLength(4);
  });
});

describe('elevation', () => {
  it('puts pkexec (the polkit prompt) in front of privileged commands only, carrying their environment; a refused prompt is EACCES', async () => {
    const bin = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-pkexec-'));
    const log = path.join(bin, 'argv.log');
    // A stand-in pkexec: records its argv, then runs it (as the real one does after the prompt),
    // or refuses like a dismissed prompt (exit 126) when asked to.
    await fsp.writeFile(
      path.join(bin, 'pkexec'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\n[ -e ${bin}/refuse ] && exit 126\nexec "$@"\n`,
      { mode: 0o755 },
    );
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath}`;
    try {
      const run = createCommandRunner({ elevate: 'pkexec' });
      const out = await run({
        argv: ['sh', '-c', 'echo "$FSCRYPT_CONF"'],
        privileged: true,
        env: { FSCRYPT_CONF: '/plan/fscrypt.conf' },
        why: 'Enabling fscrypt',
      });
      expect(out.stdout.trim()).toBe('/plan/fscrypt.conf');
      expect((await run({ argv: ['echo', 'listing'], privileged: false, why: 'Listing' })).stdout.trim()).toBe('listing');
      expect(readFileSync(log, 'utf8')).toBe('env FSCRYPT_CONF=/plan/fscrypt.conf sh -c echo "$FSCRYPT_CONF"\n');
      await fsp.writeFile(path.join(bin, 'refuse'), '');
      await expect(run({ argv: ['mkfs.xfs', '/dev/sdb1'], privileged: true, why: 'Making XFS on /dev/sdb1' })).rejects.toMatchObject({
        code: 'EACCES',
        message:
          'Making XFS on /dev/sdb1 needs administrator rights, and they were not given (the password prompt was cancelled or refused).',
      });
    } finally {
      process.env.PATH = savedPath;
      await fsp.rm(bin, { recursive: true, force: true });
    }
  });
});

describe.runIf(rootOnly())('on a real disk image (root)', () => {
  let dir: string;
  let loop: string;
  let history: HistoryStore;
  let plans: PlanStore;
  let workRoot: string;
  const commands: Command[] = [];
  const { provider, run } = realLinux((c) => commands.push(c));

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-wizard-'));
    loop = attachImage(dir, '640M');
    history = new HistoryStore(path.join(dir, 'results'));
    plans = new PlanStore(path.join(dir, 'plans'));
    workRoot = path.join(dir, 'wizard');
  });
  afterAll(async () => {
    detachImage(loop);
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const service = (afterFormat?: (f: string) => void): WizardService => realWizard(dir, { provider, run, history, plans, afterFormat });

  async function settings(over: Partial<WizardSettings> = {}): Promise<WizardSettings> {
    const disk = (await service().listDisks()).find((d) => d.path === loop)!;
    return wizardSettings({
      device: loop,
      identity: { path: loop, sizeBytes: disk.sizeBytes },
      confirmName: disk.name,
      formats: ['ext4', 'xfs'],
      ...over,
    });
  }

  const fsOf = (doc: ResultDocument) => doc.target.fs;

  it('erases the image into six formats in turn, tests each, saves each result, and leaves it exFAT', async () => {
    const svc = service();
    const s = wizardSink();
    const state = await svc.begin(
      await settings({ formats: ['ext4', 'ext4-fscrypt', 'xfs', 'btrfs', 'exfat', 'ntfs'], finalFormat: 'exfat' }),
    );
    const { jobId } = svc.start(state, s);
    const done = await s.done;
    expect(done).toMatchObject({ jobId, planId: state.id, outcome: 'finished' });
    expect(done.resultIds).toHaveLength(6);
    const docs = await Promise.all(done.resultIds.map((id) => history.get(id)));
    expect(docs.map((d) => d.campaign!.format)).toEqual(['ext4', 'ext4-fscrypt', 'xfs', 'btrfs', 'exfat', 'ntfs']);
    expect(docs.map(fsOf)).toEqual(['ext4', 'ext4', 'xfs', 'btrfs', 'fuseblk', 'fuseblk']);
    expect(docs.map((d) => d.label)).toEqual(['ext4', 'ext4 (fscrypt encrypted)', 'XFS', 'Btrfs', 'exFAT', 'NTFS']);
    expect(docs[1]!.target.encrypted).toBe(true);
    expect(docs[1]!.target.path).toMatch(/mnt-ext4-fscrypt\/encrypted$/);
    for (const d of docs) expect(d.tests.map((t) => t.name)).toEqual(['Write', 'Read']);
    // Events: a progress stream with the stages in order for each format, one format event each.
    const formats = s.events.filter((e) => e.channel === 'wizard.format').map((e) => (e.data as { format: string }).format);
    expect(formats).toEqual(['ext4', 'ext4-fscrypt', 'xfs', 'btrfs', 'exfat', 'ntfs']);
    const stages = s.events
      .filter((e) => e.channel === 'wizard.progress' && (e.data as { formatIndex: number }).formatIndex === 2)
      .map((e) => (e.data as { stage: string }).stage);
    expect([...new Set(stages)]).toEqual(['checking', 'erasing', 'testing', 'unmounting']);
    // The plan file says done; nothing is mounted; the work folder is gone; the disk is exFAT.
    expect((await plans.get(state.id))!).toMatchObject({ status: 'done', final: { status: 'done' } });
    expect(readFileSync('/proc/self/mounts', 'utf8')).not.toContain(loop);
    await expect(fsp.stat(path.join(workRoot, state.id))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(execFileSync('blkid', ['-p', '-o', 'value', '-s', 'TYPE', `${loop}p1`], { encoding: 'utf8' }).trim()).toBe('exfat');
    // Every command was argv; none went through a shell.
    expect(commands.every((c) => Array.isArray(c.argv) && !['sh', 'bash'].includes(c.argv[0]!))).toBe(true);
    expect(await plans.unfinished()).toEqual([]);
  }, 180_000);

  it('runs the many-file plan too: the set sized to the fresh file system, the result a files document', async () => {
    const svc = service();
    const s = wizardSink();
    svc.start(await svc.begin(await settings({ formats: ['xfs'], plan: 'files', finalFormat: 'xfs' })), s);
    const done = await s.done;
    expect(done.outcome, JSON.stringify(done.error)).toBe('finished');
    const doc = await history.get(done.resultIds[0]!);
    expect(doc).toMatchObject({ kind: 'files', label: 'XFS', campaign: { format: 'xfs' }, target: { fs: 'xfs' } });
    expect(doc.files!.runs[0]!.items.length).toBeGreaterThanOrEqual(8);
    expect(doc.files!.scaled).toMatch(/free space/i);
  }, 120_000);

  it('refuses a name that does not match, before anything is erased', async () => {
    const before = commands.length;
    await expect(service().begin(await settings({ confirmName: 'loop' }))).rejects.toMatchObject({
      code: 'ERR_CONFIRM_MISMATCH',
      message: `The name typed ("loop") is not the disk's name ("${path.basename(loop)}"): nothing was erased.`,
    });
    expect(commands.length).toBe(before);
  });

  it('refuses a disk whose identity changed (size, model or serial)', async () => {
    const s = await settings();
    await expect(service().begin({ ...s, identity: { ...s.identity, sizeBytes: s.identity.sizeBytes + 4096 } })).rejects.toMatchObject({
      code: 'ERR_DISK_CHANGED',
      message: expect.stringContaining('its size changed'),
    });
    await expect(service().begin({ ...s, identity: { ...s.identity, serial: 'S5SXNG0R1234' } })).rejects.toMatchObject({
      code: 'ERR_DISK_CHANGED',
      message: expect.stringContaining('its serial number changed'),
    });
  });

  it('refuses a disk with a partition someone else mounted, checked again right before the erase', async () => {
    const svc = service();
    const state = await svc.begin(await settings());
    // Mounted after the user confirmed: the runner's own check before erasing catches it.
    const elsewhere = path.join(dir, 'someone-else');
    await fsp.mkdir(elsewhere, { recursive: true });
    const before = execFileSync('blkid', ['-p', '-o', 'value', '-s', 'TYPE', `${loop}p1`], { encoding: 'utf8' }).trim();
    execFileSync('mount', [...(before === 'exfat' ? ['-t', 'exfat-fuse'] : []), `${loop}p1`, elsewhere]);
    try {
      const s = wizardSink();
      svc.start(state, s);
      const done = await s.done;
      expect(done.outcome).toBe('failed');
      expect(done.error).toEqual({
        code: 'ERR_DISK_IN_USE',
        message: `Stopped before erasing ${loop}: ${loop}p1 is mounted at ${elsewhere}. Unmount it first.`,
      });
      // Nothing was written: the partition still holds what it held.
      expect(execFileSync('blkid', ['-p', '-o', 'value', '-s', 'TYPE', `${loop}p1`], { encoding: 'utf8' }).trim()).toBe(before);
      expect((await plans.get(state.id))!.steps[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('is mounted at') });
    } finally {
      execFileSync('umount', [elsewhere]);
    }
    await plans.delete(state.id);
  }, 60_000);

  it('refuses the system disk, whatever the plan says', async () => {
    const system = (await provider.listDisks({ includeInternal: true })).find((d) => d.system);
    expect(system, 'this machine has a system disk').toBeDefined();
    const state = {
      settings: {
        device: system!.path,
        identity: {
          path: system!.path,
          sizeBytes: system!.sizeBytes,
          ...(system!.model ? { model: system!.model } : {}),
          ...(system!.serial ? { serial: system!.serial } : {}),
        },
        allowInternal: true,
      },
    } as WizardPlanState;
    await expect(checkDisk(provider, state, () => false)).rejects.toMatchObject({
      code: 'ERR_SYSTEM_DISK',
      message: expect.stringContaining('It holds the running system (mounted at /)'),
    });
  });

  it('a plan stopped after its first format resumes at the second, keeping the first', async () => {
    let jobId = '';
    const svc: WizardService = service((format) => {
      if (format === 'ext4') svc.stop(jobId);
    });
    const state = await svc.begin(await settings({ formats: ['ext4', 'btrfs'] }));
    const s = wizardSink();
    jobId = svc.start(state, s).jobId;
    const stopped = await s.done;
    expect(stopped.outcome).toBe('stopped');
    expect(stopped.resultIds).toHaveLength(1);
    const saved = (await plans.get(state.id))!;
    expect(saved.status).toBe('stopped');
    expect(saved.steps.map((x) => x.status)).toEqual(['done', 'pending']);
    expect((await service().unfinished()).map((p) => p.id)).toContain(state.id);

    const again = service();
    const resumed = await again.resume(state.id, path.basename(loop));
    const r = wizardSink();
    again.start(resumed, r);
    const done = await r.done;
    expect(done.outcome).toBe('finished');
    expect(done.resultIds[0]).toBe(stopped.resultIds[0]);
    expect((await Promise.all(done.resultIds.map((id) => history.get(id)))).map((d) => d.campaign!.format)).toEqual(['ext4', 'btrfs']);
    // Only btrfs was erased and made on the resumed run (then the final ext4).
    expect(r.events.filter((e) => e.channel === 'wizard.format').map((e) => (e.data as { format: string }).format)).toEqual(['btrfs']);
  }, 120_000);

  it('a plan whose process died mid-format is offered for resume; the format is redone and its partial result dropped', async () => {
    const s = await settings({ formats: ['xfs', 'ext4'], sizes: [16 * MiB, 32 * MiB] });
    const state = await service().begin(s);
    // As a crash leaves it: xfs done, ext4 running with one of its two sizes saved, a dead pid.
    const partial = { ...(await history.get((await history.list()).entries[0]!.id)), id: 'partial-result-of-a-crash' };
    await history.save(partial);
    state.status = 'running';
    state.pid = 999_999_999;
    state.steps[0] = { ...state.steps[0]!, status: 'done', resultIds: [] };
    state.steps[1] = { ...state.steps[1]!, status: 'running', resultIds: ['partial-result-of-a-crash'] };
    await plans.save(state);
    const offered = await service().unfinished();
    expect(offered.map((p) => p.id)).toContain(state.id);
    const again = service();
    const r = wizardSink();
    again.start(await again.resume(state.id, path.basename(loop)), r);
    const done = await r.done;
    expect(done.outcome).toBe('finished');
    const ext4 = (await plans.get(state.id))!.steps[1]!;
    expect(ext4.status).toBe('done');
    expect(ext4.resultIds).toHaveLength(2);
    expect(ext4.resultIds).not.toContain('partial-result-of-a-crash');
    await expect(history.get('partial-result-of-a-crash')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await Promise.all(ext4.resultIds.map((id) => history.get(id)))).map((d) => d.label)).toEqual([
      'ext4 · 16 MiB',
      'ext4 · 32 MiB',
    ]);
  }, 120_000);
});

describe('runPlan without a disk', () => {
  it('marks the format failed, the plan failed, and keeps what was done', async () => {
    const plansDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-plan-'));
    try {
      const store = new PlanStore(plansDir);
      const settings = wizardSettings({ device: '/dev/sdz', identity: { path: '/dev/sdz', sizeBytes: 1e12 }, confirmName: 'X' });
      const state = stoppedPlan(settings, { id: 'p-gone' });
      const provider = listingProvider([]);
      await expect(
        runPlan({
          state,
          provider,
          run: async () => ({ stdout: '', stderr: '' }),
          engine: runTest,
          plans: store,
          history: { save: async () => undefined, delete: async () => undefined },
          workDir: plansDir,
          ownMount: () => false,
          signal: new AbortController().signal,
        }),
      ).rejects.toMatchObject({
        code: 'ERR_DISK_GONE',
        message: 'Stopped before erasing /dev/sdz: the disk is no longer there (unplugged?).',
      });
      expect((await store.get('p-gone'))!).toMatchObject({
        status: 'failed',
        steps: [{ status: 'failed', error: expect.stringContaining('no longer there') }],
      });
    } finally {
      await fsp.rm(plansDir, { recursive: true, force: true });
    }
  });
});
