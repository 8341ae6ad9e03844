// A file swapped for a FIFO (or a symbolic link) between the folder check's listing and its hash:
// the swap is made from the check's own progress callback, which runs just before each file is
// hashed (one stream, so the order is fixed): no race. Before the fix the engine's open(2) of the
// FIFO waited for a writer forever, and Stop could not reach it.
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFolderCheck } from '../../../app/src/core/check-run.js';

let tmp: string;
let folder: string;

beforeEach(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-swap-'));
  folder = path.join(tmp, 'photos');
  await fsp.mkdir(folder);
  await fsp.writeFile(path.join(folder, 'a.jpg'), 'first file\n');
  await fsp.writeFile(path.join(folder, 'b.jpg'), 'second file\n');
  process.env.DISKDIAL_HOME = path.join(tmp, 'home');
});
afterEach(async () => {
  delete process.env.DISKDIAL_HOME;
  await fsp.rm(tmp, { recursive: true, force: true });
});

/** Runs the check; when the first file is about to be hashed, `swap` replaces the other one. */
async function checkWithSwap(algo: 'sha256' | 'md5', swap: (file: string) => void) {
  let swapped = '';
  const doc = await runFolderCheck({
    folder,
    algo,
    streams: 1,
    ceilingSeconds: 0,
    onProgress: (p) => {
      if (swapped || !p.current) return;
      swapped = p.current === 'a.jpg' ? 'b.jpg' : 'a.jpg';
      swap(path.join(folder, swapped));
    },
  });
  return { check: doc.check!, swapped };
}

const toFifo = (file: string): void => {
  spawnSync('rm', [file]);
  expect(spawnSync('mkfifo', [file]).status).toBe(0);
};

describe('a file swapped after the listing', () => {
  // 10 s: a check of two tiny files takes well under a second; the old engine never returned.
  it.each(['sha256', 'md5'] as const)(
    'for a FIFO: %s reports it unreadable, "not a regular file", and does not hang',
    async (algo) => {
      const { check, swapped } = await checkWithSwap(algo, toFifo);
      expect(check.unreadable).toEqual([{ name: swapped, why: expect.stringMatching(/not a regular file/) }]);
      expect(check.files).toBe(2);
    },
    10_000,
  );

  it.each(['sha256', 'md5'] as const)(
    'for a symbolic link: %s does not read through it',
    async (algo) => {
      const secret = path.join(tmp, 'outside.txt');
      await fsp.writeFile(secret, 'not in the folder\n');
      const { check, swapped } = await checkWithSwap(algo, (file) => {
        spawnSync('rm', [file]);
        spawnSync('ln', ['-s', secret, file]);
      });
      expect(check.unreadable).toEqual([{ name: swapped, why: expect.stringMatching(/symbolic link, not a file/) }]);
    },
    10_000,
  );
});
