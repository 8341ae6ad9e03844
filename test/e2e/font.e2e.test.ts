// One font for the app and the share card: the UI loads the bundled Inter (400, 600, 700) from
// its own origin, under the page's CSP, in Chromium against `diskdial serve` — no system font
// standing in, nothing fetched from the network.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type App } from './helpers/harness.js';

let app: App;
let page: Page;
let errors: string[];
const fontRequests: Array<{ url: string; status: number; type: string }> = [];

beforeAll(async () => {
  app = await openApp({
    beforeLoad: (p) =>
      p.on('response', (r) => {
        if (/\.(ttf|woff2?)(\?|$)/.test(r.url()))
          fontRequests.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] ?? '' });
      }),
  });
  ({ page, errors } = app);
}, 180_000);

afterAll(() => app?.close());

describe('the UI served', () => {
  it('is the production build users get, even when a test run built it (vitest sets NODE_ENV=test)', async () => {
    const src = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? '');
    expect(src).toMatch(/\/assets\/index-[\w-]+\.js$/);
    const js = await page.evaluate(async (u) => (await fetch(u)).text(), src);
    expect(js.length).toBeGreaterThan(100_000);
    // React's development build names its JSX factory jsxDEV; the production one never does.
    expect(js.includes('jsxDEV'), 'the bundle holds React’s development JSX factory').toBe(false);
  });
});

describe('the app font', () => {
  it('Inter 400, 600 and 700 load from the app itself and the body is set in Inter', async () => {
    const loaded = () =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return ['400', '600', '700'].map((w) => document.fonts.check(`${w} 16px Inter`));
      });
    // Each weight loads when text first needs it: ask for all three, then wait for them.
    await page.evaluate(() => Promise.all(['400', '600', '700'].map((w) => document.fonts.load(`${w} 16px Inter`))));
    await expect.poll(loaded, { timeout: 15_000 }).toEqual([true, true, true]);
    await expect
      .poll(() =>
        page.evaluate(() => [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Inter' && f.status === 'loaded').length),
      )
      .toBe(3);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"?Inter"?,/);
    const origin = new URL(page.url()).origin;
    expect(fontRequests.length).toBe(3);
    for (const r of fontRequests) {
      expect(r.url.startsWith(`${origin}/`), r.url).toBe(true);
      expect(r.status).toBe(200);
      expect(r.type).toBe('font/ttf');
    }
    expect(errors).toEqual([]);
  });
});
