// A disk is in use when any of its block devices belongs to something mounted or active (issue 13,
// point 3): a mounted partition, a member of a mounted multi-device Btrfs, an MD array member, an
// LVM physical volume, swap. Unit: the parsers and the reasons. Real (root): a Btrfs RAID1 over two
// loop devices mounted through the first — the second is listed as in use, with the reason, and
// the check before an erase refuses it.
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTest } from '../../../../app/src/core/engine.js';
import { identityOf } from '../../../../app/src/model/wizard/identity.js';
import { readCommand } from '../../../../app/src/core/exec/commands.js';
import {
  createLinuxProvider,
  parseBtrfsShow,
  parseLsblk,
  parseMdstat,
  parsePvs,
  parseSwaps,
  systemProbe,
} from '../../../../app/src/core/wizard/linux.js';
import { PlanStore } from '../../../../app/src/core/wizard/plan-store.js';
import { checkDisk } from '../../../../app/src/core/wizard/run-plan.js';
import type { WizardPlanState } from '../../../../app/src/model/wizard/types.js';
import { WizardService } from '../../../../app/src/services/wizard.js';
import { rootOnly } from '../../../helpers/loopfs.js';
import { wizardSettings } from '../../../helpers/wizard-plans.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixture = (name: string): string => readFileSync(path.join(root, 'test/fixtures/wizard', name), 'utf8');

describe('who else uses a block device', () => {
  it('reads btrfs filesystem show, /proc/mdstat, pvs and /proc/swaps', () => {
    const show = `Label: none  uuid: 2b923b02-93ee-4562-b125-ae1a117ac9b7
\tTotal devices 2 FS bytes used 144.00KiB
\tdevid    1 size 256.00MiB used 104.00MiB path /dev/loop0
\tdevid    2 size 256.00MiB used 104.00MiB path /dev/loop1

Label: 'data'  uuid: 7c1f0000-0000-4000-8000-000000000001
\tTotal devices 1 FS bytes used 1.00GiB
\tdevid    1 size 100.00GiB used 2.00GiB path /dev/sdc1
`;
    expect(parseBtrfsShow(show)).toEqual([['/dev/loop0', '/dev/loop1'], ['/dev/sdc1']]);
    const mdstat = `Personalities : [raid1]
md0 : active raid1 sdc1[1] sdb1[0]
      976630464 blocks super 1.2 [2/2] [UU]

unused devices: <none>
`;
    expect(parseMdstat(mdstat)).toEqual(
      new Map([
        ['/dev/sdc1', '/dev/md0'],
        ['/dev/sdb1', '/dev/md0'],
      ]),
    );
    expect(parsePvs('  /dev/sdb1  vg0\n  /dev/sdd   \n')).toEqual(
      new Map([
        ['/dev/sdb1', 'vg0'],
        ['/dev/sdd', ''],
      ]),
    );
    expect(
      parseSwaps(
        'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/sdb2                               partition\t8388604\t\t0\t\t-2\n/swapfile file 1 0 -3\n',
      ),
    ).toEqual(new Set(['/dev/sdb2', '/swapfile']));
  });

  it('lists a disk as in use, with the reason, when a partition is a RAID member, an LVM volume, swap, or a member of a mounted Btrfs', () => {
    const sdb = (usage: Parameters<typeof parseLsblk>[1]) => parseLsblk(fixture('lsblk.json'), usage).find((d) => d.path === '/dev/sdb')!;
    expect(sdb({})).toMatchObject({ offered: true });
    expect(sdb({}).inUse).toBeUndefined();
    expect(sdb({ usage: { md: new Map([['/dev/sdb1', '/dev/md0']]) } })).toMatchObject({
      offered: false,
      inUse: ['/dev/sdb1 is a member of the RAID array /dev/md0'],
      reason: '/dev/sdb1 is a member of the RAID array /dev/md0: stop using it first.',
    });
    expect(sdb({ usage: { pvs: new Map([['/dev/sdb1', 'vg0']]) } }).inUse).toEqual([
      '/dev/sdb1 is an LVM physical volume of volume group vg0',
    ]);
    expect(sdb({ usage: { swaps: new Set(['/dev/sdb1']) } }).inUse).toEqual(['/dev/sdb1 is in use as swap']);
    // A Btrfs over sdb1 and a partition of another disk that is mounted: sdb is in use through it.
    const json = JSON.parse(fixture('lsblk.json')) as {
      blockdevices: Array<{
        name: string;
        path: string;
        mountpoints?: Array<string | null>;
        children?: Array<{ path: string; mountpoints: Array<string | null> }>;
      }>;
    };
    const loop3 = json.blockdevices.find((d) => d.name === 'loop3')!;
    loop3.mountpoints = ['/mnt/pool'];
    const listed = parseLsblk(JSON.stringify(json), { usage: { btrfs: [[loop3.path, '/dev/sdb1']] } });
    expect(listed.find((d) => d.path === '/dev/sdb')).toMatchObject({
      offered: false,
      inUse: [`/dev/sdb1 is a member of the Btrfs file system mounted at /mnt/pool (with ${loop3.path})`],
    });
    // Mounted by this plan itself (its own folder): not in use by anyone else.
    loop3.mountpoints = ['/home/me/.local/share/diskdial/wizard/p1/mnt-btrfs'];
    const own = parseLsblk(JSON.stringify(json), {
      usage: { btrfs: [[loop3.path, '/dev/sdb1']] },
      ownMount: (m) => m.startsWith('/home/me/.local/share/diskdial/wizard/p1/'),
    });
    expect(own.find((d) => d.path === '/dev/sdb')).toMatchObject({ offered: true });
  });
});

