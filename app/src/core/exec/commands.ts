// The one way core runs a program: argv only (no shell ever parses it), stdin written from
// memory, elevation added for privileged commands when this process is not root (pkexec: polkit's
// own prompt, for those commands only). A failure becomes one plain sentence: what the step was
// for, and the tool's own last words. Link lookups and the wizard's listings use the read-only
// form (`ReadCommand`); everything that writes goes through a `CommandRunner`.
import { spawn } from 'node:child_process';
import { DiskDialError } from '../../model/errors.js';

export interface Command {
  argv: string[];
  /** Needs administrator rights (root, an admin prompt, UAC). */
  privileged: boolean;
  /** Text for the command's standard input (a partition table for sfdisk, a passphrase). */
  stdin?: string;
  /** Extra environment variables (FSCRYPT_CONF: fscrypt's settings for this plan only). */
  env?: Record<string, string>;
  /** What it does, for the progress line and errors: "Writing a new GPT partition table". */
  why: string;
}

/** Runs a command; resolves with its output, rejects with an Error whose message is plain words
 *  and includes the command's own error text. */
export type CommandRunner = (cmd: Command) => Promise<{ stdout: string; stderr: string }>;

/** A read-only query (a listing): argv in, standard output out. Injected so tests answer with
 *  recorded output instead of the OS. */
export type ReadCommand = (argv: string[]) => Promise<string>;

export interface RunnerOptions {
  /** How privileged commands get their rights: 'direct' (already root/admin) or 'pkexec'. */
  elevate: 'direct' | 'pkexec';
  /** Longest a single command may take (default 30 minutes: mkfs on a large, slow disk). */
  timeoutMs?: number;
  /** Every command run, for logs and tests. */
  onCommand?: (cmd: Command) => void;
}

/** 'direct' when this process already has the rights (root), else 'pkexec'. */
export function defaultElevation(): RunnerOptions['elevate'] {
  return typeof process.getuid === 'function' && process.getuid() !== 0 ? 'pkexec' : 'direct';
}

export function createCommandRunner(opts: RunnerOptions): CommandRunner {
  return (cmd) =>
    new Promise((resolve, reject) => {
      opts.onCommand?.(cmd);
      const argv =
        cmd.privileged && opts.elevate === 'pkexec'
          ? ['pkexec', ...(cmd.env ? ['env', ...Object.entries(cmd.env).map(([k, v]) => `${k}=${v}`)] : []), ...cmd.argv]
          : cmd.argv;
      const child = spawn(argv[0]!, argv.slice(1), {
        env: { ...process.env, ...cmd.env, LC_ALL: 'C' },
        stdio: ['pipe', 'pipe', 'pipe'],
        timeout: opts.timeoutMs ?? 30 * 60_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.stdin.on('error', () => undefined); // a tool that exits without reading its stdin
      child.stdin.end(cmd.stdin ?? '');
      child.on('error', (err: NodeJS.ErrnoException) => {
        const missing = err.code === 'ENOENT';
        reject(
          new DiskDialError(
            missing
              ? `${cmd.why} failed: ${argv[0]} is not installed${argv[0] === 'pkexec' ? ' (it asks for administrator rights: install pkexec, or run DiskDial as root)' : ''}.`
              : `${cmd.why} failed: ${err.message}`,
            { code: missing ? 'ERR_TOOL_MISSING' : 'ERR_COMMAND', cause: err },
          ),
        );
      });
      child.on('close', (code, signal) => {
        if (code === 0) return resolve({ stdout, stderr });
        if (argv[0] === 'pkexec' && (code === 126 || code === 127)) {
          return reject(
            new DiskDialError(
              `${cmd.why} needs administrator rights, and they were not given (the password prompt was cancelled or refused).`,
              { code: 'EACCES' },
            ),
          );
        }
        const said = lastWords(stderr) || lastWords(stdout);
        reject(
          new DiskDialError(
            `${cmd.why} failed${said ? `: ${said}` : ''} (${cmd.argv[0]} ${signal ? `was killed by ${signal}` : `exited with ${code}`}).`,
            {
              code: 'ERR_COMMAND',
            },
          ),
        );
      });
    });
}

/** The last few meaningful lines a tool printed, as one line. */
function lastWords(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const joined = lines.slice(-2).join(' ');
  return joined.length > 300 ? `${joined.slice(0, 300)}…` : joined;
}

/** A read-only query through `run`, unprivileged. */
export function readWith(run: CommandRunner): ReadCommand {
  return async (argv) => (await run({ argv, privileged: false, why: `Reading ${argv[0]}` })).stdout;
}

/** The real read-only query: a minute at most (a slow system_profiler or PowerShell start). */
export const readCommand: ReadCommand = readWith(createCommandRunner({ elevate: 'direct', timeoutMs: 60_000 }));
