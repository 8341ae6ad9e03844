// The format-and-compare wizard end to end: `diskdial serve` (real services, real engine, real
// mkfs/mount) in Debian's Chromium, on a disk image attached as a loop device (root). The user
// picks the image (the system disk is shown but cannot be picked), three formats, a small quick
// plan, types the disk's name, watches it run, and gets the report — whose Markdown export, read
// back from the clipboard, matches the table on the screen cell for cell.
import { markdownTableLines } from '../helpers/markdown.js';
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAllLoopFs, mountFs, rootOnly, type MountedFs } from '../helpers/loopfs.js';
import { attachImage, detachImage } from '../helpers/wizard-real.js';
import { artifacts, openApp, tempDir, type App } from './helpers/harness.js';
import { expectFitsWidth } from './helpers/layout.js';
import { pickFormats, quickPlan } from './helpers/wizard.js';

describe.runIf(rootOnly())('Format & compare in Chromium against diskdial serve (root: a disk image on a loop device)', () => {
  let app: App;
  let page: Page;
  let dir: string;
  let loop = '';
  let errors: string[];

  beforeAll(async () => {
    dir = await tempDir('dd-e2e-wizard-');
    loop = attachImage(dir, '640M');
    // The wizard erases only when browser mode was started to allow it.
    app = await openApp({ home: path.join(dir, 'home'), args: ['--allow-erase'], screen: 'wizard', clipboard: true });
    ({ page, errors } = app);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    detachImage(loop);
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  it('offers the image, never the system disk; the plan runs three formats; the report matches its Markdown', async () => {
    const image = page.locator(`[data-testid="wizard-disk"][data-path="${loop}"]`);
    await image.waitFor({ timeout: 15_000 });
    // The system disk is listed with its reason and cannot be picked.
    const system = page.getByTestId('wizard-disk').filter({ hasText: 'It holds the running system' });
    await expect.poll(() => system.count()).toBeGreaterThan(0);
    await expect.poll(() => system.first().getByTestId('wizard-disk-select').isDisabled()).toBe(true);
    await image.getByTestId('wizard-disk-select').check();
    await page.getByTestId('wizard-next').click();

    // Formats: exactly ext4, XFS and Btrfs; the plan: the Quick Test at 32 MiB, two runs, no rest.
    await pickFormats(page, ['ext4', 'xfs', 'btrfs']);
    // The default sizes (1 GB and 5 GB) do not fit on the 640 MiB image: said once, naming both
    // sizes and the disk's; Next only points at it.
    await page.getByTestId('wizard-plan-quick').check();
    await expect
      .poll(() => page.getByTestId('wizard-plan-fit').textContent())
      .toMatch(
        /^1 GB and 5 GB do not fit\. Not enough free space: the 5 GB Quick Test needs 5 GB .*of this 640 MiB disk is free once formatted\.\)$/,
      );
    await expect.poll(() => page.getByText(/Not enough free space/).count()).toBe(1);
    await expect.poll(() => page.getByTestId('wizard-next-reason').textContent()).toBe('The plan does not fit on this disk: see above.');
    await quickPlan(page, '32 MiB', 2);

    // Confirm: the summary names the disk; Start waits for its exact name.
    await expect.poll(() => page.getByTestId('wizard-summary').textContent()).toContain(loop);
    await page.getByTestId('wizard-confirm-input').fill(path.basename(loop).toUpperCase());
    await expect.poll(() => page.getByTestId('wizard-start').isDisabled()).toBe(true);
    await page.getByTestId('wizard-confirm-input').fill(path.basename(loop));
    await page.getByTestId('wizard-start').click();

    // Run → report.
    await page.getByTestId('wizard-progress').waitFor({ timeout: 15_000 });
    await page.getByTestId('report-table').waitFor({ timeout: 120_000 });
    // The plan file: every format done, the final format too.
    const [planFile] = await fsp.readdir(path.join(dir, 'home', 'plans'));
    const plan = JSON.parse(await fsp.readFile(path.join(dir, 'home', 'plans', planFile!), 'utf8')) as {
      status: string;
      steps: Array<{ format: string; status: string }>;
      final: { status: string };
    };
    expect(plan).toMatchObject({ status: 'done', final: { status: 'done' } }); // saved before the report is shown
    expect(plan.steps.map((x) => `${x.format}:${x.status}`)).toEqual(['ext4:done', 'xfs:done', 'btrfs:done']);
    await page.screenshot({ path: path.join(artifacts, 'wizard-report.png'), fullPage: true });

    const table = await page
      .getByTestId('report-table')
      .evaluate((t) =>
        [...t.querySelectorAll('tr')].map((tr) =>
          [...tr.querySelectorAll('th, td')].map((c) => c.getAttribute('data-text') ?? c.textContent!.trim()),
        ),
      );
    expect(table[0]).toEqual(['Format', 'Read 32 MiB (MB/s)', 'Write 32 MiB (MB/s)']);
    expect(table.slice(1).map((r) => r[0])).toEqual(['ext4 (baseline)', 'XFS', 'Btrfs']);

    await page.getByTestId('report-export-md').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 10_000 }).toMatch(/^## ext4 vs XFS vs Btrfs/);
    const md = await page.evaluate(() => navigator.clipboard.readText());
    // The report's own table (the formats' "Will it work?" grid follows it).
    const mdRows = markdownTableLines(md)
      .filter((l) => !/^\|[-:| ]+\|$/.test(l))
      .map((l) =>
        l
          .slice(1, -1)
          .split(' | ')
          .map((c) => c.trim()),
      );
    expect(mdRows).toEqual(table);
    await expect.poll(() => page.getByTestId('report-findings').textContent()).toMatch(/XFS|Btrfs/);
    await expect.poll(() => page.getByTestId('report-rule').textContent()).toMatch(/Welch/);

    // The disk is left as ext4 (the first format), unmounted; three results are in History.
    expect(execFileSync('blkid', ['-p', '-o', 'value', '-s', 'TYPE', `${loop}p1`], { encoding: 'utf8' }).trim()).toBe('ext4');
    expect(readFileSync('/proc/self/mounts', 'utf8')).not.toContain(loop);
    const results = await fsp.readdir(path.join(dir, 'home', 'results'));
    expect(results.filter((n) => n.endsWith('.json'))).toHaveLength(3);
    for (const width of [1024, 800, 480]) {
      await expectFitsWidth(page, width, 'report');
    }
    expect(errors).toEqual([]);
  }, 180_000);
});

