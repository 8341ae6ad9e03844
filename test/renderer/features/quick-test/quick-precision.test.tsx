// The Quick Test's stop rule and intervals: "Stop when settled" sends precision ± 3 % with Start,
// and a finished result's dials say how sure each figure is — one run's own interval and how the
// rule ended it, the two figures of two runs, or the interval across three runs or more.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import quickJson from '../../../fixtures/results/quick.json';
import { App } from '../../../../renderer/src/app/app';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import { quickPrecision, quickReadout } from '../../../../renderer/src/features/quick-test/quick-progress';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { noResizeObserver } from '../../helpers/dom';

noResizeObserver();
const QUICK = quickJson as unknown as ResultDocument;

/** The fixture's first write and read, one run, with intervals (write settled, read not). */
function oneRun(): ResultDocument {
  const w = { ...QUICK.tests.find((t) => t.rw === 'write')!, run: 1, seconds: 1.43 };
  const r = { ...QUICK.tests.find((t) => t.rw === 'read')!, run: 1, seconds: 2.2 };
  w.interval = { halfWidth: 0.021 * w.mbps, relative: 0.021, method: 'series', n: 14, batchLength: 1 };
  w.settle = { precision: 0.03, settled: true };
  r.interval = { halfWidth: 0.09 * r.mbps, relative: 0.09, method: 'series', n: 22, batchLength: 2 };
  r.settle = { precision: 0.03, settled: false };
  const doc = { ...QUICK, settings: { ...QUICK.settings, runs: 1 }, tests: [w, r] };
  delete doc.summary;
  return doc;
}

/** The dials' state once `doc` is done, with its aggregate. */
function done(aggregate: Record<'write' | 'read', { mean: number; best: number; runs: number }>, doc: ResultDocument) {
  return {
    status: 'done',
    phase: null,
    live: { write: 0, read: 0 },
    avg: { write: 0, read: 0 },
    peak: { write: 0, read: 0 },
    settled: null,
    aggregate,
    precision: quickPrecision(doc),
  } as unknown as Parameters<typeof quickReadout>[0];
}

describe('Quick Test precision', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('words each side of a result: one run’s own, or across the runs', () => {
    expect(quickPrecision(oneRun())).toEqual({ write: 'settled in 1.4 s: ± 2.1 %', read: 'did not settle within 2 s: ± 9.0 %' });
    // The fixture's three runs: write 1763.56, 1816.13, 1725.91 → t(0.975, 2) · 45.3 / √3 = ± 6.4 %.
    expect(quickPrecision(QUICK).write).toBe('± 6.4 %');
    const shown = done({ write: { mean: 1000, best: 1000, runs: 1 }, read: { mean: 2000, best: 2000, runs: 1 } }, oneRun());
    expect(quickReadout(shown, 'write').caption).toBe('average · settled in 1.4 s: ± 2.1 %');
  });

  it('shows an interval across runs only from three runs on; two runs are their two figures', () => {
    // The fixture's first two runs: write 1763.56 and 1816.13, read 1535.49 and 1452.96. Their
    // interval, t(0.975, 1) · sd / √2, would be ± 19 % and ± 35 % (± 218 % for runs further apart).
    const two = { ...QUICK, settings: { ...QUICK.settings, runs: 2 }, tests: QUICK.tests.filter((t) => t.run <= 2) };
    delete two.summary;
    expect(quickPrecision(two)).toEqual({ write: 'runs 1,764 and 1,816', read: 'runs 1,535 and 1,453' });
    const shown = done({ write: { mean: 1789.8, best: 1816.1, runs: 2 }, read: { mean: 1494.2, best: 1535.5, runs: 2 } }, two);
    expect(quickReadout(shown, 'write').caption).toBe('mean of 2 runs · best 1,816 · runs 1,764 and 1,816');
    expect(quickReadout(shown, 'read').caption).not.toContain('±');
    // Three runs: the interval (as in the first test).
    expect(quickPrecision(QUICK).read).toMatch(/^± \d+(\.\d)? %$/);
  });

  it('"Stop when settled" sends the stop rule with Start', async () => {
    const user = userEvent.setup();
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    render(<App />);
    await screen.findByRole('button', { name: /Target: T7/ });
    await user.click(screen.getByTestId('quick-settle'));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(fake.calls.start.at(-1)).toMatchObject({ precision: 0.03 });
  });
});
