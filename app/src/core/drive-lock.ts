// One test per physical drive, machine-wide: two tests at once would each measure half a disk,
// whichever user, data folder (DISKDIAL_HOME) or door (CLI, app, `serve`) started them. A test
// holds the lock of every drive under its target (drive-keys.ts). The locks live in one folder
// every user sees, mode 1777 like /tmp, so anyone may add a lock and nobody may remove another
// user's.
//
// A lock is a file of its own per taker, `<drive>.<token>.lock`, holding an owner marker (user,
// pid, start time, target), made whole by rename. After placing it the taker looks for any other
// live lock of the drive and, if there is one, withdraws its own: of two takers, the later one
// always sees the earlier one, so two never both run (at worst both withdraw and try again). A
// lock whose owner is gone (pid and start time) is ignored and removed where the folder allows;
// that another user's dead lock cannot be removed under the sticky bit harms nothing, since every
// taking has a file name of its own. No flock: Node has none, and a marker names the holder.
import { randomBytes } from 'node:crypto';
import { promises as fsp, statSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortError } from './engine.js';
import { DiskDialError, toPlainError } from '../model/errors.js';
import { plainText } from '../model/text.js';
import { driveKeysOf } from './drive-keys.js';
import { isMarkerStale, ownMarker, parseMarker, type WorkspaceMarker } from './owner-marker.js';
import { readUserText } from './safe-read.js';

export interface LockVolumeOptions {
  /** Wait for the drive to be free instead of failing (the CLI's --wait). */
  wait?: boolean;
  /** Ends a wait with an AbortError. */
  signal?: AbortSignal;
  /** Called once when a wait begins, with the holder's pid and the sentence naming the holder. */
  onWait?: (holderPid: number, holder?: string) => void;
}

export interface VolumeLock {
  /** Removes this test's lock files. Safe to call more than once. */
  release(): void;
  /** The test has ended but its files are still being removed in the background (its engine was
   *  given up on): a next test of this process on the drive waits for that, not fails. */
  windDown(): void;
}

/** This process's locks held only for a background removal, by token. */
const windingDown = new Set<string>();
/** The longest a new test waits for this process's own previous test to finish removing its files. */
export const WIND_DOWN_WAIT_MS = 15_000;

export interface DriveLockMarker extends WorkspaceMarker {
  /** This taking's token, also in the file name. */
  lock: string;
  user: string;
  /** The folder or file the test runs on. */
  target: string;
}

/** How often a waiting process looks again (± a quarter, so two waiters that met do not meet
 *  again in step). */
const LOCK_POLL_MS = 200;
/** rwx for all, sticky: everyone adds locks, only a lock's owner (or root) removes it. */
const SHARED_MODE = 0o1777;

/** Lock files this process holds; removed on release and at exit. */
const held = new Set<string>();
let exitHookInstalled = false;

/**
 * The folder every DiskDial of the machine shares: $DISKDIAL_LOCK_DIR when set (a test run keeps
 * its own), else Linux's /run/lock (FHS's lock folder) when it is world-writable and sticky,
 * else /tmp; on Windows %ProgramData%, whose subfolders every user may add to. The choice looks
 * only at the folder's mode, never at the caller's rights, so root and users pick the same one.
 */
export function lockDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, runLock = '/run/lock'): string {
  if (env.DISKDIAL_LOCK_DIR) return path.resolve(env.DISKDIAL_LOCK_DIR);
  if (platform === 'win32') return path.win32.join(env.ProgramData || 'C:\\ProgramData', 'DiskDial', 'locks');
  // macOS's os.tmpdir() is per user ($TMPDIR under /var/folders): /tmp is the shared one.
  if (platform === 'linux' && isSharedFolder(runLock)) return path.join(runLock, 'diskdial');
  return '/tmp/diskdial-locks';
}

function isSharedFolder(dir: string): boolean {
  try {
    const st = statSync(dir);
    return st.isDirectory() && (st.mode & 0o7777) === SHARED_MODE;
  } catch {
    return false;
  }
}

/** Makes the lock folder mode 1777, or proves it is: made under a private name and renamed into
 *  place, so no one ever sees it half-made with the creator's umask. */
async function ensureLockDir(dir: string): Promise<void> {
  const fail = (err: unknown): never => {
    throw toPlainError(err, { path: dir, doing: "taking the drive's lock" });
  };
  const exists = await fsp.lstat(dir).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await fsp.mkdir(path.dirname(dir), { recursive: true }).catch(fail);
    const fresh = `${dir}.${randomBytes(6).toString('hex')}.new`;
    await fsp.mkdir(fresh, { mode: 0o700 }).catch(fail);
    await fsp.chmod(fresh, SHARED_MODE).catch(fail);
    // Another process made it meanwhile: one of the two stands, mode 1777 either way.
    await fsp.rename(fresh, dir).catch(() => fsp.rmdir(fresh).catch(() => undefined));
  }
  if (process.platform === 'win32') return; // ProgramData's inherited ACL does what the mode does
  const st = await fsp.lstat(dir).catch(fail);
  if (st.isDirectory() && (st.mode & 0o7777) === SHARED_MODE) return;
  if (st.isDirectory() && st.uid === process.geteuid?.()) {
    await fsp.chmod(dir, SHARED_MODE).catch(fail);
    return;
  }
  const what = st.isSymbolicLink() ? 'a symbolic link' : st.isDirectory() ? `mode ${(st.mode & 0o7777).toString(8)}` : 'not a folder';
  throw new DiskDialError(
    `The drive lock folder ${dir} is ${what}, owned by user id ${st.uid}: it must be a folder of mode 1777, like /tmp. Remove it (or ask its owner or root to).`,
    { code: 'ERR_LOCK_DIR', path: dir },
  );
}

