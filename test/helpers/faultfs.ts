// A disk that fails on command, for tests: test/helpers/faultfs.py (FUSE, Debian's python3-fusepy)
// mounted over a private backing folder. Commands go through a control file the daemon re-reads
// before each read and write; "pulled" kills the daemon and unmounts lazily, so open files fail
// with ENOTCONN as they do when a USB disk is yanked. Needs root (or /dev/fuse access).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);
const DAEMON = path.join(path.dirname(fileURLToPath(import.meta.url)), 'faultfs.py');

export interface FaultFs {
  /** Where tests point DiskDial. */
  readonly mountpoint: string;
  /** The folder behind it (what is really on the "disk"). */
  readonly backing: string;
  /** Reads and writes succeed for `bytes` more bytes, then fail with EIO. */
  eioAfter(bytes: number): Promise<void>;
  /** Writes succeed for `bytes` more bytes, then fail with ENOSPC (the disk is full); reads go on. */
  enospcAfter(bytes: number): Promise<void>;
  /** Every fault raised so far, in order: which, on what, after how many bytes since its command. */
  faults(): Promise<Fault[]>;
  /** Reads and writes pass `afterBytes` more bytes, then block for `seconds` (metadata still
   *  answers). */
  stall(seconds: number, afterBytes?: number): Promise<void>;
  /** Resolves once a stall has begun (its fault-log line), with the I/O it holds. */
  stalled(): Promise<Fault>;
  /** Healthy again. */
  heal(): Promise<void>;
  /** The disk disappears: the daemon is killed and the mount detached. */
  pull(): Promise<void>;
  /** Unmounts (if still mounted), stops the daemon and removes every folder it made. */
  cleanup(): Promise<void>;
}

export interface Fault {
  /** EIO, ENOSPC…, or STALL when a stall began (the I/O is held from then on). */
  errno: string;
  op: 'read' | 'write';
  /** Inside the mount, from its root: "/.diskdial-…/testfile.dat". */
  path: string;
  /** Bytes read or written since the command that armed the fault. */
  passed: number;
}

function isMounted(mountpoint: string): boolean {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[1] === mountpoint);
}

async function unmount(mountpoint: string): Promise<void> {
  if (isMounted(mountpoint)) await execFileP('fusermount', ['-u', '-z', mountpoint]).catch(() => undefined);
}

export async function mountFaultFs(): Promise<FaultFs> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'dd-faultfs-'));
  const backing = path.join(base, 'backing');
  const mountpoint = path.join(base, 'mnt');
  const control = path.join(base, 'control.json');
  await fs.mkdir(backing);
  await fs.mkdir(mountpoint);
  // /usr/bin/python3: Debian's, where python3-fusepy lives (a pyenv python3 on PATH has no fusepy).
  const daemon: ChildProcess = spawn('/usr/bin/python3', [DAEMON, backing, mountpoint, control], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  daemon.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  const end = Date.now() + 15_000;
  while (!isMounted(mountpoint)) {
    if (daemon.exitCode !== null || Date.now() > end) {
      daemon.kill('SIGKILL');
      await fs.rm(base, { recursive: true, force: true });
      throw new Error(`faultfs did not mount: ${stderr.trim() || 'timed out'}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }

  const command = async (cmd: object): Promise<void> => {
    const tmp = `${control}.${randomBytes(4).toString('hex')}`;
    await fs.writeFile(tmp, JSON.stringify(cmd));
    await fs.rename(tmp, control);
  };
  const stop = async (): Promise<void> => {
    if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
    await exited;
  };
  return {
    mountpoint,
    backing,
    eioAfter: (bytes) => command({ eio_after: bytes }),
    enospcAfter: (bytes) => command({ enospc_after: bytes }),
    async faults() {
      const text = await fs.readFile(`${control}.faults`, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Fault);
    },
    stall: (seconds, afterBytes = 0) => command({ stall: seconds, after: afterBytes }),
    async stalled() {
      // The daemon appends the line as the stall begins: the log is the signal, looked at often.
      for (;;) {
        const text = await fs.readFile(`${control}.faults`, 'utf8').catch(() => '');
        const line = text.split('\n').find((l) => l.includes('"STALL"'));
        if (line) return JSON.parse(line) as Fault;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    heal: () => command({}),
    async pull() {
      await stop();
      await unmount(mountpoint);
    },
    async cleanup() {
      await unmount(mountpoint);
      await stop();
      await unmount(mountpoint);
      await fs.rm(base, { recursive: true, force: true });
    },
  };
}
