import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskDialError, toPlainError } from '../../app/src/core/errors.js';

function errno(code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(`open(2) failed, ${code}`), { code, errno: -1, syscall: 'open', ...extra });
}

describe('toPlainError', () => {
  it('says how much space is needed and free for ENOSPC', () => {
    const e = toPlainError(errno('ENOSPC'), { path: '/mnt/x', needBytes: 2 ** 30, freeBytes: 0.52e9 });
    expect(e).toBeInstanceOf(DiskDialError);
    expect(e.message).toBe('Not enough free space on /mnt/x: the test needs 1.07 GB, 0.52 GB is free. (ENOSPC)');
    expect(e.code).toBe('ENOSPC');
    expect(e.syscall).toBe('open');
    expect(e.errno).toBe(-1);
  });

  it.each([
    ['EROFS', 'The volume at /mnt/x is read-only (EROFS)'],
    ['ENOENT', 'No such folder: /mnt/x (ENOENT)'],
    ['ENOTDIR', '/mnt/x is a file, not a folder (ENOTDIR)'],
    ['EACCES', 'Permission denied writing to /mnt/x (EACCES)'],
  ])('%s → %s', (code, message) => {
    expect(toPlainError(errno(code), { path: '/mnt/x' }).message).toBe(message);
  });

  it('names EIO as a disk error and keeps the native message as the cause', () => {
    const native = errno('EIO', { path: '/mnt/x/.diskdial-a/testfile.dat' });
    const e = toPlainError(native, { path: '/mnt/x', doing: 'reading' });
    expect(e.message).toMatch(/^The disk reported an I\/O error while reading at \/mnt\/x.*\(EIO\)$/);
    expect(e.path).toBe('/mnt/x/.diskdial-a/testfile.dat');
    expect(e.cause).toBe(native);
  });

  it('turns a real fs error into plain words', async () => {
    const missing = path.join(os.tmpdir(), `dd-missing-${process.pid}-${Date.now()}`);
    const err = await fsp.stat(missing).catch((e: unknown) => e);
    const e = toPlainError(err);
    expect(e.message).toBe(`No such folder: ${missing} (ENOENT)`);
    expect(e.syscall).toBe('stat');
  });

  it('keeps unknown errors readable', () => {
    expect(toPlainError(errno('EWEIRD')).message).toBe('open(2) failed, EWEIRD');
    expect(toPlainError('boom').message).toBe('boom');
  });
});
