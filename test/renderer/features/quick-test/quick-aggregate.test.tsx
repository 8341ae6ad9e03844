// The Done screen shows the saved result's one aggregate, as History, the card, the exports and
// the CLI do (test/app/model/kinds/video/will-it-work-laws.test.ts holds those): over generated runs
// (1–4, 1 MB/s to 20 GB/s) and flags, 1,000 cases, the store fed the cycles and the saved
// document rests its dials on the mean of the runs, captioned "mean of N runs · best X", and its
// Will-it-work table judges that same mean, with the same verdicts the model gives the document.
// Seed 4: WRITE showed the last run (469) while History showed the mean (693).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { combineRuns } from '@model/analysis';
import type { ResultDocument, ResultFlag } from '@model/result';
import { aggregateText, quickAggregate } from '@model/verdict/aggregate';
import { judgeWork, willItWork, workInput } from '@model/kinds/video/will-it-work';
import quickJson from '../../../fixtures/results/quick.json';
import { quickReadout } from '../../../../renderer/src/features/quick-test/quick-progress';
import { selectQuickStatus, useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';

const QUICK = quickJson as unknown as ResultDocument;
const FLAG: ResultFlag = { code: 'loop-cached', message: 'A loop device over the page cache.', fix: 'Test the disk under it.' };

function cycle(write: number, read: number, flags: ResultFlag[]): ResultDocument {
  const [w, r] = [QUICK.tests.find((t) => t.rw === 'write')!, QUICK.tests.find((t) => t.rw === 'read')!];
  const doc: ResultDocument = {
    ...QUICK,
    flags,
    settings: { ...QUICK.settings, runs: 1 },
    tests: [
      { ...w, run: 1, mbps: write },
      { ...r, run: 1, mbps: read },
    ],
  };
  delete doc.summary;
  return doc;
}

const speed = fc.double({ min: 0, max: Math.log(20_000), noNaN: true }).map((x) => Math.exp(x));

afterEach(() => useQuickTestStore.getState().reset());

/** The store as the screen reads it: the status in the screen's words. */
const shownState = () => {
  const s = useQuickTestStore.getState();
  return { ...s, status: selectQuickStatus(s) };
};

describe('the Done screen shows the one aggregate', () => {
  it('seed 4: two runs, 918 then 469 MB/s write: the dial rests on the mean (693.5), not the last run', () => {
    const cycles = [cycle(918, 5600, []), cycle(469, 5519, [])];
    const store = useQuickTestStore.getState();
    useQuickTestStore.setState({ status: 'running', job: { jobId: 'job' } });
    cycles.forEach((c, i) => store.onCycle({ jobId: 'job', cycle: i + 1, result: c }));
    store.onDone({ jobId: 'job', outcome: 'finished', result: combineRuns(cycles) });
    expect(quickReadout(shownState(), 'write')).toEqual({ value: 693.5, caption: 'mean of 2 runs · best 918' });
    expect(quickReadout(shownState(), 'read')).toEqual({ value: 5559.5, caption: 'mean of 2 runs · best 5,600' });
  });

  it('for any runs and flags: dials, caption and Will-it-work verdicts are the saved document’s (1,000 cases)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((n) => fc.array(fc.tuple(speed, speed), { minLength: n, maxLength: n })),
        fc.boolean(),
        (pairs, flagged) => {
          const cycles = pairs.map(([w, r]) => cycle(w, r, flagged ? [FLAG] : []));
          const doc = combineRuns(cycles);
          const store = useQuickTestStore.getState();
          store.reset();
          useQuickTestStore.setState({ status: 'running', job: { jobId: 'job' } });
          cycles.forEach((c, i) => store.onCycle({ jobId: 'job', cycle: i + 1, result: c }));
          store.onDone({ jobId: 'job', outcome: 'finished', result: doc });
          const done = shownState();
          const agg = quickAggregate(doc)!;
          expect(done.aggregate).toEqual(agg);
          for (const side of ['write', 'read'] as const) {
            const dial = quickReadout(done, side);
            expect(dial.value).toBe(agg[side].mean);
            if (agg[side].runs > 1) expect(dial.caption).toBe(aggregateText(agg[side]));
            else expect(dial.caption).toMatch(/^average/);
          }
          // What the Done screen's WillItWorkTable judges (judgeWork of workInput(doc)) is the model's verdict.
          expect(judgeWork(workInput(done.doc!)!)).toEqual(willItWork(doc));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
