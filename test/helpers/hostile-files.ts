// Files planted where DiskDial reads on a user's behalf, for the CLI's and browser mode's hostile
// file tests: a FIFO nobody writes to (a blocking open waits for ever), a link to /dev/zero (a
// read to the end never ends) and a sparse file past a cap.
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** A saved job's id, and two more made from it: what the planted files are named. */
export const HOSTILE_ID = '0123456789abcdef0123456789abcdef';

export function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

/** In `dir` (made if need be): <id>.json a FIFO, 1<id…>.json a link to /dev/zero, 2<id…>.json a
 *  sparse file of `bigBytes`. */
export async function plantHostileFiles(dir: string, bigBytes: number): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  mkfifo(path.join(dir, `${HOSTILE_ID}.json`));
  await fsp.symlink('/dev/zero', path.join(dir, `1${HOSTILE_ID.slice(1)}.json`));
  const big = path.join(dir, `2${HOSTILE_ID.slice(1)}.json`);
  await fsp.writeFile(big, '');
  await fsp.truncate(big, bigBytes);
}
