// The accessibility gate: axe-core (WCAG 2.1 A and AA, and axe's best practices: landmarks,
// `region`, `heading-order`) on every screen of the real UI in Chromium against `diskdial serve`,
// idle and after a finished test, the Share dialog and a failed folder check included. Any
// violation of moderate or worse impact fails the test with the rule, the element and the fix.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootOnly } from '../helpers/loopfs.js';
import { attachImage, detachImage } from '../helpers/wizard-real.js';
import { axeViolations } from './helpers/axe.js';
import { artifacts, chooseShortCdm, openApp, tempDir, type App } from './helpers/harness.js';
import { pickFormats, quickPlan } from './helpers/wizard.js';

let app: App;
let page: Page;
let dir: string;

const SCREENS = ['quick', 'detailed', 'hash', 'wizard', 'campaign', 'history'] as const;

async function show(id: (typeof SCREENS)[number]): Promise<void> {
  await page.getByTestId(`nav-${id}`).click();
  await page.locator(`#screen-${id}`).waitFor({ state: 'visible' });
  // The screen's own content has rendered (History reads its list when shown).
  await page.locator(`#screen-${id} h1, #screen-${id} h2`).first().waitFor({ state: 'visible', timeout: 15_000 });
}

beforeAll(async () => {
  dir = await tempDir('dd-e2e-a11y-');
  await fsp.writeFile(path.join(dir, 'clip.mov'), randomBytes(16 << 20));
  // Its own history, so "after a test" shows this test's results only.
  app = await openApp({ target: dir, home: true, remove: [dir] });
  ({ page } = app);
}, 180_000);

afterAll(() => app?.close());