describe.runIf(rootOnly())('a Btrfs RAID1 over two loop devices, mounted through the first (root)', () => {
  let dir: string;
  const loops: string[] = [];
  let mnt: string;
  const provider = createLinuxProvider({ exec: readCommand, probe: systemProbe });

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-wizard-inuse-'));
    for (const name of ['a.img', 'b.img']) {
      const img = path.join(dir, name);
      execFileSync('truncate', ['-s', '256M', img]);
      loops.push(execFileSync('losetup', ['--find', '--show', img], { encoding: 'utf8' }).trim());
    }
    execFileSync('mkfs.btrfs', ['-q', '-f', '-d', 'raid1', '-m', 'raid1', ...loops]);
    mnt = path.join(dir, 'pool');
    await fsp.mkdir(mnt);
    execFileSync('mount', ['-t', 'btrfs', loops[0]!, mnt]);
  });
  afterAll(async () => {
    if (mnt) execFileSync('umount', [mnt], { stdio: 'ignore' });
    for (const l of loops) execFileSync('losetup', ['-d', l]);
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('lists the second member as in use, with the reason, and the check before an erase refuses it', async () => {
    const [first, second] = loops as [string, string];
    const svc = new WizardService({
      provider,
      engine: runTest,
      history: { save: async () => undefined, delete: async () => undefined },
      plans: new PlanStore(path.join(dir, 'plans')),
      workRoot: path.join(dir, 'wizard'),
    });
    const disks = await svc.listDisks();
    const member = disks.find((d) => d.path === second)!;
    expect(member).toMatchObject({
      offered: false,
      inUse: [`${second} is a member of the Btrfs file system mounted at ${mnt} (with ${first})`],
      reason: `${second} is a member of the Btrfs file system mounted at ${mnt} (with ${first}): stop using it first.`,
    });
    expect(disks.find((d) => d.path === first)).toMatchObject({
      offered: false,
      reason: `${first} is in use (mounted at ${mnt}): unmount it first.`,
    });
    const state = { settings: { device: second, identity: identityOf(member) } } as WizardPlanState;
    await expect(checkDisk(provider, state, () => false)).rejects.toMatchObject({
      code: 'ERR_DISK_IN_USE',
      message: `Stopped before erasing ${second}: ${second} is a member of the Btrfs file system mounted at ${mnt} (with ${first}). Stop using it first.`,
    });
    // Through the service as a page or the CLI would ask: refused before anything is written.
    await expect(
      svc.begin(wizardSettings({ device: second, identity: { path: second, sizeBytes: member.sizeBytes }, confirmName: member.name })),
    ).rejects.toMatchObject({ code: 'ERR_DISK_IN_USE' });
    expect(execFileSync('blkid', ['-p', '-o', 'value', '-s', 'TYPE', second], { encoding: 'utf8' }).trim()).toBe('btrfs');
  }, 60_000);
});
