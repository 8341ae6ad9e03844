// The one job slot: every service shares it, so one test runs at a time whichever service (and
// front door) starts it; each service stops only its own jobs; JobRun's shared finish and throttle.
import { describe, expect, it } from 'vitest';
import type { EventChannel, EventMap, EventSink } from '../../../app/src/ipc/contract.js';
import { JobSlot, sharedSlot, SlotService, type JobRun } from '../../../app/src/services/job-slot.js';

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
