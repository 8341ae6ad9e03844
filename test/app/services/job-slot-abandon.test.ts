// A stopped job that cannot end (its drive holds an I/O of this process in the kernel) is let go
// of after STOP_ANSWER_MS: the slot is free for the next test, the front door is told the job
// stopped and what was left, and nothing the job says later reaches it. Before, Stop answered
// "stopped", the job never ended and every later start was ERR_BUSY. Fake timers: the deadline
// is the slot's own timer, not a measured time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventChannel, EventMap, EventSink } from '../../../app/src/ipc/contract.js';
import { JobSlot, NOT_ANSWERING_NOTE, SlotService, STOP_ANSWER_MS, type JobRun } from '../../../app/src/services/job-slot.js';

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

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a stopped job that cannot end', () => {
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
    const slot = new JobSlot();
    const stuck = new Stuck({ slot });
    stuck.start(null, sink());
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
