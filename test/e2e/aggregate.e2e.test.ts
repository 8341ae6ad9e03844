// Seed 4 in Chromium against the real `diskdial serve`: a Quick Test of 256 MiB × 2 runs, read from
// the Done screen, from History, from the share card and from the Markdown export, shows one
// aggregate — the mean of the runs, "mean of 2 runs · best X" — and the same ✓/✗/? marks. Before,
// the Done screen showed the last run (WRITE 469 "average · peak 1,562") and judged by it, while
// History, the card and the exports showed the mean (693), so ProRes 422 HQ 8K write was ✗ on one
// screen and ✓ on the others.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCardPng } from '../../app/src/core/card-png.js';
import { renderCardSvg } from '../../app/src/model/report/card.js';
import type { ResultDocument } from '../../app/src/model/result.js';
import { quickAggregate, aggregateText } from '../../app/src/model/verdict/aggregate.js';
import { twoRunsText } from '../../app/src/model/report/figure-text.js';
import { COMMON_FORMATS, COMMON_RESOLUTIONS, willItWork } from '../../app/src/model/kinds/video/will-it-work.js';
import { measuredLine, sideMark } from '../../app/src/model/kinds/video/will-it-work-words.js';
import { artifacts, buildIfNeeded, openApp, tempDir, type App } from './helpers/harness.js';

let app: App;
let page: Page;
let dir: string;
let home: string;

beforeAll(async () => {
  buildIfNeeded();
  dir = await tempDir('dd-e2e-aggregate-');
  home = path.join(dir, 'home');
  const target = path.join(dir, 'target');
  await fsp.mkdir(target);
  app = await openApp({ target, home, clipboard: true, remove: [dir] });
  ({ page } = app);
}, 180_000);

afterAll(() => app?.close());

/** Every ✓/✗/? cell of the ProRes Will-it-work grid on screen, by test id. */
async function workMarks(scope: ReturnType<Page['getByTestId']>): Promise<Record<string, string>> {
  return scope
    .locator('[data-testid^="work-prores"]')
    .evaluateAll((cells) =>
      Object.fromEntries(cells.map((c) => [c.getAttribute('data-testid'), c.querySelector('[aria-hidden]')?.textContent ?? ''])),
    );
}

describe('one aggregate on every surface (seed 4)', () => {
  it('Done screen, History, share card and Markdown show the mean of 2 runs and the same verdicts', async () => {
    await page.getByRole('radio', { name: 'Custom' }).click();
    await page.getByLabel('Custom stress size').fill('256 MiB');
    await page.getByLabel('Custom stress size').press('Enter');
    await page.getByRole('radio', { name: 'Runs' }).click();
    await page.getByLabel('Number of runs').fill('2');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.getByTestId('saved-note').textContent(), { timeout: 180_000 }).toMatch(/Saved to History/);

    // The saved document: what History, the card and the exports read. Every assertion below is an
    // identity between surfaces reading this one document, not a measurement against a truth: no
    // margin is needed, and no run can fail by chance (false-failure rate 0).
    const files = await fsp.readdir(path.join(home, 'results'));
    expect(files).toHaveLength(1);
    const doc = JSON.parse(await fsp.readFile(path.join(home, 'results', files[0]!), 'utf8')) as ResultDocument;
    const agg = quickAggregate(doc)!;
    const v = willItWork(doc)!;
    expect([agg.write.runs, agg.read.runs]).toEqual([2, 2]);

    // The Done screen: dials on the mean with "mean of 2 runs · best X", the table judged by it.
    const quick = page.locator('#screen-quick');
    for (const side of ['write', 'read'] as const) {
      // The aggregate's words, then the two runs' figures: no 95 % interval from two runs (it would
      // read "± 218 %"), which comes from three runs on.
      const runs = doc.tests
        .filter((t) => t.rw === side)
        .sort((a, b) => a.run - b.run)
        .map((t) => t.mbps);
      await expect
        .poll(() => quick.locator(`[data-testid=dial-${side}] .dial__caption`).textContent())
        .toBe(`${aggregateText(agg[side])} · ${twoRunsText(runs)}`);
    }
    const measured = quick.getByTestId('video-measured');
    await expect.poll(() => measured.textContent()).toBe(` ${measuredLine(v)}`);
    const table = quick.getByTestId('video-table');
    await expect
      .poll(() => workMarks(table))
      .toEqual(
        Object.fromEntries(
          v.rows
            .filter((r) => r.family === 'prores')
            .flatMap((r) => (['write', 'read'] as const).map((d) => [`work-${r.formatId}-${r.resolutionId}-${d}`, sideMark(r[d])])),
        ),
      );
    const done = await workMarks(table);
    await page.screenshot({ path: path.join(artifacts, 'aggregate-done.png'), fullPage: true });

    // History: the same measured line and the same marks.
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-row').first().getByTestId('history-open').click();
    const view = page.getByTestId('result-view');
    await expect.poll(() => view.getByTestId('video-measured').textContent(), { timeout: 15_000 }).toBe(` ${measuredLine(v)}`);
    await expect.poll(() => workMarks(view.getByTestId('video-table'))).toEqual(done);
    await page.screenshot({ path: path.join(artifacts, 'aggregate-history.png'), fullPage: true });

    // The share card: the PNG in the dialog is the card drawn from the saved document, whose dials
    // say "mean of 2 runs · best X" and whose Will-it-work block carries the same marks.
    await view.getByTestId('result-share').click();
    const image = page.getByTestId('share-image');
    await image.waitFor({ timeout: 15_000 });
    const shown = await image.evaluate((img: HTMLImageElement) => img.src.replace(/^data:image\/png;base64,/, ''));
    expect(shown).toBe(renderCardPng(doc, { scale: 2 }).png.toString('base64'));
    const svg = renderCardSvg(doc).svg;
    expect(svg).toContain(aggregateText(agg.write));
    expect(svg).toContain(aggregateText(agg.read));
    const common = willItWork(doc, { formats: COMMON_FORMATS, resolutions: COMMON_RESOLUTIONS })!;
    for (const r of common.rows.filter((x) => x.formatId === 'prores-hq'))
      expect([sideMark(r.write), sideMark(r.read)]).toEqual([
        done[`work-prores-hq-${r.resolutionId}-write`],
        done[`work-prores-hq-${r.resolutionId}-read`],
      ]);
    await page.keyboard.press('Escape');
    await page.getByTestId('share-dialog').waitFor({ state: 'detached' });

    // The Markdown export: the same measured line and, row by row, the same marks.
    await view.getByTestId('export-md').click();
    await expect.poll(() => page.getByTestId('result-status').textContent()).toMatch(/Copied Markdown/);
    const md = await page.evaluate(() => navigator.clipboard.readText());
    expect(md).toContain(measuredLine(v));
    for (const r of v.rows.filter((x) => x.formatId === 'prores-hq')) {
      const line = md.split('\n').find((l) => l.startsWith(`| ProRes 422 HQ | ${r.resolution} |`))!;
      expect(line.split(' | ').slice(3, 5)).toEqual([
        done[`work-prores-hq-${r.resolutionId}-write`],
        done[`work-prores-hq-${r.resolutionId}-read`],
      ]);
    }
  }, 300_000);
});
