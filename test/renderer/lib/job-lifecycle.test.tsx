// The shared job life of the renderer's stores (lib/job-lifecycle.ts), on a store of its own with
// a bridge whose answers the test releases: events before the start's answer are held and replayed
// in order, a Stop pressed while starting is sent once the id is known, a refused start leaves no
// job, a reset during the start adopts nothing, and the done event ends only our job.
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { IpcResult } from '@ipc/contract';
import type { IpcError, TestDone } from '@model/events';
import type { Queued } from '../../../renderer/src/lib/job-events';
import { jobLifecycle, noJob, testEnd } from '../../../renderer/src/lib/job-lifecycle';
import { resultDoc } from '../helpers/fake-bridge';

interface Job {
  jobId: string | null;
  seen: number[];
  outcome: string | null;
}
interface Tick {
  jobId: string;
  n: number;
}
interface Done {
  jobId: string;
  outcome: 'finished' | 'stopped' | 'failed';
}
interface State {
  status: 'idle' | 'starting' | 'running' | 'stopping';
  job: Job | null;
  queued: Array<Queued<'tick' | 'done', Tick | Done>>;
  note: string | null;
  ended: number;
  onTick(e: Tick): void;
  onDone(e: Done): void;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A store on the lifecycle, with its bridge's start answer and stop calls in the test's hands. */
function setup(stopAnswer: IpcResult<unknown> = { ok: true, value: { stopped: true } }) {
  const stops: string[] = [];
  const answer = deferred<IpcResult<{ jobId: string }>>();
  let life!: ReturnType<typeof jobLifecycle<State>>;
  const store = create<State>()((set, get) => {
    life = jobLifecycle<State>(get, set, {
      stop: (jobId) => (stops.push(jobId), Promise.resolve(stopAnswer)),
      events: (s) => ({ tick: s.onTick, done: s.onDone }),
    });
    return {
      ...noJob<Job, State['queued'][number]>(),
      note: null,
      ended: 0,
      onTick: (e) => life.route('tick', e, (job) => life.patchJob({ seen: [...job.seen, e.n] })),
      onDone: (e) => {
        if (life.end(e, (job) => ({ job: { ...job, outcome: e.outcome } }))) set({ ended: get().ended + 1 });
      },
    };
  });
  const start = () =>
    life.start({ jobId: null, seen: [], outcome: null }, () => answer.promise, {
      starting: { note: 'starting' },
      refused: (error: IpcError) => ({ note: error.message }),
    });
  return { store, life, stops, answer, start };
}

describe('jobLifecycle', () => {
  it('holds events that come before the start is answered, replays ours in order, drops the others', async () => {
    const { store, answer, start } = setup();
    const started = start();
    expect(store.getState()).toMatchObject({ status: 'starting', note: 'starting', job: { jobId: null } });
    store.getState().onTick({ jobId: 'j1', n: 1 });
    store.getState().onTick({ jobId: 'other', n: 9 });
    store.getState().onTick({ jobId: 'j1', n: 2 });
    expect(store.getState().job?.seen).toEqual([]);
    answer.resolve({ ok: true, value: { jobId: 'j1' } });
    expect(await started).toBe(true);
    expect(store.getState()).toMatchObject({ status: 'running', queued: [], job: { jobId: 'j1', seen: [1, 2] } });
    store.getState().onTick({ jobId: 'j1', n: 3 });
    store.getState().onTick({ jobId: 'other', n: 9 });
    expect(store.getState().job?.seen).toEqual([1, 2, 3]);
  });

  it('a done event held during the start ends the job once it is adopted', async () => {
    const { store, answer, start } = setup();
    const started = start();
    store.getState().onTick({ jobId: 'j1', n: 1 });
    store.getState().onDone({ jobId: 'j1', outcome: 'failed' });
    answer.resolve({ ok: true, value: { jobId: 'j1' } });
    await started;
    expect(store.getState()).toMatchObject({ status: 'idle', ended: 1, job: { seen: [1], outcome: 'failed' } });
  });

  it('Stop while starting: stopping at once, the stop is sent with the id the start answers', async () => {
    const { store, life, stops, answer, start } = setup();
    const started = start();
    await life.stop(() => {});
    expect(store.getState().status).toBe('stopping');
    expect(stops).toEqual([]);
    answer.resolve({ ok: true, value: { jobId: 'j1' } });
    await started;
    expect(stops).toEqual(['j1']);
    expect(store.getState()).toMatchObject({ status: 'stopping', job: { jobId: 'j1' } });
    store.getState().onDone({ jobId: 'j1', outcome: 'stopped' });
    expect(store.getState()).toMatchObject({ status: 'idle', job: { outcome: 'stopped' } });
  });

  it('a refused Stop goes to the store’s words', async () => {
    const { life, stops, answer, start } = setup({ ok: false, error: { code: 'ERR_GONE', message: 'No such job.' } });
    const started = start();
    answer.resolve({ ok: true, value: { jobId: 'j1' } });
    await started;
    const errors: IpcError[] = [];
    await life.stop((e) => errors.push(e));
    expect(stops).toEqual(['j1']);
    expect(errors).toEqual([{ code: 'ERR_GONE', message: 'No such job.' }]);
  });

  it('a refused start leaves no job and says why; held events go with it', async () => {
    const { store, answer, start } = setup();
    const started = start();
    store.getState().onTick({ jobId: 'j1', n: 1 });
    answer.resolve({ ok: false, error: { code: 'ERR_BUSY', message: 'Busy.' } });
    expect(await started).toBe(false);
    expect(store.getState()).toMatchObject({ status: 'idle', job: null, queued: [], note: 'Busy.' });
  });

  it('a reset while the start is in flight adopts nothing and sends no stop', async () => {
    const { store, life, stops, answer, start } = setup();
    const started = start();
    await life.stop(() => {});
    store.setState({ ...noJob<Job, State['queued'][number]>() });
    answer.resolve({ ok: true, value: { jobId: 'j1' } });
    await started;
    expect(store.getState()).toMatchObject({ status: 'idle', job: null });
    expect(stops).toEqual([]);
  });

  it('ends only our job, once: another job’s done and a late one change nothing', async () => {
    const { store, answer, start } = setup();
    const started = start();
    answer.resolve({ ok: true, value: { jobId: 'j1' } });
    await started;
    store.getState().onDone({ jobId: 'other', outcome: 'finished' });
    expect(store.getState()).toMatchObject({ status: 'running', ended: 0 });
    store.getState().onDone({ jobId: 'j1', outcome: 'finished' });
    store.getState().onDone({ jobId: 'j1', outcome: 'failed' });
    store.getState().onTick({ jobId: 'j1', n: 5 });
    expect(store.getState()).toMatchObject({ status: 'idle', ended: 1, job: { outcome: 'finished', seen: [] } });
  });
});

describe('testEnd', () => {
  const doc = resultDoc(100, 200);
  const done = (over: Partial<TestDone>): TestDone => ({ jobId: 'j', outcome: 'finished', ...over });

  it('keeps a finished test’s document and where it was saved (null when nothing says)', () => {
    expect(testEnd(done({ result: doc, saved: { id: 'r1' } }))).toEqual({ result: doc, saved: { id: 'r1' } });
    expect(testEnd(done({ result: doc }))).toEqual({ result: doc, saved: null });
  });

  it('a failed test leaves its error in words; a stopped one, or a finish without a document, nothing', () => {
    expect(testEnd(done({ outcome: 'failed', error: { code: 'EIO', message: 'The disk stopped answering.' } }))).toEqual({
      error: 'The disk stopped answering.',
    });
    expect(testEnd(done({ outcome: 'failed' }))).toEqual({ error: 'The test failed.' });
    expect(testEnd(done({ outcome: 'stopped', result: doc }))).toEqual({});
    expect(testEnd(done({}))).toEqual({});
  });
});
