// The Quick Test job: Blackmagic-style write-then-read cycles on one target, N times or until
// stopped, each cycle a full runBenchmark (its own workspace, removed whatever happens). It owns
// the job's lifetime and its events: progress (throttled for a dial), one 'quick.cycle' per
// finished cycle, and exactly one 'quick.done', all sent only to the sink that started the job.
import { expandPath } from './targets.js';
import type { EngineFn } from '../core/engine.js';

import { combineRuns } from '../model/analysis.js';
import type { ResultDocument } from '../model/result.js';
import { runBenchmark, type RunProgress } from '../core/runner.js';
import { SlotService } from './job-slot.js';
import type { JobRun, SlotServiceDeps } from './job-slot.js';
import type { QuickDoneEvent } from '../model/events.js';
import type { QuickTestSettings } from '../model/settings.js';
import { rateOf } from '../model/progress.js';
import type { EventSink } from '../model/event-map.js';

export interface QuickTestDeps extends SlotServiceDeps {
  /** Runs one engine spec: an EngineHost's runTest (crash isolation), or core runTest. */
  engine: EngineFn;
  /** Least time between two forwarded progress events (default 50 ms: at most ~20 a second). */
  progressIntervalMs?: number;
}

export class QuickTestService extends SlotService<QuickTestSettings> {
  readonly #engine: EngineFn;
  readonly #interval: number;

  constructor(deps: QuickTestDeps) {
    super(deps);
    this.#engine = deps.engine;
    this.#interval = deps.progressIntervalMs ?? 50;
  }

  /** A start from a front door (see startChecked). */
  request(asked: QuickTestSettings, sink: EventSink): Promise<{ jobId: string }> {
    const settings = { ...asked, target: expandPath(asked.target) };
    return this.startChecked(settings, sink, () => this.targets.assertStartable(settings.target));
  }

  protected async run(run: JobRun, settings: QuickTestSettings): Promise<void> {
    const { job, signal, emit, watch } = run;
    const jobId = job.id;
    const finish = (done: Omit<QuickDoneEvent, 'jobId'>): void => run.finish('quick.done', { jobId, ...done });
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
        watch();
        cycle++;
        const result = await runBenchmark({
          target: settings.target,
          test: 'quick',
          size: settings.sizeBytes,
          ...(settings.precision !== undefined ? { precision: settings.precision } : {}),
          engine: this.#engine,
          signal,
          handleSignals: false,
          onProgress: this.#progressForwarder(run, cycle, cycles),
        });
        done.push(result);
        emit('quick.cycle', { jobId, cycle, result });
      }
      finish({ outcome: signal.aborted ? 'stopped' : 'finished', ...(await keep()) });
    } catch (err) {
      const ended = run.ended(err, { path: settings.target });
      finish(ended.outcome === 'stopped' ? { ...ended, ...(await keep()) } : ended);
    }
  }

  /** Maps runner progress to dial events; at most one per interval, but every change of step or
   *  stage goes through so the UI never misses the switch from write to read. */
  #progressForwarder(run: JobRun, cycle: number, cycles: number): (p: RunProgress) => void {
    const due = run.throttle(this.#interval);
    return (p) => {
      run.watch();
      const phase = p.testName === 'Read' ? 'read' : 'write';
      if (!due(`${phase}/${p.phase}`)) return;
      run.emit('quick.progress', {
        jobId: run.job.id,
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
