// Runs engine tests and hash measurements in a child process (engine-host-child.ts), so a native
// crash or hang ends the job with an error and never the app. EngineHost.runTest and runHash keep
// core runTest's and runHash's contracts exactly (same result, same progress, AbortError only once
// the engine is done, Node-style errors with the caller's stack), so runBenchmark and
// runHashBenchmark can take either. How the child is started is a Spawner:
// child_process.fork here; Electron main passes one built on utilityProcess.
// Stop never waits on the drive: a child that does not confirm a cancel is killed, and one stuck
// in the kernel (a stalled disk) is let go of within half a second. A job whose engine moves no
// data for NOT_ANSWERING_MS is reported to onNotAnswering listeners ("the drive is not answering").
import { fork } from 'node:child_process';
import { deviceDone, deviceStatFile, exitedOrStuck, storageBytes } from './engine-host-proc.js';
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
  /** Optional: let go of a child that cannot die (stuck in the kernel): close its pipes, so it
   *  holds nothing of the parent's — not its exit, nor a shell pipeline reading its output. */
  detach?(): void;
}

export type Spawner = (modulePath: string) => HostChannel;

/** How long a cancelled test may take to confirm before its process is killed. The engine stops
 *  within a quarter second between I/Os; one stuck in an I/O that does not return (a stalled
 *  disk) is killed soon enough for Stop to take under a second. */
export const CANCEL_GRACE_MS = 250;
export { KILLED_EXIT_MAX_MS, KILLED_EXIT_WAIT_MS, STUCK_LOOKS } from './engine-host-proc.js';
/** How long a job may go without moving a byte before the drive is said not to be answering:
 *  the engine reports progress a few times a second, and a healthy disk moves data between any
 *  two reports; 5 s of none is a stalled disk or share, not a slow one. */
export const NOT_ANSWERING_MS = 5_000;

