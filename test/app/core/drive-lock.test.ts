// One test per physical drive, on real file systems: partitions of one disk, a loop device whose
// image lives on another loop file system, two drives side by side, and the shared lock folder.
// Only the workspace's lock API is used here, so these run unchanged against any lock behind it.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lockDir, lockVolume, openWorkspace, type VolumeLock } from '../../../app/src/core/workspace.js';
import { cleanupAllLoopFs, mountFsIn, mountFsInRam, mountPartitioned, rootOnly } from '../../helpers/loopfs.js';

const BUSY = /^A test by \S+ \(pid \d+\) is running on this drive since \d\d:\d\d$/;
const held: VolumeLock[] = [];
let onDisk: string;

beforeAll(async () => {
  onDisk = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-drive-'));
});
afterEach(async () => {
  for (const l of held.splice(0)) l.release();
  await cleanupAllLoopFs();
});
afterAll(async () => {
  await fsp.rm(onDisk, { recursive: true, force: true });
});

async function take(target: string): Promise<VolumeLock> {
  const lock = await lockVolume(target);
  held.push(lock);
  return lock;
}

async function devOf(p: string): Promise<number> {
  return (await fsp.stat(p)).dev;
}

describe.runIf(rootOnly())('the drive lock on real disks (root)', () => {
  it('two partitions of one disk are one drive: the second test is refused', async () => {
    const disk = await mountPartitioned('ext4', 2, 32);
    const [p1, p2] = disk.dirs as [string, string];
    // Two file systems (the old per-volume key told them apart) …
    expect(await devOf(p1)).not.toBe(await devOf(p2));
    const first = await take(p1);
    // … on one disk.
    await expect(openWorkspace(p2, { handleSignals: false })).rejects.toMatchObject({
      code: 'ERR_VOLUME_BUSY',
      message: expect.stringMatching(BUSY),
    });
    expect(await fsp.readdir(p2)).toEqual(['lost+found']);
    first.release();
    const ws = await openWorkspace(p2, { handleSignals: false });
    await ws.close();
  });

  it('a loop device whose image lives on a loop file system is the outer disk', async () => {
    const outer = await mountFsInRam('ext4', { sizeMiB: 160 });
    const inner = await mountFsIn(outer.dir, 'ext4', { sizeMiB: 64 });
    expect(path.dirname(path.dirname(inner.image!))).toBe(outer.dir);
    // The image's own disk: /dev/shm's memory, under both loop devices.
    const lock = await take(inner.dir);
    await expect(lockVolume(outer.dir)).rejects.toMatchObject({ code: 'ERR_VOLUME_BUSY' });
    await expect(lockVolume('/dev/shm')).rejects.toMatchObject({ code: 'ERR_VOLUME_BUSY' });
    lock.release();
    await take(outer.dir);
    await expect(lockVolume(inner.dir)).rejects.toMatchObject({ code: 'ERR_VOLUME_BUSY' });
    await inner.cleanup();
  });

  it('two drives run side by side; a file system on the same disk as one of them is refused', async () => {
    const ram = await mountFsInRam('ext4', { sizeMiB: 32 }); // image in /dev/shm: memory
    const disk = await mountFsIn(onDisk, 'ext4', { sizeMiB: 32 }); // image on the machine's disk
    await take(ram.dir);
    await take(disk.dir);
    // The disk's own root file system, where the second image lives: the same drive.
    await expect(lockVolume(onDisk)).rejects.toMatchObject({ code: 'ERR_VOLUME_BUSY', message: expect.stringMatching(BUSY) });
  });

  it('makes the lock folder mode 1777 (sticky, like /tmp) whatever the umask, with a lock that names its owner', async () => {
    const saved = process.env.DISKDIAL_LOCK_DIR;
    const base = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-lockdir-'));
    process.env.DISKDIAL_LOCK_DIR = path.join(base, 'locks');
    const umask = process.umask(0o077);
    try {
      expect(lockDir()).toBe(path.join(base, 'locks'));
      const lock = await take(onDisk);
      const st = await fsp.lstat(lockDir());
      expect(st.isDirectory()).toBe(true);
      expect((st.mode & 0o7777).toString(8)).toBe('1777');
      const names = (await fsp.readdir(lockDir())).filter((n) => n.endsWith('.lock'));
      expect(names).toHaveLength(1);
      const file = path.join(lockDir(), names[0]!);
      // Readable by every user, so that anyone can tell who holds the drive.
      expect(((await fsp.stat(file)).mode & 0o777).toString(8)).toBe('644');
      expect(JSON.parse(await fsp.readFile(file, 'utf8'))).toMatchObject({
        app: 'diskdial',
        pid: process.pid,
        user: os.userInfo().username,
        target: onDisk,
        hostname: os.hostname(),
      });
      lock.release();
      expect(await fsp.readdir(lockDir())).toEqual([]);
      // A folder of the wrong mode that is not ours is refused, not used.
      await fsp.rmdir(lockDir());
      await fsp.mkdir(lockDir());
      await fsp.chmod(lockDir(), 0o755);
      await fsp.chown(lockDir(), 65534, 65534);
      await expect(lockVolume(onDisk)).rejects.toMatchObject({
        code: 'ERR_LOCK_DIR',
        message: `The drive lock folder ${lockDir()} is mode 755, owned by user id 65534: it must be a folder of mode 1777, like /tmp. Remove it (or ask its owner or root to).`,
      });
    } finally {
      process.umask(umask);
      process.env.DISKDIAL_LOCK_DIR = saved;
      await fsp.rm(base, { recursive: true, force: true });
    }
  });
});
