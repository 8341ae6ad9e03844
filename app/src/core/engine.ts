// The one door to the native engine: finds and loads the addon (one clear error listing every
// path tried when it cannot), and wraps its callback API in a Promise that honours AbortSignal.
// Nothing else in the app may load diskdial.node.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  EngineErrorFields,
  EngineProgress,
  EngineResult,
  EngineSpec,
  CipherEngineResult,
  CipherProgress,
  CipherSpec,
  HashEngineResult,
  HashProgress,
  HashSpec,
  NativeAddon,
} from '../model/engine-types.js';
import { withCallerStack } from '../model/errors.js';
import { isSettled, type SettleSpec } from '../model/precision.js';

const require = createRequire(import.meta.url);

/**
 * The folder holding package.json, found by walking up from this file, so the same code works
 * from app/src/core/engine.ts (tsx, vitest) and from dist/core/engine.js (the CLI).
 */
export function findPackageRoot(start: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`diskdial: no package.json above ${start}`);
    dir = parent;
  }
}

/** Every place the addon may live, most likely first. */
export function addonCandidates(root: string = findPackageRoot()): string[] {
  const candidates = [path.join(root, 'native/build/Release/diskdial.node'), path.join(root, 'native/build/Debug/diskdial.node')];
  // Electron sets resourcesPath; native modules cannot be loaded from inside an asar archive.
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) {
    candidates.push(path.join(resourcesPath, 'app.asar.unpacked/native/build/Release/diskdial.node'));
  }
  return candidates;
}

/** Loads the first candidate that exists; otherwise throws ONE error naming every path tried. */
export function loadAddonFrom(candidates: readonly string[]): NativeAddon {
  const tried: string[] = [];
  for (const file of candidates) {
    if (!existsSync(file)) {
      tried.push(`${file} (not found)`);
      continue;
    }
    try {
      return require(file) as NativeAddon;
    } catch (err) {
      // A binary that exists but fails to load (wrong ABI, missing symbol) must be reported,
      // not silently skipped in favour of an older build further down the list.
      const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
      tried.push(`${file} (${reason})`);
    }
  }
  const err = new Error(
    `the native engine (diskdial.node) could not be loaded; tried: ${tried.join('; ')}. Build it with \`npm run build:native\`.`,
  ) as Error & { code: string; tried: string[] };
  err.code = 'ERR_DISKDIAL_ADDON_NOT_FOUND';
  err.tried = [...candidates];
  throw err;
}

let addon: NativeAddon | undefined;

/** The loaded addon, loaded on first use (so importing this module never fails). */
export function loadAddon(): NativeAddon {
  addon ??= loadAddonFrom(addonCandidates());
  return addon;
}

export function engineVersion(): string {
  return loadAddon().version;
}

/** The platform crypto library the engine hashes with ("OpenSSL 3.0.… (libcrypto)", …). */
export function cryptoProvider(): string {
  return loadAddon().cryptoProvider;
}

/** Direct-I/O alignment the file system reports for a folder. */
export function ioAlignment(dir: string): { offset: number; memory: number; source: string } {
  return loadAddon().ioAlignment(dir);
}

