// History with thousands of results (the fake bridge answering with the core's own query code):
// the table keeps a window of rows in the DOM and asks for pages as it scrolls, the search box and
// the order ask the core again, and picking a drive charts every result of it over time.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import quickJson from '../../../fixtures/results/quick.json';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { renderApp } from '../../helpers/render-app';
import { noResizeObserver, text } from '../../helpers/dom';
import { ROW_PX } from '../../../../renderer/src/features/history/history-table';

noResizeObserver();
beforeEach(resetStores);
afterEach(resetStores);

/** `n` Quick Tests one minute apart, "Run 0" the oldest; every tenth on a second drive. */
function many(n: number) {
  const fake = createFakeBridge();
  for (let i = 0; i < n; i++) {
    const doc = JSON.parse(JSON.stringify(quickJson)) as ResultDocument;
    doc.id = `run-${String(i).padStart(5, '0')}`;
    doc.label = `Run ${i}`;
    doc.startedAt = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    if (i % 10 === 0) doc.target = { ...doc.target, device: { ...doc.target.device, serial: 'SECOND' } };
    fake.history.add(doc);
  }
  return fake;
}

const rows = () => screen.queryAllByTestId('history-row');
const labels = () => rows().map((r) => text(r.querySelector('.history-row__name')!).split('Quick Test')[0]!.trim());

describe('History at scale', () => {
  it('2,000 results: at most ~50 rows in the DOM, a page asked for as it scrolls, the last one reached', async () => {
    const fake = many(2000);
    await renderApp(fake.bridge, 'nav-history');
    await screen.findAllByTestId('history-row');
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThanOrEqual(50);
    expect(labels()[0]).toBe('Run 1999');
    expect(fake.historyCalls.queries.filter((q) => q.offset !== undefined).every((q) => q.limit === 100)).toBe(true);
    const table = screen.getByTestId('history-table');
    expect(table.getAttribute('aria-rowcount')).toBe('2001');

    const box = screen.getByTestId('history-scroll');
    box.scrollTop = 1000 * ROW_PX;
    fireEvent.scroll(box);
    await waitFor(() => expect(labels()).toContain('Run 999'));
    expect(rows().length).toBeLessThanOrEqual(50);
    expect(fake.historyCalls.queries.some((q) => q.offset === 1000)).toBe(true);

    box.scrollTop = 2000 * ROW_PX;
    fireEvent.scroll(box);
    await waitFor(() => expect(labels().at(-1)).toBe('Run 0'));
    expect(rows().length).toBeLessThanOrEqual(50);
  });

  it('the search box asks the core and narrows the list; the order can be by name or oldest first', async () => {
    const fake = many(300);
    const { user } = await renderApp(fake.bridge, 'nav-history');
    await screen.findAllByTestId('history-row');
    await user.type(screen.getByTestId('history-search'), 'run 12');
    // Every word, anywhere: "12" is in 12, 112, 120–129 and 212.
    const twelves = ['Run 212', ...Array.from({ length: 10 }, (_, i) => `Run ${129 - i}`), 'Run 112', 'Run 12'];
    await waitFor(() => expect(labels()).toEqual(twelves));
    expect(text(screen.getByTestId('history-count'))).toBe('Showing 13 of 300 results');
    expect(fake.historyCalls.queries.at(-1)).toMatchObject({ search: 'run 12', offset: 0 });
    await user.selectOptions(screen.getByTestId('history-sort'), 'name-asc');
    await waitFor(() => expect(labels()[0]).toBe('Run 112')); // A to Z as text: "run 112" before "run 12"
    await user.clear(screen.getByTestId('history-search'));
    await user.selectOptions(screen.getByTestId('history-sort'), 'date-asc');
    await waitFor(() => expect(labels()[0]).toBe('Run 0'));
    await user.type(screen.getByTestId('history-search'), 'no such run');
    await waitFor(() => expect(screen.getByTestId('history-no-match')).toBeTruthy());
  });

  it('picking a drive charts every result of it over time, from one request', async () => {
    const fake = many(300);
    const { user } = await renderApp(fake.bridge, 'nav-history');
    await screen.findAllByTestId('history-row');
    await user.selectOptions(screen.getByTestId('history-filter-drive'), 'SECOND');
    const panel = await screen.findByTestId('drive-over-time');
    expect(text(panel)).toContain('This drive over time');
    expect(text(panel)).toContain('30 results');
    expect(panel.querySelectorAll('.recharts-line').length).toBeGreaterThan(0);
    expect(text(screen.getByTestId('history-count'))).toBe('Showing 30 of 300 results');
  });
});