// Browser mode started without --allow-erase: the first step says so, and why, before anyone picks
// a disk; a mounted ext4 volume is listed with its file system (lsblk alone leaves it blank where
// there is no udev database, as in containers).
describe.runIf(rootOnly())('Compare formats without --allow-erase (root: a mounted ext4 on a loop device)', () => {
  let app: App;
  let page: Page;
  let volume: MountedFs;

  beforeAll(async () => {
    volume = await mountFs('ext4', { sizeMiB: 64 });
    app = await openApp({ home: true, screen: 'wizard' });
    ({ page } = app);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await volume?.cleanup();
    await cleanupAllLoopFs();
  });

  it('says on the first step that erasing needs --allow-erase or the desktop app, and why; lists the mounted ext4 as ext4', async () => {
    const note = page.getByTestId('wizard-erase-off');
    await expect.poll(() => note.textContent(), { timeout: 15_000 }).toMatch(/cannot erase disks/);
    const text = (await note.textContent())!;
    expect(text).toContain('diskdial serve --allow-erase');
    expect(text).toContain('desktop app');
    expect(text).toMatch(/anyone who can open this page could otherwise wipe a disk/);
    await expect.poll(() => note.locator('code').textContent()).toBe('diskdial serve --allow-erase');
    // Plain words: no Markdown anywhere on the step.
    await expect.poll(() => page.getByTestId('wizard').textContent()).not.toContain('`');

    const row = page.locator(`[data-testid="wizard-disk"][data-path="${volume.device}"]`);
    await expect
      .poll(() => row.locator('.wizard-parts li').first().textContent(), { timeout: 15_000 })
      .toMatch(/ · ext4 · .* · mounted at /);
    await expect.poll(() => row.textContent()).not.toContain('no file system');
    await page.screenshot({ path: path.join(artifacts, 'wizard-erase-off.png'), fullPage: true });
  }, 60_000);
});
