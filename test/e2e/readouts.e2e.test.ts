// The Quick Test's live readouts in Chromium against the real `diskdial serve`: in continuous
// mode WRITE keeps its last measured figure while the read phase runs (never 0 MB/s), and when
// the test ends each dial's average is at most its peak.
import { describe, expect, it } from 'vitest';
import { chooseTarget } from './helpers/harness.js';
import { e2eFile } from './helpers/session.js';

const e2e = e2eFile('dd-e2e-readouts-');

const figure = (text: string | null): number => Number((text ?? '').replace(/[^\d.]/g, ''));

describe('live readouts in Chromium', () => {
  it('continuous mode: no 0 MB/s WRITE during reads; at the end average ≤ peak on both dials', { timeout: 300_000 }, async () => {
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(e2e.url);
    await chooseTarget(page, e2e.target);
    await page.getByRole('radio', { name: 'Custom' }).click();
    await page.getByLabel('Custom stress size').fill('256 MiB');
    await page.getByLabel('Custom stress size').press('Enter');
    await page.getByRole('radio', { name: 'Continuous' }).click();
    await page.getByRole('button', { name: 'Start' }).click();
    // Wait for the second cycle, so a read phase has followed a finished write (and its flush).
    await expect.poll(() => page.locator('.dials__status').textContent(), { timeout: 60_000 }).toMatch(/continuous · cycle [2-9]/);
    // Every frame for two seconds: what WRITE shows while the READ dial is the active one.
    const seen = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const out: string[] = [];
          const t0 = performance.now();
          const tick = (): void => {
            if (document.querySelector('[data-testid=dial-read].dial--active'))
              out.push(document.querySelector('[data-testid=value-write]')!.textContent ?? '');
            if (performance.now() - t0 < 2000) requestAnimationFrame(tick);
            else resolve(out);
          };
          requestAnimationFrame(tick);
        }),
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((v) => figure(v) === 0)).toEqual([]);

    // (generous: a loaded CI machine renders a running test's frames slowly)
    await page.getByRole('button', { name: 'Stop' }).click({ timeout: 90_000 });
    await page.getByRole('button', { name: 'Start' }).waitFor({ state: 'visible', timeout: 60_000 });
    for (const side of ['write', 'read']) {
      const caption = page.locator(`[data-testid=dial-${side}] .dial__caption`);
      await expect.poll(() => caption.textContent(), { timeout: 5_000 }).toMatch(/average · peak [\d,.]+/);
      const average = figure(await page.getByTestId(`value-${side}`).textContent());
      const peak = figure((await caption.textContent())!.replace(/^.*peak/, ''));
      expect(average).toBeGreaterThan(0);
      expect(average).toBeLessThanOrEqual(peak);
    }
    await page.close();
  });
});
