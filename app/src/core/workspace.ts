// Test-file hygiene. Every test file lives in ONE uniquely named hidden folder on the target
// (`.diskdial-<id>`), with a marker naming the process that made it. The folder is removed on
// close, on process exit and on SIGINT/SIGTERM; folders left by a killed process are removed by
// the next open. Nothing outside our own folder is ever touched: stale cleanup removes only
// real folders (not symlinks) whose name matches our pattern AND that hold a valid marker of a
// process that is gone.
import { randomBytes } from 'node:crypto';
import { promises as fsp, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DiskDialError, toPlainError } from './errors.js';
import { FREE_SPACE_RESERVE, fitTest } from './fit.js';

export const WORKSPACE_PREFIX = '.diskdial-';
export const WORKSPACE_NAME_RE = /^\.diskdial-[A-Za-z0-9_-]+$/;
export const MARKER_NAME = 'owner.json';
// The head-room kept beyond the test file is the fit rule's (fit.ts), shared with the screens.
export { FREE_SPACE_RESERVE } from './fit.js';

export interface WorkspaceMarker {
  pid: number;
  /** Start time of `pid` (Linux: /proc/PID/stat field 22, clock ticks since boot); tells a
   *  live owner from an unrelated process that got the same pid later. */
  procStart?: string;
  startedAt: string;
  app: 'diskdial';
  hostname: string;
}

export interface Workspace {
  /** Absolute path of our folder. */
  readonly dir: string;
  readonly id: string;
  /** A path for a file inside the workspace; names with a folder part are refused. */
  filePath(name: string): string;
  /** Removes the folder and everything in it. Safe to call more than once. */
  close(): Promise<void>;
}

export interface OpenWorkspaceOptions {
  /** Bytes the test will write; checked against free space before anything is written. */
  needBytes?: number;
  /** Extra head-room to require (default FREE_SPACE_RESERVE). */
  reserveBytes?: number;
  /**
   * Install SIGINT/SIGTERM handlers that remove open workspaces and exit 130/143 (default true).
   * Callers that cancel gracefully on signals themselves (the CLI) pass false; the exit-time
   * cleanup stays in place either way.
   */
  handleSignals?: boolean;
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
export async function readMarker(dir: string): Promise<WorkspaceMarker | undefined> {
  let text: string;
  try {
    const file = path.join(dir, MARKER_NAME);
    const st = await fsp.lstat(file);
    if (!st.isFile() || st.size > 64 * 1024) return undefined;
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
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

/**
 * Removes leftovers of dead DiskDial processes directly inside targetDir. Returns the folders
 * removed. Failures to remove (read-only volume, permissions) are ignored: leftovers are
 * retried next time, and the caller's own mkdir reports the real problem.
 */
export async function removeStaleWorkspaces(targetDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(targetDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!WORKSPACE_NAME_RE.test(name)) continue;
    const dir = path.join(targetDir, name);
    if (openWorkspaces.has(dir)) continue;
    try {
      // lstat: a symlink with our name is never followed, let alone deleted through.
      if (!(await fsp.lstat(dir)).isDirectory()) continue;
    } catch {
      continue;
    }
    const marker = await readMarker(dir);
    if (!marker) {
      // A process killed between mkdir and writing its marker leaves an empty folder. rmdir only
      // removes empty folders, so nothing of anyone else's can go; the age check leaves a folder
      // another process is creating right now alone.
      if (await isOldEmptyFolder(dir)) {
        await fsp.rmdir(dir).then(() => removed.push(dir), () => undefined);
      }
      continue;
    }
    if (!isMarkerStale(marker)) continue;
    try {
      await fsp.rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      /* see above */
    }
  }
  return removed;
}

/** Empty folders older than this, with our name but no marker, are leftovers. */
export const UNMARKED_GRACE_MS = 60_000;

async function isOldEmptyFolder(dir: string): Promise<boolean> {
  try {
    const [st, entries] = await Promise.all([fsp.lstat(dir), fsp.readdir(dir)]);
    return entries.length === 0 && Date.now() - st.mtimeMs > UNMARKED_GRACE_MS;
  } catch {
    return false;
  }
}

// ---- process-lifetime cleanup --------------------------------------------------------------

const openWorkspaces = new Set<string>();
let exitHookInstalled = false;
let signalHooks = 0;

function removeAllSync(): void {
  for (const dir of openWorkspaces) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      /* exiting anyway; the next run removes it as stale */
    }
  }
  openWorkspaces.clear();
}

