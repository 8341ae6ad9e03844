// Issue 14 point 5: before a Quick Test the dials' scale comes from what is known of the target —
// its link's ceiling and the newest saved result on it in History — so its figures fit at once.
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TargetInfo } from '@model/history';
import type { ResultDocument } from '@model/result';
import { App } from '../../../../renderer/src/app/app';
import { useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import { lastResultPeak } from '../../../../renderer/src/lib/last-result';
import quickJson from '../../../fixtures/results/quick.json';
import { createFakeBridge, target } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';

class NoResize {
  observe() {}
  unobserve() {}
  disconnect() {}
}
(globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= NoResize;

/** The fixture's Quick Test (peak 1,877 MB/s in its write series) saved for `where`. */
function savedQuick(id: string, where: Partial<ResultDocument['target']>, scale = 1): ResultDocument {
  const doc = structuredClone(quickJson) as unknown as ResultDocument;
  doc.id = id;
  Object.assign(doc.target, where);
  for (const t of doc.tests) {
    t.mbps *= scale;
    for (const p of t.series ?? []) p.mbps *= scale;
  }
  return doc;
}

const ON_T7 = { path: '/media/t7', mountPoint: '/media/t7', volume: 'T7' };

async function renderWith(docs: ResultDocument[], targets: TargetInfo[] = [target()]) {
  const fake = createFakeBridge(targets);
  newestFirst(docs);
  fake.history.add(...docs);
  setBridgeForTests(fake.bridge);
  render(<App />);
  await screen.findByRole('button', { name: /Target: T7/ });
  return fake;
}

const writeDial = () => screen.getByRole('img', { name: /^WRITE:/ }).getAttribute('aria-label');
/** The write dial's last tick label: its full scale as the user reads it. */
const topLabel = () => [...screen.getByRole('img', { name: /^WRITE:/ }).querySelectorAll('.dial__tick-label')].at(-1)?.textContent;

describe('the dial scale before a test', () => {
  afterEach(resetStores);

  it('fits the newest saved Quick Test on the same target before Start, and the test starts on it', async () => {
    await renderWith([savedQuick('newest', ON_T7), savedQuick('older', ON_T7, 3)]);
    // 1,877 MB/s with 10 % headroom needs 0–3000 (not the 0–1000 of a target nothing is known of).
    await waitFor(() => expect(writeDial()).toMatch(/scale 0 to 3000/));
    expect(topLabel()).toBe('3000');
    await useQuickTestStore.getState().start('/media/t7');
    expect(useQuickTestStore.getState().scale).toBe(3000);
  });

  it('ignores results of other targets and of other kinds; nothing known keeps the default', async () => {
    const cdm = savedQuick('cdm', ON_T7, 4);
    cdm.kind = 'cdm' as ResultDocument['kind'];
    const fake = await renderWith([savedQuick('elsewhere', { path: '/tmp', mountPoint: '/', volume: '/' }, 4), cdm]);
    await waitFor(() => expect(fake.historyCalls.list).toBeGreaterThan(0));
    expect(writeDial()).toMatch(/scale 0 to 1000/);
    // Only Quick Tests are opened to see where they ran.
    expect(fake.historyCalls.get).toEqual(['elsewhere']);
  });

  it('another folder on the same volume counts: the disk is the same', async () => {
    expect(await lastResultPeakWith([savedQuick('a', { path: '/media/t7/clips', mountPoint: '/media/t7', volume: 'T7' })])).toBeCloseTo(
      1876.81,
      1,
    );
    expect(await lastResultPeakWith([savedQuick('b', { path: '/media/x', mountPoint: '/media/x', volume: 'T7' })])).toBe(0);
    // The newest wins, whichever row names the volume.
    expect(
      await lastResultPeakWith([
        savedQuick('newer', { path: '/media/t7', mountPoint: '/media/t7', volume: 'Footage' }, 2),
        savedQuick('older', ON_T7),
      ]),
    ).toBeCloseTo(2 * 1876.81, 1);
    // A folder typed on a labelled volume: its row names the label, not the folder, and is still found.
    expect(await lastResultPeakWith([savedQuick('c', { path: '/media/t7', mountPoint: '/media/t7', volume: 'Footage' })])).toBeCloseTo(
      1876.81,
      1,
    );
  });

  it('the link ceiling still raises it, and a figure from this session wins over History', async () => {
    const link = { label: 'Thunderbolt 3', ceilingMBps: 2750 };
    const t = target();
    await renderWith([savedQuick('newest', ON_T7)], [{ ...t, device: { ...t.device, link } }]);
    // 2,750 MB/s ceiling × 1.1 needs 0–8000, above the saved result's 0–3000.
    await waitFor(() => expect(useQuickTestStore.getState().lastByTarget['/media/t7']).toBeGreaterThan(0));
    expect(writeDial()).toMatch(/scale 0 to 8000/);

    useQuickTestStore.getState().learn('/media/t7', 99_999);
    expect(useQuickTestStore.getState().lastByTarget['/media/t7']).toBeCloseTo(1876.81, 1);
  });

  it('asks a page of rows at a time: a result of this target behind 150 of other drives is still found', async () => {
    const others = Array.from({ length: 150 }, (_, i) => savedQuick(`other-${i}`, { path: '/mnt/x', mountPoint: '/mnt/x', volume: 'X' }));
    const fake = createFakeBridge([target()]);
    const docs = [...others, savedQuick('mine', ON_T7)];
    newestFirst(docs);
    fake.history.add(...docs);
    setBridgeForTests(fake.bridge);
    expect(await lastResultPeak(target())).toBeCloseTo(1876.81, 1);
    // Two pages of 100 (not 1,000 rows in one answer, which held History's first page up).
    expect(fake.historyCalls.queries.map((q) => [q.offset, q.limit])).toEqual([
      [0, 100],
      [100, 100],
    ]);
    // Five unnamed rows opened at most, then the one that names the volume.
    expect(fake.historyCalls.get).toEqual(['other-0', 'other-1', 'other-2', 'other-3', 'other-4', 'mine']);
  });

  it('an unreadable History is no error: the scale starts from the link alone', async () => {
    const fake = createFakeBridge([target()]);
    fake.bridge.listHistory = () => Promise.resolve({ ok: false, error: { code: 'EACCES', message: 'No access.' } });
    setBridgeForTests(fake.bridge);
    expect(await lastResultPeak(target())).toBe(0);
    fake.bridge.listHistory = () => Promise.reject(new Error('Lost the connection to DiskDial.'));
    expect(await lastResultPeak(target())).toBe(0);
  });
});

/** Dates `docs` newest first, in the order given (History lists by date, as the core does). */
function newestFirst(docs: ResultDocument[]): void {
  docs.forEach((d, i) => (d.startedAt = new Date(Date.UTC(2026, 10, 22) - i * 60_000).toISOString()));
}

async function lastResultPeakWith(docs: ResultDocument[]): Promise<number> {
  const fake = createFakeBridge([target()]);
  newestFirst(docs);
  fake.history.add(...docs);
  setBridgeForTests(fake.bridge);
  return lastResultPeak(target());
}
