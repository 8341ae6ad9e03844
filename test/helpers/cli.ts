// `diskdial` as a user runs it in tests: the compiled bin/diskdial.js in a child process, with a
// data folder of its own ($DISKDIAL_HOME).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { ResultDocument } from '../../app/src/model/result.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = path.join(root, 'bin/diskdial.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `diskdial ...args` in `cwd` with $DISKDIAL_HOME set to `home`; the build must be current
 *  (buildCoreIfChanged). */
export function runCli(args: string[], opts: { cwd: string; home: string; timeout: number }): CliRun {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    timeout: opts.timeout,
    // A CLI stuck in the kernel or ignoring SIGTERM must fail its test, not hang the run.
    killSignal: 'SIGKILL',
    cwd: opts.cwd,
    env: { ...process.env, DISKDIAL_HOME: opts.home },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `diskdial run <dir> --test seq-write --size <size> --no-save --json` with `home` as its data
 *  folder: the result document, the run having succeeded (nothing on stderr, exit 0). */
export function seqWriteDoc(dir: string, size: string, home: string): ResultDocument {
  const r = runCli(['run', dir, '--test', 'seq-write', '--size', size, '--no-save', '--json'], { cwd: home, home, timeout: 120_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as ResultDocument;
}
