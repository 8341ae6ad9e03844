// Popovers stay inside the window, in Chromium against the real `diskdial serve`: the target menu
// (which opened 160 px off the left edge at 1024 px once the header wrapped) at 1024, 800 and 480 px.
import type { ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, buildIfNeeded, chooseTarget, launchChromium, startServe, stopServe } from './helpers/harness.js';

let server: ChildProcess;
let url: string;
let browser: Browser;
let target: string;

beforeAll(async () => {
  buildIfNeeded();
  target = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-e2e-popover-'));
  ({ server, url } = await startServe());
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stopServe(server);
  if (target) await fsp.rm(target, { recursive: true, force: true });
});

describe('popovers in Chromium', () => {
  it.each([1024, 800, 480])('the target menu opens inside a %i px wide window', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 700 } });
    await page.goto(url);
    await chooseTarget(page, target);
    await page.locator('.target-button').click();
    const menu = page.locator('.target-popover');
    await menu.waitFor({ state: 'visible' });
    const box = async () =>
      page.evaluate(() => {
        const r = document.querySelector('.target-popover')!.getBoundingClientRect();
        return { left: r.left, right: r.right, width: document.documentElement.clientWidth };
      });
    await expect.poll(async () => (await box()).left).toBeGreaterThanOrEqual(0);
    const b = await box();
    expect(b.right).toBeLessThanOrEqual(b.width);
    await page.screenshot({ path: path.join(artifacts, `target-menu-${width}.png`) });
    await page.close();
  });
});
