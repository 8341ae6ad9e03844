// "Will it work?" in History: a saved Quick Test's result view carries the live screen's table,
// fed by the result's average speeds, and the compare view shows each Quick Test's ✓/✗ for one
// format family at one frame rate. Other kinds get none. Against the fake bridge and the
// engine's real documents (test/fixtures/results), with their speeds set.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import cdmJson from '../../../fixtures/results/cdm.json';
import quickJson from '../../../fixtures/results/quick.json';
import videoJson from '../../../fixtures/results/video.json';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { renderApp } from '../../helpers/render-app';
import { noResizeObserver, text } from '../../helpers/dom';

noResizeObserver();

const clone = (x: unknown): ResultDocument => JSON.parse(JSON.stringify(x)) as ResultDocument;

/** The quick fixture with every write at `write` MB/s and every read at `read`. */
function quickAt(id: string, label: string, write: number, read: number): ResultDocument {
  const doc = clone(quickJson);
  doc.id = id;
  doc.label = label;
  for (const t of doc.tests) t.mbps = t.rw === 'write' ? write : read;
  return doc;
}

async function renderHistory(...docs: ResultDocument[]) {
  const fake = createFakeBridge();
  fake.history.add(...docs);
  const { user } = await renderApp(fake.bridge, 'nav-history');
  await screen.findAllByTestId('history-row');
  return { fake, user };
}

const rowOf = (id: string) => screen.getAllByTestId('history-row').find((r) => r.dataset.id === id)!;
const METHOD = /measured speed \(the mean of the runs\).*with a 20 % margin.*a paced test checks frame by frame/;

beforeEach(resetStores);
afterEach(resetStores);

