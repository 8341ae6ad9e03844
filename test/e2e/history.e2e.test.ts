// History, compare and share end to end: `diskdial serve` (real services, the real engine) in
// Debian's Chromium, on a history folder of its own. A Quick Test run in the page is saved and
// shows up in History; a result made by the CLI and one imported from a file sit beside it; the
// user labels, opens, shares (the PNG downloaded and decoded), copies Markdown (read back from
// the clipboard), saves CSV, compares two results and deletes one.
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../app/src/model/result.js';
import { cardDate } from '../../app/src/model/report/card.js';
import { artifacts, buildIfNeeded, openApp, root, tempDir, type App } from './helpers/harness.js';
import { expectFitsWidth } from './helpers/layout.js';

let app: App;
let page: Page;
let dir: string;
let home: string;
let cliId: string;
let errors: string[];
const cdm = JSON.parse(readFileSync(path.join(root, 'test/fixtures/results/cdm.json'), 'utf8')) as ResultDocument;

const rows = () => page.getByTestId('history-row');
const row = (text: string) => rows().filter({ hasText: text });

beforeAll(async () => {
  buildIfNeeded();
  dir = await tempDir('dd-e2e-history-');
  home = path.join(dir, 'home');
  const target = path.join(dir, 'target');
  await fsp.mkdir(target);
  // A result made by the CLI, in the same history the page will show.
  const out = execFileSync(
    process.execPath,
    [path.join(root, 'bin/diskdial.js'), 'run', target, '--size', '64MiB', '--runs', '2', '--label', 'Direct to the port', '--json'],
    {
      encoding: 'utf8',
      env: { ...process.env, DISKDIAL_HOME: home },
    },
  );
  cliId = (JSON.parse(out) as ResultDocument).id;
  await fsp.writeFile(path.join(dir, 'cdm-from-a-colleague.json'), `${JSON.stringify(cdm, null, 2)}\n`);

  app = await openApp({ target, home, clipboard: true, acceptDownloads: true, remove: [dir] });
  ({ page, errors } = app);
}, 180_000);

afterAll(() => app?.close());

