// `diskdial` as a user runs it in tests: the compiled bin/diskdial.js in a child process, with a
// data folder of its own ($DISKDIAL_HOME).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
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
