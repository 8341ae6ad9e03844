// Opening a saved result and comparing results, against the fake bridge and the engine's real
// documents (test/fixtures/results), cloned with changed numbers: the result view's facts,
// figures and exports; ticking results → the compare table with each figure's change against
// the baseline (better, worse, ≈ no difference, ? inconclusive), the rule, the charts and the exports
// of the comparison.
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import cdmJson from '../../../fixtures/results/cdm.json';
import quickJson from '../../../fixtures/results/quick.json';
import sustainedJson from '../../../fixtures/results/sustained.json';
import { COLUMN_COLOURS } from '../../../../renderer/src/components/charts';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { renderApp } from '../../helpers/render-app';
import { noResizeObserver, text } from '../../helpers/dom';

noResizeObserver();

const clone = (x: unknown): ResultDocument => JSON.parse(JSON.stringify(x)) as ResultDocument;

/** The quick fixture with every write scaled by `w` and every read by `r`. */
function quickScaled(id: string, label: string, w: number, r: number, startedAt: string): ResultDocument {
  const doc = clone(quickJson);
  doc.id = id;
  doc.label = label;
  doc.startedAt = startedAt;
  for (const t of doc.tests) {
    const f = t.rw === 'write' ? w : r;
    t.mbps *= f;
    t.series = t.series.map((p) => ({ ...p, mbps: p.mbps * f }));
  }
  return doc;
}

async function renderHistory(fake = createFakeBridge()) {
  const { user } = await renderApp(fake.bridge, 'nav-history');
  await screen.findAllByTestId('history-row');
  return { fake, user };
}

const rowOf = (id: string) => screen.getAllByTestId('history-row').find((r) => r.dataset.id === id)!;

beforeEach(resetStores);
afterEach(resetStores);

