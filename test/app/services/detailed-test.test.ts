// DetailedTestService with the real engine in a child process, as the app runs it: the plan, step
// and progress events in order for each kind, pauses reported, stop, a gone sink, an engine crash.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type EventChannel, type EventMap } from '../../../app/src/ipc/contract.js';
import { benchmarkOptions, DetailedTestService } from '../../../app/src/services/detailed-test.js';
import { EngineHost } from '../../../app/src/services/engine-host.js';
import { recorder as record, type Recorded } from '../../helpers/event-recorder.js';
import { DetailedSettings } from '../../../app/src/model/settings.js';

const MiB = 1 << 20;
const recorder = (onEvent?: (e: Recorded) => void) => record('detailed.done', onEvent);
const of = <C extends EventChannel>(sink: { events: Recorded[] }, channel: C): Array<EventMap[C]> =>
  sink.events.filter((e) => e.channel === channel).map((e) => e.data as EventMap[C]);

let dir: string;
let host: EngineHost;
let service: DetailedTestService;
beforeAll(() => {
  host = new EngineHost();
  service = new DetailedTestService({ engine: host.runTest, progressIntervalMs: 20 });
});
afterAll(async () => {
  await service.stopAll();
  await host.close();
});
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-detailed-'));
});
afterEach(async () => {
  await service.stopAll();
  await fsp.rm(dir, { recursive: true, force: true });
});

const cdm = (over: Partial<Extract<DetailedSettings, { kind: 'cdm' }>> = {}) =>
  DetailedSettings.parse({
    kind: 'cdm',
    target: dir,
    preset: 'realworld',
    mode: 'readwrite',
    sizeBytes: 16 * MiB,
    seconds: 1,
    intervalSeconds: 0,
    runs: 1,
    restSeconds: 0,
    ...over,
  });

describe('benchmarkOptions', () => {
  it('maps each kind to the runner’s options', () => {
    expect(benchmarkOptions(cdm({ intervalSeconds: 2 }))).toMatchObject({
      test: 'cdm',
      preset: 'realworld',
      mode: 'readwrite',
      size: 16 * MiB,
      seconds: 1,
      intervalSeconds: 2,
      runs: 1,
    });
    expect(benchmarkOptions(DetailedSettings.parse({ kind: 'sustained', target: '/x', maxBytes: 1e9, runs: 2, restSeconds: 300 }))).toEqual(
      {
        target: '/x',
        test: 'sustained',
        size: 1e9,
        runs: 2,
        restSeconds: 300,
        handleSignals: false,
      },
    );
    // A preset set ignores count and sizes; custom uses them.
    const files = (preset: 'quick' | 'custom') =>
      benchmarkOptions(
        DetailedSettings.parse({ kind: 'files', target: '/x', preset, count: 9, minBytes: 4096, maxBytes: 8192, runs: 1, restSeconds: 0 }),
      );
    expect(files('quick')).not.toHaveProperty('files');
    expect(files('custom')).toMatchObject({ preset: 'custom', files: { count: 9, minBytes: 4096, maxBytes: 8192 } });
    // The sweep: a time per step, or a volume per step (the plan's --size), never both.
    const sweep = (o: object) =>
      benchmarkOptions(DetailedSettings.parse({ kind: 'sweep', target: '/x', preset: 'atto', runs: 1, restSeconds: 0, ...o }));
    expect(sweep({ seconds: 0.5 })).toMatchObject({ test: 'sweep', preset: 'atto', seconds: 0.5 });
    expect(sweep({ seconds: 0.5 })).not.toHaveProperty('size');
    expect(sweep({ stepBytes: 256 * MiB })).toMatchObject({ test: 'sweep', preset: 'atto', size: 256 * MiB });
    expect(
      DetailedSettings.safeParse({ kind: 'sweep', target: '/x', preset: 'atto', seconds: 1, stepBytes: 256 * MiB, runs: 1, restSeconds: 0 })
        .success,
    ).toBe(false);
    expect(
      benchmarkOptions(
        DetailedSettings.parse({ kind: 'small-files', target: '/x', preset: 'nas', count: 50, fileBytes: 65536, runs: 1, restSeconds: 0 }),
      ),
    ).toMatchObject({ test: 'small-files', preset: 'nas', smallFiles: { count: 50, fileBytes: 65536 } });
    expect(
      DetailedSettings.safeParse({ kind: 'small-files', target: '/x', preset: 'quick', fileBytes: 2 * MiB, runs: 1, restSeconds: 0 })
        .success,
    ).toBe(false);
  });
});

