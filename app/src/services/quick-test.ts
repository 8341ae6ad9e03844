// The Quick Test job: Blackmagic-style write-then-read cycles on one target, N times or until
// stopped, each cycle a full runBenchmark (its own workspace, removed whatever happens). It owns
// the job's lifetime and its events: progress (throttled for a dial), one 'quick.cycle' per
// finished cycle, and exactly one 'quick.done', all sent only to the sink that started the job.
import { randomUUID } from 'node:crypto';
import type { EngineResult, EngineSpec } from '../core/engine-types.js';
import { isAbortError, type RunTestOptions } from '../core/engine.js';
import { DiskDialError, toPlainError } from '../core/errors.js';
import { runBenchmark, type RunProgress } from '../core/runner.js';
import type { EventChannel, EventMap, EventSink, QuickDoneEvent, QuickProgressEvent, QuickTestSettings } from '../ipc/contract.js';

export type EngineFn = (spec: EngineSpec, opts: RunTestOptions) => Promise<EngineResult>;

export interface QuickTestDeps {
  /** Runs one engine spec: an EngineHost's runTest (crash isolation), or core runTest. */
  engine: EngineFn;
  /** Least time between two forwarded progress events (default 50 ms: at most ~20 a second). */
  progressIntervalMs?: number;
}

interface Job {
  id: string;
  sink: EventSink;
  controller: AbortController;
  /** Settles when the job has ended and its files are gone. */
  done: Promise<void>;
}

export class QuickTestService {
  readonly #engine: EngineFn;
  readonly #interval: number;
  #job: Job | undefined;

  constructor(deps: QuickTestDeps) {
    this.#engine = deps.engine;
    this.#interval = deps.progressIntervalMs ?? 50;
  }

  /** The running job's id, if any. */
  get runningJobId(): string | undefined {
    return this.#job?.id;
  }

  /** Starts a job and returns at once; its outcome arrives as events. One job at a time. */
  start(settings: QuickTestSettings, sink: EventSink): { jobId: string } {
    if (this.#job) throw new DiskDialError('A test is already running.', { code: 'ERR_BUSY' });
    const id = randomUUID();
    const controller = new AbortController();
    const job: Job = { id, sink, controller, done: Promise.resolve() };
    this.#job = job;
    job.done = this.#run(job, { ...settings });
    return { jobId: id };
  }

  /** Stops the job with this id (its files are removed). False when no such job is running. */
  stop(jobId: string): boolean {
    const job = this.#job;
    if (!job || job.id !== jobId || job.controller.signal.aborted) return false;
    job.controller.abort(new Error('stopped by the user'));
    return true;
  }

  /** Stops whatever the window or socket behind `sink` started (it is gone: nobody would see it). */
  async stopFor(sink: EventSink): Promise<void> {
    const job = this.#job;
    if (!job || job.sink !== sink) return;
    job.controller.abort(new Error('the window or connection that started the test went away'));
    await job.done;
  }

  /** Stops any running job and waits until it has ended and its files are gone. */
  async stopAll(): Promise<void> {
    const job = this.#job;
    if (!job) return;
    job.controller.abort(new Error('DiskDial is closing'));
    await job.done;
  }

  async #run(job: Job, settings: QuickTestSettings): Promise<void> {
    const { id: jobId, sink, controller } = job;
    const signal = controller.signal;
    const emit = <C extends EventChannel>(channel: C, data: EventMap[C]): void => {
      if (!sink.alive) return;
      try {
        sink.send(channel, data);
      } catch {
        /* a socket closing under us; its close handler stops the job */
      }
    };
    // The job is over (files removed) before anyone hears so: a Start sent on 'quick.done' works.
    const finish = (done: Omit<QuickDoneEvent, 'jobId'>): void => {
      if (this.#job === job) this.#job = undefined;
      emit('quick.done', { jobId, ...done });
    };
    const cycles = settings.mode === 'runs' ? settings.runs : 0;
    let cycle = 0;
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
        emit('quick.cycle', { jobId, cycle, result });
      }
      finish({ outcome: signal.aborted ? 'stopped' : 'finished' });
    } catch (err) {
      if (isAbortError(err) || signal.aborted) {
        finish({ outcome: 'stopped' });
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
        instMBps: p.instMBps,
        avgMBps: p.avgMBps,
        bytesDone: p.bytesDone,
        bytesTotal: p.bytesTotal,
        elapsed: p.elapsed,
      });
    };
  }
}