const onSigint = (): void => {
  removeAllSync();
  process.exit(130);
};
const onSigterm = (): void => {
  removeAllSync();
  process.exit(143);
};

function track(dir: string, handleSignals: boolean): () => void {
  openWorkspaces.add(dir);
  if (!exitHookInstalled) {
    process.on('exit', removeAllSync);
    exitHookInstalled = true;
  }
  if (handleSignals) {
    if (signalHooks++ === 0) {
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigterm);
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    openWorkspaces.delete(dir);
    // Give the process its default signal behaviour back once nothing needs cleaning.
    if (handleSignals && --signalHooks === 0) {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    }
  };
}

// ---- open ---------------------------------------------------------------------------------

async function checkTarget(targetDir: string): Promise<void> {
  let st;
  try {
    st = await fsp.stat(targetDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw toPlainError(err, { path: targetDir, category: code === 'ENOENT' || code === 'ENOTDIR' ? 'input' : 'runtime' });
  }
  if (!st.isDirectory()) {
    throw new DiskDialError(`${targetDir} is a file, not a folder (ENOTDIR)`, {
      code: 'ENOTDIR',
      syscall: 'stat',
      path: targetDir,
      category: 'input',
    });
  }
}

/** Creates a workspace on targetDir; see the file header for the rules it keeps. */
export async function openWorkspace(targetDir: string, opts: OpenWorkspaceOptions = {}): Promise<Workspace> {
  const target = path.resolve(targetDir);
  await checkTarget(target);
  await removeStaleWorkspaces(target);

  if (opts.needBytes !== undefined) {
    const st = await fsp.statfs(target);
    const freeBytes = st.bavail * st.bsize;
    const reserveBytes = opts.reserveBytes ?? FREE_SPACE_RESERVE;
    const needBytes = opts.needBytes + reserveBytes;
    if (!fitTest({ needBytes: opts.needBytes, freeBytes, totalBytes: st.blocks * st.bsize, sizing: 'fixed', reserveBytes }).fits) {
      throw new DiskDialError(
        `Not enough free space on ${target}: the test needs ${(needBytes / 1e9).toFixed(2)} GB, ${(freeBytes / 1e9).toFixed(2)} GB is free. (ENOSPC)`,
        { code: 'ENOSPC', syscall: 'statfs', path: target },
      );
    }
  }

  // mkdir is exclusive (EEXIST on a clash), and doubles as the writability probe: it is where a
  // read-only volume (EROFS) or a folder we may not write (EACCES) first says so.
  let id = '';
  let dir = '';
  for (let attempt = 0; ; attempt++) {
    id = randomBytes(6).toString('base64url');
    dir = path.join(target, `${WORKSPACE_PREFIX}${id}`);
    try {
      await fsp.mkdir(dir, { mode: 0o700 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw toPlainError(err, { path: target });
    }
  }
  const release = track(dir, opts.handleSignals ?? true);

  const marker: WorkspaceMarker = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    app: 'diskdial',
    hostname: os.hostname(),
  };
  const procStart = processStartTime(process.pid);
  if (procStart !== undefined) marker.procStart = procStart;
  try {
    await fsp.writeFile(path.join(dir, MARKER_NAME), `${JSON.stringify(marker)}\n`, { flag: 'wx' });
  } catch (err) {
    await fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    release();
    throw toPlainError(err, { path: target, doing: 'creating the test folder' });
  }

  let closing: Promise<void> | undefined;
  return {
    dir,
    id,
    filePath(name: string): string {
      if (!name || name !== path.basename(name) || name === '.' || name === '..' || name === MARKER_NAME) {
        throw new Error(`invalid workspace file name: ${JSON.stringify(name)}`);
      }
      return path.join(dir, name);
    },
    close(): Promise<void> {
      closing ??= fsp.rm(dir, { recursive: true, force: true }).finally(release);
      return closing;
    },
  };
}