describe('axe-core, WCAG 2.1 AA, every screen', () => {
  it.each(SCREENS)('%s, idle: no violations', async (id) => {
    await show(id);
    expect(await axeViolations(page)).toEqual([]);
  });

  it(
    'after a finished Quick Test: the Quick Test screen and History (list and result) have no violations',
    { timeout: 180_000 },
    async () => {
      await show('quick');
      await page.getByRole('radio', { name: 'Custom' }).click();
      await page.getByLabel('Custom stress size').fill('64 MiB');
      await page.getByLabel('Custom stress size').press('Enter');
      await page.getByRole('radio', { name: 'Runs' }).click();
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByTestId('saved-note').waitFor({ timeout: 120_000 });
      expect(await axeViolations(page)).toEqual([]);

      await show('history');
      await page.getByTestId('history-row').first().waitFor({ timeout: 15_000 });
      expect(await axeViolations(page)).toEqual([]);
      await page.getByTestId('history-open').first().click();
      await page.getByTestId('result-view').waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // The Share dialog over it: one banner (the app's), the dialog's own heading.
      await page.getByTestId('result-share').click();
      await page.getByTestId('share-image').waitFor({ timeout: 15_000 });
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByTestId('share-dialog').waitFor({ state: 'detached' });
    },
  );

  it(
    'after a finished CrystalDiskMark run and many-file test: the Detailed screen (grid, charts, tables) has no violations',
    { timeout: 180_000 },
    async () => {
      await show('detailed');
      await chooseShortCdm(page);
      await page.getByTestId('cdm-start').click();
      // A figure in the grid first (the run has started), then Start back: the run has finished.
      await expect.poll(() => page.getByTestId('cdm-cell-SEQ1M-Q8T1-read').textContent(), { timeout: 120_000 }).toMatch(/\d/);
      await expect.poll(() => page.getByTestId('cdm-start').textContent(), { timeout: 120_000 }).toMatch(/Start/);
      await expect.poll(() => page.getByTestId('cdm-cell-RND4K-Q1T1-write').textContent(), { timeout: 30_000 }).toMatch(/\d/);
      // The bar says how it ended, not "Not started." (no error was ever set).
      await expect.poll(() => page.getByTestId('cdm-status').textContent()).toBe('Done · 1 run');
      expect(await axeViolations(page)).toEqual([]);

      // A small many-file set too: its scatters (axis names, ticks) and fit tables are checked after it.
      await page.getByTestId('files-preset-custom').click();
      for (const [id, value] of [
        ['files-count', 8],
        ['files-min', 1],
        ['files-max', 24],
      ] as const) {
        await page.getByTestId(id).fill(String(value));
        await page.getByTestId(id).blur();
      }
      await page.getByTestId('files-start').click();
      await expect
        .poll(() => page.locator('[data-testid="files-scatter-read"] .recharts-scatter-symbol').count(), { timeout: 120_000 })
        .toBe(8);
      await expect.poll(() => page.getByTestId('files-start').textContent(), { timeout: 120_000 }).toMatch(/Start/);
      await page.screenshot({ path: path.join(artifacts, 'a11y-detailed-after-run.png'), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
    },
  );

  it('after a finished hash test: the Hash screen has no violations', { timeout: 180_000 }, async () => {
    await show('hash');
    await page.getByTestId('hash-path').fill(path.join(dir, 'clip.mov'));
    await page.getByTestId('hash-start').click();
    await expect.poll(() => page.getByTestId('hash-digest').count(), { timeout: 120_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('hash-start').textContent(), { timeout: 60_000 }).toMatch(/Start/);
    expect(await axeViolations(page)).toEqual([]);

    // Check a folder, twice with a file changed between: the failed check's banner and lists.
    const folder = path.join(dir, 'check');
    await fsp.mkdir(folder);
    for (let i = 0; i < 3; i++) await fsp.writeFile(path.join(folder, `f${i}.bin`), randomBytes(1000));
    await page.getByTestId('hash-mode-folder').click();
    await page.getByTestId('check-folder').fill(folder);
    await page.getByTestId('check-start').click();
    await expect.poll(() => page.getByTestId('check-status').textContent(), { timeout: 90_000 }).toMatch(/^Done · /);
    await fsp.writeFile(path.join(folder, 'f1.bin'), 'edited');
    await page.getByTestId('check-start').click();
    await expect.poll(() => page.getByTestId('check-status').textContent(), { timeout: 90_000 }).toMatch(/^Failed: /);
    await page.getByTestId('check-changed').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});

// The wizard's report needs a finished plan, which needs a disk it may erase: a small image on a
// loop device (root), and a server started with --allow-erase. The smallest plan that finishes:
// one format, one Quick Test of 16 MiB, one run.
describe.runIf(rootOnly())('axe-core, WCAG 2.1 AA, the wizard after a finished plan (root: a loop device)', () => {
  let wApp: App;
  let wPage: Page;
  let wDir = '';
  let loop = '';

  beforeAll(async () => {
    wDir = await tempDir('dd-e2e-a11y-wizard-');
    loop = attachImage(wDir, '400M');
    wApp = await openApp({ home: path.join(wDir, 'home'), args: ['--allow-erase'], screen: 'wizard' });
    wPage = wApp.page;
  }, 180_000);

  afterAll(async () => {
    await wApp?.close();
    detachImage(loop);
    if (wDir) await fsp.rm(wDir, { recursive: true, force: true });
  });

  it('the report of a one-format plan has no violations', { timeout: 240_000 }, async () => {
    const image = wPage.locator(`[data-testid="wizard-disk"][data-path="${loop}"]`);
    await image.waitFor({ timeout: 15_000 });
    await image.getByTestId('wizard-disk-select').check();
    await wPage.getByTestId('wizard-next').click();
    await pickFormats(wPage, ['ext4']);
    await quickPlan(wPage, '16 MiB', 1);

    await expect.poll(() => wPage.getByTestId('wizard-summary').textContent()).toContain(loop);
    await wPage.getByTestId('wizard-confirm-input').fill(path.basename(loop));
    await wPage.getByTestId('wizard-start').click();
    await wPage.getByTestId('report-table').waitFor({ timeout: 180_000 });
    await wPage.screenshot({ path: path.join(artifacts, 'a11y-wizard-report.png'), fullPage: true });
    expect(await axeViolations(wPage)).toEqual([]);
  });
});
