// The wizard proves a disk's identity before every erase (issue 13, point 1). Unit: what identity
// holds and how a change is named; the partition table the plan wrote, read back; how strong an
// identity is. Real (root): a plan stopped after its first erase, another image of the same size
// attached at the same loop device path (even at the same file path) — resume is refused, and the
// other image is untouched, byte for byte.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HistoryStore } from '../../../../app/src/core/history.js';

import { identityBasis, identityChange, identityOf, identityStrength } from '../../../../app/src/model/wizard/identity.js';
import { partitionCommands } from '../../../../app/src/core/wizard/linux.js';
import { PlanStore } from '../../../../app/src/core/wizard/plan-store.js';

import type { WizardProvider } from '../../../../app/src/core/wizard/provider.js';
import { checkDisk } from '../../../../app/src/core/wizard/run-plan.js';
import type { WizardDisk, WizardPlanState } from '../../../../app/src/model/wizard/types.js';
import { type WizardService } from '../../../../app/src/services/wizard.js';
import { rootOnly } from '../../../helpers/loopfs.js';
import { wizardSink } from '../../../helpers/wizard-sink.js';
import { listingProvider, stoppedPlan, wizardSettings } from '../../../helpers/wizard-plans.js';
import { realLinux, realWizard } from '../../../helpers/wizard-real.js';

const MiB = 1024 * 1024;

const loopDisk = (over: Partial<WizardDisk> = {}): WizardDisk => ({
  path: '/dev/loop7',
  name: 'loop7',
  sizeBytes: 128 * MiB,
  bus: 'loop',
  removable: false,
  internal: false,
  system: false,
  partitions: [],
  backingFile: '/home/me/disk.img',
  backingInode: { ino: 1234, dev: '254:0' },
  offered: true,
  ...over,
});

const planFor = (disk: WizardDisk, over: Partial<WizardPlanState> = {}): WizardPlanState =>
  stoppedPlan(wizardSettings({ device: disk.path, identity: identityOf(disk), confirmName: disk.name }), over);

/** A provider that lists `disk` and reads `ptuuid` from it. */
const fakeProvider = (disk: WizardDisk, ptuuid?: string): WizardProvider => listingProvider([disk], { readPtuuid: async () => ptuuid });

