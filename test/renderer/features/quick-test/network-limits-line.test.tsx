// Issue 34 on the Quick Test: with a network share chosen, one line under the dials says what is
// known about what limits it — the newest saved share-limits result on the same share, its verdict
// in the one renderer's words and its date — or, with none, offers to find out, which opens the
// Detailed screen's share panel for the same target. Nothing is said on a local disk. The saved
// result is a real one (test/fixtures/results/share.json).
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import { shareText } from '@model/verdict/share';
import shareJson from '../../../fixtures/results/share.json';
import { createFakeBridge, shareTarget, target } from '../../helpers/fake-bridge';
import { noResizeObserver } from '../../helpers/dom';
import { renderApp } from '../../helpers/render-app';
import { resetStores } from '../../helpers/reset-stores';
import { useTargetsStore } from '../../../../renderer/src/lib/targets-store';

noResizeObserver();

/** The real document, saved under `id` at `startedAt` on the folder `path` (its own mount point). */
function saved(id: string, startedAt: string, path = '/mnt/nas', ceilingMBps?: number): ResultDocument {
  const doc = JSON.parse(JSON.stringify(shareJson)) as ResultDocument;
  doc.id = id;
  doc.startedAt = startedAt;
  doc.target = { ...doc.target, path, mountPoint: path, volume: path };
  if (ceilingMBps !== undefined) {
    const v = doc.share!.runs[0]!.verdict;
    v.figures = { ...v.figures, ceilingMBps };
  }
  return doc;
}

const line = () => screen.queryByTestId('limits-line');

async function onShare(docs: ResultDocument[] = []) {
  const fake = createFakeBridge([target(), shareTarget(), shareTarget({ path: '/mnt/other', name: 'other', mountPoint: '/mnt/other' })]);
  fake.history.add(...docs);
  const r = await renderApp(fake.bridge);
  act(() => useTargetsStore.getState().select('/mnt/nas'));
  return { fake, ...r };
}

describe('the Quick Test’s line on a network share', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('says nothing on a local disk', async () => {
    await renderApp(createFakeBridge([target(), shareTarget()]).bridge);
    await expect.poll(() => screen.getByTestId('quick-status').textContent).toBe('Ready');
    expect(line()).toBeNull();
  });

  it('with a saved result on the share: the newest one’s verdict and date, not another share’s', async () => {
    // Newest first, as History lists them: another share's, then this one's newest, then an older one.
    const other = saved('share-other', '2026-11-29T11:00:00.000Z', '/mnt/other', 5.5);
    const newest = saved('share-new', '2026-11-29T10:30:00.000Z');
    const older = saved('share-old', '2026-11-28T09:00:00.000Z', '/mnt/nas', 77.7);
    await onShare([other, newest, older]);
    const expected = `What limits this share (measured 29 Nov 2026 10:30 UTC): ${shareText(newest.share!.runs[0]!.verdict)}`;
    await expect.poll(() => line()?.textContent).toBe(expected);
    expect(screen.queryByTestId('limits-find-out')).toBeNull();
  });

  it('with none: an offer to find out, which opens the Detailed screen at the share panel for the same target', async () => {
    const { fake, user } = await onShare([saved('share-other', '2026-11-29T11:00:00.000Z', '/mnt/other')]);
    await expect
      .poll(() => line()?.textContent)
      .toBe('What limits this share, the link, the server’s disk or the protocol, has not been measured. Find out');
    await user.click(screen.getByTestId('limits-find-out'));
    expect(screen.getByTestId('nav-detailed').getAttribute('aria-selected')).toBe('true');
    // Its panel is brought up with its heading focused, and its Start runs on the share.
    await expect.poll(() => document.activeElement?.closest('section')?.getAttribute('data-testid')).toBe('share-panel');
    await user.click(screen.getByTestId('share-start'));
    expect(fake.calls.detailedStart).toMatchObject([{ kind: 'share', target: '/mnt/nas' }]);
    // The test saved, the Quick Test says its verdict once shown again.
    const doc = saved('share-run', '2026-11-29T13:30:00.000Z');
    fake.history.add(doc);
    act(() => fake.emitDetailedDone({ jobId: 'djob-1', outcome: 'finished', result: doc, saved: { id: doc.id } }));
    await user.click(screen.getByTestId('nav-quick'));
    await expect
      .poll(() => line()?.textContent)
      .toBe(`What limits this share (measured 29 Nov 2026 13:30 UTC): ${shareText(doc.share!.runs[0]!.verdict)}`);
  });
});
