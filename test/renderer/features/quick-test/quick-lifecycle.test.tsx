// The Quick Test store follows its job through the shared lifecycle (lib/job-lifecycle.ts), as the
// Detailed, Hash and wizard stores do: while the start is in flight (no job id yet) another job's
// events move nothing, ours wait and are replayed in order once the core answers, and a Stop
// pressed meanwhile reaches the core with the id the answer carries.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '@ipc/contract';
import { selectIsBusy, selectQuickStatus, useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import { createFakeBridge, progress, resultDoc } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';

/** A bridge whose start answers only when the test says so. */
function heldStart() {
  const fake = createFakeBridge();
  let answer: (r: IpcResult<{ jobId: string }>) => void = () => {};
  fake.bridge.startQuickTest = (s) => {
    fake.calls.start.push(s);
    return new Promise((resolve) => (answer = resolve));
  };
  setBridgeForTests(fake.bridge);
  return { fake, answer: (jobId: string) => answer({ ok: true, value: { jobId } }) };
}

describe('the Quick Test store’s job lifecycle', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('before the start’s answer: another job’s events move nothing, ours are replayed in order once it comes', async () => {
    const { answer } = heldStart();
    const s = useQuickTestStore.getState();
    const started = s.start('/media/t7');
    expect(selectIsBusy(useQuickTestStore.getState())).toBe(true);
    const t0 = useQuickTestStore.getState().startedAt;

    s.onProgress(progress({ jobId: 'other', instMBps: 9999 }), t0 + 500);
    s.onCycle({ jobId: 'other', cycle: 1, result: resultDoc(9000, 9000) });
    s.onDone({ jobId: 'other', outcome: 'finished' });
    s.onProgress(progress({ jobId: 'job-7', instMBps: 700 }), t0 + 1000);
    s.onProgress(progress({ jobId: 'job-7', phase: 'read', instMBps: 1100 }), t0 + 2000);
    // Nothing is shown before we know which job is ours.
    expect(useQuickTestStore.getState()).toMatchObject({ live: { write: 0, read: 0 }, peak: { write: 0, read: 0 }, results: [] });
    expect(selectQuickStatus(useQuickTestStore.getState())).toBe('running');

    answer('job-7');
    await started;
    const q = useQuickTestStore.getState();
    expect(q.job?.jobId).toBe('job-7');
    expect(q.live).toEqual({ write: 700, read: 1100 });
    expect(q.peak).toEqual({ write: 700, read: 1100 });
    expect(q.results).toEqual([]);
    expect(selectQuickStatus(q)).toBe('running');
  });

  it('a Stop pressed before the start’s answer is sent with the id the answer carries; our done ends the test', async () => {
    const { fake, answer } = heldStart();
    const s = useQuickTestStore.getState();
    const started = s.start('/media/t7');
    await s.stop();
    expect(fake.calls.stop).toEqual([]);
    expect(selectQuickStatus(useQuickTestStore.getState())).toBe('stopping');

    answer('job-9');
    await started;
    expect(fake.calls.stop).toEqual(['job-9']);
    s.onDone({ jobId: 'job-1', outcome: 'stopped' });
    expect(selectQuickStatus(useQuickTestStore.getState())).toBe('stopping');
    s.onDone({ jobId: 'job-9', outcome: 'stopped' });
    expect(selectQuickStatus(useQuickTestStore.getState())).toBe('done');
    expect(selectIsBusy(useQuickTestStore.getState())).toBe(false);
  });
});