/** The error a cancelled test rejects with, shaped like Node's own (fs, timers/promises). */
export class AbortError extends Error {
  override name = 'AbortError';
  readonly code = 'ABORT_ERR';
  /** The engine could not be stopped (stuck in an I/O a stalled disk never answers) and was
   *  given up on: its files may stay busy until the disk answers. */
  engineStuck?: boolean;
  /** The engine process given up on, when it was one (EngineHost), for the user's message. */
  enginePid?: number;
  constructor(message = 'The operation was aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function isAbortError(err: unknown): err is Error {
  return err instanceof Error && err.name === 'AbortError';
}

/** A native error as the wrapper rethrows it: Node-style fields kept, stack pointing at the caller. */
export type EngineError = Error & EngineErrorFields;

export interface RunTestOptions {
  signal?: AbortSignal;
  onProgress?: (p: EngineProgress) => void;
}

/** What runs one test spec: runTest itself, an EngineHost's runTest (crash isolation), or a test's
 *  fake. Whatever it is keeps runTest's contract: AbortError only once the engine's files are closed. */
export type EngineFn = (spec: EngineSpec, opts: RunTestOptions) => Promise<EngineResult>;
/** What runs one hash spec: runHash itself, an EngineHost's runHash, or a test's fake. */
export type HashFn = (spec: HashSpec, opts: RunHashOptions) => Promise<HashEngineResult>;

export interface RunHashOptions {
  signal?: AbortSignal;
  onProgress?: (p: HashProgress) => void;
}

/**
 * Runs one test spec. On abort, asks the engine to stop and rejects with AbortError only once
 * the engine's `done` has fired — by then its files are closed, so the caller may delete them.
 */
export function runTest(spec: EngineSpec, opts: RunTestOptions = {}): Promise<EngineResult> {
  // Captured now: errors arrive on a later tick from native code, whose own stack says nothing
  // about which caller started the test.
  const trace: { stack?: string } = {};
  Error.captureStackTrace(trace, runTest);
  if (!spec.settle) return runJob((native) => native.start.bind(native), spec, opts, trace.stack);
  return runSettling(spec, spec.settle, opts, trace.stack);
}

/**
 * A step under the stop rule: the measured phase's progress (one instant rate per 100 ms interval)
 * is checked against model/precision.ts's isSettled, and once it holds the engine is stopped as a
 * cancel would stop it — but the result is kept, its figures covering what was measured. Done here,
 * in the wrapper every caller goes through (in-process and in the engine host's child), so the
 * spec carries the rule as data and no process boundary needs a new message.
 */
function runSettling(spec: EngineSpec, settle: SettleSpec, opts: RunTestOptions, stack: string | undefined): Promise<EngineResult> {
  const rates: number[] = [];
  const early = new AbortController();
  const onProgress = (p: EngineProgress): void => {
    // The rule first: a caller's progress handler that throws must not keep a step running.
    if (p.phase === 'run' && !early.signal.aborted) {
      rates.push(p.instMBps);
      if (isSettled(rates, p.elapsed, settle)) early.abort();
    }
    opts.onProgress?.(p);
  };
  const settled = (r: EngineResult): EngineResult => ({ ...r, settle: { precision: settle.precision, settled: early.signal.aborted } });
  // The rule counts 100 ms intervals (the engine's series buckets), whatever the caller asked.
  const job = { ...spec, progressIntervalMs: 100 };
  return runJob((native) => native.start.bind(native), job, { ...opts, onProgress }, stack, early.signal).then(settled);
}

/**
 * Runs one hash measurement (read, read + hash, or in memory) with exactly runTest's contract:
 * progress a few times a second, AbortError only once the engine's `done` has fired (its threads
 * joined, the file closed), Node-style errors (code, path) with the caller's stack.
 */
export function runHash(spec: HashSpec, opts: RunHashOptions = {}): Promise<HashEngineResult> {
  const trace: { stack?: string } = {};
  Error.captureStackTrace(trace, runHash);
  return runJob(
    (native) => {
      if (typeof native.hash !== 'function') {
        // An addon built before engine 0.3 is still on disk.
        throw Object.assign(
          new Error(`the loaded native engine (${native.version}) cannot hash: rebuild it with \`npm run build:native\``),
          {
            code: 'ERR_DISKDIAL_ADDON_OUTDATED',
          },
        );
      }
      return native.hash.bind(native);
    },
    spec,
    opts,
    trace.stack,
  );
}

/** Runs one in-memory encryption measurement (the cipher ceiling), with runHash's contract. */
export function cipherBench(
  spec: CipherSpec,
  opts: { signal?: AbortSignal; onProgress?: (p: CipherProgress) => void } = {},
): Promise<CipherEngineResult> {
  const trace: { stack?: string } = {};
  Error.captureStackTrace(trace, cipherBench);
  return runJob(
    (native) => {
      if (typeof native.cipherBench !== 'function') {
        throw Object.assign(
          new Error(`the loaded native engine (${native.version}) cannot encrypt: rebuild it with \`npm run build:native\``),
          {
            code: 'ERR_DISKDIAL_ADDON_OUTDATED',
          },
        );
      }
      return native.cipherBench.bind(native);
    },
    spec,
    opts,
    trace.stack,
  );
}

type NativeStart<S, P, R> = (
  spec: S,
  onProgress: ((p: P) => void) | null,
  done: (err: EngineError | null, result: R | null) => void,
) => { cancel(): void };

/** The one promise wrapper around the addon's job verbs (start, hash). */
function runJob<S extends object, P, R>(
  pick: (native: NativeAddon) => NativeStart<S, P, R>,
  spec: S,
  opts: { signal?: AbortSignal; onProgress?: (p: P) => void },
  callerStack: string | undefined,
  /** Stops the engine like a cancel, but resolves with its result (the figures of what was done):
   *  the stop rule's. The caller's own abort still rejects. */
  finishEarly?: AbortSignal,
): Promise<R> {
  const { signal, onProgress } = opts;

  if (signal?.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
  let start: NativeStart<S, P, R>;
  try {
    start = pick(loadAddon());
  } catch (err) {
    return Promise.reject(err);
  }

  return new Promise<R>((resolve, reject) => {
    let finished = false;
    let aborted = false;
    let handle: { cancel(): void } | undefined;
    const onAbort = (): void => {
      aborted = true;
      handle?.cancel();
    };
    const onFinishEarly = (): void => handle?.cancel();
    const progress = onProgress
      ? (p: P): void => {
          // A throwing progress consumer must not unwind into native code.
          try {
            onProgress(p);
          } catch {
            /* progress is advisory */
          }
        }
      : null;
    const done = (err: EngineError | null, result: R | null): void => {
      if (finished) return;
      finished = true;
      signal?.removeEventListener('abort', onAbort);
      finishEarly?.removeEventListener('abort', onFinishEarly);
      if (aborted) reject(new AbortError(undefined, { cause: signal?.reason }));
      else if (err) reject(withCallerStack(err, callerStack, { cause: err }) as EngineError);
      else if (!result)
        reject(withCallerStack({ message: 'the engine returned no result', code: 'ERR_DISKDIAL_ENGINE' }, callerStack) as EngineError);
      else resolve(result);
    };
    try {
      handle = start({ ...spec }, progress, done);
    } catch (err) {
      // Spec validation in the bindings throws synchronously (TypeError/RangeError).
      finished = true;
      reject(withCallerStack(err as EngineError, callerStack, { cause: err }) as EngineError);
      return;
    }
    if (!finished && signal) {
      signal.addEventListener('abort', onAbort, { once: true });
      // The signal may have fired while start() was running.
      if (signal.aborted) onAbort();
    }
    if (!finished && finishEarly) {
      finishEarly.addEventListener('abort', onFinishEarly, { once: true });
      if (finishEarly.aborted) onFinishEarly();
    }
  });
}
