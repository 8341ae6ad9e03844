// Start moves nothing: while a Quick Test, a CrystalDiskMark grid or a sweep runs, the page around
// it keeps its place and size, frame by frame. A shift re-rasterises everything it moves: on this
// machine those were the worst frames of `npm run bench:ui` (issue 33's smoothness goal). Real
// tests through `diskdial serve` in Debian's Chromium, on a temp folder of this machine's disk;
// checked at both of the widths.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseShortCdm, chooseTarget, openApp, tempDir, type App } from './helpers/harness.js';

let app: App;
let page: Page;
let dir: string;
let ram: string;

interface Watched {
  frames: number;
  /** Each selector's distinct "top height" pairs (document coordinates, to 0.5 px) seen while running. */
  seen: Record<string, string[]>;
}

/** Records, on every animation frame while `running` matches an element, where each of `watch`
 *  is (its top in the document and its height); ends once the run has been seen and is over. */
async function watchWhileRunning(running: string, watch: string[]): Promise<() => Promise<Watched>> {
  await page.evaluate(
    ([running, watch]) => {
      const rec = { frames: 0, seen: {} as Record<string, string[]>, done: false };
      (window as unknown as { ddSteady: typeof rec }).ddSteady = rec;
      let seenRunning = false;
      const half = (x: number): string => (Math.round(x * 2) / 2).toFixed(1);
      const tick = (): void => {
        const on = document.querySelector(running) !== null;
        if (on) {
          seenRunning = true;
          rec.frames += 1;
          for (const sel of watch) {
            const els = [...document.querySelectorAll(sel)];
            const key = els.map((e) => {
              const r = e.getBoundingClientRect();
              return `${half(r.top + window.scrollY)} ${half(r.height)}`;
            });
            const list = (rec.seen[sel] ??= []);
            const v = key.join(' | ') || '(absent)';
            if (!list.includes(v)) list.push(v);
          }
        } else if (seenRunning) {
          rec.done = true;
          return;
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    [running, watch] as const,
  );
  return async () => {
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { ddSteady: { done: boolean } }).ddSteady.done), { timeout: 120_000 })
      .toBe(true);
    return page.evaluate(() => {
      const { frames, seen } = (window as unknown as { ddSteady: Watched }).ddSteady;
      return { frames, seen };
    });
  };
}

/** The Quick Test run until Stop, at 256 MiB a cycle. */
async function continuous256(): Promise<void> {
  await page.getByRole('radio', { name: 'Continuous' }).click();
  await page.getByRole('radio', { name: 'Custom' }).click();
  await page.getByLabel('Custom stress size').fill('256 MiB');
  await page.getByLabel('Custom stress size').press('Enter');
}

function expectSteady(w: Watched, watch: string[]): void {
  // Enough frames to have seen the run's steps land (each test below runs for seconds).
  expect(w.frames).toBeGreaterThan(60);
  for (const sel of watch) expect(w.seen[sel], sel).toHaveLength(1);
}

describe.each([1440, 1024])('at %i px wide, a running test moves nothing around it', (width) => {
  beforeAll(async () => {
    // /var/tmp, not /tmp: a tmpfs takes no direct I/O.
    dir = await tempDir('dd-e2e-steady-', '/var/tmp');
    ram = await tempDir('dd-e2e-steady-ram-', '/dev/shm');
    app = await openApp({ target: dir, home: true, remove: [dir, ram] });
    page = app.page;
    await page.setViewportSize({ width, height: 900 });
  }, 180_000);

  afterAll(() => app?.close());

  it('the Quick Test: the dials card and everything under it keep their place from Start to Stop', async () => {
    await continuous256();
    const watched = await watchWhileRunning('.start-button--running', ['.dials-card', '.lower']);
    await page.getByRole('button', { name: 'Start' }).click();
    // Past the first cycle's figures (the grids they bring) and into a third cycle, then Stop.
    await expect.poll(() => page.locator('.dials__status').textContent(), { timeout: 60_000 }).toMatch(/cycle ([3-9]|\d\d)/);
    await page.getByRole('button', { name: 'Stop' }).click();
    const w = await watched();
    expectSteady(w, ['.dials-card']);
    // The lower part grows (the Will-it-work grids arrive with the first figures) but never moves.
    expect(new Set(w.seen['.lower']!.map((v) => v.split(' ')[0]))).toHaveLength(1);
  }, 180_000);

  it('the Quick Test on a RAM disk: its flags land mid-run, under the chart, and move neither the dials nor the chart', async () => {
    await chooseTarget(page, ram);
    await continuous256();
    const watched = await watchWhileRunning('.start-button--running', ['.dials-card', '.lower', '.chart-box']);
    await page.getByRole('button', { name: 'Start' }).click();
    // A tmpfs takes no direct I/O: the first cycle's result is flagged, with the test still running.
    await expect.poll(() => page.getByTestId('flags-panel').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.locator('.start-button--running').count()).toBe(1);
    await expect.poll(() => page.evaluate(() => (window as unknown as { ddSteady: Watched }).ddSteady.frames)).toBeGreaterThan(90);
    await page.getByRole('button', { name: 'Stop' }).click();
    const w = await watched();
    expectSteady(w, ['.dials-card', '.chart-box']);
    expect(new Set(w.seen['.lower']!.map((v) => v.split(' ')[0]))).toHaveLength(1);
    await chooseTarget(page, dir);
  }, 180_000);

  it('the CrystalDiskMark grid: its rows keep their height as figures land, and the links above do not wrap', async () => {
    await page.getByTestId('nav-detailed').click();
    await chooseShortCdm(page);
    const watch = ['[data-testid="detailed-jump"]', '.cdm-grid-box', '[data-testid="cdm-grid"] tbody tr'];
    const watched = await watchWhileRunning('[data-testid="jump-cdm"].detailed-jump__link--running', watch);
    await page.getByTestId('cdm-start').click();
    const w = await watched();
    expectSteady(w, watch);
    await expect.poll(() => page.locator('[data-testid^="cdm-cell-"] .cdm-cell__big:not(.cdm-cell__big--empty)').count()).toBe(8);
  }, 180_000);

  it('the sweep: the curve is drawn in the place the idle chart kept, and the panel below stays put', async () => {
    await page.getByTestId('sweep-seconds-0.5').click();
    const watch = ['[data-testid="sweep-panel"]', '[data-testid="small-files-panel"]'];
    const watched = await watchWhileRunning('[data-testid="jump-sweep"].detailed-jump__link--running', watch);
    await page.getByTestId('sweep-start').click();
    const w = await watched();
    expectSteady(w, watch);
    await expect.poll(() => page.getByTestId('sweep-result').locator('.live-chart__line').count()).toBe(2);
  }, 180_000);
});