describe('Result view', () => {
  it('a saved Quick Test at 120 MB/s write, 200 read: UHD ProRes 422 HQ will play but not record, and the table says how it knows', async () => {
    const { user, fake } = await renderHistory(quickAt('slow', 'Slow stick', 120, 200));
    await user.click(within(rowOf('slow')).getByTestId('history-open'));
    const view = await screen.findByTestId('result-view');
    const table = await within(view).findByTestId('video-table');
    expect(within(table).getByTestId('work-prores-hq-uhd-write').textContent).toBe('✗no');
    expect(within(table).getByTestId('work-prores-hq-uhd-read').textContent).toBe('✓yes');
    expect(within(table).getByTestId('need-prores-hq-uhd').textContent).toBe('138');
    expect(text(table)).toMatch(METHOD);
    // One margin convention: "needs 138" (with the margin) against the measured mean, never "usable".
    expect(text(table)).toContain('Measured, mean of 3 runs: write 120 MB/s (best 120), read 200 MB/s (best 200).');
    expect(text(table)).not.toMatch(/Usable/);
    expect(within(table).queryByTestId('video-caveat')).toBeNull();
    // The frame-rate menu works here as on the live screen.
    await user.selectOptions(within(table).getByRole('combobox', { name: 'Frame rate' }), '25');
    await waitFor(() => expect(within(table).getByTestId('work-prores-hq-uhd-write').textContent).toBe('✓yes'));
    // The exports follow the frame rate chosen here.
    await user.click(within(view).getByTestId('export-md'));
    await waitFor(() => expect(fake.historyCalls.export.at(-1)).toEqual({ ids: ['slow'], format: 'md', baseline: undefined, fps: 25 }));
  });

  it('a frame-paced test launched from this result decides its row and every lighter one; late frames the buffer absorbed are ✓ with a note', async () => {
    const q = quickAt('fast', 'Fast SSD', 500, 500);
    // The real paced document (its write had 2 late frames, none dropped), launched from this result.
    const paced = clone(videoJson);
    Object.assign(paced, { id: 'paced-proxy', target: q.target, startedAt: '2026-11-26T16:59:00.000Z' });
    paced.settings.video = { ...paced.settings.video!, from: 'fast' };
    const { user } = await renderHistory(q, paced);
    await user.click(within(rowOf('fast')).getByTestId('history-open'));
    const view = await screen.findByTestId('result-view');
    const table = await within(view).findByTestId('video-table');
    // At 29.97 fps Proxy HD needs 5.7 MB/s, more than the 4.75 the paced test carried: the average's ✓.
    expect(within(table).getByTestId('work-prores-proxy-hd-write').textContent).toBe('✓yes');
    expect(within(table).queryByTestId('paced-note-prores-proxy')).toBeNull();
    await user.selectOptions(within(table).getByRole('combobox', { name: 'Frame rate' }), '25');
    await waitFor(() =>
      expect(within(table).getByTestId('work-prores-proxy-hd-write').textContent).toBe('✓yes (frame-paced test, 2026-11-26)'),
    );
    expect(within(table).getByTestId('work-prores-proxy-hd-read').textContent).toBe('✓yes (frame-paced test, 2026-11-26)');
    expect(text(within(table).getByTestId('paced-note-prores-proxy'))).toBe('(paced test, 2026-11-26)');
    expect(within(table).getByTestId('work-prores-proxy-hd-write').getAttribute('title')).toMatch(
      /ProRes 422 Proxy HD 25 fps: ✓ no frame dropped; 2 frames late, absorbed by the 4-frame buffer/,
    );
    // UHD needs 4× the rate: the paced pass proves nothing there, the average decides.
    expect(within(table).getByTestId('work-prores-proxy-uhd-write').textContent).toBe('✓yes');
    expect(text(within(table).getByTestId('video-paced-method'))).toMatch(/launched from this result .*monotone in data rate/);
    // At 23.98 fps Proxy HD needs less than the paced test carried: proven by it.
    await user.selectOptions(within(table).getByRole('combobox', { name: 'Frame rate' }), '23.976');
    await waitFor(() =>
      expect(within(table).getByTestId('work-prores-proxy-hd-write').textContent).toMatch(
        /^✓yes \(✓ implied by a paced test of ProRes 422 Proxy HD 25 fps/,
      ),
    );
  });

  it('a paced test of the same drive not launched from this result decides nothing: it is a dated line', async () => {
    const q = quickAt('fast', 'Fast SSD', 500, 500);
    const paced = { ...clone(videoJson), id: 'paced-proxy', target: q.target, startedAt: '2026-11-26T16:59:00.000Z' };
    const { user } = await renderHistory(q, paced);
    await user.click(within(rowOf('fast')).getByTestId('history-open'));
    const table = await within(await screen.findByTestId('result-view')).findByTestId('video-table');
    await user.selectOptions(within(table).getByRole('combobox', { name: 'Frame rate' }), '25');
    await waitFor(() =>
      expect(text(within(table).getByTestId('video-notes'))).toMatch(
        /frame-paced test on this drive, 2026-11-26, not launched from this result/,
      ),
    );
    expect(within(table).getByTestId('work-prores-proxy-hd-write').textContent).toBe('✓yes');
    expect(within(table).queryByTestId('video-paced-method')).toBeNull();
  });

  it('names the warnings when the speeds may be a cache’s', async () => {
    const doc = quickAt('cached', 'Cached', 5000, 9000);
    doc.flags = [{ code: 'loop-cached', message: 'A loop device over the page cache.', fix: 'Test the disk under it.' }];
    const { user } = await renderHistory(doc);
    await user.click(within(rowOf('cached')).getByTestId('history-open'));
    const caveat = await screen.findByTestId('video-caveat');
    expect(text(caveat)).toMatch(/speeds carry warnings \(loop device over the page cache\).*may be a cache's/);
    // No ✓ under the warning: '?' with the reason, and "How fast?" says "> 120", not 23,265.
    expect(screen.getByTestId('work-prores-hq-hd-write').textContent).toMatch(/^\?not proven \(not proven: the speeds carry warnings/);
    expect(screen.getByTestId('fast-prores-proxy-hd-read').textContent).toBe('> 120');
  });

  it('is not shown for other kinds, whose exports name no frame rate', async () => {
    const { user, fake } = await renderHistory(clone(cdmJson));
    await user.click(within(rowOf(cdmJson.id)).getByTestId('history-open'));
    const view = await screen.findByTestId('result-view');
    await within(view).findByTestId('result-metrics');
    expect(within(view).queryByTestId('video-table')).toBeNull();
    await user.click(within(view).getByTestId('export-md'));
    await waitFor(() => expect(fake.historyCalls.export).toHaveLength(1));
    expect('fps' in fake.historyCalls.export[0]!).toBe(false);
  });
});

describe('Compare view', () => {
  it('a column per Quick Test, write · read per cell, following the family and frame rate chosen', async () => {
    const { user, fake } = await renderHistory(
      quickAt('slow', 'Slow stick', 120, 200),
      quickAt('fast', 'Fast SSD', 1000, 1000),
      clone(cdmJson),
    );
    for (const id of ['slow', 'fast', cdmJson.id]) await user.click(within(rowOf(id)).getByTestId('history-select'));
    await user.click(screen.getByTestId('history-compare'));
    const box = await screen.findByTestId('compare-video');
    const table = within(box).getByTestId('compare-video-table');
    // The CrystalDiskMark-style result has no Quick Test speeds: no column of its own.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => text(h)),
    ).toEqual(['Format', 'Needs with margin (MB/s)', 'Slow stickwrite · read', 'Fast SSDwrite · read']);
    const cell = (id: string, key: string) => text(within(box).getByTestId(`compare-video-${id}-${key}`));
    expect(text(within(box).getByRole('heading'))).toBe('Will it work? At 29.97 fps');
    expect(cell('slow', 'prores-hq/uhd')).toBe('✗write no ✓read yes');
    expect(cell('fast', 'prores-hq/uhd')).toBe('✓write yes ✓read yes');
    expect(text(within(box).getByTestId('compare-video-method'))).toMatch(METHOD);

    await user.selectOptions(within(box).getByTestId('compare-video-fps'), '59.94');
    // 221 MB/s at 59.94 fps: 160 usable MB/s of reads no longer play it.
    await waitFor(() => expect(cell('slow', 'prores-hq/uhd')).toBe('✗write no ✗read no'));
    expect(text(within(box).getByRole('heading'))).toBe('Will it work? At 59.94 fps');
    await user.click(within(screen.getByTestId('compare-view')).getByTestId('export-md'));
    await waitFor(() => expect(fake.historyCalls.export.at(-1)).toMatchObject({ format: 'md', fps: 59.94 }));

    await user.selectOptions(within(box).getByTestId('compare-video-family'), 'dnxhr');
    await waitFor(() => expect(within(box).queryByTestId('compare-video-slow-prores-hq/uhd')).toBeNull());
    expect(cell('fast', 'dnxhr-hq/uhd')).toMatch(/^[✓✗]write (yes|no) [✓✗]read (yes|no)$/);
  });

  it('a frame-paced test launched from one result decides that result’s row, marked †, and says which test', async () => {
    const q = quickAt('fast', 'Fast SSD', 500, 500);
    const other = quickAt('slow', 'Slow stick', 500, 500);
    other.target = { ...other.target, path: '/media/stick', mountPoint: '/media/stick', volume: '/media/stick' };
    const paced = clone(videoJson);
    Object.assign(paced, { id: 'paced-proxy', target: q.target, startedAt: '2026-11-26T16:59:00.000Z' });
    paced.settings.video = { ...paced.settings.video!, from: 'fast' };
    const { user } = await renderHistory(q, other, paced);
    for (const id of ['fast', 'slow']) await user.click(within(rowOf(id)).getByTestId('history-select'));
    await user.click(screen.getByTestId('history-compare'));
    const box = await screen.findByTestId('compare-video');
    const cell = (id: string, key: string) => text(within(box).getByTestId(`compare-video-${id}-${key}`));
    await user.selectOptions(within(box).getByTestId('compare-video-fps'), '25');
    // Launched from Fast SSD's result: its 2 late write frames were absorbed, none dropped: ✓†.
    await waitFor(() =>
      expect(cell('fast', 'prores-proxy/hd')).toBe('✓†write yes (frame-paced test, 2026-11-26) ✓†read yes (frame-paced test, 2026-11-26)'),
    );
    expect(cell('slow', 'prores-proxy/hd')).toBe('✓write yes ✓read yes');
    expect(cell('fast', 'prores-proxy/uhd')).toBe('✓write yes ✓read yes');
    expect(text(within(box).getByTestId('compare-video-paced'))).toMatch(
      /launched from this result.*✓† Fast SSD, ProRes 422 Proxy HD write: frame-paced test, 2026-11-26 — ProRes 422 Proxy HD 25 fps: ✓ no frame dropped; 2 frames late/,
    );
  });
});
