// A continuous Quick Test of small cycles: a burst of many finished cycles recombines the figures
// at most once per COMBINE_MS (the first at once), not once per cycle — each recombination costs
// time in the number of cycles, and one per cycle froze the page after ~130 of them — and what the
// screen settles on is still every cycle combined.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Analysis from '../../../../app/src/model/analysis';
import { combineRuns } from '../../../../app/src/model/analysis';
import { quickAggregate } from '../../../../app/src/model/verdict/aggregate';
import { COMBINE_MS, useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import { createFakeBridge, resultDoc } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';

const analysis = vi.hoisted(() => ({ combines: 0 }));
vi.mock('../../../../app/src/model/analysis', async (importOriginal) => {
  const actual = await importOriginal<typeof Analysis>();
  return {
    ...actual,
    combineRuns: (...a: Parameters<typeof actual.combineRuns>) => (analysis.combines++, actual.combineRuns(...a)),
  };
});

afterEach(() => {
  vi.useRealTimers();
  resetStores();
});

describe('Quick Test store under a burst of finished cycles', () => {
  it('300 cycles at once: one recombination now and one after COMBINE_MS, ending on all 300 combined', async () => {
    setBridgeForTests(createFakeBridge().bridge);
    const s = useQuickTestStore.getState();
    await s.start('/media/t7');
    vi.useFakeTimers();
    analysis.combines = 0;
    const docs = Array.from({ length: 300 }, (_, i) => resultDoc(800 + (i % 7), 1000 + (i % 5)));
    docs.forEach((doc, i) => s.onCycle({ jobId: 'job-1', cycle: i + 1, result: doc }));
    expect(useQuickTestStore.getState().results).toHaveLength(300);
    expect(analysis.combines).toBe(1);
    vi.advanceTimersByTime(COMBINE_MS);
    expect(analysis.combines).toBe(2);
    const all = quickAggregate(combineRuns(docs))!;
    expect(useQuickTestStore.getState().settled).toEqual({ write: all.write.mean, read: all.read.mean });
    // Stopped before the next recombination: the end shows every cycle, not the last combined.
    s.onCycle({ jobId: 'job-1', cycle: 301, result: resultDoc(2000, 2000) });
    s.onDone({ jobId: 'job-1', outcome: 'stopped' });
    const withLast = quickAggregate(combineRuns([...docs, resultDoc(2000, 2000)]))!;
    expect(useQuickTestStore.getState().settled).toEqual({ write: withLast.write.mean, read: withLast.read.mean });
  });
});
