// QuickTestService with the real engine, in a child process as the app runs it: cycles and their
// events in order, stop, busy, and a crashed engine reported as a failed job.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventMap } from '../../../app/src/ipc/contract.js';
import { HistoryStore } from '../../../app/src/core/history.js';
import { HistoryService } from '../../../app/src/services/history.js';
import { QuickTestService } from '../../../app/src/services/quick-test.js';
import { onEngineHost } from '../../helpers/engine-host.js';
import { recorder as record, type Recorded } from '../../helpers/event-recorder.js';

const MiB = 1 << 20;
const recorder = (onEvent?: (e: Recorded) => void) => record('quick.done', onEvent);

const firstEvent = (sink: ReturnType<typeof recorder>, pred: (e: Recorded) => boolean): Promise<void> =>
  new Promise((resolve) => {
    const send = sink.send.bind(sink);
    sink.send = (channel, data) => {
      send(channel, data);
      if (pred({ channel, data } as Recorded)) resolve();
    };
  });

let dir: string;
const engine = onEngineHost((host) => new QuickTestService({ engine: host.runTest }));
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-quick-'));
});
afterEach(async () => {
  await engine.service.stopAll();
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('QuickTestService', () => {
  it('runs N cycles: progress for write then read, a cycle result each, then done', async () => {
    const sink = recorder();
    const { jobId } = engine.service.start({ target: dir, sizeBytes: 16 * MiB, mode: 'runs', runs: 2 }, sink);
    const done = await sink.done;
    expect(done).toMatchObject({ jobId, outcome: 'finished' });
    // The cycles as one result: each cycle a run. Nothing saves results in this service.
    expect(done.result!.tests.map((t) => `${t.name}#${t.run}`)).toEqual(['Write#1', 'Read#1', 'Write#2', 'Read#2']);
    expect(done.saved).toBeUndefined();
    const kinds = sink.events.map((e) => e.channel);
    expect(kinds.filter((k) => k === 'quick.cycle')).toHaveLength(2);
    expect(kinds.at(-1)).toBe('quick.done');
    expect(kinds.indexOf('quick.progress')).toBe(0);
    for (const e of sink.events) expect(e.data.jobId).toBe(jobId);

    // Within each cycle: write progress, then read progress, then the cycle's result.
    for (const cycle of [1, 2]) {
      const own = sink.events.filter((e) => 'cycle' in e.data && e.data.cycle === cycle);
      const phases = own.filter((e) => e.channel === 'quick.progress').map((e) => (e.data as EventMap['quick.progress']).phase);
      expect(phases.length).toBeGreaterThan(0);
      expect(phases.indexOf('read')).toBeGreaterThan(phases.lastIndexOf('write'));
      expect(own.at(-1)?.channel).toBe('quick.cycle');
      const progress = own.find((e) => e.channel === 'quick.progress')!.data as EventMap['quick.progress'];
      expect(progress).toMatchObject({ cycle, cycles: 2 });
      expect(['prepare', 'warmup', 'run', 'flush']).toContain(progress.stage);
      const result = (own.at(-1)!.data as EventMap['quick.cycle']).result;
      expect(result.tests.map((t) => [t.name, t.bytes])).toEqual([
        ['Write', 16 * MiB],
        ['Read', 16 * MiB],
      ]);
    }
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it("a target typed as ~ is the home folder for the checks and for the test alike (browser mode's path box)", async () => {
    const home = process.env.HOME;
    process.env.HOME = dir; // os.homedir() reads it
    try {
      const sink = recorder();
      await engine.service.request({ target: '~', sizeBytes: 16 * MiB, mode: 'runs', runs: 1 }, sink);
      const done = await sink.done;
      expect(done.outcome).toBe('finished');
      expect(done.result!.target.path).toBe(dir);
      // Nothing was made under the server's working directory.
      expect(await fsp.stat(path.resolve('~')).catch(() => undefined)).toBeUndefined();
    } finally {
      process.env.HOME = home;
    }
  });

  it('forwards at most ~20 progress events a second', async () => {
    // When each event was forwarded, on the service's own clock (the sink is called in step).
    const at: Array<{ t: number; key: string }> = [];
    const sink = recorder((e) => {
      if (e.channel !== 'quick.progress') return;
      const d = e.data as EventMap['quick.progress'];
      at.push({ t: performance.now(), key: `${d.phase}/${d.stage}` });
    });
    // The real engine, asked to report 50 times a second and to run each step for 1 s.
    let raw = 0;
    const chatty = new QuickTestService({
      engine: (spec, opts) =>
        engine.host.runTest({ ...spec, progressIntervalMs: 20, seconds: 1 }, { ...opts, onProgress: (p) => (raw++, opts.onProgress?.(p)) }),
    });
    const { jobId } = chatty.start({ target: dir, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 }, sink);
    await sink.done;
    // The cap, measured in gaps rather than against the run's wall-clock length (which a loaded
    // machine stretches): events i < j of one unbroken step and stage are at least 50 ms × (j − i)
    // apart; only a change of step or stage goes through sooner. The sink's clock trails the
    // gate's by however long the process is preempted between the two reads: 4.2 ms once in 20
    // runs under stress-ng --cpu 2 + fio (a pairwise ≥ 49 ms failed then), at most CFS's 24 ms
    // latency target. Allowing 30 ms does not accumulate over a span, so an uncapped stream (one
    // event per 20 ms) or a 40 ms cap still fails within 4 events.
    const JITTER_MS = 30;
    for (let j = 1; j < at.length; j++) {
      for (let i = j - 1; i >= 0 && at[i]!.key === at[j]!.key && at[i + 1]!.key === at[j]!.key; i--) {
        expect(at[j]!.t - at[i]!.t, `events ${i}–${j} (${at[j]!.key})`).toBeGreaterThanOrEqual(50 * (j - i) - JITTER_MS);
      }
    }
    // The engine said more than was forwarded (the cap had work to do), and both steps were shown.
    expect(raw).toBeGreaterThan(at.length);
    expect(new Set(at.map((x) => x.key.split('/')[0]))).toEqual(new Set(['write', 'read']));
    expect(at.filter((x) => x.key === 'write/run').length).toBeGreaterThan(5);
    expect(sink.events.at(-1)?.data).toMatchObject({ jobId, outcome: 'finished' });
  });

  it('stop mid-test: done "stopped" and no test folder left', async () => {
    const sink = recorder();
    const writing = firstEvent(sink, (e) => e.channel === 'quick.progress');
    const { jobId } = engine.service.start({ target: dir, sizeBytes: 16 * MiB, mode: 'continuous', runs: 1 }, sink);
    await writing;
    expect(engine.service.stop('not-this-job')).toBe(false);
    expect(engine.service.stop(jobId)).toBe(true);
    // Stopped during the first cycle: nothing completed, so no result.
    expect(await sink.done).toEqual({ jobId, outcome: 'stopped' });
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
    expect(engine.service.stop(jobId)).toBe(false);
  });

  it('saves the completed cycles as one result; continuous mode stopped after a cycle is saved with a note', async () => {
    const store = new HistoryStore(path.join(dir, 'history'));
    const history = new HistoryService(store);
    const saving = new QuickTestService({ engine: engine.host.runTest, history: history.record });
    const target = path.join(dir, 'target');
    await fsp.mkdir(target);

    const sink = recorder();
    saving.start({ target, sizeBytes: 16 * MiB, mode: 'runs', runs: 2 }, sink);
    const done = await sink.done;
    expect(done.saved).toEqual({ id: done.result!.id });
    expect(await store.get(done.result!.id)).toEqual(done.result);

    // Continuous: stop once the second cycle has begun; the first is kept.
    const cont = recorder();
    const second = firstEvent(cont, (e) => e.channel === 'quick.progress' && e.data.cycle === 2);
    const { jobId } = saving.start({ target, sizeBytes: 16 * MiB, mode: 'continuous', runs: 1 }, cont);
    await second;
    saving.stop(jobId);
    const stopped = await cont.done;
    expect(stopped.outcome).toBe('stopped');
    expect(stopped.result!.tests.map((t) => `${t.name}#${t.run}`)).toEqual(['Write#1', 'Read#1']);
    expect(stopped.result!.notes).toEqual(['Continuous mode: 1 cycle completed before Stop.']);
    const listing = await store.list();
    expect(listing.entries.map((e) => e.id).sort()).toEqual([done.result!.id, stopped.result!.id].sort());

    // A history that cannot be written: the test still finishes, and says why it was not saved.
    await fsp.rm(store.dir, { recursive: true });
    await fsp.writeFile(store.dir, 'a file where the folder should be');
    const failing = recorder();
    saving.start({ target, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 }, failing);
    const unsaved = await failing.done;
    expect(unsaved.outcome).toBe('finished');
    expect(unsaved.saved).toMatchObject({ error: { code: 'EEXIST', message: expect.stringContaining('could not be saved to history') } });
  });

  it('one job at a time: a second start is ERR_BUSY', async () => {
    const sink = recorder();
    const { jobId } = engine.service.start({ target: dir, sizeBytes: 16 * MiB, mode: 'continuous', runs: 1 }, sink);
    const other = recorder();
    expect(() => engine.service.start({ target: dir, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 }, other)).toThrow(
      expect.objectContaining({ code: 'ERR_BUSY', message: 'A test is already running.' }),
    );
    engine.service.stop(jobId);
    await sink.done;
    expect(other.events).toEqual([]);
    // Free again once done.
    const again = recorder();
    engine.service.start({ target: dir, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 }, again);
    expect((await again.done).outcome).toBe('finished');
  });

  it('a target that fails ends in done "failed" with the code and plain words', async () => {
    const sink = recorder();
    const missing = path.join(dir, 'nope');
    const { jobId } = engine.service.start({ target: missing, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 }, sink);
    expect(await sink.done).toEqual({
      jobId,
      outcome: 'failed',
      error: { code: 'ENOENT', message: `No such folder: ${missing}. Check the path, or choose another folder.` },
    });
  });

  it('a sink that goes away stops the job and gets no more events', async () => {
    const sink = recorder();
    const writing = firstEvent(sink, (e) => e.channel === 'quick.progress');
    engine.service.start({ target: dir, sizeBytes: 16 * MiB, mode: 'continuous', runs: 1 }, sink);
    await writing;
    sink.alive = false;
    const count = sink.events.length;
    // The job notices at its next progress report and stops (however long a loaded machine takes).
    await vi.waitFor(() => expect(engine.service.runningJobId).toBeUndefined(), { timeout: 30_000, interval: 10 });
    expect(sink.events.length).toBe(count);
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
  });

  it('an engine crash mid-job ends it with done "failed", ERR_ENGINE_CRASHED', async () => {
    const sink = recorder();
    // Long enough to be killed mid-run: 32 MiB, continuous.
    const running = firstEvent(sink, (e) => e.channel === 'quick.progress' && (e.data as EventMap['quick.progress']).stage === 'run');
    const { jobId } = engine.service.start({ target: dir, sizeBytes: 32 * MiB, mode: 'continuous', runs: 1 }, sink);
    await running;
    process.kill(engine.host.pid!, 'SIGSEGV');
    const done = await sink.done;
    expect(done).toMatchObject({ jobId, outcome: 'failed', error: { code: 'ERR_ENGINE_CRASHED' } });
    expect(done.error?.message).toMatch(/^The test engine stopped unexpectedly \(SIGSEGV\)\. .*DiskDial is still running\.$/);
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
    // And the service works again.
    const next = recorder();
    engine.service.start({ target: dir, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 }, next);
    expect((await next.done).outcome).toBe('finished');
  });
});
