// The Quick Test's live readouts in Chromium against the real `diskdial serve`: in continuous
// mode WRITE keeps its last measured figure while the read phase runs (never 0 MB/s), and when
// the test ends each dial's average is at most its peak (one cycle) or best run (several). Before a test, the dials' scale already
// fits the newest saved result on the target (History), not a default 0–1000.
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from './helpers/harness.js';
import { e2eFile } from './helpers/session.js';

// Its own history, holding one saved result on the target.
const e2e = e2eFile('dd-e2e-readouts-', { home: true });

/** The fixture's Quick Test (peak 1,877 MB/s), saved in History as if it had run on `folder`. */
async function saveResultOn(folder: string): Promise<void> {
  const doc = JSON.parse(readFileSync(path.join(root, 'test/fixtures/results/quick.json'), 'utf8')) as {
    id: string;
    target: { path: string };
  };
  doc.target.path = folder;
  await fsp.mkdir(path.join(e2e.home, 'results'), { recursive: true });
  await fsp.writeFile(path.join(e2e.home, 'results', `${doc.id}.json`), JSON.stringify(doc));
}

// History reads its folder on each request: saved before any page asks.
beforeAll(() => saveResultOn(e2e.target));

/** The Quick Test on the target with a 256 MiB custom size: short cycles. */
async function quickTestPage(): Promise<Page> {
  const page = await e2e.open();
  await page.getByRole('radio', { name: 'Custom' }).click();
  await page.getByLabel('Custom stress size').fill('256 MiB');
  await page.getByLabel('Custom stress size').press('Enter');
  return page;
}

const figure = (text: string | null): number => Number((text ?? '').replace(/[^\d.]/g, ''));

describe('live readouts in Chromium', () => {
  it('before Start, the dials fit the newest saved result on the target', { timeout: 60_000 }, async () => {
    const page = await e2e.open();
    // 1,877 MB/s with 10 % headroom needs 0–3000; a target nothing is known of shows 0–1000.
    const top = page.locator('[data-testid=dial-write] .dial__tick-label').last();
    await expect.poll(() => top.textContent(), { timeout: 15_000 }).toBe('3000');
    await expect.poll(() => page.locator('[data-testid=dial-read] svg').getAttribute('aria-label')).toMatch(/scale 0 to 3000/);
    await page.close();
  });

  it('runs mode: during the read phase WRITE shows the write average this run measured, never 0', { timeout: 300_000 }, async () => {
    const page = await quickTestPage();
    await page.getByRole('radio', { name: 'Runs' }).click();
    await page.getByLabel('Number of runs').fill('3');
    // Every frame from Start to the end: what WRITE shows while the READ dial is the active one
    // (a 256 MiB read phase can be shorter than a poll's interval, so the page records it).
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[] };
      w.seen = [];
      const tick = (): void => {
        if (document.querySelector('[data-testid=dial-read].dial--active'))
          w.seen.push(
            `${document.querySelector('[data-testid=value-write]')!.textContent ?? ''}|` +
              `${document.querySelector('[data-testid=dial-write] .dial__caption')!.textContent ?? ''}`,
          );
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.getByRole('button', { name: 'Start' }).click();
    // Wait for the first read phase, then for the end.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen.length), { timeout: 90_000 })
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Start' }).waitFor({ state: 'visible', timeout: 180_000 });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((v) => figure(v.split('|')[0]!) === 0)).toEqual([]);
    // The figure is the run's write average, and the caption says so.
    expect(seen.filter((v) => !/^average/.test(v.split('|')[1]!))).toEqual([]);
    await page.close();
  });

  it('continuous mode: no 0 MB/s WRITE during reads; at the end average ≤ peak on both dials', { timeout: 300_000 }, async () => {
    const page = await quickTestPage();
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
      // One cycle: its average and peak; more: the result's aggregate, the mean of its runs and the
      // best, and the runs' 95 % interval from three runs on (two: the two figures).
      await expect
        .poll(() => caption.textContent(), { timeout: 5_000 })
        .toMatch(/^(average · peak|mean of \d+ runs · best) [\d,.]+( · (± [\d,.]+ %|runs [\d,.]+ and [\d,.]+))?$/);
      // Polled as a pair: the value and its caption are read together until they agree.
      await expect
        .poll(async () => {
          const average = figure(await page.getByTestId(`value-${side}`).textContent());
          const top = figure((await caption.textContent())!.replace(/^.*(peak|best)/, ''));
          return average > 0 && average <= top ? 'average within (0, top]' : `average ${average}, peak or best ${top}`;
        })
        .toBe('average within (0, top]');
    }
    await page.close();
  });
});