describe('DetailedTestService', () => {
  it('video: each step’s progress carries its frames so far, ending at the document’s counts', async () => {
    const sink = recorder();
    const settings = DetailedSettings.parse({
      kind: 'video',
      target: dir,
      format: 'prores-proxy-hd-25',
      layout: 'stream',
      buffer: 4,
      seconds: 2,
      runs: 1,
      restSeconds: 0,
    });
    expect(benchmarkOptions(settings)).toMatchObject({
      test: 'video',
      seconds: 2,
      video: { format: 'prores-proxy-hd-25', layout: 'stream', buffer: 4 },
    });
    service.start(settings, sink);
    const done = await sink.done;
    expect(done.outcome).toBe('finished');
    const video = done.result!.video!;
    expect(video.id).toBe('prores-proxy-hd-25');
    const framed = of(sink, 'detailed.progress').filter((p) => p.frames);
    for (const [i, phase] of [video.runs[0]!.write, video.runs[0]!.read].entries()) {
      const mine = framed.filter((p) => p.testIndex === i).map((p) => p.frames!);
      expect(mine.length, `step ${i}`).toBeGreaterThan(3);
      for (let k = 1; k < mine.length; k++) expect(mine[k]!.onTime).toBeGreaterThanOrEqual(mine[k - 1]!.onTime);
      // Counts grow monotonically; the last one the strip saw is at most the document's.
      const last = mine.at(-1)!;
      expect(last.onTime + last.late + last.dropped).toBeLessThanOrEqual(phase.frames);
      expect(last.late).toBeLessThanOrEqual(phase.late);
      expect(last.dropped).toBeLessThanOrEqual(phase.dropped);
    }
    expect(await fsp.readdir(dir)).toEqual([]);
  }, 60_000);

  it('cdm: the plan, then progress and a step event per test, in plan order, then done with the document', async () => {
    const sink = recorder();
    const { jobId } = service.start(cdm(), sink);
    const done = await sink.done;
    expect(done.outcome).toBe('finished');
    expect(sink.events[0]!.channel).toBe('detailed.plan');
    expect(of(sink, 'detailed.plan')[0]).toEqual({
      jobId,
      kind: 'cdm',
      runs: 1,
      bytes: 16 * MiB,
      notes: [],
      steps: ['SEQ1M Q1T1 Read', 'RND4K Q1T1 Read', 'SEQ1M Q1T1 Write', 'RND4K Q1T1 Write'],
    });
    const steps = of(sink, 'detailed.step');
    expect(steps.map((s) => [s.testIndex, s.test.name])).toEqual([
      [0, 'SEQ1M Q1T1 Read'],
      [1, 'RND4K Q1T1 Read'],
      [2, 'SEQ1M Q1T1 Write'],
      [3, 'RND4K Q1T1 Write'],
    ]);
    // A step event is the document's row without its series; the final document has it all.
    for (const [i, s] of steps.entries()) {
      expect(s.test.series).toEqual([]);
      const { series, ...row } = done.result!.tests[i]!;
      expect(series.length).toBeGreaterThan(0);
      expect({ ...s.test, series: undefined }).toEqual({ ...row, series: undefined });
    }
    // Progress for every step; each step's progress comes before its step event.
    const order = sink.events.filter((e) => e.channel === 'detailed.progress' || e.channel === 'detailed.step');
    for (let i = 0; i < 4; i++) {
      const firstProgress = order.findIndex(
        (e) => e.channel === 'detailed.progress' && (e.data as EventMap['detailed.progress']).testIndex === i,
      );
      const step = order.findIndex((e) => e.channel === 'detailed.step' && (e.data as EventMap['detailed.step']).testIndex === i);
      expect(firstProgress).toBeGreaterThanOrEqual(0);
      expect(firstProgress).toBeLessThan(step);
    }
    expect(sink.events.at(-1)!.channel).toBe('detailed.done');
    expect(sink.events.every((e) => e.data.jobId === jobId)).toBe(true);
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('files: the plan lists the set; a step event per file and pass names the file', async () => {
    const sink = recorder();
    service.start(
      DetailedSettings.parse({
        kind: 'files',
        target: dir,
        preset: 'custom',
        count: 5,
        minBytes: MiB,
        maxBytes: 4 * MiB,
        reserveBytes: 0,
        runs: 1,
        restSeconds: 0,
      }),
      sink,
    );
    const done = await sink.done;
    expect(done.outcome).toBe('finished');
    const plan = of(sink, 'detailed.plan')[0]!;
    expect(plan.files).toHaveLength(5);
    expect(plan.steps).toHaveLength(10);
    const steps = of(sink, 'detailed.step');
    expect(steps.map((s) => s.file!.pass)).toEqual([...Array(5).fill('write'), ...Array(5).fill('read')]);
    expect(new Set(steps.filter((s) => s.file!.pass === 'read').map((s) => s.file!.name))).toEqual(new Set(plan.files!.map((f) => f.name)));
    for (const s of steps) expect(s.file!.bytes).toBe(plan.files!.find((f) => f.name === s.file!.name)!.bytes);
    expect(done.result!.files!.runs[0]!.items.map((i) => i.name)).toEqual(plan.files!.map((f) => f.name));
  });

  it('sustained with two runs: the rest between them arrives as progress with the seconds left', async () => {
    const sink = recorder();
    service.start(
      DetailedSettings.parse({ kind: 'sustained', target: dir, maxBytes: 64 * MiB, reserveBytes: 0, runs: 2, restSeconds: 1 }),
      sink,
    );
    const done = await sink.done;
    expect(done.outcome).toBe('finished');
    const rests = of(sink, 'detailed.progress').filter((p) => p.stage === 'rest');
    expect(rests[0]).toMatchObject({ run: 2, runs: 2, testName: 'Rest before run 2', secondsTotal: 1, remaining: 1 });
    expect(rests.at(-1)!.remaining).toBe(0);
    expect(done.result!.sustained!.runs).toHaveLength(2);
    expect(done.result!.summary).toHaveLength(1);
  });

  it('stop mid-test: done "stopped", nothing left; one job at a time', async () => {
    let stopped = false;
    const sink = recorder((e) => {
      if (!stopped && e.channel === 'detailed.progress' && e.data.stage === 'run') {
        stopped = true;
        expect(() => service.start(cdm(), recorder())).toThrow(expect.objectContaining({ code: 'ERR_BUSY' }));
        expect(service.stop('not-this-one')).toBe(false);
        expect(service.stop(e.data.jobId)).toBe(true);
      }
    });
    const { jobId } = service.start(cdm({ seconds: 30 }), sink);
    expect(await sink.done).toEqual({ jobId, outcome: 'stopped' });
    expect(service.runningJobId).toBeUndefined();
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('stop during the rest between runs: done "stopped" within 2 s of the stop, nothing left, the slot free', async () => {
    // A rest of an hour: only the stop can end it. Timed from the stop, not from the start (run 1
    // takes what the machine's load makes it).
    let stoppedAt = 0;
    const sink = recorder((e) => {
      if (!stoppedAt && e.channel === 'detailed.progress' && e.data.stage === 'rest') {
        stoppedAt = performance.now();
        expect(service.stop(e.data.jobId)).toBe(true);
      }
    });
    const settings = { kind: 'files', target: dir, preset: 'custom', count: 2, minBytes: MiB, maxBytes: 2 * MiB, reserveBytes: 0 } as const;
    const { jobId } = service.start(DetailedSettings.parse({ ...settings, runs: 2, restSeconds: 3600 }), sink);
    expect(await sink.done).toEqual({ jobId, outcome: 'stopped' });
    expect(stoppedAt).toBeGreaterThan(0);
    expect(performance.now() - stoppedAt).toBeLessThan(2_000);
    expect(of(sink, 'detailed.step')).toHaveLength(4); // run 1: two files written, then read
    expect(await fsp.readdir(dir)).toEqual([]);
    expect(service.runningJobId).toBeUndefined();
    const next = recorder();
    service.start(DetailedSettings.parse({ ...settings, runs: 1, restSeconds: 0 }), next);
    expect((await next.done).outcome).toBe('finished');
  });

  it('a sink that goes away stops the job', async () => {
    const sink = recorder((e) => {
      if (e.channel === 'detailed.step') sink.alive = false;
    });
    service.start(
      DetailedSettings.parse({
        kind: 'files',
        target: dir,
        preset: 'custom',
        count: 40,
        minBytes: MiB,
        maxBytes: 2 * MiB,
        reserveBytes: 0,
        runs: 1,
        restSeconds: 0,
      }),
      sink,
    );
    const waited = Date.now();
    while (service.runningJobId !== undefined && Date.now() - waited < 20_000) await new Promise((r) => setTimeout(r, 20));
    expect(service.runningJobId).toBeUndefined();
    expect(of(sink, 'detailed.step')).toHaveLength(1);
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('a failed plan (not enough space for the reserve) ends in done "failed" with plain words', async () => {
    const sink = recorder();
    service.start(
      DetailedSettings.parse({ kind: 'sustained', target: dir, maxBytes: 1e9, reserveBytes: 6e13, runs: 1, restSeconds: 0 }),
      sink,
    );
    const done = await sink.done;
    expect(done).toMatchObject({ outcome: 'failed', error: { code: 'ENOSPC' } });
    expect(done.error!.message).toMatch(
      /^Not enough free space for a sustained-write test: .* free, 60 TB kept in reserve\. Free some space or lower the reserve\.$/,
    );
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('an engine crash mid-job ends it with done "failed", ERR_ENGINE_CRASHED, and the next job runs', async () => {
    let killed = false;
    const sink = recorder((e) => {
      if (!killed && e.channel === 'detailed.progress' && e.data.stage === 'run') {
        killed = true;
        process.kill(host.pid!, 'SIGSEGV');
      }
    });
    service.start(cdm({ seconds: 10 }), sink);
    expect(await sink.done).toMatchObject({ outcome: 'failed', error: { code: 'ERR_ENGINE_CRASHED' } });
    expect(await fsp.readdir(dir)).toEqual([]);
    const next = recorder();
    service.start(cdm({ mode: 'read', seconds: 1 }), next);
    expect((await next.done).outcome).toBe('finished');
  });
});
