// The Detailed screen's jump links in Chromium against `diskdial serve`: eight panels make a page
// several screens long, so a row of links stays at the top while it scrolls, and each brings its
// panel to the top, just below the row, with its heading focused for the keyboard. The share-limits
// panel, on this plain folder, refuses before Start in the runner's own words.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, openApp, tempDir, type App } from './helpers/harness.js';

let app: App;
let page: Page;

beforeAll(async () => {
  const dir = await tempDir('dd-e2e-jump-');
  app = await openApp({ target: dir, home: true, screen: 'detailed', remove: [dir] });
  ({ page } = app);
  await page.setViewportSize({ width: 1440, height: 900 });
}, 180_000);

afterAll(() => app?.close());

describe('Detailed jump links in Chromium against diskdial serve', () => {
  it('a link per panel; each brings its panel just below the links, which stay at the top', async () => {
    const nav = page.getByTestId('detailed-jump');
    await expect.poll(() => nav.getByRole('link').count()).toBe(8);
    // The page is several screens long: the last panels start far below the first screen.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(2 * 900);
    for (const kind of ['video', 'verify', 'cdm', 'share', 'small-files']) {
      await nav.getByTestId(`jump-${kind}`).click();
      const panel = page.getByTestId(`${kind}-panel`);
      const navBox = async () => (await nav.boundingBox())!;
      // The links are on screen at the top, and the panel starts just below them (its scroll
      // margin), unless the page cannot scroll that far (the last panel).
      await expect.poll(async () => Math.round((await navBox()).y)).toBe(0);
      await expect
        .poll(async () => {
          const y = (await panel.boundingBox())!.y;
          const n = await navBox();
          const atBottom = await page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1);
          return y >= n.y + n.height - 1 && (y <= n.height + 24 || atBottom);
        })
        .toBe(true);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.closest('section')?.getAttribute('data-testid')))
        .toBe(`${kind}-panel`);
    }
    await page.screenshot({ path: path.join(artifacts, 'detailed-jump.png') });
  });

  it('the share-limits panel refuses a folder that is not on a share, before Start, as the runner does', async () => {
    await page.getByTestId('detailed-jump').getByTestId('jump-share').click();
    await expect
      .poll(() => page.getByTestId('share-status').textContent())
      .toMatch(/^This test measures a network share, and \/\S+ is not on one \([\w.]+\)\.$/);
    await expect.poll(() => page.getByTestId('share-start').isDisabled()).toBe(true);
  });
});
