// Engine hosts for a caller that runs several engine jobs at once (the CLI's folder check hashes
// N files in parallel): each job goes to an idle EngineHost, a new one started when none is idle,
// so every job keeps the host's guarantees — a crash or a disk stuck in the kernel ends that job,
// and Stop never waits for the engine — and no job waits for another's child.
import type { EngineResult, EngineSpec, HashEngineResult, HashSpec } from '../model/engine-types.js';
import type { RunHashOptions, RunTestOptions } from '../core/engine.js';
import { EngineHost, type EngineHostOptions, type NotAnswering } from './engine-host.js';

export class EngineHostPool {
  readonly #opts: EngineHostOptions;
  readonly #idle: EngineHost[] = [];
  readonly #all: EngineHost[] = [];
  readonly #silenceListeners = new Set<(e: NotAnswering) => void>();

  constructor(opts: EngineHostOptions = {}) {
    this.#opts = opts;
    // Passed around as plain functions (RunService's engine, runBenchmark's `engine`).
    this.runTest = this.runTest.bind(this);
    this.runHash = this.runHash.bind(this);
  }

  runTest(spec: EngineSpec, opts: RunTestOptions = {}): Promise<EngineResult> {
    return this.#use((host) => host.runTest(spec, opts));
  }

  runHash(spec: HashSpec, opts: RunHashOptions = {}): Promise<HashEngineResult> {
    return this.#use((host) => host.runHash(spec, opts));
  }

  /** As EngineHost.onNotAnswering, for every host of the pool, present and future. */
  onNotAnswering(cb: (e: NotAnswering) => void): () => void {
    this.#silenceListeners.add(cb);
    return () => this.#silenceListeners.delete(cb);
  }

  /** Starts `n` engine processes now (idle ones count), so that their start-up (~0.15 s each, the
   *  addon loaded) overlaps the caller's own preparation instead of its first jobs. */
  warm(n: number): void {
    for (let i = this.#all.length; i < n; i++) {
      const host = this.#start();
      this.#idle.push(host);
      host.version().catch(() => undefined); // a failure to start is the first job's to report
    }
  }

  /** Ends every host's child (one stuck in the kernel is let go of, not waited for). */
  async close(): Promise<void> {
    await Promise.all(this.#all.map((h) => h.close()));
  }

  async #use<R>(job: (host: EngineHost) => Promise<R>): Promise<R> {
    const host = this.#idle.pop() ?? this.#start();
    try {
      return await job(host);
    } finally {
      this.#idle.push(host);
    }
  }

  #start(): EngineHost {
    const host = new EngineHost(this.#opts);
    host.onNotAnswering((e) => {
      for (const cb of this.#silenceListeners) cb(e);
    });
    this.#all.push(host);
    return host;
  }
}