describe('Result view', () => {
  it('opens a result: facts, figures, and its exports', async () => {
    const fake = createFakeBridge();
    fake.history.add(clone(quickJson), clone(cdmJson));
    const { user } = await renderHistory(fake);
    await user.click(within(rowOf(quickJson.id)).getByTestId('history-open'));
    const view = await screen.findByTestId('result-view');
    // (The Quick Test's dial scale may read the same newest result: the ids fetched, not how often.)
    expect(new Set(fake.historyCalls.get)).toEqual(new Set([quickJson.id]));
    await within(view).findByText('Boot disk');
    expect(text(view)).toContain('Quick Test · 1 GiB · 3 runs');
    expect(text(view)).toContain('uncached (direct I/O) · random data · writes flushed');
    // The title says the count once; the Will-it-work table states its aggregate ("mean of 3 runs").
    expect(text(view).match(/(?<!mean of )3 runs/g)).toHaveLength(1);
    expect(text(view)).toContain('Intel(R) Xeon(R) Processor · DiskDial 0.1.0 (engine 0.3.0)');
    // Mean ± spread across the three runs, and each run.
    const metrics = within(view).getByTestId('result-metrics');
    expect(text(metrics)).toContain('Write');
    expect(text(metrics)).toMatch(/1,769 ± \d+(\.\d+)? MB\/s/);
    expect(text(metrics)).toContain('Run 3');
    expect(within(view).getByTestId('result-quick-chart')).toBeTruthy();

    await user.click(within(view).getByTestId('export-md'));
    expect(await within(view).findByText('Copied Markdown')).toBeTruthy();
    expect(fake.historyCalls.export.at(-1)).toEqual({ ids: [quickJson.id], format: 'md', baseline: undefined, fps: 29.97 });
    expect(fake.historyCalls.copyText).toEqual([`md export of ${quickJson.id}`]);

    await user.click(within(view).getByTestId('export-txt'));
    expect(await within(view).findByText('Copied text')).toBeTruthy();

    await user.click(within(view).getByTestId('export-csv'));
    expect(await within(view).findByText('Saved /home/ana/Downloads/diskdial-quick-2026-11-22.csv')).toBeTruthy();
    expect(fake.historyCalls.save.at(-1)).toEqual({
      filename: 'diskdial-quick-2026-11-22.csv',
      data: `csv export of ${quickJson.id}`,
      encoding: 'utf8',
      mime: 'text/csv',
    });

    fake.bridge.copyText = () =>
      Promise.resolve({ ok: false, error: { code: 'ERR_CLIPBOARD', message: 'The browser did not allow copying to the clipboard.' } });
    await user.click(within(view).getByTestId('export-md'));
    expect(await within(view).findByText('The browser did not allow copying to the clipboard.')).toBeTruthy();

    await user.click(screen.getByTestId('history-back'));
    expect(screen.getByTestId('history-list')).toBeTruthy();
  });

  it('draws the CrystalDiskMark grid for a cdm result and deletes after confirm', async () => {
    const fake = createFakeBridge();
    fake.history.add(clone(cdmJson), clone(quickJson));
    const { user } = await renderHistory(fake);
    await user.click(within(rowOf(cdmJson.id)).getByTestId('history-open'));
    const view = await screen.findByTestId('result-view');
    expect(await within(view).findByTestId('cdm-grid')).toBeTruthy();
    await user.click(within(view).getByTestId('result-delete'));
    expect(fake.historyCalls.delete).toEqual([]);
    await user.click(within(view).getByTestId('result-delete-confirm'));
    expect(fake.historyCalls.delete).toEqual([[cdmJson.id]]);
    expect(await screen.findByText('Deleted 1 result')).toBeTruthy();
    expect(screen.getAllByTestId('history-row').map((r) => r.dataset.id)).toEqual([quickJson.id]);
  });

  it('“Compare with…” ticks the result and goes back to the list', async () => {
    const fake = createFakeBridge();
    fake.history.add(clone(quickJson), clone(sustainedJson));
    const { user } = await renderHistory(fake);
    await user.click(within(rowOf(sustainedJson.id)).getByTestId('history-open'));
    await user.click(await screen.findByTestId('result-compare-with'));
    expect((within(rowOf(sustainedJson.id)).getByTestId('history-select') as HTMLInputElement).checked).toBe(true);
    expect(text(screen.getByTestId('history-compare'))).toBe('Compare results (1)');
  });
});

