// What the kernel says about an engine child process (Linux /proc): whether a killed one is stuck
// in an I/O its drive never answers (D state), and whether it is moving data to or from storage.
// Elsewhere the cautious answers: stuck (so Stop never waits), and "cannot tell".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { majorMinor } from '../core/volume.js';

/** How often a killed child that has not exited is looked at again. One blocked in an I/O the
 *  disk never answers cannot die until it does (Linux waits out a FUSE request already sent; a
 *  hung USB disk holds it in D state): it is given up on, its files close whenever it finally
 *  exits, and the next job gets a new child. One that is merely slow to be scheduled (a loaded
 *  machine) is waited for, so its test files are removed before Stop returns. */
export const KILLED_EXIT_WAIT_MS = 100;
/** Looks in a row that must find the killed child in D state before it is given up on. */
export const STUCK_LOOKS = 2;
/** The longest wait for a killed child that is not provably stuck. */
export const KILLED_EXIT_MAX_MS = 10_000;

/** True when a thread of `pid` sleeps uninterruptibly in the kernel (state D), i.e. in an I/O that
 *  a kill cannot end; also when this cannot be told (no pid, not Linux), as the cautious answer. */
export function stuckInKernel(pid: number | undefined): boolean {
  if (pid === undefined || process.platform !== 'linux') return true;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      // "pid (comm) S …": the state follows the last ')' (comm may hold spaces and parentheses).
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'D') return true;
    }
  } catch {
    // Gone between the listing and the read: it is exiting, not stuck.
  }
  return false;
}

/** Waits for a killed child to exit, or to be found in D state at STUCK_LOOKS looks in a row
 *  (a healthy direct I/O sleeps in D for a moment too), or for KILLED_EXIT_MAX_MS. */
export function exitedOrStuck(child: { channel: { pid?: number | undefined }; exited: Promise<void> }): Promise<'exited' | 'stuck'> {
  const killedAt = Date.now();
  return new Promise((resolve) => {
    let inD = 0;
    let timer: NodeJS.Timeout | undefined;
    void child.exited.then(() => {
      clearTimeout(timer);
      resolve('exited');
    });
    const look = (): void => {
      inD = stuckInKernel(child.channel.pid) ? inD + 1 : 0;
      if (inD >= STUCK_LOOKS || Date.now() - killedAt >= KILLED_EXIT_MAX_MS) resolve('stuck');
      else timer = setTimeout(look, KILLED_EXIT_WAIT_MS).unref();
    };
    // Unref'd: looking at a child nobody waits for any more never keeps the process alive.
    timer = setTimeout(look, KILLED_EXIT_WAIT_MS).unref();
  });
}

/** Bytes `pid` has had read from and written to storage (Linux /proc/PID/io: read_bytes +
 *  write_bytes), or undefined where this cannot be read. Not rchar/wchar: those count the child's
 *  progress messages too, which go on while its drive is stuck. */
export function storageBytes(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? 0);
    return field('read_bytes') + field('write_bytes');
  } catch {
    return undefined;
  }
}

/** The stat file (/sys/dev/block/MAJ:MIN/stat) of the block device holding `file`'s folder, or
 *  undefined (a share, FUSE, not Linux). Asked asynchronously: a stalled share never blocks the caller. */
export async function deviceStatFile(file: string): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    const f = `/sys/dev/block/${majorMinor((await stat(path.dirname(file), { bigint: true })).dev)}/stat`;
    return existsSync(f) ? f : undefined;
  } catch {
    return undefined;
  }
}

/** Requests and sectors the device has completed, reads and writes (fields 1, 3, 5 and 7 of its
 *  stat): they grow only as the drive answers, even inside one long I/O (it is split into many
 *  requests). Not its busy time, which grows while a request hangs. */
export function deviceDone(statFile: string): number | undefined {
  try {
    const f = readFileSync(statFile, 'utf8').trim().split(/\s+/).map(Number);
    return f[0]! + f[2]! + f[4]! + f[6]!;
  } catch {
    return undefined;
  }
}
