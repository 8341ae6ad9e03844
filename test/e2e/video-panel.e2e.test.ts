// The frame-paced video test end to end: `diskdial serve` (real services, the engine in its own
// child, the real addon) in Debian's Chromium, on a real ext4 volume (loop device, as root). From
// the Quick Test's Will-it-work table, "Check this format" opens Detailed's video panel with that
// format and frame rate; a short paced test runs there, the strip fills while it runs, and the
// verdict and frame times follow. Nothing is left on the volume.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootOnly, type MountedFs } from '../helpers/loopfs.js';
import { artifacts, openAppOnExt4, type App } from './helpers/harness.js';

let app: App & { volume: MountedFs };
let volume: MountedFs;
let page: Page;
let pageErrors: string[];

describe.runIf(rootOnly())('the video panel in Chromium against diskdial serve (root: a real ext4 volume)', () => {
  beforeAll(async () => {
    app = await openAppOnExt4(512);
    ({ page, errors: pageErrors, volume } = app);
  }, 180_000);

  afterAll(() => app?.close());

  it('"Check this format" opens Detailed with that format and frame rate chosen', async () => {
    const table = page.getByTestId('video-table');
    await table.getByLabel('Frame rate').selectOption('25');
    await table.getByRole('tab', { name: 'ProRes' }).click();
    await page.getByTestId('check-format-prores-proxy').click();
    await page.locator('[data-testid="brand-tag"]', { hasText: 'Detailed' }).waitFor({ timeout: 5_000 });
    await expect.poll(() => page.getByTestId('video-format').inputValue()).toBe('prores-proxy');
    await expect.poll(() => page.getByTestId('video-fps').inputValue()).toBe('25');
    await expect.poll(() => page.getByTestId('video-resolution').inputValue()).toBe('uhd');
    // The panel is scrolled to and its format picker has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('video-format');
  }, 30_000);

  it('runs a short paced test: the strip fills live, then the verdict and frame times', async () => {
    await page.getByTestId('video-resolution').selectOption('hd');
    await page.getByTestId('video-seconds-10').click();
    await expect.poll(() => page.getByTestId('video-format-line').textContent()).toMatch(/MB\/s · .* a frame · 40\.0 ms per frame/);
    await page.getByTestId('video-start').click();
    // Live: cells appear in the write strip while the test still runs.
    await expect
      .poll(() => page.locator('[data-testid="video-live"] [data-testid="video-strip-write"] .frame-cell').count(), { timeout: 30_000 })
      .toBeGreaterThan(3);
    await expect
      .poll(() => page.getByTestId('video-strip-write-totals').first().textContent())
      .toMatch(/^[\d,]+ on time · \d+ late · \d+ dropped$/);
    await page.screenshot({ path: path.join(artifacts, 'detailed-video-running.png') });
    await expect.poll(() => page.getByTestId('video-start').textContent(), { timeout: 90_000 }).toMatch(/Start/);
    const verdict = page.getByTestId('video-verdict');
    await expect
      .poll(() => verdict.textContent())
      .toMatch(
        /^ProRes 422 Proxy HD 25 fps: (✓ every frame written and read back on time|✓ no frame dropped; [\d,]+ frames? late( while this computer itself paused, not the drive| \([\d,]+ of them while this computer itself paused\))?, absorbed by the 4-frame buffer|✗ )/,
      );
    // The verdict once: one ✓ or ✗ in the whole result (the directions' lines no longer repeat it).
    await expect.poll(async () => ((await page.getByTestId('video-result').textContent()) ?? '').match(/[✓✗]/g)?.length).toBe(1);
    for (const side of ['write', 'read']) {
      // Status colours, as AJA users read a strip: on time green in both directions' strips.
      const okCells = page.locator(`[data-testid="video-result"] [data-testid="video-strip-${side}"] .frame-cell--ok`);
      if ((await okCells.count()) > 0)
        expect(await okCells.first().evaluate((c) => getComputedStyle(c).backgroundColor)).toBe('rgb(76, 199, 102)');
      // After the run the strip is the document's timeline: every frame counted once.
      const totals = page.locator(`[data-testid="video-result"] [data-testid="video-strip-${side}-totals"]`);
      await expect
        .poll(async () => {
          const m = /^([\d,]+) on time · ([\d,]+) late · ([\d,]+) dropped$/.exec((await totals.textContent()) ?? '');
          return m ? m.slice(1).reduce((sum, n) => sum + Number(n.replace(/,/g, '')), 0) : null;
        })
        .toBe(250);
    }
    // The legend: green on time, hatched amber late, dropped filled red.
    const legend = page.getByTestId('frame-legend').last();
    await expect.poll(() => legend.textContent()).toMatch(/on time.*late \(done after its frame period\).*dropped \(buffer full\)/);
    expect(await legend.locator('.frame-cell--dropped').evaluate((c) => getComputedStyle(c).backgroundColor)).toBe('rgb(255, 92, 108)');
    expect(await legend.locator('.frame-cell--late').evaluate((c) => getComputedStyle(c).backgroundImage)).toMatch(
      /repeating-linear-gradient/,
    );
    const figures = page.getByTestId('video-figures');
    await expect.poll(() => figures.textContent()).toMatch(/Frame time p50.*p99.*p99\.9.*max.*Jitter.*Sustained/);
    await expect.poll(() => figures.textContent()).toMatch(/Write[\d.]+ ms.*MB\/sRead[\d.]+ ms/);
    await expect.poll(() => page.getByTestId('video-saved').textContent()).toMatch(/History|Saved/i);
    await page.screenshot({ path: path.join(artifacts, 'detailed-video.png') });
    expect((await fsp.readdir(volume.dir)).filter((n) => n !== 'lost+found')).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 150_000);

  it('a duration that does not fit says the longest that does, in seconds, with a button that chooses it', async () => {
    // ProRes 422 HQ UHD for 10 min writes tens of GB; the volume holds 512 MiB.
    await page.getByTestId('video-format').selectOption('prores-hq');
    await page.getByTestId('video-resolution').selectOption('uhd');
    await page.getByTestId('video-seconds-600').click();
    const reason = page.getByTestId('video-status');
    await expect
      .poll(() => reason.textContent())
      .toMatch(/^Not enough free space: 10 min of this format writes [\d.]+ GB; .* is free .*\. The longest that fits is \d+ s\.$/);
    await expect.poll(() => reason.textContent()).not.toMatch(/largest that fits/);
    const longest = /The longest that fits is (\d+) s\./.exec((await reason.textContent())!)![1]!;
    const offer = page.getByTestId('video-fit-offer');
    await expect.poll(() => offer.textContent()).toBe(`Use ${longest} s`);
    await offer.click();
    // The duration is now that one (its own chip), and Start is free: the test fits.
    await expect.poll(() => page.getByTestId(`video-seconds-${longest}`).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByTestId('video-start').isDisabled()).toBe(false);
    await expect.poll(() => reason.textContent()).not.toMatch(/Not enough free space/);
    await page.screenshot({ path: path.join(artifacts, 'detailed-video-fit.png') });
  }, 60_000);
});
