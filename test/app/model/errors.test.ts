import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskDialError, plainMessage, toPlainError } from '../../../app/src/model/errors.js';

function errno(code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`open(2) failed, ${code}`), { code, errno: -1, syscall: 'open', ...extra });
}

describe('toPlainError', () => {
  it.each([
    'ENOSPC',
    'EROFS',
    'ENOENT',
    'ENOTDIR',
    'EACCES',
    'EPERM',
    'EIO',
    'EDQUOT',
    'EFBIG',
    'ENODEV',
    'ENXIO',
    'ENOTCONN',
    'ECONNABORTED',
  ])('%s: a sentence with a next step; the code only in the details', (code) => {
    const e = toPlainError(errno(code), { path: '/mnt/x' });
    expect(e.message).not.toContain(code);
    expect(e.message).not.toMatch(/\bE[A-Z]{2,}\b/);
    // What happened, then what to do: a second sentence that starts with a verb.
    expect(e.message).toMatch(/[.;] (Free|Choose|Check|Give|Back up|Delete|Reconnect)\b[^.]*\.$/);
    expect(e.code).toBe(code);
    expect(plainMessage(code, '/mnt/x')).toBe(e.message);
  });

  it('says how much space is needed and free for ENOSPC', () => {
    const e = toPlainError(errno('ENOSPC'), { path: '/mnt/x', needBytes: 2 ** 30, freeBytes: 0.52e9 });
    expect(e).toBeInstanceOf(DiskDialError);
    expect(e.message).toBe(
      'Not enough free space on /mnt/x: the test needs 1.07 GB, 0.52 GB is free. Free some space there or choose a smaller test size.',
    );
    expect(e.code).toBe('ENOSPC');
    expect(e.syscall).toBe('open');
    expect(e.errno).toBe(-1);
  });

  it.each([
    [
      'EROFS',
      'The volume at /mnt/x is read-only, and a test needs to write. Choose a volume you can write to, or remount this one read-write.',
    ],
    ['ENOENT', 'No such folder: /mnt/x. Check the path, or choose another folder.'],
    ['ENOTDIR', '/mnt/x is a file, not a folder. Choose the folder that holds it, or another folder.'],
    ['EACCES', 'Permission denied writing to /mnt/x. Choose a folder you can write to, or give your user write access to this one.'],
  ])('%s → %s', (code, message) => {
    expect(toPlainError(errno(code), { path: '/mnt/x' }).message).toBe(message);
  });

  it('names EIO as a disk error and keeps the native message as the cause', () => {
    const native = errno('EIO', { path: '/mnt/x/.diskdial-a/testfile.dat' });
    const e = toPlainError(native, { path: '/mnt/x', doing: 'reading' });
    expect(e.message).toBe(
      'The disk reported an I/O error while reading at /mnt/x; the disk, cable or port may be failing. Back up what is on it, then try another cable or port.',
    );
    expect(e.path).toBe('/mnt/x/.diskdial-a/testfile.dat');
    expect(e.cause).toBe(native);
  });

  it('turns a real fs error into plain words', async () => {
    const missing = path.join(os.tmpdir(), `dd-missing-${process.pid}-${Date.now()}`);
    const err = await fsp.stat(missing).catch((e: unknown) => e);
    const e = toPlainError(err);
    expect(e.message).toBe(`No such folder: ${missing}. Check the path, or choose another folder.`);
    expect(e.syscall).toBe('stat');
  });

  it('keeps unknown errors readable', () => {
    expect(toPlainError(errno('EWEIRD')).message).toBe('open(2) failed, EWEIRD');
    expect(toPlainError('boom').message).toBe('boom');
  });
});
