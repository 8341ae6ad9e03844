// History with 2,000 saved results in Debian's Chromium against `diskdial serve` (the real index,
// real files): the list keeps at most ~100 rows in the page, the search box narrows it through the
// core, and scrolling reaches the oldest result. Every wait is on a state of the page.
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../app/src/model/result.js';
import { openApp, root, tempDir, type App } from './helpers/harness.js';

const N = 2000;
const quick = JSON.parse(readFileSync(path.join(root, 'test/fixtures/results/quick.json'), 'utf8')) as ResultDocument;
const idOf = (i: number): string => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-0000000e2e00`;

let app: App;
let page: Page;

beforeAll(async () => {
  const home = await tempDir('dd-e2e-history-scale-');
  const dir = path.join(home, 'results');
  await fsp.mkdir(dir, { recursive: true });
  // Copies of one real result, one minute apart: "Bench 0" the oldest, "Bench 1999" the newest.
  for (let i = 0; i < N; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    await fsp.writeFile(
      path.join(dir, `${idOf(i)}.json`),
      JSON.stringify({ ...quick, id: idOf(i), label: `Bench ${i}`, startedAt: at, finishedAt: at }),
    );
  }
  app = await openApp({ home, remove: [home] });
  page = app.page;
}, 240_000);

afterAll(() => app?.close());

const rows = () => page.getByTestId('history-row');

describe('History with 2,000 results in Chromium', () => {
  it('shows the newest first with at most ~100 rows in the page', async () => {
    await page.getByTestId('nav-history').click();
    await rows().first().waitFor({ timeout: 60_000 });
    await expect.poll(() => rows().first().getAttribute('data-id')).toBe(idOf(N - 1));
    await expect.poll(() => rows().count()).toBeGreaterThan(5);
    await expect.poll(() => rows().count()).toBeLessThanOrEqual(100);
    await expect.poll(() => page.getByTestId('history-table').getAttribute('aria-rowcount')).toBe(String(N + 1));
  }, 90_000);

  it('scrolling to the end reaches the oldest result, still with at most ~100 rows', async () => {
    await page.getByTestId('history-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.locator(`[data-testid="history-row"][data-id="${idOf(0)}"]`).waitFor({ timeout: 60_000 });
    await expect.poll(() => rows().count()).toBeLessThanOrEqual(100);
  }, 90_000);

  it('the search box narrows the list through the core', async () => {
    await page.getByTestId('history-search').fill('bench 1234');
    await expect.poll(() => page.getByTestId('history-count').textContent(), { timeout: 30_000 }).toBe('Showing 1 of 2,000 results');
    await expect.poll(() => rows().count()).toBe(1);
    await expect.poll(() => rows().first().getAttribute('data-id')).toBe(idOf(1234));
    expect(app.errors).toEqual([]);
  }, 90_000);
});
