// The one job slot: every service shares it, so one test runs at a time whichever service (and
// front door) starts it; each service stops only its own jobs; JobRun's shared finish and throttle;
// a stopped job that cannot end is let go of.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventChannel, EventMap, EventSink } from '../../../app/src/ipc/contract.js';
import { JobSlot, NOT_ANSWERING_NOTE, sharedSlot, SlotService, STOP_ANSWER_MS, type JobRun } from '../../../app/src/services/job-slot.js';

function sink(): EventSink & { events: Array<{ channel: EventChannel; data: unknown }> } {
  const events: Array<{ channel: EventChannel; data: unknown }> = [];
  return {
    events,
    alive: true,
    send<C extends EventChannel>(channel: C, data: EventMap[C]) {
      events.push({ channel, data });
    },
  };
}

/** A job that runs until stopped, then says so the shared way. */
class Waiting extends SlotService<null> {
  protected async run(run: JobRun): Promise<void> {
    await new Promise((resolve) => run.signal.addEventListener('abort', resolve, { once: true }));
    run.finish('quick.done', { jobId: run.job.id, ...run.ended(new Error('x')) } as EventMap['quick.done']);
  }
}

describe('JobSlot', () => {
  it('is shared by every service: a second service is busy while the first runs', async () => {
    const slot = new JobSlot();
    const a = new Waiting({ slot });
    const b = new Waiting({ slot });
    const s = sink();
    const { jobId } = a.start(null, s);
    expect(() => b.start(null, sink())).toThrow(expect.objectContaining({ code: 'ERR_BUSY', message: 'A test is already running.' }));
    expect(() => slot.assertIdle()).toThrow(expect.objectContaining({ code: 'ERR_BUSY' }));
    expect(a.runningJobId).toBe(jobId);
    expect(b.runningJobId).toBeUndefined();
    // b cannot stop a's job; a can.
    expect(b.stop(jobId)).toBe(false);
    expect(a.stop(jobId)).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    // Released before the done event: a Start sent on hearing it works.
    expect(s.events).toEqual([{ channel: 'quick.done', data: { jobId, outcome: 'stopped' } }]);
    expect(slot.runningJobId).toBeUndefined();
    b.start(null, s);
    await b.stopAll();
    expect(slot.runningJobId).toBeUndefined();
  });

  it('services default to the process slot', () => {
    expect(new Waiting().slot).toBe(sharedSlot);
  });

  it('stopFor stops only the job of that sink', async () => {
    const slot = new JobSlot();
    const a = new Waiting({ slot });
    const mine = sink();
    a.start(null, mine);
    await slot.stopFor(sink());
    expect(slot.runningJobId).toBeDefined();
    await slot.stopFor(mine);
    expect(slot.runningJobId).toBeUndefined();
  });

  it('JobRun.throttle lets every change of key through and one per interval otherwise', () => {
    const slot = new JobSlot();
    let run!: JobRun;
    class Capture extends SlotService<null> {
      protected async run(r: JobRun): Promise<void> {
        run = r;
      }
    }
    new Capture({ slot }).start(null, sink());
    const due = run.throttle(60_000);
    expect([due('a'), due('a'), due('b'), due('b'), due('a')]).toEqual([true, false, true, false, true]);
  });
});

describe('RunService (the CLI’s way in)', () => {
  it('runs in the shared slot: busy while another service’s job runs; a stopped signal ends it as an abort', async () => {
    const { RunService } = await import('../../../app/src/services/run.js');
    const slot = new JobSlot();
    const other = new Waiting({ slot });
    const { jobId } = other.start(null, sink());
    const runs = new RunService({ slot });
    const req = { kind: 'benchmark', options: { target: '/nonexistent-dd', test: 'seq-write' } } as const;
    await expect(runs.run(req)).rejects.toMatchObject({ code: 'ERR_BUSY' });
    other.stop(jobId);
    await other.stopAll();
    const stopped = new AbortController();
    stopped.abort(new Error('cancelled by SIGINT'));
    await expect(runs.run(req, stopped.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(slot.runningJobId).toBeUndefined();
    expect(await runs.save({} as never)).toBeUndefined();
  });
});

/** A job deaf to Stop until `unstick` is called (an I/O the drive never answers). */
class Stuck extends SlotService<null> {
  unstick!: () => void;
  protected async run(run: JobRun): Promise<void> {
    await new Promise<void>((resolve) => (this.unstick = resolve));
    run.finish('quick.done', { jobId: run.job.id, outcome: 'stopped' });
  }
}

class Quick extends SlotService<null> {
  protected async run(run: JobRun): Promise<void> {
    run.finish('quick.done', { jobId: run.job.id, outcome: 'finished' });
  }
}

// A stopped job that cannot end (its drive holds an I/O of this process in the kernel) is let go
// of after STOP_ANSWER_MS; before, Stop answered "stopped", the job never ended and every later
// start was ERR_BUSY. Fake timers: the deadline is the slot's own timer, not a measured time.
describe('a stopped job that cannot end', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is let go of after STOP_ANSWER_MS: told as stopped with a note, the slot free, its later words dropped', async () => {
    const slot = new JobSlot();
    const stuck = new Stuck({ slot });
    const s = sink();
    const { jobId } = stuck.start(null, s);
    slot.whenAbandoned(jobId, 'quick.done');
    expect(stuck.stop(jobId)).toBe(true);
    await vi.advanceTimersByTimeAsync(STOP_ANSWER_MS - 1);
    expect(() => slot.assertIdle()).toThrow(expect.objectContaining({ code: 'ERR_BUSY' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(s.events).toEqual([{ channel: 'quick.done', data: { jobId, outcome: 'stopped', note: NOT_ANSWERING_NOTE } }]);

    // The next test starts (on another drive: the stuck one still holds its own lock).
    const next = new Quick({ slot });
    const other = sink();
    next.start(null, other);
    await vi.advanceTimersByTimeAsync(0);
    expect(other.events).toEqual([{ channel: 'quick.done', data: expect.objectContaining({ outcome: 'finished' }) }]);

    // The drive answers at last: the old job's own end is not sent a second time.
    stuck.unstick();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.events).toHaveLength(1);
  });

  it('does not hold stopAll (a closing app or server) beyond STOP_ANSWER_MS', async () => {
    // (A job with no done event to send — the wizard's, a campaign's, the CLI's — is waited for.)
    const slot = new JobSlot();
    const stuck = new Stuck({ slot });
    slot.whenAbandoned(stuck.start(null, sink()).jobId, 'quick.done');
    let closed = false;
    void slot.stopAll().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(STOP_ANSWER_MS);
    expect(closed).toBe(true);
    expect(slot.runningJobId).toBeUndefined();
    stuck.unstick();
  });

  it('tells the running job "not answering" and nobody else', () => {
    const slot = new JobSlot();
    const s = sink();
    const { jobId } = new Stuck({ slot }).start(null, s);
    slot.notAnswering({ seconds: 5, path: '/mnt/x/.diskdial-a/testfile.dat' });
    expect(s.events).toEqual([{ channel: 'job.notAnswering', data: { jobId, seconds: 5, path: '/mnt/x/.diskdial-a/testfile.dat' } }]);
  });
});