/** A job whose engine has moved no data for NOT_ANSWERING_MS (or more). */
export interface NotAnswering {
  /** The engine process, for the user's `ps`, and the file it was working on. */
  pid?: number;
  path?: string;
  /** Whole seconds without progress. */
  seconds: number;
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
    // Its stderr (a native crash's last words) is passed on through a pipe of ours rather than
    // inherited, so a child given up on holds no descriptor of the terminal or of a pipeline.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
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
      (child.stderr as { unref?(): void } | null)?.unref?.();
    },
    detach() {
      child.stderr?.destroy();
      if (child.connected) child.disconnect();
      child.unref();
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
  /** The file it works on, for "not answering" (a memory hash has none). */
  path?: string;
  /** When its engine last moved data, what it had moved, and whether silence was reported. */
  aliveAt: number;
  aliveKey: string;
  /** The engine's storage bytes and its drive's completed requests at the last look. */
  ioSeen?: string;
  /** The drive's stat file in sysfs, when it is a block device. */
  deviceStat?: string;
  silenceReported: boolean;
  watchdog?: NodeJS.Timeout;
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
  #silenceListeners = new Set<(e: NotAnswering) => void>();

  constructor(opts: EngineHostOptions = {}) {
    this.#spawner = opts.spawner ?? nodeSpawner;
    this.#modulePath = opts.modulePath ?? engineChildPath();
    // Callers pass the methods around as plain functions (runBenchmark's `engine`).
    this.runTest = this.runTest.bind(this);
    this.runHash = this.runHash.bind(this);
  }

  /** Calls `cb` when a job's engine has moved no data for NOT_ANSWERING_MS, once per silence.
   *  Returns the unsubscribe function. */
  onNotAnswering(cb: (e: NotAnswering) => void): () => void {
    this.#silenceListeners.add(cb);
    return () => this.#silenceListeners.delete(cb);
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
    if (this.#pending?.aborted) this.#letGo(this.#pending);
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
      const pending: Pending = {
        id: this.#nextId++,
        kind,
        resolve: resolve as (r: unknown) => void,
        reject,
        aborted: false,
        aliveAt: performance.now(),
        aliveKey: '',
        silenceReported: false,
      };
      if (onProgress) pending.onProgress = onProgress as (p: unknown) => void;
      if (callerStack) pending.callerStack = callerStack;
      if (spec.path) pending.path = spec.path;
      this.#watchSilence(pending);
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
      // One stuck in the kernel is let go of: waiting for it would be waiting for the drive.
      if ((await exitedOrStuck(child)) === 'stuck') child.channel.detach?.();
      if (this.#child === child) this.#child = undefined;
    }
  }

  /** Reports a job whose engine moves no data for NOT_ANSWERING_MS, looked at twice a second. */
  #watchSilence(pending: Pending): void {
    if (this.#silenceListeners.size === 0) return;
    if (pending.path) void deviceStatFile(pending.path).then((f) => f && (pending.deviceStat = f));
    pending.watchdog = setInterval(() => {
      // Set-up the engine does not report (laying out a paced test's frames) still moves data, and
      // a drive working through one long I/O completes its requests one by one.
      const io = `${storageBytes(this.pid)}:${pending.deviceStat ? deviceDone(pending.deviceStat) : ''}`;
      if (io !== pending.ioSeen) {
        if (pending.ioSeen !== undefined) this.#lived(pending);
        pending.ioSeen = io;
      }
      const silent = performance.now() - pending.aliveAt;
      if (pending.silenceReported || pending.aborted || silent < NOT_ANSWERING_MS) return;
      pending.silenceReported = true;
      const e: NotAnswering = { seconds: Math.floor(silent / 1000) };
      if (this.pid !== undefined) e.pid = this.pid;
      if (pending.path) e.path = pending.path;
      for (const cb of this.#silenceListeners) cb(e);
    }, NOT_ANSWERING_MS / 10);
    pending.watchdog.unref();
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
      if (!child) return;
      child.channel.kill();
      void exitedOrStuck(child).then((how) => {
        // Exited: #onExit has settled it. Stuck in the kernel: stop waiting; the user asked to stop.
        if (how !== 'stuck' || this.#pending !== pending) return;
        if (this.#child === child) this.#child = undefined;
        child.channel.detach?.();
        const err = this.#abortError(pending);
        err.engineStuck = true;
        if (child.channel.pid !== undefined) err.enginePid = child.channel.pid;
        this.#settle(pending, () => pending.reject(err));
      });
    }, CANCEL_GRACE_MS);
  }

  /** A cancelled job whose engine has not ended yet (killed and slow to die on a loaded machine, or
   *  stuck in the kernel) when the next job starts: its process is let go of, so a stopped job never
   *  makes the next one ERR_BUSY; its files are removed in the background (engineStuck). */
  #letGo(pending: Pending): void {
    const child = this.#child;
    const err = this.#abortError(pending);
    err.engineStuck = true;
    if (child) {
      if (child.channel.pid !== undefined) err.enginePid = child.channel.pid;
      this.#child = undefined;
      child.channel.kill();
      child.channel.detach?.();
    }
    this.#settle(pending, () => pending.reject(err));
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
        this.#alive(pending, msg.progress);
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

  /** Progress that moved data (or changed phase) is a sign of life; repeated figures are not. */
  #alive(pending: Pending, progress: unknown): void {
    const p = (progress ?? {}) as { phase?: unknown; mode?: unknown; bytesDone?: unknown; frames?: { due?: unknown } };
    const key = `${String(p.phase ?? p.mode)}:${String(p.bytesDone)}:${String(p.frames?.due)}`;
    if (key === pending.aliveKey) return;
    pending.aliveKey = key;
    this.#lived(pending);
  }

  #lived(pending: Pending): void {
    pending.aliveAt = performance.now();
    pending.silenceReported = false;
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
    if (pending.watchdog) clearInterval(pending.watchdog);
    if (pending.signal && pending.onAbort) pending.signal.removeEventListener('abort', pending.onAbort);
    this.#child?.channel.unref?.();
    fn();
  }
}
