// Runs engine tests and hash measurements in a child process (engine-host-child.ts), so a native
// crash or hang ends the job with an error and never the app. EngineHost.runTest and runHash keep
// core runTest's and runHash's contracts exactly (same result, same progress, AbortError only once
// the engine is done, Node-style errors with the caller's stack), so runBenchmark and
// runHashBenchmark can take either. How the child is started is a Spawner:
// child_process.fork here; Electron main passes one built on utilityProcess.
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EngineProgress, EngineResult, EngineSpec, HashEngineResult, HashProgress, HashSpec } from '../model/engine-types.js';
import { AbortError, type RunHashOptions, type RunTestOptions } from '../core/engine.js';
import { DiskDialError, withCallerStack } from '../model/errors.js';
import type { PlainError } from './engine-host-child.js';

/** A started child, whatever started it. */
export interface HostChannel {
  send(msg: unknown): void;
  onMessage(cb: (msg: unknown) => void): void;
  /** Called once, when the child is gone (signal set when a signal ended it). */
  onExit(cb: (code: number | null, signal: string | null) => void): void;
  /** Ends the child at once (SIGKILL or the platform's equivalent). */
  kill(): void;
  readonly pid?: number;
  /** Optional: let the parent exit while the child idles (Node's fork supports it). */
  ref?(): void;
  unref?(): void;
}

export type Spawner = (modulePath: string) => HostChannel;

/** How long a cancelled test may take to confirm before its process is killed. The engine stops
 *  within a quarter second between I/Os; one stuck in an I/O that does not return (a stalled
 *  disk) is killed soon enough for Stop to take under a second. */
export const CANCEL_GRACE_MS = 300;
/** How often a killed child that has not exited is looked at again. One blocked in an I/O the
 *  disk never answers cannot die until it does (Linux waits out a FUSE request already sent; a
 *  hung USB disk holds it in D state): it is given up on, its files close whenever it finally
 *  exits, and the next job gets a new child. One that is merely slow to be scheduled (a loaded
 *  machine) is waited for, so its test files are removed before Stop returns. */
export const KILLED_EXIT_WAIT_MS = 150;
/** Looks in a row that must find the killed child in D state before it is given up on. */
export const STUCK_LOOKS = 2;
/** The longest wait for a killed child that is not provably stuck. */
export const KILLED_EXIT_MAX_MS = 10_000;

/** True when a thread of `pid` sleeps uninterruptibly in the kernel (state D), i.e. in an I/O that
 *  a kill cannot end; also when this cannot be told (no pid, not Linux), as the cautious answer. */
