// The Hash screen's "Check a folder" end to end: `diskdial serve` (real services, the engine in
// its own child) in Debian's Chromium. A user types a folder's path, creates its SHA256SUMS (the
// real sha256sum -c accepts it), changes one file, removes one, adds one, and checks again: the
// page lists exactly those three, under a red banner with the counts and the status Failed. A check
// that cannot start says its error in the status.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, openApp, tempDir, type App } from './helpers/harness.js';

let app: App;
let page: Page;
let dir: string;
let errors: string[];

beforeAll(async () => {
  dir = await tempDir('dd-e2e-check-');
  await fsp.mkdir(path.join(dir, 'DCIM 100'));
  for (let i = 0; i < 40; i++) await fsp.writeFile(path.join(dir, 'DCIM 100', `IMG ${i} größe.JPG`), randomBytes(1000 + i * 7919));
  app = await openApp({ screen: 'hash', remove: [dir] });
  ({ page, errors } = app);
  await page.getByTestId('hash-mode-folder').click();
}, 180_000);

afterAll(() => app?.close());

async function runCheck(status = /^Done · /): Promise<void> {
  await page.getByTestId('check-start').click();
  await expect.poll(() => page.getByTestId('check-status').textContent(), { timeout: 90_000 }).toMatch(status);
}

describe('Check a folder in Chromium against diskdial serve', () => {
  it('creates a SHA256SUMS sha256sum -c accepts, then finds the one changed, missing and new file', async () => {
    await page.getByTestId('check-folder').fill(dir);
    await runCheck();
    await expect.poll(() => page.getByTestId('check-summary').textContent()).toBe('40 files hashed; manifest written.');
    const sums = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
    expect(sums.status, sums.stderr).toBe(0);

    await fsp.writeFile(path.join(dir, 'DCIM 100', 'IMG 3 größe.JPG'), 'edited');
    await fsp.rm(path.join(dir, 'DCIM 100', 'IMG 4 größe.JPG'));
    await fsp.writeFile(path.join(dir, 'neu.txt'), 'new');
    await runCheck(/^Failed: /);
    await expect.poll(() => page.getByTestId('check-summary').textContent()).toBe('Failed: 1 changed, 1 missing, 1 new; 38 unchanged.');
    expect(await page.getByTestId('check-changed').locator('li').allTextContents()).toEqual(['DCIM 100/IMG 3 größe.JPG']);
    expect(await page.getByTestId('check-missing').locator('li').allTextContents()).toEqual(['DCIM 100/IMG 4 größe.JPG']);
    expect(await page.getByTestId('check-new').locator('li').allTextContents()).toEqual(['neu.txt']);
    await expect.poll(() => page.getByTestId('check-bound').textContent()).toMatch(/^(CPU-bound|No single limit)/);
    // A re-check does not rewrite the manifest.
    expect(spawnSync('sha256sum', ['-c', '--quiet', 'SHA256SUMS'], { cwd: dir }).status).toBe(1);
    expect(errors).toEqual([]);
  }, 180_000);

  it('1 changed and 1 missing file: a red banner with the counts and the status Failed; an error: the status says it', async () => {
    // The manifest rewritten to what the folder holds now, then one file changed and one removed.
    await page.getByTestId('check-action').selectOption('update');
    await runCheck(/^Failed: /);
    await page.getByTestId('check-action').selectOption('verify-only');
    await runCheck(/^Done · All 40 files unchanged\.$/);
    await expect.poll(() => page.getByTestId('check-summary').getAttribute('data-outcome')).toBe('intact');
    await fsp.writeFile(path.join(dir, 'DCIM 100', 'IMG 5 größe.JPG'), 'edited too');
    await fsp.rm(path.join(dir, 'DCIM 100', 'IMG 6 größe.JPG'));
    await runCheck(/^Failed: 1 changed, 1 missing; 38 unchanged\.$/);
    const banner = page.getByTestId('check-summary');
    await expect.poll(() => banner.textContent()).toBe('Failed: 1 changed, 1 missing; 38 unchanged.');
    await expect.poll(() => banner.getAttribute('data-outcome')).toBe('failed');
    // Red: the banner's border is the --bad colour (#ff5c6c), not a neutral one.
    await expect.poll(() => banner.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(255, 92, 108)');
    await page.screenshot({ path: path.join(artifacts, 'check-failed.png'), fullPage: true });

    await page.getByTestId('check-folder').fill(path.join(dir, 'no such folder'));
    await page.getByTestId('check-start').click();
    await expect.poll(() => page.getByTestId('check-status').textContent(), { timeout: 30_000 }).toMatch(/^Error: .*no such folder/);
    await expect.poll(() => page.getByTestId('check-result').count()).toBe(0);
    await page.screenshot({ path: path.join(artifacts, 'check-error.png'), fullPage: true });
    expect(errors).toEqual([]);
  }, 180_000);
});
