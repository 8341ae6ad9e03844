// The two stores, driven only through their actions, against a fake bridge.
import { beforeEach, describe, expect, it } from 'vitest';
import { SERIES_CAP, selectQuickStatus, useQuickTestStore } from '../../../renderer/src/features/quick-test/store';
import { selectSelectedTarget, useTargetsStore } from '../../../renderer/src/lib/targets-store';
import { setBridgeForTests } from '../../../renderer/src/lib/bridge';
import { createFakeBridge, progress, resultDoc, target } from '../helpers/fake-bridge';
import { resetStores } from '../helpers/reset-stores';

beforeEach(resetStores);

describe('targets store', () => {
  it('loads targets and selects the first startable one', async () => {
    const fake = createFakeBridge([
      target({ path: '/ro', name: 'RO', readOnly: true, startable: false, reason: 'Read-only' }),
      target({ path: '/ok' }),
    ]);
    setBridgeForTests(fake.bridge);
    await useTargetsStore.getState().load();
    const s = useTargetsStore.getState();
    expect(s.targets).toHaveLength(2);
    expect(s.selectedPath).toBe('/ok');
    expect(s.loading).toBe(false);
    s.select('/nowhere');
    expect(useTargetsStore.getState().selectedPath).toBe('/ok');
  });

  it('chooseFolder reports unsupported in browser mode; useFolder describes and selects the path', async () => {
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    await useTargetsStore.getState().load();
    expect(await useTargetsStore.getState().chooseFolder()).toBe('unsupported');
    expect(await useTargetsStore.getState().useFolder(' /srv/footage ')).toBe(true);
    expect(fake.calls.describe).toEqual(['/srv/footage']);
    expect(selectSelectedTarget(useTargetsStore.getState())?.path).toBe('/srv/footage');
  });

  it('keeps the error when listing fails', async () => {
    const fake = createFakeBridge();
    fake.bridge.listTargets = () =>
      Promise.resolve({ ok: false, error: { code: 'ERR_DISCONNECTED', message: 'Lost the connection to DiskDial.' } });
    setBridgeForTests(fake.bridge);
    await useTargetsStore.getState().load();
    expect(useTargetsStore.getState().error?.code).toBe('ERR_DISCONNECTED');
  });
});