describe('a disk identity', () => {
  it('holds everything the OS gives, and names the first thing that changed', () => {
    const usb = loopDisk({
      path: '/dev/sdb',
      name: 'Portable SSD',
      model: 'Portable SSD',
      wwn: '0x5002538e40a1b2c3',
      byId: ['usb-Samsung_PSSD-0:0', 'wwn-0x5002538e40a1b2c3'],
      usbSerial: '0123456789AB',
      bus: 'usb',
    });
    delete usb.backingFile;
    delete usb.backingInode;
    const id = identityOf(usb);
    expect(id).toEqual({
      path: '/dev/sdb',
      sizeBytes: 128 * MiB,
      model: 'Portable SSD',
      wwn: '0x5002538e40a1b2c3',
      byId: ['usb-Samsung_PSSD-0:0', 'wwn-0x5002538e40a1b2c3'],
      usbSerial: '0123456789AB',
    });
    expect(identityChange(id, identityOf(usb))).toBeUndefined();
    expect(identityChange(id, identityOf({ ...usb, wwn: '0x5002538e40ffffff' }))).toBe(
      'its WWN changed from "0x5002538e40a1b2c3" to "0x5002538e40ffffff"',
    );
    expect(identityChange(id, identityOf({ ...usb, usbSerial: 'FFFF' }))).toBe(
      'its USB bridge serial number changed from "0123456789AB" to "FFFF"',
    );
    expect(identityChange(id, identityOf({ ...usb, byId: ['usb-Other-0:0'] }))).toBe(
      'it is no longer /dev/disk/by-id/usb-Samsung_PSSD-0:0',
    );
    // A loop device: the same path to its image is not enough, the image must be the same file.
    const loop = identityOf(loopDisk());
    expect(identityChange(loop, identityOf(loopDisk({ backingInode: { ino: 99, dev: '254:0' } })))).toBe(
      'its disk image is another file (inode 1234 on 254:0 then, inode 99 on 254:0 now)',
    );
    expect(identityChange(loop, identityOf(loopDisk({ backingFile: '/tmp/other.img' })))).toBe(
      'its disk image changed from "/home/me/disk.img" to "/tmp/other.img"',
    );
  });

  it('is unique with a serial, a WWN or a partition table the plan wrote; weak otherwise, and says so', () => {
    const weak = planFor(loopDisk());
    expect(identityStrength(weak)).toBe('weak');
    expect(identityBasis(weak)).toMatch(
      /^It has no serial number, no WWN and no partition table DiskDial wrote: only its path, size and disk image say it is the same disk/,
    );
    expect(identityStrength(planFor(loopDisk({ serial: 'S5SX' })))).toBe('unique');
    expect(identityStrength(planFor(loopDisk({ wwn: '0x50' })))).toBe('unique');
    const written = planFor(loopDisk(), { ptuuid: { value: '0b6a3f0e-0000-4000-8000-000000000001', written: true } });
    expect(identityStrength(written)).toBe('unique');
    expect(identityBasis(written)).toBe(
      'Identified by the id of the partition table DiskDial wrote (0b6a3f0e-0000-4000-8000-000000000001). Before each erase the disk must still carry that partition table.',
    );
    expect(identityStrength(planFor(loopDisk(), { ptuuid: { value: 'x', written: false } }))).toBe('weak');
  });

  it("writes the plan's partition-table id with every new table", () => {
    const cmds = partitionCommands(loopDisk(), 'ext4', '0b6a3f0e-0000-4000-8000-000000000001');
    expect(cmds.find((c) => c.argv[0] === 'sfdisk')!.stdin).toBe('label: gpt\nlabel-id: 0b6a3f0e-0000-4000-8000-000000000001\n,,L\n');
  });

  it('refuses, before erasing, a disk whose partition table is not the one the plan wrote', async () => {
    const disk = loopDisk();
    const value = '0b6a3f0e-0000-4000-8000-000000000001';
    const state = planFor(disk, { ptuuid: { value, written: true } });
    await expect(checkDisk(fakeProvider(disk, value), state, () => false)).resolves.toMatchObject({ path: disk.path });
    await expect(checkDisk(fakeProvider(disk, 'a2b4c6d8-1111-4222-8333-444455556666'), state, () => false)).rejects.toMatchObject({
      code: 'ERR_DISK_CHANGED',
      message: `Stopped before erasing /dev/loop7: its partition table is not the one DiskDial wrote (it has id a2b4c6d8-1111-4222-8333-444455556666; DiskDial wrote ${value}) — is it the same disk?`,
    });
    await expect(checkDisk(fakeProvider(disk, undefined), state, () => false)).rejects.toMatchObject({
      message: expect.stringContaining('(it has none;'),
    });
    // A crash between the wipe and the new table leaves no table: that one is let through (the
    // rest of the identity still has to match, and the resume asked for the name again).
    await expect(
      checkDisk(fakeProvider(disk, undefined), { ...state, ptuuid: { value, written: true, erasing: true } }, () => false),
    ).resolves.toBeDefined();
    // Another image at the same path, same size: refused on its inode.
    await expect(
      checkDisk(fakeProvider(loopDisk({ backingInode: { ino: 5678, dev: '254:0' } }), value), state, () => false),
    ).rejects.toMatchObject({ code: 'ERR_DISK_CHANGED', message: expect.stringContaining('its disk image is another file') });
  });
});

