// Errors DiskDial shows to people. DiskDialError is Node-style (code, errno, syscall, path) so
// callers can branch on `code`, and its message is plain words a user can act on; toPlainError
// turns any fs or native engine error into one, given what we know about the situation.
import type { EngineErrorFields } from './engine-types.js';
/**
 * `input`: the user asked for something that cannot work (bad flag, missing folder) — the CLI
 * exits 2. `runtime`: the request was fine but the system refused (disk full, I/O error) — exit 1.
 */
export type ErrorCategory = 'input' | 'runtime';

export interface DiskDialErrorFields {
  code: string;
  errno?: number;
  syscall?: string;
  path?: string;
  category?: ErrorCategory;
  cause?: unknown;
}

export class DiskDialError extends Error {
  override name = 'DiskDialError';
  readonly code: string;
  readonly errno?: number;
  readonly syscall?: string;
  readonly path?: string;
  readonly category: ErrorCategory;

  constructor(message: string, fields: DiskDialErrorFields) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.code = fields.code;
    if (fields.errno !== undefined) this.errno = fields.errno;
    if (fields.syscall !== undefined) this.syscall = fields.syscall;
    if (fields.path !== undefined) this.path = fields.path;
    this.category = fields.category ?? 'runtime';
  }
}

/** Shorthand for the "you asked for something impossible" errors of argument checking. */
export function inputError(message: string, code = 'ERR_INVALID_ARG_VALUE'): DiskDialError {
  return new DiskDialError(message, { code, category: 'input' });
}

/** What we know when an error happens; it makes the message specific. */
export interface ErrorContext {
  /** The folder the user pointed us at (used when the error carries no path of its own). */
  path?: string;
  /** Bytes the test needs on the target, and bytes that were free, for ENOSPC. */
  needBytes?: number;
  freeBytes?: number;
  /** Free inodes on the volume when ENOSPC came (0: every file slot used, whatever space is left). */
  freeInodes?: number;
  /** What we were doing, in words: "writing the test file". */
  doing?: string;
  /** What `path` is (default a folder: the target of a test) and whether we only read it (the
   *  hash test's file): the message names the right thing and the right access. */
  subject?: 'file' | 'folder';
  access?: 'read' | 'write';
  category?: ErrorCategory;
}

interface ErrnoLike {
  message?: unknown;
  code?: unknown;
  errno?: unknown;
  syscall?: unknown;
  path?: unknown;
}

function gb(bytes: number): string {
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/** The plain-words sentence for an errno code — what happened, then what to do about it — or
 *  undefined when we have nothing better. The code itself stays out of the sentence: it travels
 *  in the error's `code` (the details a support question needs). */
export function plainMessage(code: string, where: string | undefined, ctx: ErrorContext = {}): string | undefined {
  const at = where ?? 'the target';
  const what = ctx.subject ?? 'folder';
  const during = ctx.doing ? ` while ${ctx.doing}` : '';
  switch (code) {
    case 'ENOSPC':
      if (ctx.freeInodes === 0) {
        return `The volume at ${at} has no free inodes${during}: every file it can hold exists already, though space may be left. Delete some files there (many small ones free the most), or choose another volume.`;
      }
      if (ctx.needBytes !== undefined && ctx.freeBytes !== undefined && ctx.freeBytes < ctx.needBytes) {
        return `Not enough free space on ${at}: the test needs ${gb(ctx.needBytes)}, ${gb(ctx.freeBytes)} is free. Free some space there or choose a smaller test size.`;
      }
      return `The volume at ${at} ran out of free space${during}. Free some space there or choose a smaller test size.`;
    case 'EROFS':
      return `The volume at ${at} is read-only, and a test needs to write. Choose a volume you can write to, or remount this one read-write.`;
    case 'ENOENT':
      return `No such ${what}: ${at}. Check the path, or choose another ${what}.`;
    case 'ENOTDIR':
      return `${at} is a file, not a folder. Choose the folder that holds it, or another folder.`;
    case 'EACCES':
    case 'EPERM':
      return ctx.access === 'read'
        ? `Permission denied reading ${at}. Give your user read access to it, or choose another ${what}.`
        : `Permission denied writing to ${at}. Choose a folder you can write to, or give your user write access to this one.`;
    case 'EIO':
      return `The disk reported an I/O error${during} at ${at}; the disk, cable or port may be failing. Back up what is on it, then try another cable or port.`;
    case 'EDQUOT':
      return `Your disk quota on ${at} is used up. Delete some of your files there, or choose a smaller test size.`;
    case 'EFBIG':
      return `The file system at ${at} cannot hold a file this large. Choose a smaller test size (--size on the command line).`;
    case 'ENODEV':
    case 'ENXIO':
    case 'ENOTCONN': // a FUSE file system (exFAT, NTFS) whose disk was pulled
    case 'ECONNABORTED': // the same, for a request in flight at that moment
      return `The disk holding ${at} went away. Reconnect it, then start the test again.`;
    default:
      return undefined;
  }
}

/**
 * Turns an fs/native error into a DiskDialError with a plain-words message, keeping its
 * code/errno/syscall/path and the original as `cause`. DiskDialErrors pass through unchanged.
 */
export function toPlainError(err: unknown, ctx: ErrorContext = {}): DiskDialError {
  if (err instanceof DiskDialError) return err;
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as ErrnoLike;
  const code = typeof e.code === 'string' ? e.code : 'ERR_DISKDIAL';
  // The user thinks in terms of the folder they chose, not our hidden test file inside it.
  const where = ctx.path ?? (typeof e.path === 'string' ? e.path : undefined);
  const raw = typeof e.message === 'string' ? e.message : String(err);
  const message = plainMessage(code, where, ctx) ?? raw;
  const fields: DiskDialErrorFields = { code, cause: err, category: ctx.category ?? 'runtime' };
  if (typeof e.errno === 'number') fields.errno = e.errno;
  if (typeof e.syscall === 'string') fields.syscall = e.syscall;
  if (typeof e.path === 'string') fields.path = e.path;
  else if (ctx.path !== undefined) fields.path = ctx.path;
  return new DiskDialError(message, fields);
}

/** What an engine error carries across: the addon's callback error, the engine process's message. */
export type EngineErrorLike = Partial<EngineErrorFields> & { name?: string; message?: string };

/** A fresh Error with another's message, name and Node-style fields, and the caller's stack (the
 *  native or child-process one points nowhere useful). `options.cause` keeps the original. */
export function withCallerStack(
  err: EngineErrorLike | undefined,
  callerStack: string | undefined,
  options?: ErrorOptions,
): Error & Partial<EngineErrorFields> {
  const message = typeof err?.message === 'string' ? err.message : String(err);
  const Ctor = err?.name === 'TypeError' ? TypeError : err?.name === 'RangeError' ? RangeError : Error;
  const fresh = new Ctor(message, options) as Error & Partial<EngineErrorFields>;
  if (err?.name && err.name !== fresh.name) fresh.name = err.name;
  if (typeof err?.code === 'string') fresh.code = err.code;
  if (typeof err?.errno === 'number') fresh.errno = err.errno;
  if (typeof err?.syscall === 'string') fresh.syscall = err.syscall;
  if (typeof err?.path === 'string') fresh.path = err.path;
  if (callerStack) {
    const frames = callerStack.split('\n').slice(1).join('\n');
    fresh.stack = `${fresh.name}: ${fresh.message}\n${frames}`;
  }
  return fresh;
}