describe('Compare view', () => {
  function seeded() {
    const fake = createFakeBridge();
    // Newest first: the hub result is 20 % slower at writing; reads within 1 %.
    fake.history.add(
      quickScaled('hub', 'Through the hub', 0.8, 0.99, '2026-11-22T12:00:00.000Z'),
      quickScaled('port', 'Direct to the port', 1, 1, '2026-11-22T11:00:00.000Z'),
      clone(sustainedJson),
    );
    return fake;
  }

  it('compares the ticked results: columns, cells with spread, deltas coloured by verdict', async () => {
    const { user, fake } = await renderHistory(seeded());
    await user.click(within(rowOf('port')).getByTestId('history-select'));
    await user.click(within(rowOf('hub')).getByTestId('history-select'));
    await user.click(screen.getByTestId('history-compare'));
    const view = await screen.findByTestId('compare-view');
    const table = await within(view).findByTestId('compare-table');
    expect(new Set(fake.historyCalls.get)).toEqual(new Set(['hub', 'port']));

    // The first ticked is the baseline.
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(heads[1]).toContain('Direct to the port');
    expect(heads[1]).toContain('baseline');
    expect(heads[2]).toContain('Through the hub');

    const row = (label: string) =>
      [...table.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('th')!.textContent!.startsWith(label))!;
    const write = row('Write');
    expect(text(write.querySelectorAll('td')[0]!)).toMatch(/^1,769 ± \d+(\.\d+)? MB\/sbaseline$/);
    const hubWrite = write.querySelectorAll('td')[1]!;
    expect(text(hubWrite)).toMatch(/^1,415 ± \d+(\.\d+)? MB\/s/);
    expect(hubWrite.querySelector('.delta--worse')!.textContent).toContain('−20 %');
    const hubRead = row('Read').querySelectorAll('td')[1]!;
    // Reads 1 % apart, but three runs spread 6 %: the runs cannot tell, and the cell says so.
    const open = hubRead.querySelector('.delta--inconclusive') as HTMLElement;
    expect(open.textContent).toContain('−1 %?');
    expect(open.title).toMatch(/^inconclusive: .* — −1 %, CI −1\d to \+1\d %; the interval spans 0 and reaches past ±5 %$/);

    // Detail rows on demand.
    expect(table.querySelectorAll('tbody tr')).toHaveLength(2);
    await user.click(within(view).getByTestId('compare-all'));
    expect(table.querySelectorAll('tbody tr').length).toBeGreaterThan(2);

    expect(text(within(view).getByTestId('compare-rule'))).toContain("ratio of the runs' geometric means");
    expect(within(view).getByTestId('compare-bars')).toBeTruthy();
    expect(within(view).getByTestId('compare-quick-chart')).toBeTruthy();

    // Another baseline: the deltas turn around.
    await user.selectOptions(within(view).getByTestId('compare-baseline'), 'hub');
    const portWrite = row('Write').querySelectorAll('td')[0]!;
    expect(portWrite.querySelector('.delta--better')!.textContent).toContain('+25 %');

    await user.click(within(view).getByTestId('export-html'));
    expect(await within(view).findByText('Saved /home/ana/Downloads/diskdial-compare-2026-11-22.html')).toBeTruthy();
    expect(fake.historyCalls.export.at(-1)).toEqual({ ids: ['port', 'hub'], format: 'html', baseline: 'hub', fps: 29.97 });
    await user.click(within(view).getByTestId('export-md'));
    expect(await within(view).findByText('Copied Markdown')).toBeTruthy();
    expect(fake.historyCalls.copyText.at(-1)).toBe('md export of port, hub');
  });

  it('different kinds side by side: a warning, and “n/a” where a result has no such figure', async () => {
    const { user } = await renderHistory(seeded());
    await user.click(within(rowOf('port')).getByTestId('history-select'));
    await user.click(within(rowOf(sustainedJson.id)).getByTestId('history-select'));
    await user.click(screen.getByTestId('history-compare'));
    const view = await screen.findByTestId('compare-view');
    const table = await within(view).findByTestId('compare-table');
    expect(text(within(view).getByTestId('compare-warnings')).length).toBeGreaterThan(0);
    // Each "n/a" says why beside it.
    const na = [...table.querySelectorAll('td')].filter((td) => td.textContent?.startsWith('n/a'));
    expect(na.length).toBeGreaterThan(0);
    expect(na.map((td) => td.textContent)).toContain('n/athis test has no such figure');
    expect(within(view).getByTestId('compare-sustained-chart')).toBeTruthy();
  });
});

describe('compare colours', () => {
  /** Hue in degrees and saturation (HSL) of #rrggbb. */
  const hsl = (hex: string): { h: number; s: number } => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const d = max - min;
    const l = (max + min) / 2;
    const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
    let h = 0;
    if (d) h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return { h: (h * 60 + 360) % 360, s };
  };
  const hueGap = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

  it('results get neutral series colours: none is the write orange or the read teal, nor near them', () => {
    const write = hsl('#ff6a3d');
    const read = hsl('#2fd4a3');
    for (const c of COLUMN_COLOURS) {
      const { h, s } = hsl(c);
      if (s < 0.2) continue; // a grey is no accent
      expect(hueGap(h, write.h), `${c} vs write`).toBeGreaterThanOrEqual(25);
      expect(hueGap(h, read.h), `${c} vs read`).toBeGreaterThanOrEqual(25);
    }
    expect(new Set(COLUMN_COLOURS).size).toBe(COLUMN_COLOURS.length);
  });
});
