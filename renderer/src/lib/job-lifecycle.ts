// The life of the one job a screen's store follows, written once: Start shows the job at once as
// starting and adopts the id the core answers with (the events held meanwhile are replayed and a
// Stop pressed meanwhile is sent then: lib/job-events.ts), Stop, and the done event that ends it.
// A store says only what is its own: its bridge calls, its event actions and what its done event
// keeps. The Quick Test, Detailed, Hash (test and check) and wizard stores use it.
import type { IpcResult } from '@ipc/contract';
import { ipcErrorText, type IpcError, type SavedNote, type TestDone } from '@model/events';
import type { ResultDocument } from '@model/result';
import { adoptJob, jobPatcher, jobRouter, stopJob, type JobStatus, type Queued } from './job-events';

/** What a store that follows one job holds, besides its own fields. */
export interface FollowsJob {
  status: JobStatus;
  job: { jobId: string | null } | null;
  /** Events that came before the start's answer (see lib/job-events.ts). */
  queued: Array<Queued<string, { jobId: string }>>;
}

type JobOf<S extends FollowsJob> = NonNullable<S['job']>;
type ApplyOf<S extends FollowsJob> = S['queued'][number]['apply'];
type EventOf<S extends FollowsJob> = S['queued'][number]['e'];
/** An event action; declared as a method so each action may take its own kind of event (the
 *  name an event is held under says which kind it is). */
type EventAction<E> = { act(e: E): void }['act'];

export interface JobCalls<S extends FollowsJob> {
  /** Asks the core to stop our job. */
  stop: (jobId: string) => Promise<IpcResult<unknown>>;
  /** The store's event actions, by the names its events are held under. */
  events: (s: S) => Record<ApplyOf<S>, EventAction<EventOf<S>>>;
}

export interface StartWords<S> {
  /** Set with the starting job (e.g. the last error cleared). */
  starting?: Partial<S>;
  /** Set when the core refuses the start (after status idle and no job, which it may override). */
  refused: (error: IpcError) => Partial<S>;
}

export interface JobLifecycle<S extends FollowsJob> {
  /** route(apply, e, fn): applies `fn` when `e` is our job's, holds it while the start is in flight. */
  route: <X extends EventOf<S>>(apply: ApplyOf<S>, e: X, fn: (job: JobOf<S>, e: X) => void) => void;
  /** Merges `patch` into the followed job, when there is one. */
  patchJob: (patch: Partial<JobOf<S>>) => void;
  /** Follows `job` (the caller has checked nothing runs) through `send`'s answer; false when the
   *  core refused it. The answer's fields (its job id at least) are merged into the job. */
  start: (job: JobOf<S>, send: () => Promise<IpcResult<{ jobId: string } & Partial<JobOf<S>>>>, words: StartWords<S>) => Promise<boolean>;
  /** Stop pressed (see stopJob); a refusal goes to onError. */
  stop: (onError: (error: IpcError) => void) => Promise<void>;
  /** Our job's done event (held under 'done'): the job ends (status idle) with what `patch` makes
   *  of it. True when it was ours and has ended now. */
  end: <X extends EventOf<S>>(e: X, patch: (job: JobOf<S>, e: X) => Partial<S>) => boolean;
}

export function jobLifecycle<S extends FollowsJob>(get: () => S, set: (patch: Partial<S>) => void, calls: JobCalls<S>): JobLifecycle<S> {
  type J = JobOf<S>;
  type A = ApplyOf<S>;
  type E = EventOf<S>;
  // The primitives take the store's fields by their own names; S has them all.
  const followed = get as () => { job: J | null; status: JobStatus; queued: Array<Queued<A, E>> };
  const patch = set as (p: object) => void;
  const route = jobRouter<J, A, E>(followed, patch);
  const patchJob = jobPatcher<J>(followed, patch);

  return {
    route,
    patchJob,

    async start(job, send, words) {
      patch({ status: 'starting', job, queued: [], ...words.starting });
      const r = await send();
      if (!r.ok) {
        patch({ status: 'idle', job: null, queued: [], ...words.refused(r.error) });
        return false;
      }
      await adoptJob<J, A, E>(followed, patch, r.value, () => calls.events(get()), calls.stop);
      return true;
    },

    stop: (onError) => stopJob(followed, patch, calls.stop, onError),

    end(e, fn) {
      let ended = false;
      route('done' as A, e, (job, x) => {
        patch({ status: 'idle', ...fn(job, x) });
        ended = true;
      });
      return ended;
    },
  };
}

/** What a test's done event leaves to a store that keeps the last document: the document and
 *  where it was saved when the test finished with one, the error in words when it failed. */
export function testEnd(e: TestDone): { result?: ResultDocument; saved?: SavedNote | null; error?: string } {
  if (e.outcome === 'finished' && e.result) return { result: e.result, saved: e.saved ?? null };
  if (e.outcome === 'failed') return { error: ipcErrorText(e.error) };
  return {};
}

/** A store's job fields before its first job (and after a reset): spread into its initial state. */
export function noJob<J, Q>(): { status: JobStatus; job: J | null; queued: Q[] } {
  return { status: 'idle', job: null, queued: [] };
}
