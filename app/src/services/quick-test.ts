// The Quick Test job: Blackmagic-style write-then-read cycles on one target, N times or until
// stopped, each cycle a full runBenchmark (its own workspace, removed whatever happens). It owns
// the job's lifetime and its events: progress (throttled for a dial), one 'quick.cycle' per
// finished cycle, and exactly one 'quick.done', all sent only to the sink that started the job.
import type { EngineResult, EngineSpec } from '../model/engine-types.js';
import { isAbortError, type RunTestOptions } from '../core/engine.js';
import { toPlainError } from '../model/errors.js';
import { combineRuns } from '../core/analysis.js';
import type { ResultDocument } from '../model/result.js';
import { runBenchmark, type RunProgress } from '../core/runner.js';

import { emitterFor, SlotService, type Job, type ResultRecorder } from './job-slot.js';
import type { QuickDoneEvent, QuickProgressEvent } from '../model/events.js';
import type { QuickTestSettings } from '../model/settings.js';
import { rateOf } from '../model/progress.js';

export type EngineFn = (spec: EngineSpec, opts: RunTestOptions) => Promise<EngineResult>;

export interface QuickTestDeps {
  /** Runs one engine spec: an EngineHost's runTest (crash isolation), or core runTest. */
  engine: EngineFn;
  /** Least time between two forwarded progress events (default 50 ms: at most ~20 a second). */
  progressIntervalMs?: number;
  /** Where finished results are kept (history): the completed cycles as one result. */
  history?: ResultRecorder;
}

export class QuickTestService extends SlotService<QuickTestSettings> {
  readonly #engine: EngineFn;
  readonly #interval: number;

  constructor(deps: QuickTestDeps) {
    super(deps.history);
    this.#engine = deps.engine;
    this.#interval = deps.progressIntervalMs ?? 50;
  }

  protected async run(job: Job, settings: QuickTestSettings): Promise<void> {
    const { id: jobId, sink, controller } = job;
    const signal = controller.signal;
    const emit = emitterFor(sink);
    // The job is over (files removed) before anyone hears so: a Start sent on 'quick.done' works.
    const finish = (done: Omit<QuickDoneEvent, 'jobId'>): void => {
      this.release(job);
      emit('quick.done', { jobId, ...done });
    };
    const cycles = settings.mode === 'runs' ? settings.runs : 0;
    let cycle = 0;
    const done: ResultDocument[] = [];
    // The completed cycles as one result, saved, whether the sequence finished or was stopped
    // (continuous mode only ever ends by Stop); a cycle cut short is not in it.
    const keep = async (): Promise<Pick<QuickDoneEvent, 'result' | 'saved'>> => {
      if (done.length === 0) return {};
      const note =
        cycles === 0
          ? `Continuous mode: ${done.length} cycle${done.length === 1 ? '' : 's'} completed before Stop.`
          : done.length < cycles
            ? `Stopped after ${done.length} of ${cycles} runs.`
            : undefined;
      const result = combineRuns(done, note);
      return { result, ...(await this.record(result)) };
    };
    try {
      while (!signal.aborted && (cycles === 0 || cycle < cycles)) {
        // Nothing runs unattended: a front door that never told us its sink went away still
        // does not get a test running forever.
        if (!sink.alive) controller.abort(new Error('nobody is watching this test'));
        cycle++;
        const result = await runBenchmark({
          target: settings.target,
          test: 'quick',
          size: settings.sizeBytes,
          engine: this.#engine,
          signal,
          handleSignals: false,
          onProgress: this.#progressForwarder(jobId, cycle, cycles, emit, () => {
            if (!sink.alive) controller.abort(new Error('nobody is watching this test'));
          }),
        });
        done.push(result);
        emit('quick.cycle', { jobId, cycle, result });
      }
      finish({ outcome: signal.aborted ? 'stopped' : 'finished', ...(await keep()) });
    } catch (err) {
      if (isAbortError(err) || signal.aborted) {
        finish({ outcome: 'stopped', ...(await keep()) });
      } else {
        const plain = toPlainError(err, { path: settings.target });
        finish({ outcome: 'failed', error: { code: plain.code, message: plain.message } });
      }
    }
  }

  /** Maps runner progress to dial events; at most one per interval, but every change of step or
   *  stage goes through so the UI never misses the switch from write to read. */
  #progressForwarder(
    jobId: string,
    cycle: number,
    cycles: number,
    emit: (channel: 'quick.progress', data: QuickProgressEvent) => void,
    check: () => void,
  ): (p: RunProgress) => void {
    let last = 0;
    let lastKey = '';
    return (p) => {
      check();
      const phase = p.testName === 'Read' ? 'read' : 'write';
      const key = `${phase}/${p.phase}`;
      const now = performance.now();
      if (key === lastKey && now - last < this.#interval) return;
      last = now;
      lastKey = key;
      emit('quick.progress', {
        jobId,
        cycle,
        cycles,
        phase,
        stage: p.phase,
        ...rateOf(p),
        elapsed: p.elapsed,
      });
    };
  }
}
