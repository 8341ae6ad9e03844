// The Quick Test's dials and centre column in Chromium against `diskdial serve`, on a real ext4 on
// a loop device over the page cache (root), with an empty History: what a first test on an
// unknown drive shows. The dial scale only grows, at most twice from the default (never
// 1000 → 2000 → 3000 → 5000), and every tick label is a plain MB/s figure; afterwards the cache badge, whose warning is long ("… · loop device over the page
// cache"), wraps inside the centre column at 1024 and 1440 px: none of it under a dial, every word shown.
// In the target list the volume is a "disk image" that a 1 GB test does not fit, and says so; in
// History the 256 MB test is named "256 MB", as chosen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAllLoopFs, mountFs, rootOnly, type MountedFs } from '../helpers/loopfs.js';
import { openApp, type App } from './helpers/harness.js';

let app: App | undefined;
let volume: MountedFs | undefined;

describe.runIf(rootOnly())('the Quick Test centre column, dial scale and target list (root: ext4 on a cached loop device)', () => {
  beforeAll(async () => {
    volume = await mountFs('ext4', { sizeMiB: 512 });
    app = await openApp({ target: volume.dir, home: true });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await volume?.cleanup();
    await cleanupAllLoopFs();
  });

  it(
    'a first test: the scale grows at most twice, labels in one style; then the badge stays inside its column',
    { timeout: 180_000 },
    async () => {
      const page = app!.page;
      await page.getByRole('radio', { name: 'Custom' }).click();
      await page.getByLabel('Custom stress size').fill('256 MB');
      await page.getByLabel('Custom stress size').press('Enter');
      // Every scale the WRITE dial shows and every tick label, frame by frame, from Start to the end.
      await page.evaluate(() => {
        const w = window as unknown as { scales: number[]; labels: Set<string> };
        w.scales = [];
        w.labels = new Set();
        const tick = (): void => {
          const m = / scale 0 to (\d+)/.exec(document.querySelector('[data-testid=dial-write] svg')?.getAttribute('aria-label') ?? '');
          if (m && Number(m[1]) !== w.scales.at(-1)) w.scales.push(Number(m[1]));
          for (const t of document.querySelectorAll('.dial__tick-label')) w.labels.add(t.textContent ?? '');
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByRole('button', { name: 'Stop' }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Start' }).waitFor({ timeout: 150_000 });
      const seen = await page.evaluate(() => {
        const w = window as unknown as { scales: number[]; labels: Set<string> };
        return { scales: w.scales, labels: [...w.labels] };
      });
      // From the default, only growing, at most two moves: this image's instants reach ~3 GB/s
      // (1000 → 3000 → 8000); a third move would need instants over 7.2 GB/s.
      expect(seen.scales[0]).toBe(1000);
      expect(seen.scales.length, seen.scales.join(' → ')).toBeLessThanOrEqual(3);
      for (let i = 1; i < seen.scales.length; i++) expect(seen.scales[i]!).toBeGreaterThan(seen.scales[i - 1]!);
      expect(seen.labels.filter((l) => !/^\d+$/.test(l))).toEqual([]);

      const badge = page.getByTestId('cache-badge');
      await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toMatch(/loop device/);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await expect
          .poll(
            () =>
              page.evaluate(() => {
                const box = (s: string) => document.querySelector(s)!.getBoundingClientRect();
                const b = box('[data-testid=cache-badge]');
                const col = box('.dials__center');
                const overlaps = (d: DOMRect) => b.left < d.right && d.left < b.right && b.top < d.bottom && d.top < b.bottom;
                const el = document.querySelector<HTMLElement>('[data-testid=cache-badge]')!;
                return {
                  inColumn: b.left >= col.left - 0.5 && b.right <= col.right + 0.5,
                  underDial: overlaps(box('[data-testid=dial-write] svg')) || overlaps(box('[data-testid=dial-read] svg')),
                  clipped: el.scrollWidth > el.clientWidth + 1,
                };
              }),
            { message: `the badge at ${width} px` },
          )
          .toEqual({ inColumn: true, underDial: false, clipped: false });
      }
    },
  );

  it(
    'the target list: the 512 MiB disk image says it is one (not "internal") and that a 1 GB test does not fit, with what does',
    { timeout: 30_000 },
    async () => {
      const page = app!.page;
      await page.locator('.target-button').click();
      const option = page.getByRole('option').filter({ hasText: volume!.dir });
      await expect.poll(() => option.locator('.pill').allTextContents()).toEqual(['disk image']);
      await expect
        .poll(() => option.getByTestId('target-small').textContent())
        .toMatch(/^Too small for a 1 GB test: up to \d+(\.\d+)? MB fits$/);
      await page.keyboard.press('Escape');
    },
  );

  it('History names the test by the size chosen: 256 MB, not the 244 MiB it ran once aligned', { timeout: 30_000 }, async () => {
    const page = app!.page;
    await page.getByTestId('nav-history').click();
    const list = page.getByTestId('history-list');
    await expect.poll(() => list.textContent(), { timeout: 15_000 }).toContain('256 MB');
    await expect.poll(() => list.textContent()).not.toContain('MiB');
  });
});
