// The hash-test job: one runHashBenchmark (core/hash-run.ts) with the events the Hash screen draws
// from — throttled progress per stage, each finished stage's rate as it lands (the bars fill in
// one by one), and exactly one 'hash.done', all sent only to the sink that started the job.

import { expandPath } from './targets.js';
import { runHashBenchmark } from '../core/hash-run.js';
import type { EngineFn, HashFn } from '../core/engine.js';
import { SlotService } from './job-slot.js';
import type { JobRun, SlotServiceDeps } from './job-slot.js';
import type { HashDoneEvent } from '../model/events.js';
import type { HashSettings } from '../model/settings.js';
import { timedOf } from '../model/progress.js';
import path from 'node:path';
import type { EventSink } from '../model/event-map.js';
import { DiskDialError } from '../model/errors.js';

export interface HashTestDeps extends SlotServiceDeps {
  /** The engine's calls: an EngineHost's (crash isolation), or the in-process core ones. */
  engine: { runHash: HashFn; runTest: EngineFn };
  /** Least time between two forwarded progress events (default 100 ms). */
  progressIntervalMs?: number;
  /** Streams for the parallel in-memory rate (default: the CPUs available). */
  threads?: number;
  /** Seconds of each in-memory measurement (default 2). */
  memorySeconds?: number;
}

export class HashTestService extends SlotService<HashSettings> {
  readonly #deps: HashTestDeps;

  constructor(deps: HashTestDeps) {
    super(deps);
    this.#deps = deps;
  }

  /** A start from a front door: busy first, then a target that cannot work or a file named by
   *  a relative path, as a reply. */
  request(asked: HashSettings, sink: EventSink): Promise<{ jobId: string }> {
    const settings: HashSettings =
      asked.source.kind === 'generate' ? { ...asked, source: { ...asked.source, target: expandPath(asked.source.target) } } : asked;
    const source = settings.source;
    return this.startChecked(settings, sink, async () => {
      if (source.kind === 'generate') await this.targets.assertStartable(source.target);
      else if (!path.isAbsolute(source.path)) {
        throw new DiskDialError(`Give the file's full path (from /), not "${source.path}".`, {
          code: 'ERR_INVALID_PATH',
          path: source.path,
        });
      }
    });
  }

  protected async run(run: JobRun, settings: HashSettings): Promise<void> {
    const { signal, emit, watch } = run;
    const jobId = run.job.id;
    const finish = (done: Omit<HashDoneEvent, 'jobId'>): void => run.finish('hash.done', { jobId, ...done });
    const due = run.throttle(this.#deps.progressIntervalMs ?? 100);
    const source = settings.source;
    try {
      const result = await runHashBenchmark({
        ...(source.kind === 'file' ? { file: source.path } : { generate: { target: source.target, sizeBytes: source.sizeBytes } }),
        algo: settings.algo,
        ...(settings.cache ? { cache: settings.cache } : {}),
        ...(settings.verify !== undefined ? { verify: settings.verify } : {}),
        ...(this.#deps.threads !== undefined ? { threads: this.#deps.threads } : {}),
        ...(this.#deps.memorySeconds !== undefined ? { memorySeconds: this.#deps.memorySeconds } : {}),
        engine: this.#deps.engine,
        signal,
        handleSignals: false,
        onProgress: (p) => {
          watch();
          if (!due(p.stage)) return;
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
      finish(run.ended(err, { path: source.kind === 'file' ? source.path : source.target }));
    }
  }
}