describe('History, compare and share in Chromium against diskdial serve', () => {
  it("a Quick Test run in the page is saved; History lists it beside the CLI's result", async () => {
    await page.getByRole('radio', { name: 'Custom' }).click();
    await page.getByLabel('Custom stress size').fill('64 MiB');
    await page.getByLabel('Custom stress size').press('Enter');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.getByTestId('saved-note').textContent(), { timeout: 60_000 }).toMatch(/Saved to History/);

    await page.getByTestId('nav-history').click();
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => rows().first().textContent()).toMatch(/Quick Test/); // newest first: the page's run
    await expect.poll(() => row('Direct to the port').count()).toBe(1);
    await expect.poll(() => row('Direct to the port').textContent()).toMatch(/Write\s*[\d,]+/);
  }, 120_000);

  it("each row carries one date, in the share card's format; at 1024 px the Drive column keeps its words whole", async () => {
    // The page's run is unlabelled: its name ("target · Nov 29 09:10 · 64 MiB") carries a time.
    const day = /\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d UTC\b/g;
    const nameTime = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2} \d\d:\d\d\b/;
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: width === 1024 ? 700 : 900 });
      await expect.poll(() => rows().count()).toBe(2);
      for (const r of await rows().all()) {
        const iso = (await r.locator('time').getAttribute('datetime'))!;
        await expect
          .poll(async () => (await r.locator('.history-row__date').textContent())!.replace(/\s+/g, ' ').trim())
          .toBe(cardDate(iso));
        const text = (await r.innerText()).replace(/\s+/g, ' ');
        expect(text.match(day)).toHaveLength(1);
        expect(text).not.toMatch(nameTime);
        // Every word of the Drive cell on one line ("virtio (virtual disk)", never "virtu" / "al").
        const broken = await r.locator('.history-row__drive').evaluate((td) => {
          const words: string[] = [];
          const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
          for (let node = walk.nextNode(); node; node = walk.nextNode())
            for (const m of (node.textContent ?? '').matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              if (range.getClientRects().length > 1) words.push(m[0]);
            }
          return words;
        });
        expect(broken).toEqual([]);
      }
    }
    await page.screenshot({ path: path.join(artifacts, 'history-1024.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 60_000);

  it("imports a result from another machine, and labels the page's run", async () => {
    await page.getByTestId('history-import-input').setInputFiles(path.join(dir, 'cdm-from-a-colleague.json'));
    await expect.poll(() => page.getByTestId('history-status').textContent(), { timeout: 10_000 }).toMatch(/Imported/);
    await expect.poll(() => rows().count()).toBe(3);
    await expect.poll(() => row('CrystalDiskMark').textContent()).toMatch(/imported/i);

    const first = rows().first();
    await first.getByTestId('label-edit').click();
    await page.getByTestId('label-input').fill('Through the hub');
    await page.getByTestId('label-input').press('Enter');
    await expect.poll(() => row('Through the hub').count()).toBe(1);
    // The label is in the saved file, where the CLI sees it too.
    const listed = execFileSync(process.execPath, [path.join(root, 'bin/diskdial.js'), 'history', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, DISKDIAL_HOME: home },
    });
    expect((JSON.parse(listed) as { entries: Array<{ name: string }> }).entries.map((e) => e.name)).toContain('Through the hub');
  }, 60_000);

  it('opens a result and shares its card: the PNG downloads at 2× and decodes', async () => {
    await row('Direct to the port').getByTestId('history-open').click();
    // The view opens on "Loading…" while the document is fetched: wait for the document.
    await expect.poll(() => page.getByTestId('result-view').textContent(), { timeout: 15_000 }).toContain('Direct to the port');
    await page.getByTestId('result-share').click();
    const image = page.getByTestId('share-image');
    await image.waitFor({ timeout: 15_000 });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1600);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(900);
    await page.screenshot({ path: path.join(artifacts, 'history-share.png') });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('share-save').click()]);
    expect(download.suggestedFilename()).toMatch(/^diskdial-quick-\d{4}-\d\d-\d\d\.png$/);
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const png = PNG.sync.read(await fsp.readFile(file));
    expect([png.width, png.height]).toEqual([1600, 900]);
    // The same picture the CLI makes for the same result.
    const cliCard = path.join(dir, 'cli-card.png');
    execFileSync(process.execPath, [path.join(root, 'bin/diskdial.js'), 'share', cliId, '--out', cliCard], {
      env: { ...process.env, DISKDIAL_HOME: home },
    });
    expect((await fsp.readFile(file)).equals(await fsp.readFile(cliCard))).toBe(true);

    await page.getByTestId('share-copy').click();
    await expect.poll(() => page.getByTestId('share-status').textContent()).toMatch(/Copied/);
    await expect.poll(() => page.evaluate(async () => (await navigator.clipboard.read())[0]?.types ?? [])).toContain('image/png');
    await page.keyboard.press('Escape');
    await page.getByTestId('share-dialog').waitFor({ state: 'detached' });
  }, 60_000);

  it('copies the Markdown table and saves the CSV of the open result', async () => {
    await page.getByTestId('export-md').click();
    await expect.poll(() => page.getByTestId('result-status').textContent()).toMatch(/Copied Markdown/);
    const md = await page.evaluate(() => navigator.clipboard.readText());
    expect(md).toContain('## Direct to the port');
    expect(md).toMatch(/^\| Write \| [\d,.]+ ± [\d,.]+ \|/m); // (a slow disk's figures have decimals)
    // The result view's "Will it work?" table, and its frame rate in the export.
    await page.getByTestId('result-view').getByTestId('video-table').waitFor({ state: 'visible' });
    expect(md).toContain('### Will it work? At 29.97 fps');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    // Saved, not read from download.path(): the browser is a shared one, connected to, not launched here.
    const csvFile = path.join(dir, download.suggestedFilename());
    await download.saveAs(csvFile);
    const csv = await fsp.readFile(csvFile, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^result_id,label,kind,/);
    const video = (l: string): boolean => l.includes(',will it work,');
    expect(lines.filter((l) => l.startsWith(cliId) && !video(l))).toHaveLength(4); // write and read, two runs
    expect(lines.filter((l) => l.startsWith(cliId) && video(l)).length).toBeGreaterThan(80); // a row per format × resolution
  }, 60_000);

  it('compares the two Quick Tests: a table of means with deltas, charts, the rule; then deletes one', async () => {
    await page.getByTestId('history-back').click();
    await row('Direct to the port').getByTestId('history-select').check();
    await row('Through the hub').getByTestId('history-select').check();
    await page.getByTestId('history-compare').click();
    const view = page.getByTestId('compare-view');
    await view.waitFor({ timeout: 15_000 });
    const table = page.getByTestId('compare-table');
    await expect.poll(() => table.textContent()).toMatch(/Write/);
    await expect.poll(() => table.textContent()).toMatch(/[+−]\d+(\.\d+)? %|≈/);
    await expect.poll(() => page.getByTestId('compare-rule').textContent()).toMatch(/Welch/);
    await page.getByTestId('compare-bars').locator('.recharts-bar-rectangle').first().waitFor();
    await page.screenshot({ path: path.join(artifacts, 'history-compare.png'), fullPage: true });
    // The comparison, then the list, hold at narrower windows: wide tables scroll in their own box.
    for (const width of [1024, 800, 480]) {
      await expectFitsWidth(page, width, 'compare');
    }
    await page.screenshot({ path: path.join(artifacts, 'history-compare-480.png'), fullPage: true });
    await page.getByTestId('history-back').click();
    for (const width of [480, 800, 1024]) {
      await expectFitsWidth(page, width, 'list');
      if (width === 480) await page.screenshot({ path: path.join(artifacts, 'history-480.png'), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Back in the list the two stay ticked; add the imported one and delete all three.
    await row('CrystalDiskMark').getByTestId('history-select').check();
    await page.getByTestId('history-delete').click();
    await expect.poll(() => page.getByTestId('history-list').textContent()).toMatch(/Delete 3 results\?/);
    await page.getByTestId('history-delete-confirm').click();
    await expect.poll(() => rows().count()).toBe(0);
    const left = [...(await fsp.readdir(path.join(home, 'results'))), ...(await fsp.readdir(path.join(home, 'results', 'imported')))];
    expect(left.filter((n) => n.endsWith('.json'))).toEqual([]);
    await page.getByTestId('history-empty').waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
  }, 60_000);
});
