// The target picker's facts on this machine's real mounts, and on a real read-only ext4 (root).
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMountinfo } from '../../../app/src/core/volume.js';
import { TARGET_REASONS, TargetsService, testableMounts } from '../../../app/src/services/targets.js';
import { mountFs, rootOnly, type MountedFs } from '../../helpers/loopfs.js';

const targets = new TargetsService();
let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-targets-'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('why a target cannot be tested', () => {
  it.each(Object.entries(TARGET_REASONS))('%s: says what is wrong and what to do, with no errno code in the sentence', (_, reason) => {
    const [what, next] = reason.split(/(?<=\.) /);
    expect(what).toMatch(/\.$/);
    expect(next).toMatch(/^(Choose|Free|Check) /);
    expect(reason).not.toMatch(/\bE[A-Z]{2,}\b/);
  });
});

describe('TargetsService.list', () => {
  it('lists / as a startable ext4 volume with its disk', async () => {
    const list = await targets.list();
    const root = list.find((t) => t.mountPoint === '/');
    expect(root).toMatchObject({ path: '/', name: '/', fs: 'ext4', readOnly: false, startable: true });
    expect(root!.totalBytes).toBeGreaterThan(0);
    expect(root!.device.bus).not.toBe('unknown');
    expect(list.some((t) => /^\/(proc|sys|dev)(\/|$)/.test(t.mountPoint))).toBe(false);
  });

  it('keeps disk and network file systems, drops pseudo ones, /run (but not /run/media), snaps and duplicates', () => {
    const line = (id: number, dev: string, root: string, mp: string, fs: string, src: string) =>
      `${id} 1 ${dev} ${root} ${mp} rw,relatime - ${fs} ${src} rw`;
    const entries = parseMountinfo(
      [
        line(1, '8:1', '/', '/', 'ext4', '/dev/sda1'),
        line(2, '0:5', '/', '/proc', 'proc', 'proc'),
        line(3, '0:6', '/', '/tmp', 'tmpfs', 'tmpfs'),
        line(4, '7:0', '/', '/snap/core/1', 'squashfs', '/dev/loop0'),
        line(5, '8:17', '/', '/run/media/me/USB', 'exfat', '/dev/sdb1'),
        line(6, '8:33', '/', '/run/user/1000/x', 'ext4', '/dev/sdc1'),
        line(7, '8:1', '/', '/mnt/again', 'ext4', '/dev/sda1'),
        line(8, '8:1', '/home', '/home', 'ext4', '/dev/sda1'),
        line(9, '0:50', '/', '/mnt/nas', 'nfs4', 'nas:/share'),
        line(10, '8:49', '/', '/boot/efi', 'vfat', '/dev/sdd1'),
        line(11, '8:65', '/', '/media/me/Win', 'fuseblk', '/dev/sde1'),
        line(12, '0:51', '/', '/mnt/sftp', 'fuse.sshfs', 'me@nas:/srv'),
        line(13, '0:52', '/', '/mnt/smb', 'fuse.smbnetfs', 'smbnetfs'),
      ].join('\n'),
    );
    expect(testableMounts(entries).map((e) => e.mountPoint)).toEqual([
      '/',
      '/run/media/me/USB',
      '/home',
      '/mnt/nas',
      '/media/me/Win',
      '/mnt/sftp',
      '/mnt/smb',
    ]);
  });
});

describe('TargetsService.describe', () => {
  it('describes a folder by its own name, on its volume', async () => {
    const t = await targets.describe(dir);
    expect(t).toMatchObject({ path: dir, name: path.basename(dir), mountPoint: '/', fs: 'ext4', readOnly: false, startable: true });
    expect(t.reason).toBeUndefined();
  });
  it('a missing path is ENOENT, a file is ENOTDIR, in plain words', async () => {
    const missing = path.join(dir, 'missing');
    await expect(targets.describe(missing)).rejects.toMatchObject({
      code: 'ENOENT',
      message: `No such folder: ${missing}. Check the path, or choose another folder.`,
    });
    const file = path.join(dir, 'file');
    await fsp.writeFile(file, 'x');
    await expect(targets.describe(file)).rejects.toMatchObject({
      code: 'ENOTDIR',
      message: `${file} is a file, not a folder. Choose the folder that holds it, or another folder.`,
    });
  });
});

describe.runIf(rootOnly())('read-only volumes (root)', () => {
  let ro: MountedFs;
  beforeAll(async () => {
    ro = await mountFs('ext4', { readOnly: true });
  });
  afterAll(async () => {
    await ro?.cleanup();
  });
  it('are listed, not startable, with the reason', async () => {
    const t = (await targets.list()).find((x) => x.mountPoint === ro.dir);
    expect(t).toMatchObject({
      path: ro.dir,
      fs: 'ext4',
      readOnly: true,
      startable: false,
      reason: 'This volume is mounted read-only, and a test needs to write. Choose another volume, or remount this one read-write.',
    });
    expect(t!.device).toMatchObject({ bus: 'loop', node: ro.device });
    await expect(targets.describe(ro.dir)).resolves.toMatchObject({ readOnly: true, startable: false, reason: TARGET_REASONS.readOnly });
  });
  it('a too-small volume is shown but not startable', async () => {
    const tiny = await mountFs('tmpfs', { sizeMiB: 8 });
    try {
      await expect(targets.describe(tiny.dir)).resolves.toMatchObject({
        startable: false,
        reason: 'Not enough free space: a test needs at least 33.6 MB free here. Free some space on this volume, or choose another.',
      });
    } finally {
      await tiny.cleanup();
    }
  });
});
