// Compare setups end to end: `diskdial serve` (real services and engine) in Debian's Chromium. A
// person names two setups, keeps the Quick Test at a small size, answers the card before each setup, and
// reads the report with a row per setup; the test folder is left as it was, the results are in
// History, and nothing unfinished is left to resume.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, tempDir, type App } from './helpers/harness.js';

let app: App;
let page: Page;
let dir: string;
let home: string;
let errors: string[];

beforeAll(async () => {
  dir = await tempDir('dd-e2e-campaign-');
  app = await openApp({ target: dir, home: true, screen: 'campaign', remove: [dir] });
  ({ page, home, errors } = app);
}, 180_000);

afterAll(() => app?.close());

describe('Compare setups in Chromium against diskdial serve', () => {
  it('waits for each setup, then reports them side by side', async () => {
    // Before anything is typed, what is missing is help (no alert, no error colour).
    const problem = page.getByTestId('campaign-problem');
    await expect.poll(() => problem.textContent()).toBe('Name at least two setups (what you will change between them).');
    expect([await problem.getAttribute('role'), await problem.getAttribute('class')]).toEqual([null, 'card__subtitle']);
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    await page.getByTestId('campaign-setup-0').fill('Dock');
    await page.getByTestId('campaign-setup-1').fill('Hub');
    await page.getByTestId('campaign-runs').fill('2');
    // The Quick Test's own size (the campaign's stays 1 GB); the length is said before Start.
    await page.getByTestId('campaign-size-quick').selectOption({ label: '100 MB' });
    await expect
      .poll(() => page.getByTestId('campaign-estimate').textContent())
      .toMatch(/^2 tests \(1 on each of 2 setups\): about 1 min of testing/);
    await expect.poll(() => page.getByTestId('campaign-start').textContent()).toBe('Compare setups');
    await page.getByTestId('campaign-start').click();

    const waiting = page.getByTestId('campaign-waiting');
    await expect.poll(() => waiting.textContent(), { timeout: 30_000 }).toContain('Setup 1 of 2: Dock');
    await expect.poll(() => waiting.textContent()).toMatch(/of testing left/);
    // Nothing runs before the person says the setup is ready.
    expect(await fsp.readdir(dir)).toEqual([]);
    await page.getByTestId('campaign-continue').click();
    await expect.poll(() => waiting.textContent(), { timeout: 120_000 }).toContain('Setup 2 of 2: Hub');
    await expect.poll(() => waiting.textContent()).toContain('Dock done (1 test), Hub 0 of 1 tests');
    await page.getByTestId('campaign-continue').click();

    const table = page.getByTestId('report-table');
    await expect.poll(() => table.locator('th').first().textContent(), { timeout: 120_000 }).toBe('Setup');
    await expect
      .poll(() => table.locator('tbody tr').allTextContents())
      .toEqual([expect.stringMatching(/^Dock\s*\(?baseline\)?/), expect.stringMatching(/^Hub/)]);
    await expect.poll(() => page.getByTestId('report-findings').textContent()).toMatch(/Hub/);
    // One way to a new comparison, named after the screen; no warning about the plan's own tests.
    await expect.poll(() => page.getByTestId('report-back').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: /new campaign/i }).count()).toBe(0);
    await expect.poll(() => page.getByTestId('campaign-new').textContent()).toBe('Compare other setups');
    await expect.poll(() => page.getByText(/different tests|same tests/).count()).toBe(0);
    expect(await fsp.readdir(dir)).toEqual([]);
    const saved = (await fsp.readdir(path.join(home, 'results'))).filter((n) => n.endsWith('.json'));
    expect(saved).toHaveLength(2);
    const campaigns = await fsp.readdir(path.join(home, 'campaigns'));
    const state = JSON.parse(await fsp.readFile(path.join(home, 'campaigns', campaigns[0]!), 'utf8')) as { status: string };
    expect(state.status).toBe('done');
    expect(errors).toEqual([]);
  }, 300_000);
});
