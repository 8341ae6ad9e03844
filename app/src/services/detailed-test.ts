// The detailed-test job: one run of runBenchmark for the CrystalDiskMark grid, the sustained-write
// curve or the many-file test, with the events the Detailed screen draws from — the plan once it
// is known, throttled progress (pauses included), every finished step as it lands, and exactly
// one 'detailed.done', all sent only to the sink that started the job.

import { expandPath } from './targets.js';
import { runBenchmark, type RunBenchmarkOptions, type RunProgress } from '../core/runner.js';
import { SlotService } from './job-slot.js';
import type { JobRun, SlotServiceDeps } from './job-slot.js';
import { toResultTest, type DeviceTarget } from '../core/result.js';
import { inputError } from '../model/errors.js';
import type { EventSink } from '../model/event-map.js';
import type { DetailedDoneEvent, DetailedProgressEvent } from '../model/events.js';
import type { DetailedSettings } from '../model/settings.js';
import type { EngineFn } from '../core/engine.js';
import { timedOf } from '../model/progress.js';
import { runKind } from '../model/kinds/registry.js';

/** Proves a whole disk by the wizard's rules (WizardService.proveForErase) and returns it as it is now. */
export type ProveDisk = (device: string, confirmName: string, allowInternal: boolean) => Promise<DeviceTarget>;

export interface DetailedTestDeps extends SlotServiceDeps {
  engine: EngineFn;
  /** A kind's whole-disk face (`wholeDevice`): how a disk the screen chose is proven before it is written. */
  proveDisk?: ProveDisk;
  /** Least time between two forwarded progress events (default 100 ms). */
  progressIntervalMs?: number;
}

/** The runner's options for what the Detailed screen asked: the kind says what its settings mean. */
export function benchmarkOptions(s: DetailedSettings): Omit<RunBenchmarkOptions, 'engine' | 'signal'> {
  const kind = runKind(s.kind);
  if (!kind.fromScreen) throw new Error(`the Detailed screen cannot run ${kind.name}`);
  // A whole disk reaches the runner as the disk proven (DetailedTestService.request), not as asked.
  const { wholeDisk: _asked, ...run } = kind.fromScreen(s);
  return { target: s.target, runs: s.runs, restSeconds: s.restSeconds, handleSignals: false, test: s.kind, ...run };
}

export class DetailedTestService extends SlotService<DetailedSettings> {
  readonly #engine: EngineFn;
  readonly #interval: number;
  #proveDisk: ProveDisk | undefined;
  /** The whole disk each whole-disk start proved, for its run. */
  readonly #proven = new WeakMap<DetailedSettings, DeviceTarget>();

  constructor(deps: DetailedTestDeps) {
    super(deps);
    this.#engine = deps.engine;
    this.#interval = deps.progressIntervalMs ?? 100;
    this.#proveDisk = deps.proveDisk;
  }

  /** Lets the screen's whole-disk face run, proven by the wizard's rules (the front door sets it
   *  once its wizard service exists: that service holds the erase switch and the confirmation). */
  allowWholeDisks(prove: ProveDisk): void {
    this.#proveDisk = prove;
  }

  /** A start from a front door (see startChecked). A whole disk is proven (and, in the desktop
   *  app, confirmed in a native dialog) before the job starts, so a refusal answers the start. */
  request(asked: DetailedSettings, sink: EventSink): Promise<{ jobId: string }> {
    const settings = { ...asked, target: expandPath(asked.target) };
    const disk = runKind(settings.kind).fromScreen?.(settings).wholeDisk;
    if (!disk) return this.startChecked(settings, sink, () => this.targets.assertStartable(settings.target));
    return this.startChecked(settings, sink, async () => {
      if (!runKind(settings.kind).wholeDevice || !this.#proveDisk)
        throw inputError(`${runKind(settings.kind).name} cannot run on a whole disk here.`, 'ERR_NOT_SUPPORTED');
      this.#proven.set(settings, await this.#proveDisk(disk.device, disk.confirmName, disk.allowInternal === true));
    });
  }

  protected async run(run: JobRun, settings: DetailedSettings): Promise<void> {
    const { signal, emit, watch } = run;
    const jobId = run.job.id;
    const kind = settings.kind;
    const finish = (done: Omit<DetailedDoneEvent, 'jobId'>): void => run.finish('detailed.done', { jobId, ...done });
    // Every change of step or stage goes through, and every second of a countdown (its last, 0, included).
    const due = run.throttle(this.#interval);
    const progress = (e: Omit<DetailedProgressEvent, 'jobId' | 'kind'>): void => {
      watch();
      if (due(`${e.run}/${e.testIndex}/${e.stage}/${e.remaining ?? ''}`)) emit('detailed.progress', { jobId, kind, ...e });
    };
    let testCount = 0;
    try {
      const device = this.#proven.get(settings);
      const result = await runBenchmark({
        ...benchmarkOptions(settings),
        ...(device ? { device } : {}),
        engine: this.#engine,
        signal,
        onPlan: (plan) => {
          testCount = plan.steps.length;
          emit('detailed.plan', {
            jobId,
            kind,
            runs: settings.runs,
            steps: plan.steps.map((s) => s.name),
            bytes: plan.needBytes,
            notes: plan.notes,
            ...(plan.scaled ? { scaled: plan.scaled } : {}),
            ...(plan.fileSet ? { files: plan.fileSet.entries.map((e) => ({ name: e.name, bytes: e.bytes })) } : {}),
          });
        },
        onProgress: (p: RunProgress) =>
          progress({
            run: p.run,
            runs: p.runs,
            testIndex: p.testIndex,
            testCount: p.testCount,
            testName: p.testName,
            stage: p.phase,
            ...timedOf(p),
            ...(p.frames ? { frames: p.frames } : {}),
          }),
        onPause: (e) =>
          progress({
            run: e.run,
            runs: e.runs,
            testIndex: e.testIndex,
            testCount,
            testName: e.reason === 'rest' ? `Rest before run ${e.run}` : e.testName,
            stage: e.reason,
            instMBps: 0,
            avgMBps: 0,
            bytesDone: 0,
            bytesTotal: 0,
            elapsed: e.secondsTotal - e.remaining,
            secondsTotal: e.secondsTotal,
            remaining: e.remaining,
          }),
        onStepDone: (e) => {
          watch();
          emit('detailed.step', {
            jobId,
            kind,
            run: e.run,
            testIndex: e.testIndex,
            // The series is for the final document; a step event stays small.
            test: { ...toResultTest(e.step.name, e.result, e.run), series: [] },
            ...(e.step.file !== undefined && e.step.pass ? { file: { name: e.step.file, bytes: e.result.bytes, pass: e.step.pass } } : {}),
          });
        },
      });
      // A kind that keeps what a stop leaves (a verify's proof so far) is saved and shown like a finished one.
      const kept = !signal.aborted || runKind(kind).keepsStopped === true;
      finish(kept ? { outcome: 'finished', result, ...(await this.record(result)) } : { outcome: 'stopped' });
    } catch (err) {
      finish(run.ended(err, { path: settings.target }));
    }
  }
}
