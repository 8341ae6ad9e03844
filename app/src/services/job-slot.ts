// "One test at a time" lives here and nowhere else: the process's one JobSlot is shared by the
// Quick Test, the detailed tests, the hash test and the wizard, whichever front door (window,
// socket, CLI) starts them — two tests would measure each other. A job has an id, an
// AbortController the user, the app or a vanished window can fire, events only to the sink that
// started it, and a `done` promise that settles once it has ended and its files are gone. A stopped
// job that has not ended within STOP_ANSWER_MS (its drive holds this process's I/O) is let go of:
// the slot is free again and its screen is told it stopped, with what was left.
// JobRun is what every service's job shares: the emitter, the watch, the throttle and finish.
import { randomUUID } from 'node:crypto';
import { DiskDialError } from '../model/errors.js';
import type { ResultDocument } from '../model/result.js';
import type { EventChannel, EventMap, EventSink } from '../model/event-map.js';
import type { SavedNote } from '../model/events.js';
import { isAbortError, type AbortError } from '../core/engine.js';
import { TargetsService } from './targets.js';
import { toPlainError } from '../model/errors.js';
import type { IpcError } from '../model/events.js';

/** Keeps a finished job's result (HistoryService.record): where it went, or why it could not.
 *  Never rejects: a result that cannot be saved is still shown. */
export type ResultRecorder = (doc: ResultDocument) => Promise<SavedNote>;

export interface Job {
  id: string;
  sink: EventSink;
  controller: AbortController;
  /** Settles when the job has ended and its files are gone. */
  done: Promise<void>;
  /** The service running it: its stop verb stops only its own jobs. */
  owner: object;
  /** Stopped, and let go of before it ended (its drive not answering): nothing more of it is sent. */
  abandoned?: boolean;
  /** Where to tell the front door that the job ended as stopped, when it is let go of (dispatch
   *  sets it from the contract: the start channel's done event). */
  doneChannel?: TestDoneChannel;
}

/** How long a stopped job may take to end before the slot lets go of it. The engine confirms a
 *  stop within a quarter second and one stuck in the kernel is given up on within half a second
 *  (EngineHost); a job still not ended then waits on its drive in this process (a removal, a
 *  read) and is left to end whenever it can: Stop is answered within a second, and the slot is
 *  free for a test on another drive. */
export const STOP_ANSWER_MS = 750;

/** What the user is told of a job let go of, or of one whose engine was given up on. */
export const NOT_ANSWERING_NOTE =
  'The drive is not answering: stopped without waiting for it. Whatever the job left on it is removed once it answers, or by the next test there.';

/** The done events that are a test's plain end (TestDone); the wizard's and a campaign's carry more. */
export type TestDoneChannel = 'quick.done' | 'detailed.done' | 'hash.done' | 'check.done';

const busy = (): DiskDialError => new DiskDialError('A test is already running.', { code: 'ERR_BUSY' });

export class JobSlot {
  #job: Job | undefined;

  /** The running job's id, if any. */
  get runningJobId(): string | undefined {
    return this.#job?.id;
  }

  /** The running job's id when `owner` started it. */
  runningFor(owner: object): string | undefined {
    return this.#job?.owner === owner ? this.#job.id : undefined;
  }