function userName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return `user id ${process.getuid?.() ?? '?'}`; // no passwd entry (a container's arbitrary uid)
  }
}

/** "A test by alice (pid 4242) is running on this drive since 14:05" (local time). */
export function busyMessage(holder: DriveLockMarker): string {
  const at = new Date(holder.startedAt);
  const hhmm = Number.isNaN(at.getTime())
    ? ''
    : ` since ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return `A test by ${holder.user} (pid ${holder.pid}) is running on this drive${hhmm}`;
}

/** Takes the locks of every drive holding `target` (an existing folder or file), or fails with
 *  ERR_VOLUME_BUSY naming the holder; with `wait`, waits until they are free. */
export async function lockVolume(target: string, opts: LockVolumeOptions = {}): Promise<VolumeLock> {
  const keys = await driveKeysOf(target);
  const dir = lockDir();
  await ensureLockDir(dir);
  const mine: DriveLockMarker = { ...ownMarker(), lock: randomBytes(6).toString('hex'), user: userName(), target: path.resolve(target) };
  let waiting = false;
  const began = performance.now();
  let files: string[];
  for (;;) {
    mine.startedAt = new Date().toISOString(); // "since" is when it got the drive, not when it began waiting
    const taken = await takeAll(dir, keys, mine);
    if (Array.isArray(taken)) {
      files = taken;
      break;
    }
    const ownWindDown = taken.pid === process.pid && windingDown.has(taken.lock) && performance.now() - began < WIND_DOWN_WAIT_MS;
    if (!opts.wait && !ownWindDown) throw new DiskDialError(busyMessage(taken), { code: 'ERR_VOLUME_BUSY', path: target });
    if (!waiting && !ownWindDown) opts.onWait?.(taken.pid, busyMessage(taken));
    waiting ||= !ownWindDown;
    const pause = LOCK_POLL_MS * (0.75 + Math.random() / 2);
    await sleep(pause, undefined, opts.signal ? { signal: opts.signal } : undefined).catch(() => {
      throw new AbortError(undefined, { cause: opts.signal?.reason });
    });
  }
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      windingDown.delete(mine.lock);
      for (const f of files) releaseFileSync(f);
    },
    windDown(): void {
      if (!released) windingDown.add(mine.lock);
    },
  };
}

/** Every key in sorted order, all or none: the lock files taken, else the first live holder met. */
async function takeAll(dir: string, keys: readonly string[], mine: DriveLockMarker): Promise<string[] | DriveLockMarker> {
  const taken: string[] = [];
  try {
    for (const key of keys) {
      const file = path.join(dir, `${key}.${mine.lock}.lock`);
      const holder = await takeKey(dir, key, file, mine);
      if (holder) {
        for (const f of taken) releaseFileSync(f);
        return holder;
      }
      taken.push(file);
    }
  } catch (err) {
    for (const f of taken) releaseFileSync(f);
    throw toPlainError(err, { path: dir, doing: "taking the drive's lock" });
  }
  return taken;
}

/** Places our lock file for one drive, then withdraws it if another live lock of that drive is
 *  there: undefined when the drive is ours, else that holder. */
async function takeKey(dir: string, key: string, file: string, mine: DriveLockMarker): Promise<DriveLockMarker | undefined> {
  const tmp = path.join(dir, `.${key}.${mine.lock}.tmp`);
  try {
    await fsp.writeFile(tmp, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: 0o644 });
    // Readable by every user whatever the umask: others judge it live or dead and name its owner.
    await fsp.chmod(tmp, 0o644);
    held.add(file);
    installExitHook();
    await fsp.rename(tmp, file);
  } catch (err) {
    held.delete(file);
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  for (const name of await fsp.readdir(dir)) {
    if (!name.startsWith(`${key}.`) || !name.endsWith('.lock')) continue;
    const other = path.join(dir, name);
    if (other === file) continue;
    const holder = await readLock(other);
    if (!holder) continue; // gone meanwhile, or not a lock of ours
    if (!isMarkerStale(holder)) {
      releaseFileSync(file);
      return holder;
    }
    // A dead owner's: its name is never reused, so removing it can hit no live lock.
    await fsp.unlink(other).catch(() => undefined);
  }
  return undefined;
}

/** Anyone may put anything in the shared folder: a lock is read without following a link or
 *  waiting on a FIFO, and only a valid marker counts. */
async function readLock(file: string): Promise<DriveLockMarker | undefined> {
  const text = await readUserText(file, { what: 'a drive lock', maxBytes: 64 * 1024, follow: false }).catch(() => undefined);
  const m = text === undefined ? undefined : (parseMarker(text) as Partial<DriveLockMarker> | undefined);
  if (!m) return undefined;
  // Its user reaches a terminal in the refusal: one plain word, however the file was made.
  const user = typeof m.user === 'string' ? plainText(m.user).trim().slice(0, 64) : '';
  return {
    ...(m as WorkspaceMarker),
    lock: typeof m.lock === 'string' ? m.lock : '',
    user: user || 'another user',
    target: typeof m.target === 'string' ? m.target : '',
  };
}

function releaseFileSync(file: string): void {
  if (!held.delete(file)) return;
  try {
    unlinkSync(file);
  } catch {
    /* gone already */
  }
}

/** Removes every lock this process holds (at exit, and from the workspaces' signal clean-up). */
export function releaseAllLocksSync(): void {
  for (const f of [...held]) releaseFileSync(f);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', releaseAllLocksSync);
}