describe('quick-test store', () => {
  it('validates settings through its actions', () => {
    const s = useQuickTestStore.getState();
    s.setSize(3e9);
    expect(useQuickTestStore.getState().sizeBytes).toBe(3e9);
    s.setSize(1000); // below 16 MiB
    s.setSize(100 * 2 ** 30); // above 64 GiB
    expect(useQuickTestStore.getState().sizeBytes).toBe(3e9);
    s.setRuns(0);
    s.setRuns(5);
    s.setRuns(2.5);
    expect(useQuickTestStore.getState().runs).toBe(5);
    s.setMode('continuous');
    expect(useQuickTestStore.getState().mode).toBe('continuous');
  });

  it('start sends the settings; progress moves live values, peaks and the scale; cycle sets the settled speeds; done settles', async () => {
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    const s = useQuickTestStore.getState();
    s.setSize(2e9);
    s.setRuns(3);
    await s.start('/media/t7');
    expect(fake.calls.start).toEqual([{ target: '/media/t7', sizeBytes: 2e9, mode: 'runs', runs: 3 }]);
    // Nothing known of the target: the default scale, not 0–100.
    expect(useQuickTestStore.getState()).toMatchObject({ status: 'running', job: { jobId: 'job-1' }, scale: 1000 });

    const t0 = useQuickTestStore.getState().startedAt;
    s.onProgress(progress({ instMBps: 900 }), t0 + 1000);
    s.onProgress(progress({ instMBps: 700 }), t0 + 1500);
    s.onProgress(progress({ phase: 'read', stage: 'prepare', instMBps: 5000 }), t0 + 1600); // not a speed
    s.onProgress(progress({ phase: 'read', instMBps: 1100 }), t0 + 2000);
    s.onProgress(progress({ jobId: 'other', instMBps: 9999 }), t0 + 2100); // another job's
    let q = useQuickTestStore.getState();
    expect(q.live).toEqual({ write: 700, read: 1100 });
    expect(q.peak).toEqual({ write: 900, read: 1100 });
    expect(q.scale).toBe(3000);
    expect(q.series.map((p) => p.t)).toEqual([1, 1.5, 2]);
    expect(q.series[2]).toEqual({ t: 2, write: null, read: 1100 });

    s.onCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(812.5, 1004.25) });
    q = useQuickTestStore.getState();
    expect(q.settled).toEqual({ write: 812.5, read: 1004.25 });
    expect(q.results[0]).toMatchObject({ cycle: 1, cacheMode: 'direct', dataPattern: 'random' });

    // A quieter moment never shrinks the scale mid-test.
    s.onProgress(progress({ instMBps: 10 }), t0 + 3000);
    expect(useQuickTestStore.getState().scale).toBe(3000);

    s.onDone({ jobId: 'job-1', outcome: 'finished' });
    q = useQuickTestStore.getState();
    expect(selectQuickStatus(q)).toBe('done');
    expect(q.live).toEqual({ write: 812.5, read: 1004.25 });
    expect(q.peak.read).toBe(1100);
  });

  it('the flush never zeroes WRITE: during the read phase it keeps the last measured write', async () => {
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    const s = useQuickTestStore.getState();
    s.setMode('continuous');
    await s.start('/media/t7');
    s.onProgress(progress({ instMBps: 700 }));
    s.onProgress(progress({ stage: 'flush', instMBps: 0 }));
    s.onProgress(progress({ phase: 'read', stage: 'warmup', instMBps: 0 }));
    s.onProgress(progress({ phase: 'read', instMBps: 1100 }));
    expect(useQuickTestStore.getState().live).toEqual({ write: 700, read: 1100 });
    expect(useQuickTestStore.getState().series.map((p) => p.write ?? p.read)).toEqual([700, 1100]);
  });

  it('peak and average come from the same samples: the peak is never below the average', async () => {
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    const s = useQuickTestStore.getState();
    await s.start('/media/t7');
    // The live instants saw 3,769 at most; the cycle's own series went higher.
    s.onProgress(progress({ instMBps: 3769 }));
    const doc = resultDoc(3780, 835);
    doc.tests[0]!.series = [
      { t: 0.1, mbps: 3700 },
      { t: 0.2, mbps: 3850 },
    ];
    doc.tests[1]!.series = [];
    s.onCycle({ jobId: 'job-1', cycle: 1, result: doc });
    s.onDone({ jobId: 'job-1', outcome: 'finished' });
    const q = useQuickTestStore.getState();
    expect(q.settled).toEqual({ write: 3780, read: 835 });
    expect(q.peak.write).toBe(3850);
    // A read too short for a sample: its peak is its average, never 0.
    expect(q.peak.read).toBe(835);
  });

  it('the scale starts from what is known (link ceiling, last result on the target) and survives an error', async () => {
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    const s = useQuickTestStore.getState();
    await s.start('/media/t7', 1212); // a 10 Gb/s link
    expect(useQuickTestStore.getState().scale).toBe(3000);
    s.onDone({ jobId: 'job-1', outcome: 'failed', error: { code: 'ERR_IO', message: 'x' } });
    expect(useQuickTestStore.getState()).toMatchObject({ status: 'idle', outcome: 'failed', scale: 3000 });

    await s.start('/media/t7');
    s.onCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(2600, 2900) });
    s.onDone({ jobId: 'job-1', outcome: 'finished' });
    expect(useQuickTestStore.getState().scale).toBe(8000);
    // The next test on this target starts on the scale its last result needs; another target does not.
    await s.start('/media/t7');
    expect(useQuickTestStore.getState().scale).toBe(8000);
    s.onDone({ jobId: 'job-1', outcome: 'stopped' });
    await s.start('/media/other');
    expect(useQuickTestStore.getState().scale).toBe(1000);
    // A failed start does not shrink the scale either.
    fake.bridge.startQuickTest = () => Promise.resolve({ ok: false, error: { code: 'ERR_X', message: 'no' } });
    useQuickTestStore.setState({ status: 'idle' });
    await s.start('/media/t7');
    expect(useQuickTestStore.getState()).toMatchObject({ status: 'idle', outcome: 'failed', scale: 8000 });
  });

  it('stop calls stopQuickTest with the job id; a failed start or run keeps the error', async () => {
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    await useQuickTestStore.getState().start('/media/t7');
    await useQuickTestStore.getState().stop();
    expect(fake.calls.stop).toEqual(['job-1']);
    expect(useQuickTestStore.getState().status).toBe('stopping');
    useQuickTestStore.getState().onDone({ jobId: 'job-1', outcome: 'stopped' });
    expect(selectQuickStatus(useQuickTestStore.getState())).toBe('done');

    fake.bridge.startQuickTest = () => Promise.resolve({ ok: false, error: { code: 'ERR_BUSY', message: 'A test is already running.' } });
    await useQuickTestStore.getState().start('/media/t7');
    expect(useQuickTestStore.getState()).toMatchObject({ status: 'idle', outcome: 'failed', error: { code: 'ERR_BUSY' } });
  });

  it('caps the live series', async () => {
    setBridgeForTests(createFakeBridge().bridge);
    await useQuickTestStore.getState().start('/media/t7');
    const t0 = useQuickTestStore.getState().startedAt;
    for (let i = 0; i < SERIES_CAP * 3; i++) useQuickTestStore.getState().onProgress(progress({ instMBps: i % 100 }), t0 + i * 100);
    const series = useQuickTestStore.getState().series;
    expect(series.length).toBeLessThanOrEqual(SERIES_CAP);
    expect(series.at(-1)!.t).toBeCloseTo((SERIES_CAP * 3 - 1) / 10);
  });

  it('reset returns to the initial state', async () => {
    setBridgeForTests(createFakeBridge().bridge);
    await useQuickTestStore.getState().start('/x');
    useQuickTestStore.getState().reset();
    expect(useQuickTestStore.getState()).toMatchObject({
      status: 'idle',
      job: null,
      outcome: null,
      results: [],
      settled: null,
      scale: 1000,
    });
  });
});