describe.runIf(rootOnly())('resume after the disk was swapped (root: loop devices)', () => {
  let dir: string;
  let loop = '';
  const { provider, run } = realLinux();

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-wizard-id-'));
  });
  afterAll(async () => {
    if (loop) {
      try {
        execFileSync('losetup', ['-d', loop]);
      } catch {
        /* not attached */
      }
    }
    await fsp.rm(dir, { recursive: true, force: true });
  });

  const sha = async (file: string): Promise<string> =>
    createHash('sha256')
      .update(await fsp.readFile(file))
      .digest('hex');

  it('refuses to resume on another image of the same size at the same loop device (and the same file path); the other image is untouched', async () => {
    const first = path.join(dir, 'disk.img');
    execFileSync('truncate', ['-s', '128M', first]);
    // A free device, found and taken in one step (other test files take loop devices meanwhile),
    // used for both images in turn.
    loop = execFileSync('losetup', ['-f', '--show', '--partscan', first], { encoding: 'utf8' }).trim();
    const history = new HistoryStore(path.join(dir, 'results'));
    const plans = new PlanStore(path.join(dir, 'plans'));
    let jobId = '';
    const make = (afterFormat?: (f: string) => void): WizardService => realWizard(dir, { provider, run, history, plans, afterFormat });
    const svc: WizardService = make((f) => {
      if (f === 'ext4') svc.stop(jobId);
    });
    const disk = (await svc.listDisks()).find((d) => d.path === loop)!;
    expect(disk).toMatchObject({ backingFile: first, backingInode: { ino: (await fsp.stat(first)).ino } });
    const state = await svc.begin(
      wizardSettings({
        device: loop,
        identity: { path: loop, sizeBytes: disk.sizeBytes },
        confirmName: disk.name,
        formats: ['ext4', 'exfat'],
      }),
    );
    // The plan holds the full identity the OS gave, not just what the page sent.
    expect(state.settings.identity).toMatchObject({ backingFile: first, backingInode: disk.backingInode });
    const s = wizardSink();
    jobId = svc.start(state, s).jobId;
    expect((await s.done).outcome).toBe('stopped');
    const saved = (await plans.get(state.id))!;
    expect(saved.ptuuid).toMatchObject({ written: true });
    expect(execFileSync('blkid', ['-p', '-s', 'PTUUID', '-o', 'value', loop], { encoding: 'utf8' }).trim()).toBe(saved.ptuuid!.value);

    // Another image, same size, at the same device and even the same file path: made while the
    // first is still attached (a loop device holds its file, not its name), then swapped in one
    // shell step. The device is free only between the two losetup calls, a few ms in which
    // another test file's `losetup -f` could take it: the CI run that freed it for the whole
    // preparation lost it once.
    await fsp.rename(first, path.join(dir, 'first.img'));
    const other = first;
    execFileSync('truncate', ['-s', '128M', other]);
    const fh = await fsp.open(other, 'r+');
    for (const at of [0, 17 * MiB, 64 * MiB, 128 * MiB - 4096])
      await fh.write(Buffer.from(`someone else's data at ${at}\n`.repeat(100)), 0, undefined, at);
    await fh.close();
    const before = await sha(other);
    execFileSync('sh', ['-c', 'losetup -d "$0" && losetup --partscan "$0" "$1"', loop, other]);

    // The resume (the same name typed: loopN) is refused…
    await expect(make().resume(state.id, disk.name)).rejects.toMatchObject({
      code: 'ERR_DISK_CHANGED',
      message: expect.stringMatching(
        /^Stopped before erasing \/dev\/loop\d+: its disk image is another file \(inode \d+ on .* then, inode \d+ on .* now\) — is it the same disk\?$/,
      ),
    });
    // …and so is the plan run straight (the runner's own check before the erase).
    const r = wizardSink();
    make().start((await plans.get(state.id))!, r);
    const done = await r.done;
    expect(done).toMatchObject({ outcome: 'failed', error: { code: 'ERR_DISK_CHANGED' } });
    execFileSync('losetup', ['-d', loop]);
    loop = '';
    expect(await sha(other)).toBe(before);
  }, 120_000);
});
