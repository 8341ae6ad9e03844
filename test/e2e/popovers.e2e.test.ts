// Popovers stay inside the window, in Chromium against the real `diskdial serve`: the target menu
// (which opened 160 px off the left edge at 1024 px once the header wrapped) at 1024, 800 and 480 px.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifacts } from './helpers/harness.js';
import { e2eFile } from './helpers/session.js';

const e2e = e2eFile('dd-e2e-popover-');

describe('popovers in Chromium', () => {
  it.each([1024, 800, 480])('the target menu opens inside a %i px wide window', async (width) => {
    const page = await e2e.open({ width, height: 700 });
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
