// How a screen's store follows its one job through the bridge's events: events of our job are
// applied, others dropped, and those that arrive before the core has answered the start (so
// before we know our job id) wait, in order, until it has — then they are replayed. The stores
// follow their job through lib/job-lifecycle.ts, built on these; the campaign store (whose Stop
// waits for the job id) uses them directly.
import type { IpcResult } from '@ipc/contract';
import type { IpcError } from '@model/events';

export type JobStatus = 'idle' | 'starting' | 'running' | 'stopping';

export const isBusy = (status: JobStatus): boolean => status !== 'idle';

/** Events that arrive before the core has told us our job id wait here (at most this many). */
export const QUEUE_CAP = 1000;

export interface Queued<A extends string, E> {
  apply: A;
  e: E;
}

interface Followed<J, A extends string, E> {
  job: J | null;
  status: JobStatus;
  queued: Array<Queued<A, E>>;
}

/** route(apply, e, fn): applies `fn` to the job when `e` is our running job's; queues `e` while
 *  the start is in flight; drops it otherwise. */
export function jobRouter<J extends { jobId: string | null }, A extends string, E extends { jobId: string }>(
  get: () => Followed<J, A, E>,
  set: (patch: { queued: Array<Queued<A, E>> }) => void,
): <X extends E>(apply: A, e: X, fn: (job: J, e: X) => void) => void {
  return (apply, e, fn) => {
    const s = get();
    if (!s.job || !isBusy(s.status)) return;
    if (s.job.jobId === null) {
      if (s.queued.length < QUEUE_CAP) set({ queued: [...s.queued, { apply, e }] });
      return;
    }
    if (e.jobId !== s.job.jobId) return;
    fn(s.job, e);
  };
}

/** patchJob(patch): merges `patch` into the followed job, when there is one. */
export function jobPatcher<J>(get: () => { job: J | null }, set: (patch: { job: J }) => void): (patch: Partial<J>) => void {
  return (patch) => {
    const job = get().job;
    if (job) set({ job: { ...job, ...patch } });
  };
}

/** Replays, in order, the events held while the start was in flight that belong to `jobId`. */
export function replayQueued<A extends string, E extends { jobId: string }>(
  queued: ReadonlyArray<Queued<A, E>>,
  jobId: string,
  handlers: Record<A, (e: E) => void>,
): void {
  for (const q of queued) if (q.e.jobId === jobId) handlers[q.apply](q.e);
}

/**
 * The core has answered a start with our job's id: adopt it (with any other fields the answer
 * carries), replay the events held meanwhile, and send the Stop the user pressed while the start
 * was in flight. Nothing happens when the job was reset in the meantime.
 */
export async function adoptJob<J extends { jobId: string | null }, A extends string, E extends { jobId: string }>(
  get: () => Followed<J, A, E>,
  set: (patch: { status: JobStatus; job: J; queued: Array<Queued<A, E>> }) => void,
  answer: { jobId: string } & Partial<J>,
  handlers: (jobId: string) => Record<A, (e: E) => void>,
  stop: (jobId: string) => Promise<unknown>,
): Promise<void> {
  const s = get();
  if (!s.job) return; // reset while the start was in flight
  const stopping = s.status === 'stopping';
  set({ status: stopping ? 'stopping' : 'running', job: { ...s.job, ...answer }, queued: [] });
  replayQueued(s.queued, answer.jobId, handlers(answer.jobId));
  if (stopping && isBusy(get().status)) await stop(answer.jobId);
}

/**
 * Stop pressed: the job is marked stopping at once; the core is asked to stop once the job has an
 * id (before that, adoptJob sends it when the start's answer arrives). A refusal goes to onError.
 */
export async function stopJob<J extends { jobId: string | null }>(
  get: () => { job: J | null; status: JobStatus },
  set: (patch: { status: JobStatus }) => void,
  stop: (jobId: string) => Promise<IpcResult<unknown>>,
  onError: (error: IpcError) => void,
): Promise<void> {
  const { status, job } = get();
  if (!job || (status !== 'running' && status !== 'starting')) return;
  set({ status: 'stopping' });
  if (!job.jobId) return;
  const r = await stop(job.jobId);
  if (!r.ok) onError(r.error);
}
