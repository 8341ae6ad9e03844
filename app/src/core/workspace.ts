// Test-file hygiene and one test per drive. Every test file lives in ONE uniquely named hidden
// folder on the target (`.diskdial-<id>`), with a marker naming the process that made it. The
// folder is removed on close, on process exit and on SIGINT/SIGTERM; folders left by a killed
// process are removed by the next open. Nothing outside our own folders is ever touched: stale
// cleanup removes only real folders (not symlinks) owned by us, whose name matches our pattern
// AND that hold a valid marker of a process that is gone, and it removes them only after moving
// them into a private folder (no swap of a path for a symlink can redirect it). A workspace
// holds its drives' lock (drive-lock.ts) while open.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DiskDialError, plainMessage, toPlainError } from '../model/errors.js';
import { lockVolume, releaseAllLocksSync, type LockVolumeOptions } from './drive-lock.js';
import { FREE_SPACE_RESERVE, fitTest } from '../model/fit.js';
import { isMarkerStale, MARKER_NAME, ownMarker, readMarker } from './owner-marker.js';
import { inodesAfter } from './volume.js';

export const WORKSPACE_PREFIX = '.diskdial-';
export const WORKSPACE_NAME_RE = /^\.diskdial-[A-Za-z0-9_-]+$/;
// The head-room kept beyond the test file is the fit rule's (fit.ts), shared with the screens.
export { FREE_SPACE_RESERVE } from '../model/fit.js';
export { isMarkerStale, isPidAlive, MARKER_NAME, processStartTime, readMarker, type WorkspaceMarker } from './owner-marker.js';
// The drive lock has its own file; its callers keep importing it from here.
export { lockDir, lockVolume, type LockVolumeOptions, type VolumeLock } from './drive-lock.js';

export interface Workspace {
  /** Absolute path of our folder. */
  readonly dir: string;
  readonly id: string;
  /** A path for a file inside the workspace; names with a folder part are refused. */
  filePath(name: string): string;
  /** Removes the folder and everything in it, then releases the drive's lock. Safe to call more
   *  than once. With `waitMs`, returns after that long even if the removal has not finished (a
   *  stalled disk): it goes on in a background process (never this one, whose exit it would
   *  hold), and the lock is held until it ends. */
  close(opts?: { waitMs?: number }): Promise<void>;
}

export interface OpenWorkspaceOptions extends LockVolumeOptions {
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

/**
 * Whether `dir` is, as far as its path shows right now, a leftover of a dead DiskDial process:
 * a real folder (not a symlink) owned by the user running us, holding a valid marker of a
 * process that is gone. Nothing else is ever removed — an unmarked folder with our name is a
 * user's own, however old or empty.
 */
async function isProvenLeftover(dir: string): Promise<boolean> {
  try {
    const st = await fsp.lstat(dir);
    if (!st.isDirectory() || !ownedByUs(st)) return false;
  } catch {
    return false;
  }
  const marker = await readMarker(dir);
  return marker !== undefined && isMarkerStale(marker);
}

/** Ownership is part of the proof: as root in a shared folder such as /tmp, anyone can forge a
 *  marker, but only we can own a folder. (No uids on Windows: the marker alone.) */
function ownedByUs(st: { uid: number }): boolean {
  const euid = process.geteuid?.();
  return euid === undefined || st.uid === euid;
}

/** Test seam: runs between the check of a leftover and its move (to stage a swap). */
export interface StaleCleanupHooks {
  beforeMove?: (dir: string) => Promise<void>;
}

/**
 * Removes leftovers of dead DiskDial processes directly inside targetDir. Returns the folders
 * removed. Failures to remove (read-only volume, permissions) are ignored: leftovers are
 * retried next time, and the caller's own mkdir reports the real problem.
 *
 * Removal never goes through a path someone else can change: each leftover is first renamed
 * into a private folder of ours (rename moves the entry itself, never what a symlink points
 * to), checked again there, where no one else can swap it, and only then removed.
 */
export async function removeStaleWorkspaces(targetDir: string, hooks: StaleCleanupHooks = {}): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(targetDir);
  } catch {
    return [];
  }
  const candidates: string[] = [];
  for (const name of names) {
    if (!WORKSPACE_NAME_RE.test(name)) continue;
    const dir = path.join(targetDir, name);
    if (openWorkspaces.has(dir)) continue;
    if (await isProvenLeftover(dir)) candidates.push(dir);
  }
  if (candidates.length === 0) return [];

  // The private folder is itself a marked workspace of ours, so a kill mid-clean-up leaves only
  // something the next clean-up removes.
  let trash: string;
  try {
    trash = (await makeMarkedFolder(targetDir)).dir;
  } catch {
    return [];
  }
  const release = track(trash, false);
  const removed: string[] = [];
  let keepTrash = false;
  try {
    for (const [i, dir] of candidates.entries()) {
      await hooks.beforeMove?.(dir);
      const moved = path.join(trash, `${i}`);
      try {
        await fsp.rename(dir, moved);
      } catch {
        continue;
      }
      if (await isProvenLeftover(moved)) {
        removed.push(dir);
        continue;
      }
      // Something else took the leftover's place between the check and the move: not ours, so
      // it goes back where it was (or beside it, if that name was taken meanwhile).
      const back = await fsp.lstat(dir).then(
        () => `${dir}.restored-${randomBytes(4).toString('hex')}`,
        () => dir,
      );
      await fsp.rename(moved, back).catch(() => {
        keepTrash = true;
      });
    }
  } finally {
    // A foreign entry that could not be moved back keeps the folder, unmarked so that no later
    // clean-up takes it for ours: it is never deleted.
    if (keepTrash) await fsp.rm(path.join(trash, MARKER_NAME), { force: true }).catch(() => undefined);
    else await fsp.rm(trash, { recursive: true, force: true }).catch(() => undefined);
    release();
  }
  return removed;
}

