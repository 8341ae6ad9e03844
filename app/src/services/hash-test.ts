// The hash-test job: one runHashBenchmark (core/hash-run.ts) with the events the Hash screen draws
// from — throttled progress per stage, each finished stage's rate as it lands (the bars fill in
// one by one), and exactly one 'hash.done', all sent only to the sink that started the job.
import { isAbortError } from '../core/engine.js';
import { toPlainError } from '../model/errors.js';
import { runHashBenchmark, type HashFn, type TestFn } from '../core/hash-run.js';

import { emitterFor, SlotService, type Job, type ResultRecorder } from './job-slot.js';
import type { HashDoneEvent } from '../model/events.js';
import type { HashSettings } from '../model/settings.js';
import { timedOf } from '../model/progress.js';

export interface HashTestDeps {
  /** The engine's calls: an EngineHost's (crash isolation), or the in-process core ones. */
  engine: { runHash: HashFn; runTest: TestFn };
  /** Least time between two forwarded progress events (default 100 ms). */
  progressIntervalMs?: number;
  /** Streams for the parallel in-memory rate (default: the CPUs available). */
  threads?: number;
  /** Seconds of each in-memory measurement (default 2). */
  memorySeconds?: number;
  /** Where finished results are kept (history). */
  history?: ResultRecorder;
}

export class HashTestService extends SlotService<HashSettings> {
  readonly #deps: HashTestDeps;

  constructor(deps: HashTestDeps) {
    super(deps.history);
    this.#deps = deps;
  }

  protected async run(job: Job, settings: HashSettings): Promise<void> {
    const { id: jobId, sink, controller } = job;
    const signal = controller.signal;
    const emit = emitterFor(sink);
    const finish = (done: Omit<HashDoneEvent, 'jobId'>): void => {
      this.release(job);
      emit('hash.done', { jobId, ...done });
    };
    const watch = (): void => {
      if (!sink.alive) controller.abort(new Error('nobody is watching this test'));
    };
    const interval = this.#deps.progressIntervalMs ?? 100;
    let last = 0;
    let lastStage = '';
    const source = settings.source;
    try {
      const result = await runHashBenchmark({
        ...(source.kind === 'file' ? { file: source.path } : { generate: { target: source.target, sizeBytes: source.sizeBytes } }),
        algo: settings.algo,
        ...(settings.verify !== undefined ? { verify: settings.verify } : {}),
        ...(this.#deps.threads !== undefined ? { threads: this.#deps.threads } : {}),
        ...(this.#deps.memorySeconds !== undefined ? { memorySeconds: this.#deps.memorySeconds } : {}),
        engine: this.#deps.engine,
        signal,
        handleSignals: false,
        onProgress: (p) => {
          watch();
          const now = performance.now();
          if (p.stage === lastStage && now - last < interval) return;
          last = now;
          lastStage = p.stage;
          emit('hash.progress', {
            jobId,
            stage: p.stage,
            stageIndex: p.stageIndex,
            stageCount: p.stageCount,
            ...timedOf(p),
            ...(p.threads !== undefined ? { threads: p.threads } : {}),
          });
        },
        onStage: (s) => {
          watch();
          emit('hash.stage', {
            jobId,
            stage: s.stage,
            mbps: s.mbps,
            bytes: s.bytes,
            seconds: s.seconds,
            ...(s.threads !== undefined ? { threads: s.threads } : {}),
            ...(s.digest !== undefined ? { digest: s.digest } : {}),
          });
        },
      });
      finish(signal.aborted ? { outcome: 'stopped' } : { outcome: 'finished', result, ...(await this.record(result)) });
    } catch (err) {
      if (isAbortError(err) || signal.aborted) {
        finish({ outcome: 'stopped' });
      } else {
        const plain = toPlainError(err, { path: source.kind === 'file' ? source.path : source.target });
        finish({ outcome: 'failed', error: { code: plain.code, message: plain.message } });
      }
    }
  }
}
