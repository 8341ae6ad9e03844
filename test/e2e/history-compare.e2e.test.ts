// History's compare view in Chromium against `diskdial serve`, on saved results made for it: two
// Quick Tests that share a label (started a day apart, their runs ±50 % apart, one with only two
// samples a test) and a CrystalDiskMark grid (figures the Quick Tests lack). The columns are told
// apart by when each started, not "(2)"; the bars carry their ± as error bars; the over-time chart
// draws each result's write and read; every "n/a" says why beside it.
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../app/src/model/result.js';
import { artifacts, openApp, root, tempDir, type App } from './helpers/harness.js';

const fixture = (name: string) => JSON.parse(readFileSync(path.join(root, 'test/fixtures/results', name), 'utf8')) as ResultDocument;

let app: App;
let page: Page;

beforeAll(async () => {
  const home = await tempDir('dd-e2e-compare-');
  await fsp.mkdir(path.join(home, 'results'), { recursive: true });
  const a = fixture('quick.json');
  a.label = 'Boot disk';
  // Runs of 1,000, 2,000 and 3,000 MB/s each way: a mean of 2,000 ± 1,000 (±50 %).
  for (const t of a.tests) t.mbps = [1000, 2000, 3000][(t.run ?? 1) - 1]!;
  const b = structuredClone(a);
  b.id = 'b141b8d5-239f-4ff4-8683-3befc5aaaab0';
  b.startedAt = '2026-11-23T10:11:12.000Z';
  // Two samples a test, as a 256 MB test on a fast drive has.
  for (const t of b.tests) t.series = (t.series ?? []).slice(0, 2);
  const cdm = fixture('cdm.json');
  for (const d of [a, b, cdm]) await fsp.writeFile(path.join(home, 'results', `${d.id}.json`), JSON.stringify(d));
  app = await openApp({ home, screen: 'history', remove: [home] });
  ({ page } = app);
  await page.getByTestId('history-row').nth(2).waitFor({ timeout: 15_000 });
  for (const n of [0, 1, 2]) await page.getByTestId('history-select').nth(n).check();
  await page.getByTestId('history-compare').click();
  await page.getByTestId('compare-table').waitFor({ timeout: 15_000 });
}, 180_000);

afterAll(() => app?.close());

describe('History compare in Chromium against diskdial serve', () => {
  it('names two results that share a label by when each started, never "(2)"', async () => {
    const names = page.getByTestId('compare-table').locator('.compare-col__name');
    await expect.poll(() => names.count()).toBe(3);
    const texts = await names.allTextContents();
    expect(texts).toContain('Boot disk · 22 Nov 2026 02:39 UTC');
    expect(texts).toContain('Boot disk · 23 Nov 2026 10:11 UTC');
    expect(texts.join('|')).not.toMatch(/\(\d\)/);
  });

  it('draws each bar with runs as mean ± one standard deviation, ±50 % here', async () => {
    const bars = page.getByTestId('compare-bars');
    await bars.locator('.recharts-bar-rectangle').first().waitFor();
    // The two Quick Tests' Write and Read have 3 runs each: four error bars at least.
    await expect.poll(() => bars.locator('.recharts-errorBar').count()).toBeGreaterThanOrEqual(4);
    // Each error bar stands over its own bar (the same x); the Quick Tests' four are as tall as
    // their bars: 2 × 1,000 MB/s against 2,000 MB/s (±50 %). Rendering rounds each to a pixel or
    // two: within 5 % of the bar's height (no measured figure here).
    const matched = () =>
      bars.evaluate((fig) => {
        const box = (e: Element) => e.getBoundingClientRect();
        const rects = [...fig.querySelectorAll('.recharts-bar-rectangle path')].map(box);
        return [...fig.querySelectorAll('.recharts-errorBar')].map(box).filter((err) => {
          const x = err.left + err.width / 2;
          const bar = rects.find((r) => r.left <= x && x <= r.right);
          return bar !== undefined && Math.abs(err.height - bar.height) / bar.height < 0.05;
        }).length;
      });
    await expect.poll(matched).toBeGreaterThanOrEqual(4);
  });

  it("draws every result's write and read over time, a short test's points marked", async () => {
    const chart = page.getByTestId('compare-quick-chart');
    await expect.poll(() => chart.locator('path.recharts-line-curve').count()).toBe(4);
    const legend = await chart.locator('.recharts-legend-item').allTextContents();
    for (const when of ['22 Nov 2026 02:39 UTC', '23 Nov 2026 10:11 UTC'])
      for (const rw of ['Write', 'Read']) expect(legend).toContain(`Boot disk · ${when} · ${rw}`);
    await expect.poll(() => chart.locator('.recharts-line-dot, .recharts-dot').count()).toBeGreaterThanOrEqual(4);
  });

  it('says beside every "n/a" why it has no figure', async () => {
    await page.getByTestId('compare-all').check();
    const na = page.getByTestId('compare-table').locator('td', { hasText: /^n\/a/ });
    await expect.poll(() => na.count()).toBeGreaterThan(0);
    for (const cell of await na.all()) await expect.poll(() => cell.getByTestId('compare-na-reason').textContent()).toMatch(/\w{3}/);
    // The Quick Tests' Write row has no CrystalDiskMark figure: the grid's cell says so.
    const write = page
      .getByTestId('compare-table')
      .locator('tbody tr', { has: page.locator('th', { hasText: /^Write/ }) })
      .first();
    await expect.poll(() => write.locator('td').nth(2).textContent()).toBe('n/athis test has no such figure');
    await page.screenshot({ path: path.join(artifacts, 'history-compare-names.png'), fullPage: true });
  });
});