/** mkdir of a new `.diskdial-<id>` folder (exclusive, private) with our marker in it. */
async function makeMarkedFolder(target: string): Promise<{ dir: string; id: string }> {
  // mkdir is exclusive (EEXIST on a clash), and doubles as the writability probe: it is where a
  // read-only volume (EROFS) or a folder we may not write (EACCES) first says so.
  let id: string;
  let dir: string;
  for (let attempt = 0; ; attempt++) {
    id = randomBytes(6).toString('base64url');
    dir = path.join(target, `${WORKSPACE_PREFIX}${id}`);
    try {
      await fsp.mkdir(dir, { mode: 0o700 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 5) continue;
      throw toPlainError(err, { path: target, ...(await inodesAfter(err, target)) });
    }
  }
  try {
    await fsp.writeFile(path.join(dir, MARKER_NAME), `${JSON.stringify(ownMarker())}\n`, { flag: 'wx' });
  } catch (err) {
    // Killed right here, the folder stays unmarked and so is never removed by anyone: the
    // price of never deleting a folder we cannot prove is ours.
    await fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw toPlainError(err, { path: target, doing: 'creating the test folder', ...(await inodesAfter(err, target)) });
  }
  return { dir, id };
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
  releaseAllLocksSync();
}

/** Removes folders in a detached process of their own, so that a drive holding the removal in
 *  the kernel (a stalled disk: unlink waits for the write in flight) holds that process, never
 *  this one nor its exit. Resolves when the remover has ended. */
function removeInBackground(dirs: readonly string[]): Promise<void> {
  // Tries again for up to a minute: an engine given up on may still hold a file open in the
  // folder (a FUSE share keeps it as .fuse_hidden* until closed), so the first pass can leave it.
  const script = [
    "const fs = require('fs'), wait = new Int32Array(new SharedArrayBuffer(4)), end = Date.now() + 60000;",
    'for (const d of process.argv.slice(1))',
    '  for (;;) { try { fs.rmSync(d, { recursive: true, force: true }) } catch {}',
    '    if (!fs.existsSync(d) || Date.now() > end) break; Atomics.wait(wait, 0, 0, 250) }',
  ].join('\n');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script, ...dirs], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
    child.unref();
  });
}

/**
 * Lets go of every open workspace without waiting on its drive (a stop that cannot wait for a
 * drive that is not answering): the exit hook no longer removes them; a detached process does, in
 * the background, and what it cannot remove the next start on that drive removes as a leftover
 * (its marker names this process, which will be gone). Returns the folders let go of.
 */
export function abandonOpenWorkspaces(): string[] {
  const dirs = [...openWorkspaces];
  openWorkspaces.clear();
  if (dirs.length > 0) void removeInBackground(dirs);
  return dirs;
}

function installExitHook(): void {
  if (!exitHookInstalled) {
    process.on('exit', removeAllSync);
    exitHookInstalled = true;
  }
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
  installExitHook();
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
    throw new DiskDialError(plainMessage('ENOTDIR', targetDir)!, {
      code: 'ENOTDIR',
      syscall: 'stat',
      path: targetDir,
      category: 'input',
    });
  }
}

/** Creates a workspace on targetDir, holding the volume's lock (lockVolume) until close; see the
 *  file header for the rules it keeps. */
export async function openWorkspace(targetDir: string, opts: OpenWorkspaceOptions = {}): Promise<Workspace> {
  const target = path.resolve(targetDir);
  await checkTarget(target);
  // Before the lock's own exit hook, so that at exit the folder goes before the lock does.
  installExitHook();
  const lock = await lockVolume(target, opts);
  let dir: string;
  let id: string;
  try {
    await removeStaleWorkspaces(target);
    if (opts.needBytes !== undefined) {
      const st = await fsp.statfs(target);
      const freeBytes = st.bavail * st.bsize;
      const reserveBytes = opts.reserveBytes ?? FREE_SPACE_RESERVE;
      const needBytes = opts.needBytes + reserveBytes;
      if (!fitTest({ needBytes: opts.needBytes, freeBytes, totalBytes: st.blocks * st.bsize, sizing: 'fixed', reserveBytes }).fits) {
        throw new DiskDialError(plainMessage('ENOSPC', target, { needBytes, freeBytes })!, {
          code: 'ENOSPC',
          syscall: 'statfs',
          path: target,
        });
      }
    }
    ({ dir, id } = await makeMarkedFolder(target));
  } catch (err) {
    lock.release();
    throw err;
  }
  const release = track(dir, opts.handleSignals ?? true);

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
    close(closeOpts: { waitMs?: number } = {}): Promise<void> {
      if (closeOpts.waitMs === undefined) {
        closing ??= fsp.rm(dir, { recursive: true, force: true }).finally(() => {
          release();
          lock.release();
        });
        return closing;
      }
      // The engine was given up on (a stalled disk): the removal waits for the disk in a process
      // of its own, the drive's lock held until it is done; the next run removes what it could not.
      if (!closing) {
        release();
        lock.windDown();
        closing = removeInBackground([dir]).finally(() => lock.release());
      }
      return Promise.race([closing, sleep(closeOpts.waitMs)]);
    },
  };
}

/** A whole device's stand-in for a workspace: every step's path is the device itself, nothing is
 *  created or removed, and the drive's lock (one test per disk, machine-wide) is held until close. */
export async function openDeviceTarget(device: string, opts: LockVolumeOptions = {}): Promise<Workspace> {
  const lock = await lockVolume(device, opts);
  return {
    dir: device,
    id: 'device',
    filePath: () => device,
    close: () => {
      lock.release();
      return Promise.resolve();
    },
  };
}
