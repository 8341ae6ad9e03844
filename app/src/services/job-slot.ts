// One running job at a time, and the rules every job keeps: an id, an AbortController the user,
// the app or a vanished window can fire, events only to the sink that started it, and a `done`
// promise that settles once the job has ended and its files are gone. The Quick Test and the
// detailed tests each hold a slot; the dispatcher keeps the two from running together.
import { randomUUID } from 'node:crypto';
import { DiskDialError } from '../model/errors.js';
import type { ResultDocument } from '../model/result.js';
import type { EventChannel, EventMap, EventSink } from '../ipc/contract.js';
import type { SavedNote } from '../model/events.js';

/** Keeps a finished job's result (HistoryService.record): where it went, or why it could not.
 *  Never rejects: a result that cannot be saved is still shown. */
export type ResultRecorder = (doc: ResultDocument) => Promise<SavedNote>;

export interface Job {
  id: string;
  sink: EventSink;
  controller: AbortController;
  /** Settles when the job has ended and its files are gone. */
  done: Promise<void>;
}

export class JobSlot {
  #job: Job | undefined;

  /** The running job's id, if any. */
  get runningJobId(): string | undefined {
    return this.#job?.id;
  }

  /** Starts `run` as the slot's job and returns at once. ERR_BUSY when a job is running. */
  start(sink: EventSink, run: (job: Job) => Promise<void>): { jobId: string } {
    if (this.#job) throw new DiskDialError('A test is already running.', { code: 'ERR_BUSY' });
    const job: Job = { id: randomUUID(), sink, controller: new AbortController(), done: Promise.resolve() };
    this.#job = job;
    job.done = run(job);
    return { jobId: job.id };
  }

  /** Frees the slot: the job's files are gone. Call before its last event, so a Start sent on
   *  hearing it finds the slot free. */
  release(job: Job): void {
    if (this.#job === job) this.#job = undefined;
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
}

/** A service that runs one kind of job, one at a time: the slot's verbs, and `run` to implement. */
export abstract class SlotService<Settings> {
  readonly #slot = new JobSlot();
  readonly #recorder: ResultRecorder | undefined;

  /** @param recorder where finished results are kept (history); none: results are not saved. */
  constructor(recorder?: ResultRecorder) {
    this.#recorder = recorder;
  }

  /** The running job's id, if any. */
  get runningJobId(): string | undefined {
    return this.#slot.runningJobId;
  }

  /** Starts a job and returns at once; its outcome arrives as events. One job at a time. */
  start(settings: Settings, sink: EventSink): { jobId: string } {
    return this.#slot.start(sink, (job) => this.run(job, settings));
  }

  /** Stops the job with this id (its files are removed). False when no such job is running. */
  stop(jobId: string): boolean {
    return this.#slot.stop(jobId);
  }

  /** Stops whatever the window or socket behind `sink` started (it is gone: nobody would see it). */
  stopFor(sink: EventSink): Promise<void> {
    return this.#slot.stopFor(sink);
  }

  /** Stops any running job and waits until it has ended and its files are gone. */
  stopAll(): Promise<void> {
    return this.#slot.stopAll();
  }

  /** Frees the slot; call before the job's last event (see JobSlot.release). */
  protected release(job: Job): void {
    this.#slot.release(job);
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
  protected abstract run(job: Job, settings: Settings): Promise<void>;
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