function stuckInKernel(pid: number | undefined): boolean {
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

const require = createRequire(import.meta.url);

/** `--import tsx`, resolved from this package rather than from the current directory. */
function tsxImport(): string {
  try {
    return pathToFileURL(require.resolve('tsx')).href;
  } catch {
    return 'tsx';
  }
}

/** Node's child_process.fork. Running from source (.ts, as tests do), the child loads tsx. */
export const nodeSpawner: Spawner = (modulePath) => {
  const child = fork(modulePath, [], {
    serialization: 'advanced',
    // Not the parent's execArgv: an --inspect port or a test runner's flags are not the engine's.
    execArgv: modulePath.endsWith('.ts') ? ['--import', tsxImport()] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exitCbs: Array<(code: number | null, signal: string | null) => void> = [];
  let exited = false;
  const fireExit = (code: number | null, signal: string | null): void => {
    if (exited) return;
    exited = true;
    for (const cb of exitCbs) cb(code, signal);
  };
  child.on('exit', (code, signal) => fireExit(code, signal));
  // 'error' without a pid: the process never started, so no 'exit' will follow.
  child.on('error', () => {
    if (child.pid === undefined) fireExit(null, null);
  });
  return {
    get pid() {
      return child.pid;
    },
    send(msg) {
      if (child.connected) child.send(msg as Parameters<typeof child.send>[0]);
    },
    onMessage(cb) {
      child.on('message', cb);
    },
    onExit(cb) {
      exitCbs.push(cb);
    },
    kill() {
      child.kill('SIGKILL');
    },
    ref() {
      child.ref();
      child.channel?.ref();
    },
    unref() {
      child.unref();
      child.channel?.unref();
    },
  };
};

/** The child's entry file next to this one: .js when compiled (dist/services), .ts from source. */
export function engineChildPath(): string {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), `engine-host-child${path.extname(here)}`);
}

export const ENGINE_CRASHED = 'ERR_ENGINE_CRASHED';

/** What the child was doing: a test (which writes files of its own) or a hash (which only reads). */
export type EngineJobKind = 'test' | 'hash';

export function crashedMessage(code: number | null, signal: string | null, kind: EngineJobKind = 'test'): string {
  const how = signal ?? (code === null ? 'it could not be started' : `exit code ${code}`);
  if (kind === 'hash') {
    return `The test engine stopped unexpectedly (${how}). The hash test was abandoned; the file was only read and is unchanged. DiskDial is still running.`;
  }
  return `The test engine stopped unexpectedly (${how}). The test was abandoned and its files removed; DiskDial is still running.`;
}

interface Pending {
  id: number;
  kind: EngineJobKind;
  resolve(r: unknown): void;
  reject(e: unknown): void;
  onProgress?: (p: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** The caller cancelled; whatever the child answers, the test ends in AbortError. */
  aborted: boolean;
  killTimer?: NodeJS.Timeout;
  callerStack?: string;
}

interface Child {
  channel: HostChannel;
  exited: Promise<void>;
}

export interface EngineHostOptions {
  spawner?: Spawner;
  /** The child's entry; default engineChildPath(). */
  modulePath?: string;
}

/** One engine child, started on first use and reused; one job (test or hash) at a time. */
export class EngineHost {
  readonly #spawner: Spawner;
  readonly #modulePath: string;
  #child: Child | undefined;
  #pending: Pending | undefined;
  #nextId = 1;
  #version: string | undefined;
  #cryptoProvider: string | undefined;
  #versionWaiters = new Map<number, (msg: { version?: unknown; cryptoProvider?: unknown; error?: unknown }) => void>();

  constructor(opts: EngineHostOptions = {}) {
    this.#spawner = opts.spawner ?? nodeSpawner;
    this.#modulePath = opts.modulePath ?? engineChildPath();
    // Callers pass the methods around as plain functions (runBenchmark's `engine`).
    this.runTest = this.runTest.bind(this);
    this.runHash = this.runHash.bind(this);
  }

  /** The child's process id while one is running. */
  get pid(): number | undefined {
    return this.#child?.channel.pid;
  }

  runTest(spec: EngineSpec, opts: RunTestOptions = {}): Promise<EngineResult> {
    // Captured now: replies arrive on a later tick, whose stack says nothing about the caller.
    const trace: { stack?: string } = {};
    Error.captureStackTrace(trace, this.runTest);
    return this.#run<EngineResult, EngineProgress>('test', spec, opts, trace.stack);
  }

  /** A hash measurement (core runHash) in the child: same result, progress, abort and errors. */
  runHash(spec: HashSpec, opts: RunHashOptions = {}): Promise<HashEngineResult> {
    const trace: { stack?: string } = {};
    Error.captureStackTrace(trace, this.runHash);
    return this.#run<HashEngineResult, HashProgress>('hash', spec, opts, trace.stack);
  }

  #run<R, P>(
    kind: EngineJobKind,
    spec: EngineSpec | HashSpec,
    opts: { signal?: AbortSignal; onProgress?: (p: P) => void },
    callerStack: string | undefined,
  ): Promise<R> {
    const { signal, onProgress } = opts;
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
    if (this.#pending) {
      return Promise.reject(new DiskDialError('The engine is already running a test.', { code: 'ERR_BUSY' }));
    }
    let child: Child;
    try {
      child = this.#ensureChild();
    } catch (err) {
      return Promise.reject(err);
    }

    return new Promise<R>((resolve, reject) => {
      const pending: Pending = { id: this.#nextId++, kind, resolve: resolve as (r: unknown) => void, reject, aborted: false };
      if (onProgress) pending.onProgress = onProgress as (p: unknown) => void;
      if (callerStack) pending.callerStack = callerStack;
      this.#pending = pending;
      try {
        child.channel.send({ type: kind === 'hash' ? 'hash' : 'run', id: pending.id, spec });
      } catch (err) {
        // A spec that cannot be cloned (a function in it) is the caller's mistake.
        this.#settle(pending, () => reject(withCallerStack(err as PlainError, pending.callerStack)));
        return;
      }
      child.channel.ref?.();
      if (signal) {
        pending.signal = signal;
        pending.onAbort = () => this.#cancel(pending);
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
    });
  }

  /** The engine's version, asked of the child process: the addon is never loaded into this one. */
  async version(): Promise<string> {
    if (!this.#version) await this.#askVersion();
    return this.#version!;
  }

  /** The crypto library the engine hashes with, asked of the child process as version() is. */
  async cryptoProvider(): Promise<string> {
    if (!this.#cryptoProvider) await this.#askVersion();
    return this.#cryptoProvider ?? 'unknown';
  }

  #askVersion(): Promise<void> {
    let child: Child;
    try {
      child = this.#ensureChild();
    } catch (err) {
      return Promise.reject(err);
    }
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      const done = (fn: () => void): void => {
        this.#versionWaiters.delete(id);
        fn();
      };
      this.#versionWaiters.set(id, (msg) => {
        if (typeof msg.version === 'string') {
          this.#version = msg.version;
          if (typeof msg.cryptoProvider === 'string') this.#cryptoProvider = msg.cryptoProvider;
          done(resolve);
        } else done(() => reject(withCallerStack((msg.error ?? {}) as PlainError, undefined)));
      });
      void child.exited.then(() => {
        if (this.#versionWaiters.has(id)) done(() => reject(new DiskDialError(crashedMessage(null, null), { code: ENGINE_CRASHED })));
      });
      child.channel.send({ type: 'version', id });
    });
  }

  /** Cancels a running job (waiting for the engine, as runTest's abort does) and ends the child. */
  async close(): Promise<void> {
    const pending = this.#pending;
    if (pending) {
      const settled = new Promise<void>((r) => {
        const { resolve, reject } = pending;
        pending.resolve = (v) => (resolve(v), r());
        pending.reject = (e) => (reject(e), r());
      });
      this.#cancel(pending);
      await settled;
    }
    const child = this.#child;
    if (child) {
      child.channel.kill();
      await child.exited;
    }
  }

  #ensureChild(): Child {
    if (this.#child) return this.#child;
    const channel = this.#spawner(this.#modulePath);
    let markExited!: () => void;
    const child: Child = { channel, exited: new Promise<void>((r) => (markExited = r)) };
    channel.onMessage((msg) => this.#onMessage(child, msg));
    channel.onExit((code, signal) => {
      markExited();
      // A child given up on (stuck after its kill) ends nobody's job when it finally exits.
      if (this.#child !== child) return;
      this.#child = undefined;
      this.#onExit(code, signal);
    });
    channel.unref?.();
    this.#child = child;
    return child;
  }

  #cancel(pending: Pending): void {
    if (pending.aborted || this.#pending !== pending) return;
    pending.aborted = true;
    this.#child?.channel.send({ type: 'cancel', id: pending.id });
    // A hung engine never answers: kill its process. The AbortError still waits for the exit,
    // because only then are the engine's files closed and safe to delete.
    const child = this.#child;
    pending.killTimer = setTimeout(() => {
      child?.channel.kill();
      const killedAt = Date.now();
      // A healthy direct I/O sleeps in D state for a moment too: only D at consecutive looks is stuck.
      let inD = 0;
      const look = (): void => {
        if (this.#pending !== pending) return;
        inD = stuckInKernel(child?.channel.pid) ? inD + 1 : 0;
        if (inD < STUCK_LOOKS && Date.now() - killedAt < KILLED_EXIT_MAX_MS) {
          pending.killTimer = setTimeout(look, KILLED_EXIT_WAIT_MS);
          return;
        }
        // Stuck in the kernel: stop waiting for it; the user asked to stop.
        if (this.#child === child) this.#child = undefined;
        const err = this.#abortError(pending);
        err.engineStuck = true;
        this.#settle(pending, () => pending.reject(err));
      };
      pending.killTimer = setTimeout(look, KILLED_EXIT_WAIT_MS);
    }, CANCEL_GRACE_MS);
  }

  #onMessage(child: Child, raw: unknown): void {
    if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'version') {
      this.#versionWaiters.get((raw as { id?: unknown }).id as number)?.(
        raw as { version?: unknown; cryptoProvider?: unknown; error?: unknown },
      );
      return;
    }
    const pending = this.#pending;
    if (child !== this.#child || !pending || typeof raw !== 'object' || raw === null) return;
    const msg = raw as { type?: unknown; id?: unknown; progress?: unknown; result?: unknown; error?: unknown };
    if (msg.id !== pending.id) return; // a late message of an earlier, abandoned test
    switch (msg.type) {
      case 'progress':
        if (pending.onProgress && !pending.aborted) {
          try {
            pending.onProgress(msg.progress);
          } catch {
            /* progress is advisory, as in core runTest */
          }
        }
        return;
      case 'result':
        this.#settle(pending, () => (pending.aborted ? pending.reject(this.#abortError(pending)) : pending.resolve(msg.result)));
        return;
      case 'error': {
        const e = (msg.error ?? {}) as PlainError;
        this.#settle(pending, () =>
          pending.aborted || e.name === 'AbortError'
            ? pending.reject(this.#abortError(pending))
            : pending.reject(withCallerStack(e, pending.callerStack)),
        );
        return;
      }
    }
  }

  #onExit(code: number | null, signal: string | null): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#settle(pending, () => {
      // Killed while cancelling (by us after the grace period, or it died on its way out):
      // the user asked to stop, and stopped it is.
      if (pending.aborted) pending.reject(this.#abortError(pending));
      else pending.reject(new DiskDialError(crashedMessage(code, signal, pending.kind), { code: ENGINE_CRASHED }));
    });
  }

  #abortError(pending: Pending): AbortError {
    return new AbortError(undefined, { cause: pending.signal?.reason });
  }

  #settle(pending: Pending, fn: () => void): void {
    if (this.#pending !== pending) return;
    this.#pending = undefined;
    if (pending.killTimer) clearTimeout(pending.killTimer);
    if (pending.signal && pending.onAbort) pending.signal.removeEventListener('abort', pending.onAbort);
    this.#child?.channel.unref?.();
    fn();
  }
}
