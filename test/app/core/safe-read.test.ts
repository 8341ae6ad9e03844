// The one reader for files DiskDial opens on a user's behalf: a FIFO, a device, a folder, a link
// where none is allowed, or a file past its cap is refused at once in plain words, never waited on.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUserText, type ReadLimits } from '../../../app/src/core/safe-read.js';

const limits = (over: Partial<ReadLimits> = {}): ReadLimits => ({ what: 'a checksum manifest', maxBytes: 1024, follow: true, ...over });

describe.runIf(process.platform !== 'win32')('readUserText', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'diskdial-safe-read-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reads a regular file up to its cap, and refuses one byte more before reading it', async () => {
    const f = path.join(dir, 'ok.txt');
    await fs.writeFile(f, 'a'.repeat(1024));
    expect(await readUserText(f, limits())).toHaveLength(1024);
    await fs.writeFile(f, 'a'.repeat(1025));
    await expect(readUserText(f, limits())).rejects.toMatchObject({
      code: 'EFBIG',
      message: `${f} is larger than a checksum manifest can be (at most 1 KB).`,
    });
  });

  // Each refusal must come back at once: a blocking open of a FIFO with no writer never returns,
  // so the test's own 5 s limit is what fails when the reader waits.
  it('refuses a FIFO at once, with nobody writing to it', { timeout: 5000 }, async () => {
    const fifo = path.join(dir, 'SHA256SUMS');
    execFileSync('mkfifo', [fifo]);
    await expect(readUserText(fifo, limits())).rejects.toMatchObject({
      code: 'ERR_NOT_A_FILE',
      message: expect.stringContaining('is not a regular file (a pipe, a device or a socket), so it cannot be a checksum manifest'),
    });
  });

  it('refuses /dev/zero without reading a byte of it', { timeout: 5000 }, async () => {
    await expect(readUserText('/dev/zero', limits({ maxBytes: 64 * 1024 ** 2 }))).rejects.toMatchObject({ code: 'ERR_NOT_A_FILE' });
  });

  it('refuses a folder, and passes ENOENT through for the caller to word', async () => {
    await expect(readUserText(dir, limits())).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(readUserText(path.join(dir, 'none'), limits())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('follows a link the user typed, and refuses one inside DiskDial’s own folders', async () => {
    const f = path.join(dir, 'real.json');
    const l = path.join(dir, 'link.json');
    await fs.writeFile(f, '{}');
    await fs.symlink(f, l);
    expect(await readUserText(l, limits())).toBe('{}');
    await expect(readUserText(l, limits({ follow: false }))).rejects.toMatchObject({ code: 'ELOOP' });
  });
});
