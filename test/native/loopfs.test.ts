// Self-test of test/helpers/loopfs.ts: every kind mounts for real, is writable by root and by an
// unprivileged user, shows up in /proc/self/mounts with the right type, turns read-only on
// remount, can be filled to a given free space, and leaves nothing behind.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { startNetLab } from '../helpers/netns.js';
import { cleanupAllLoopFs, DEFAULT_SIZE_MIB, fillFs, findMount, type FsKind, MOUNT_TYPE, mountFs, rootOnly } from '../helpers/loopfs.js';

const execFileP = promisify(execFile);
const KINDS: FsKind[] = ['ext4', 'xfs', 'btrfs', 'exfat', 'ntfs', 'tmpfs'];

/** Whether any loop device is still bound to `image` (other processes may reuse the device). */
function imageBound(image: string): boolean {
  return readdirSync('/sys/block')
    .filter((n) => n.startsWith('loop'))
    .some((n) => {
      try {
        return readFileSync(`/sys/block/${n}/loop/backing_file`, 'utf8').trim().startsWith(image);
      } catch {
        return false;
      }
    });
}

async function expectErrno(p: Promise<unknown>, code: string): Promise<void> {
  await expect(p).rejects.toMatchObject({ code });
}

describe.runIf(rootOnly())('loopfs', () => {
  afterAll(async () => {
    await cleanupAllLoopFs();
  });

  describe.each(KINDS)('%s', (kind) => {
    it('mounts, is writable, reports its type, goes read-only and cleans up', async () => {
      const m = await mountFs(kind);
      const { dir, device, image } = m;
      try {
        const entry = findMount(dir);
        expect(entry?.type).toBe(MOUNT_TYPE[kind]);
        if (kind === 'tmpfs') {
          expect(device).toBeUndefined();
        } else {
          expect(device).toMatch(/^\/dev\/loop\d+$/);
          expect(entry?.source).toBe(device);
          expect((await fs.stat(image!)).size).toBe(DEFAULT_SIZE_MIB[kind] * 1024 * 1024);
        }
        expect(m.readOnly).toBe(false);

        const file = path.join(dir, 'hello.txt');
        await fs.writeFile(file, 'hello');
        expect(await fs.readFile(file, 'utf8')).toBe('hello');

        // The root is open to everyone, so code under test need not run as root.
        const nobody = path.join(dir, 'nobody.txt');
        await execFileP('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'touch', nobody]);
        expect(existsSync(nobody)).toBe(true);

        await m.remount({ readOnly: true });
        expect(m.readOnly).toBe(true);
        expect(findMount(dir)?.options).toContain('ro');
        await expectErrno(fs.writeFile(path.join(dir, 'ro.txt'), 'x'), 'EROFS');
        expect(await fs.readFile(file, 'utf8')).toBe('hello'); // data survives the remount

        await m.remount({ readOnly: false });
        expect(m.readOnly).toBe(false);
        await fs.writeFile(path.join(dir, 'rw-again.txt'), 'x');
      } finally {
        await m.cleanup();
      }
      expect(findMount(dir)).toBeUndefined();
      expect(existsSync(path.dirname(dir))).toBe(false);
      if (image) expect(imageBound(image)).toBe(false);
      await m.cleanup(); // idempotent
    });

    it('fills down to about leaveBytes free', async () => {
      const m = await mountFs(kind);
      try {
        const leave = 8 * 1024 * 1024;
        const filler = await fillFs(m.dir, leave);
        expect(path.dirname(filler)).toBe(m.dir);
        const s = await fs.statfs(m.dir);
        const free = s.bavail * s.bsize;
        expect(free).toBeGreaterThan(leave - 1024 * 1024);
        expect(free).toBeLessThan(leave + 1024 * 1024);
      } finally {
        await m.cleanup();
      }
    });
  });

  it('mounts read-only from the start and passes mount options through', async () => {
    const ro = await mountFs('ext4', { readOnly: true, mountOptions: ['noatime'] });
    const ntfs = await mountFs('ntfs', { readOnly: true });
    try {
      expect(ro.readOnly).toBe(true);
      expect(findMount(ro.dir)?.options).toEqual(expect.arrayContaining(['ro', 'noatime']));
      await expectErrno(fs.writeFile(path.join(ro.dir, 'x'), 'x'), 'EROFS');
      await ro.remount({ readOnly: false });
      expect(findMount(ro.dir)?.options).toEqual(expect.arrayContaining(['rw', 'noatime']));
      await fs.writeFile(path.join(ro.dir, 'x'), 'x');

      // A FUSE file system mounted read-only must really become writable again.
      await expectErrno(fs.writeFile(path.join(ntfs.dir, 'x'), 'x'), 'EROFS');
      await ntfs.remount({ readOnly: false });
      await fs.writeFile(path.join(ntfs.dir, 'x'), 'x');
    } finally {
      await ro.cleanup();
      await ntfs.cleanup();
    }
  });

  it('honours sizeMiB and directIo', async () => {
    const m = await mountFs('ext4', { sizeMiB: 96, directIo: true });
    try {
      expect((await fs.stat(m.image!)).size).toBe(96 * 1024 * 1024);
      const dio = readFileSync(`/sys/block/${path.basename(m.device!)}/loop/dio`, 'utf8').trim();
      expect(dio).toBe('1');
    } finally {
      await m.cleanup();
    }
  });

  it('a teardown pinned by another mount namespace names the process that pins it', async () => {
    const m = await mountFs('ext4');
    // A process in a copy of this namespace, as `ip netns exec` makes: it holds the mount after ours is gone.
    const pin = spawn('unshare', ['--mount', '--propagation', 'private', 'sleep', '60'], { stdio: 'ignore' });
    try {
      await expect.poll(() => readFileSync(`/proc/${pin.pid}/comm`, 'utf8').trim(), { timeout: 5000 }).toBe('sleep');
      await expect(m.cleanup()).rejects.toThrow(new RegExp(`could not detach ${m.device}: sleep \\(pid ${pin.pid}\\) has it mounted at ${m.dir}`));
    } finally {
      pin.kill('SIGKILL');
      await new Promise((r) => pin.once('exit', r));
    }
    await m.cleanup();
    expect(imageBound(m.image!)).toBe(false);
  });

  it("a test server's namespace holds none of the host's loop mounts, so it pins none", async () => {
    const m = await mountFs('ext4');
    const lab = await startNetLab({ smb: false });
    try {
      const sshd = (await fs.readFile(path.join(path.dirname(lab.sshfsMount!), 'ssh/sshd.pid'), 'utf8')).trim();
      const mounts = await fs.readFile(`/proc/${sshd}/mountinfo`, 'utf8');
      expect(mounts).not.toContain(` ${m.dir} `);
      expect(mounts).not.toMatch(/ - fuse/);
      await m.cleanup(); // while the server lives
      expect(imageBound(m.image!)).toBe(false);
      // It still serves: the share answers through sshfs.
      await fs.writeFile(path.join(lab.sshfsMount!, 'data/probe'), 'x');
      expect(await fs.readFile(path.join(lab.shareDir, 'data/probe'), 'utf8')).toBe('x');
    } finally {
      await lab.cleanup();
    }
  });

  it('cleanupAllLoopFs removes every mount and loop device it made', async () => {
    const a = await mountFs('ext4');
    const b = await mountFs('exfat');
    const c = await mountFs('tmpfs');
    await cleanupAllLoopFs();
    for (const m of [a, b, c]) {
      expect(findMount(m.dir)).toBeUndefined();
      expect(existsSync(path.dirname(m.dir))).toBe(false);
      if (m.image) expect(imageBound(m.image)).toBe(false);
    }
  });
});
