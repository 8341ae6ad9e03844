// Who made a workspace folder or holds a volume lock: a marker naming the process (pid, its start
// time, the host), and whether that process is gone, so what it left can be taken over.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readUserText } from './safe-read.js';

export const MARKER_NAME = 'owner.json';

export interface WorkspaceMarker {
  pid: number;
  /** Start time of `pid` (Linux: /proc/PID/stat field 22, clock ticks since boot); tells a
   *  live owner from an unrelated process that got the same pid later. */
  procStart?: string;
  startedAt: string;
  app: 'diskdial';
  hostname: string;
}

/** Start time of a process as the kernel records it; undefined off Linux or when it is gone. */
export function processStartTime(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) is parenthesised and may contain spaces or ')'; count from the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[22 - 3];
  } catch {
    return undefined;
  }
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads and validates a workspace marker; undefined for anything that is not ours. */
export async function readMarker(dir: string, isFile = false): Promise<WorkspaceMarker | undefined> {
  let text: string;
  try {
    // On the user's drive, so anyone's: no link followed, no FIFO waited on, a few KB at most.
    const file = isFile ? dir : path.join(dir, MARKER_NAME);
    text = await readUserText(file, { what: 'a workspace marker', maxBytes: 64 * 1024, follow: false });
  } catch {
    return undefined;
  }
  return parseMarker(text);
}

/** A marker's text, validated; undefined for anything that is not ours. */
export function parseMarker(text: string): WorkspaceMarker | undefined {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof m !== 'object' || m === null) return undefined;
  const r = m as Record<string, unknown>;
  if (r.app !== 'diskdial' || !Number.isSafeInteger(r.pid) || (r.pid as number) <= 0) return undefined;
  if (typeof r.hostname !== 'string' || typeof r.startedAt !== 'string') return undefined;
  if (r.procStart !== undefined && typeof r.procStart !== 'string') return undefined;
  return r as unknown as WorkspaceMarker;
}

/** Whether the process named by a marker is gone (so its folder is a leftover). */
export function isMarkerStale(marker: WorkspaceMarker): boolean {
  // A marker from another machine (a shared network volume) names a pid we cannot check.
  if (marker.hostname !== os.hostname()) return false;
  if (!isPidAlive(marker.pid)) return true;
  // Alive: the same process only if it started when the marker says (pids get reused).
  if (marker.procStart === undefined) return false;
  const now = processStartTime(marker.pid);
  return now !== undefined && now !== marker.procStart;
}

/** The marker for this process. */
export function ownMarker(): WorkspaceMarker {
  const marker: WorkspaceMarker = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    app: 'diskdial',
    hostname: os.hostname(),
  };
  const procStart = processStartTime(process.pid);
  if (procStart !== undefined) marker.procStart = procStart;
  return marker;
}
