// Which drives a path lives on (drive-keys.ts), where the locks live, and the lock's one law:
// never two holders of a drive at once, however many take it together.
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { driveKeysOf } from '../../../app/src/core/drive-keys.js';
import { lockDir, lockVolume } from '../../../app/src/core/drive-lock.js';
import { processStartTime } from '../../../app/src/core/owner-marker.js';
import { cleanupAllLoopFs, mountFsIn, mountFsInRam, mountPartitioned, rootOnly } from '../../helpers/loopfs.js';

let scratch: string;
beforeAll(async () => {
  scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-keys-'));
});
afterEach(async () => {
  await cleanupAllLoopFs();
});
afterAll(async () => {
  await fsp.rm(scratch, { recursive: true, force: true });
});

describe('lockDir', () => {
  it('is one folder for every user: /run/lock when it is shared (1777), else /tmp; ProgramData on Windows', async () => {
    const shared = path.join(scratch, 'run-lock');
    await fsp.mkdir(shared);
    await fsp.chmod(shared, 0o1777);
    const priv = path.join(scratch, 'run-lock-root-only');
    await fsp.mkdir(priv);
    await fsp.chmod(priv, 0o755);
    expect(lockDir({}, 'linux', shared)).toBe(path.join(shared, 'diskdial'));
    // Root could write there, users could not: both take /tmp instead of splitting.
    expect(lockDir({}, 'linux', priv)).toBe('/tmp/diskdial-locks');
    expect(lockDir({}, 'linux', path.join(scratch, 'none'))).toBe('/tmp/diskdial-locks');
    // macOS's os.tmpdir() is per user; /tmp is not.
    expect(lockDir({ TMPDIR: '/var/folders/xy/T' }, 'darwin')).toBe('/tmp/diskdial-locks');
    expect(lockDir({ ProgramData: 'D:\\ProgramData' }, 'win32')).toBe('D:\\ProgramData\\DiskDial\\locks');
    expect(lockDir({}, 'win32')).toBe('C:\\ProgramData\\DiskDial\\locks');
    // A data folder is not where the locks live; only an explicit lock folder moves them.
    expect(lockDir({ DISKDIAL_HOME: '/x' }, 'linux', shared)).toBe(path.join(shared, 'diskdial'));
    expect(lockDir({ DISKDIAL_LOCK_DIR: '/y/locks' }, 'linux', shared)).toBe('/y/locks');
  });
});

describe('one holder at a time', () => {
  it('eight takers racing for one drive with --wait hold it one after another, never two at once', async () => {
    const target = await fsp.mkdtemp(path.join(scratch, 'race-'));
    let holding = 0;
    let most = 0;
    let turns = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const lock = await lockVolume(target, { wait: true });
        holding++;
        most = Math.max(most, holding);
        // Other takers' file-system calls run meanwhile.
        for (let i = 0; i < 20; i++) await tick();
        holding--;
        turns++;
        lock.release();
      }),
    );
    expect(turns).toBe(8);
    expect(most).toBe(1);
    expect(await fsp.readdir(lockDir())).toEqual([]);
  });
});

describe('the shared lock folder holds what anyone put there', () => {
  it('a FIFO, a link and junk are not locks; a hostile user name reaches the message as plain text', async () => {
    const target = await fsp.mkdtemp(path.join(scratch, 'hostile-'));
    const [key] = await driveKeysOf(target);
    (await lockVolume(target)).release(); // makes the folder
    const planted = ['fifo', 'link', 'junk', 'evil'].map((n) => path.join(lockDir(), `${key}.${n}.lock`));
    const [fifo, link, junk, evil] = planted as [string, string, string, string];
    execFileSync('mkfifo', [fifo]);
    await fsp.symlink(path.join(scratch, 'elsewhere.lock'), link);
    await fsp.writeFile(junk, '{"app":"diskdial","pid":');
    try {
      // A FIFO read without O_NONBLOCK would never return.
      (await lockVolume(target)).release();
      const live = {
        app: 'diskdial',
        pid: process.pid,
        procStart: processStartTime(process.pid),
        hostname: os.hostname(),
        startedAt: new Date().toISOString(),
      };
      await fsp.writeFile(evil, JSON.stringify({ ...live, user: '\u001b[31mmallory\u001b]0;title\u0007 \u202e' }));
      await expect(lockVolume(target)).rejects.toMatchObject({
        message: expect.stringMatching(/^A test by mallory \(pid \d+\) is running on this drive since \d\d:\d\d$/),
      });
    } finally {
      for (const f of planted) await fsp.rm(f, { force: true });
    }
  });
});

describe.runIf(rootOnly())('driveKeysOf on real disks (root)', () => {
  it('partitions and Btrfs subvolumes are their disk; a loop device is the drive of its image', async () => {
    const root = await driveKeysOf(scratch);
    const ram = await driveKeysOf('/dev/shm');
    expect(root).not.toEqual(ram);
    const disk = await mountPartitioned('ext4', 2, 32);
    expect(await driveKeysOf(disk.dirs[0]!)).toEqual(root);
    expect(await driveKeysOf(disk.dirs[1]!)).toEqual(root);
    const btrfs = await mountFsInRam('btrfs');
    const sv = path.join(btrfs.dir, 'sv');
    execFileSync('btrfs', ['subvolume', 'create', sv], { stdio: 'ignore' });
    expect(await driveKeysOf(sv)).toEqual(ram);
    // Two loop devices deep: an image on a file system whose image is in memory.
    const inner = await mountFsIn(btrfs.dir, 'ext4', { sizeMiB: 32 });
    expect(await driveKeysOf(inner.dir)).toEqual(ram);
    await inner.cleanup();
  });

  it('a Btrfs over two devices is both of their drives', async () => {
    const btrfs = await mountFsInRam('btrfs'); // its first device's image is in memory
    const image = path.join(scratch, 'second.img');
    await (await fsp.open(image, 'w')).close();
    await fsp.truncate(image, 160 << 20);
    const second = execFileSync('losetup', ['--find', '--show', image], { encoding: 'utf8' }).trim();
    try {
      execFileSync('btrfs', ['device', 'add', '-f', second, btrfs.dir], { stdio: 'ignore' });
      expect(await driveKeysOf(btrfs.dir)).toEqual([...(await driveKeysOf(scratch)), ...(await driveKeysOf('/dev/shm'))].sort());
      // Either drive busy makes it busy.
      const onDisk = await lockVolume(scratch);
      await expect(lockVolume(btrfs.dir)).rejects.toMatchObject({ code: 'ERR_VOLUME_BUSY' });
      onDisk.release();
    } finally {
      await btrfs.cleanup();
      execFileSync('losetup', ['-d', second]);
    }
  });
});