  /** ERR_BUSY when a job is running: checked before the slow checks of a start, and again by start. */
  assertIdle(): void {
    if (this.#job) throw busy();
  }

  /** Starts `run` as the slot's job and returns at once. ERR_BUSY when a job is running. */
  start(sink: EventSink, run: (job: Job) => Promise<void>, owner: object = this): { jobId: string } {
    if (this.#job) throw busy();
    const job: Job = { id: randomUUID(), sink, controller: new AbortController(), done: Promise.resolve(), owner };
    this.#job = job;
    job.done = run(job);
    return { jobId: job.id };
  }

  /** Frees the slot: the job's files are gone. Call before its last event, so a Start sent on
   *  hearing it finds the slot free. */
  release(job: Job): void {
    if (this.#job === job) this.#job = undefined;
  }

  /** Stops the job with this id (its files are removed); with `owner`, only a job it started.
   *  False when no such job is running. */
  stop(jobId: string, owner?: object): boolean {
    const job = this.#job;
    if (!job || job.id !== jobId || job.controller.signal.aborted) return false;
    if (owner !== undefined && job.owner !== owner) return false;
    job.controller.abort(new Error('stopped by the user'));
    void this.#endedOrLetGo(job);
    return true;
  }

  /** Stops whatever the window or socket behind `sink` started (it is gone: nobody would see it). */
  async stopFor(sink: EventSink): Promise<void> {
    const job = this.#job;
    if (!job || job.sink !== sink) return;
    job.controller.abort(new Error('the window or connection that started the test went away'));
    await this.#endedOrLetGo(job);
  }

  /** Stops any running job and waits until it has ended (its files gone), or has been let go of. */
  async stopAll(): Promise<void> {
    const job = this.#job;
    if (!job) return;
    job.controller.abort(new Error('DiskDial is closing'));
    await this.#endedOrLetGo(job);
  }

  /** The done event to send, as stopped with NOT_ANSWERING_NOTE, if the job with this id is let go of. */
  whenAbandoned(jobId: string, doneChannel: TestDoneChannel): void {
    if (this.#job?.id === jobId) this.#job.doneChannel = doneChannel;
  }

  /** Tells the running job's front door that its drive moves no data (EngineHost's watch). */
  notAnswering(e: { seconds: number; path?: string }): void {
    const job = this.#job;
    if (job && !job.abandoned)
      emitterFor(job.sink)('job.notAnswering', { jobId: job.id, seconds: e.seconds, ...(e.path ? { path: e.path } : {}) });
  }

  /** Resolves when the stopped job has ended, or after STOP_ANSWER_MS with the job let go of. */
  #endedOrLetGo(job: Job): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        // Only a test whose front door can be told it ended (a dispatched start): the wizard's
        // unmounting and a campaign's saved state are worth their wait.
        if (this.#job === job && job.doneChannel) {
          this.#job = undefined;
          job.abandoned = true;
          if (job.doneChannel) emitterFor(job.sink)(job.doneChannel, { jobId: job.id, outcome: 'stopped', note: NOT_ANSWERING_NOTE });
        }
        resolve();
      }, STOP_ANSWER_MS);
      void job.done.finally(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** The process's one slot: every service uses it unless a test hands in its own. */
export const sharedSlot = new JobSlot();

/** What every job of every service does the same way. */
export class JobRun {
  readonly emit: <C extends EventChannel>(channel: C, data: EventMap[C]) => void;

  constructor(
    readonly job: Job,
    private readonly slot: JobSlot,
  ) {
    const send = emitterFor(job.sink);
    // A job let go of (see STOP_ANSWER_MS) has told its end already: whatever it says later is not sent.
    this.emit = (channel, data) => {
      if (!job.abandoned) send(channel, data);
    };
  }

  get signal(): AbortSignal {
    return this.job.controller.signal;
  }

  /** Nothing runs unattended: a front door that never told us its sink went away still does not
   *  get a test running forever. */
  readonly watch = (): void => {
    if (!this.job.sink.alive) this.job.controller.abort(new Error('nobody is watching this test'));
  };

  /** A gate for progress events: at most one per interval, but every change of `key` (step,
   *  stage, a countdown's second) goes through. */
  throttle(intervalMs: number): (key: string) => boolean {
    let last = 0;
    let lastKey: string | undefined;
    return (key) => {
      const now = performance.now();
      if (key === lastKey && now - last < intervalMs) return false;
      last = now;
      lastKey = key;
      return true;
    };
  }

  /** The job is over (files removed) before anyone hears so: frees the slot, then sends the done
   *  event, so a Start sent on hearing it works. */
  finish<C extends EventChannel>(channel: C, data: EventMap[C]): void {
    this.slot.release(this.job);
    this.emit(channel, data);
  }

  /** How a job that threw ended: stopped (aborted), or failed with the error in plain words. */
  ended(err: unknown, at: { path?: string } = {}): { outcome: 'stopped'; note?: string } | { outcome: 'failed'; error: IpcError } {
    if ((err as AbortError | undefined)?.engineStuck) return { outcome: 'stopped', note: NOT_ANSWERING_NOTE };
    if (isAbortError(err) || this.signal.aborted) return { outcome: 'stopped' };
    const plain = toPlainError(err, at);
    return { outcome: 'failed', error: { code: plain.code, message: plain.message } };
  }
}

export interface SlotServiceDeps {
  /** Where finished results are kept (history); none: results are not saved. */
  history?: ResultRecorder;
  /** The slot shared with every other service (default: the process's one). */
  slot?: JobSlot;
  /** Checks targets before a start (default: a new TargetsService). */
  targets?: TargetsService;
}

/** A service that runs one kind of job in the shared slot: the slot's verbs, and `run` to implement. */
export abstract class SlotService<Settings> {
  readonly slot: JobSlot;
  protected readonly targets: TargetsService;
  readonly #recorder: ResultRecorder | undefined;

  constructor(deps: SlotServiceDeps = {}) {
    this.slot = deps.slot ?? sharedSlot;
    this.targets = deps.targets ?? new TargetsService();
    this.#recorder = deps.history;
  }

  /** The running job's id, if it is this service's. */
  get runningJobId(): string | undefined {
    return this.slot.runningFor(this);
  }

  /** Starts a job and returns at once; its outcome arrives as events. One job at a time. */
  start(settings: Settings, sink: EventSink): { jobId: string } {
    return this.slot.start(sink, (job) => this.run(new JobRun(job, this.slot), settings), this);
  }

  /** A start from a front door: busy first (even when the settings are also wrong), then `check`
   *  (a target that cannot work is refused as a reply rather than as a failed job), then the job. */
  protected async startChecked(settings: Settings, sink: EventSink, check: () => Promise<unknown>): Promise<{ jobId: string }> {
    this.slot.assertIdle();
    await check();
    return this.start(settings, sink);
  }

  /** Stops this service's job with this id (its files are removed). False when no such job is running. */
  stop(jobId: string): boolean {
    return this.slot.stop(jobId, this);
  }

  /** Stops whatever the window or socket behind `sink` started (it is gone: nobody would see it). */
  stopFor(sink: EventSink): Promise<void> {
    return this.slot.stopFor(sink);
  }

  /** Stops any running job and waits until it has ended and its files are gone. */
  stopAll(): Promise<void> {
    return this.slot.stopAll();
  }

  /** Saves a finished result: the done event's `saved` field ({} when nothing saves results). */
  protected async record(doc: ResultDocument): Promise<{ saved?: SavedNote }> {
    if (!this.#recorder) return {};
    try {
      return { saved: await this.#recorder(doc) };
    } catch (err) {
      return { saved: { error: { code: 'ERR_HISTORY', message: `The result could not be saved to history: ${(err as Error).message}` } } };
    }
  }

  /** The job itself; it must settle only once its files are gone, and never reject. */
  protected abstract run(run: JobRun, settings: Settings): Promise<void>;
}

/** Sends to a sink while it is alive; a socket closing under us is not an error (its close
 *  handler stops the job). */
export function emitterFor(sink: EventSink): <C extends EventChannel>(channel: C, data: EventMap[C]) => void {
  return (channel, data) => {
    if (!sink.alive) return;
    try {
      sink.send(channel, data);
    } catch {
      /* the window or socket is going away */
    }
  };
}
