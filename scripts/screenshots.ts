// Takes the README's and docs' screenshots of the real UI after real tests: `diskdial serve` (real engine)
// in Debian's Chromium, on a folder of this machine: a 1 GB Quick Test, then the Detailed screen
// after the CrystalDiskMark grid (1 GiB, 5 s per test), a sustained write of up to 10 GB, the
// Quick many-file set (about 5 GB) and the frame-paced video test (ProRes 422 HQ UHD 29.97 fps,
// 30 s), the transfer-size sweep (standard, 1 s a step) and the small-file test (1,000 × 4 KiB; `--only
// sweep` takes just these two), then the Hash screen on a 4 GB test file with SHA-256, then
// History: two 1 GB Quick Tests of three runs each on the same disk, compared (what a person sees
// when nothing changed), and the share card of one of them.
// Then (as root) the format-and-compare wizard on a 2 GiB disk image: ext4, ext4 + fscrypt, XFS,
// Btrfs at 512 MiB, three runs each.
// Then (as root) Compare setups on a 1 GiB ext4 image: the same disk as two setups, the second
// throttled to 35 MB/s each way with cgroup blkio (as a USB 2 hub would cap it), three runs each.
// QuickBench's post made from the exports alone (`--only quickbench`): a quickbench sweep from the
// CLI, its HTML export's chart and averages, and its share card.
// Then (as root) Verify capacity on two whole disks (test/helpers/fake-drive.ts: a loop device over
// a FUSE file): a genuine 1 GiB one, and a fake that claims 1 GiB and wraps at 384 MiB.
// `npm run screenshots [-- --only quick|detailed|sweep|quickbench|hash|history|wizard|campaign|verify]` (needs
// `npm run build` first); writes docs/screenshots/quick-test{,-running}.png, detailed{,-video,-sweep,-small-files}.png,
// sweep-quickbench-{export,card}.png, hash.png,
// history.png, history-compare.png, share-card.png, wizard-{disks,plan,running,report}.png,
// campaign-{waiting,report}.png and verify-{genuine,fake}.png. Results go to a
// throwaway history ($DISKDIAL_HOME).
import { execFileSync } from 'node:child_process';
import { mkdirSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { chooseTarget, launchChromium, startServe, stopServe } from '../test/e2e/helpers/harness.js';
import { throttleGroup } from '../test/helpers/blkio.js';
import { makeFakeDrive, type FakeBehaviour } from '../test/helpers/fake-drive.js';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });
const target = await fsp.mkdtemp(path.join(os.tmpdir(), 'DiskDial-demo-'));
const env = { ...process.env, DISKDIAL_HOME: path.join(target, '.history') };
const bin = path.join(root, 'bin/diskdial.js');
// The same serve + Chromium as the end-to-end tests.
// The wizard erases only a throwaway disk image here; serve refuses erase steps without the switch.
const serveArgs = only === undefined || only === 'wizard' || only === 'verify' ? ['--allow-erase'] : [];
const { server, url } = await startServe({ DISKDIAL_HOME: env.DISKDIAL_HOME }, serveArgs, { stderr: 'inherit' });
try {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(url);
  await chooseTarget(page, target);
  if (only === undefined || only === 'quick') {
    await page.getByRole('radio', { name: 'Runs' }).click();
    await page.getByLabel('Number of runs').fill('2');
    await page.getByRole('button', { name: 'Start' }).click();
    await page
      .getByText(/reading/i)
      .first()
      .waitFor({ timeout: 60_000 });
    await page.waitForTimeout(250);
    await page.screenshot({ path: path.join(out, 'quick-test-running.png') });
    await page.getByRole('button', { name: 'Start' }).waitFor({ timeout: 120_000 });
    await page.waitForTimeout(800); // let the needles settle on the averages
    await page.screenshot({ path: path.join(out, 'quick-test.png'), fullPage: true });
  }
  // The job started (its button says Stop), then ended (Start again).
  const waitIdle = async (kind: string, minutes: number): Promise<void> => {
    // The function runs in the page: everything it needs comes in as its argument.
    const says = ({ k, word }: { k: string; word: string }): boolean =>
      (document.querySelector(`[data-testid="${k}-start"]`)?.textContent ?? '').includes(word);
    await page.waitForFunction(says, { k: kind, word: 'Stop' }, { timeout: 30_000, polling: 100 });
    await page.waitForFunction(says, { k: kind, word: 'Start' }, { timeout: minutes * 60_000, polling: 500 });
  };
  if (only === undefined || only === 'detailed') {
    await page.getByTestId('nav-detailed').click();
    // CrystalDiskMark's defaults but one run, to keep the script to a few minutes.
    await page.getByTestId('cdm-runs').selectOption('1');
    await page.getByTestId('cdm-interval').selectOption('0');
    await page.getByTestId('cdm-start').click();
    await waitIdle('cdm', 10);
    await page.getByTestId('sustained-size-10000000000').click();
    await page.getByTestId('sustained-start').click();
    await waitIdle('sustained', 30);
    await page.getByTestId('files-preset-quick').click();
    await page.getByTestId('files-start').click();
    await waitIdle('files', 30);
    // The video panel's defaults: ProRes 422 HQ, UHD, 29.97 fps, one stream file, 30 s.
    await page.getByTestId('video-start').click();
    await waitIdle('video', 5);
    await page.waitForTimeout(500);
    // From the top: the jump links are sticky, and a page scrolled down would draw them mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(out, 'detailed.png'), fullPage: true });
    await page.getByTestId('video-panel').screenshot({ path: path.join(out, 'detailed-video.png') });
    console.log(`wrote ${path.join(out, 'detailed.png')} and detailed-video.png`);
  }
  if (only === undefined || only === 'detailed' || only === 'sweep') {
    await page.getByTestId('nav-detailed').click();
    // The standard ladder (4 KiB to 64 MiB) at 1 s a step, then the Quick small-file set (1,000 × 4 KiB).
    await page.getByTestId('sweep-seconds-1').click();
    await page.getByTestId('sweep-start').click();
    await waitIdle('sweep', 10);
    await page.getByTestId('small-files-preset-quick').click();
    await page.getByTestId('small-files-start').click();
    await waitIdle('small-files', 10);
    await page.waitForTimeout(500);
    // A window taller than the panels: a panel taller than the window is shot in pieces, and the
    // sticky jump links would be drawn across it.
    await page.setViewportSize({ width: 1280, height: 2000 });
    await page.getByTestId('sweep-panel').screenshot({ path: path.join(out, 'detailed-sweep.png') });
    await page.getByTestId('small-files-panel').screenshot({ path: path.join(out, 'detailed-small-files.png') });
    await page.setViewportSize({ width: 1280, height: 860 });
    console.log(`wrote ${path.join(out, 'detailed-sweep.png')} and detailed-small-files.png`);
  }
  if (only === undefined || only === 'quickbench') {
    // QuickBench's post from the exports alone, with the commands docs/detailed.md shows: the
    // quickbench ladder at 1 s a step, its HTML export (its top: the chart) and its card.
    const json = path.join(target, 'quickbench.json');
    const html = path.join(target, 'quickbench.html');
    const cli = (args: string[]): string => execFileSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    await fsp.writeFile(json, cli(['run', target, '--test', 'sweep', '--preset', 'quickbench', '--seconds', '1', '--json']));
    cli(['export', json, '--format', 'html', '--out', html]);
    cli(['share', json, '--out', path.join(out, 'sweep-quickbench-card.png')]);
    const doc = await browser.newPage({ viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1 });
    await doc.goto(`file://${html}`);
    await doc.locator('svg[data-chart="transfer-size"]').waitFor();
    // The page's top as a post shows it: the result's name and method, then the chart.
    const box = await doc.evaluate(() => {
      const fig = document.querySelector('svg[data-chart="transfer-size"]')!.closest('figure')!.getBoundingClientRect();
      return { x: 0, y: 0, width: 1000, height: fig.bottom + window.scrollY + 12 };
    });
    await doc.screenshot({ path: path.join(out, 'sweep-quickbench-export.png'), clip: box, fullPage: true });
    await doc.close();
    console.log(`wrote ${path.join(out, 'sweep-quickbench-export.png')} and sweep-quickbench-card.png`);
  }
  if (only === undefined || only === 'hash') {
    await page.getByTestId('nav-hash').click();
    await page.getByTestId('hash-source-generate').click();
    await page.getByTestId('hash-size-4000000000').click();
    await page.getByTestId('hash-start').click();
    await waitIdle('hash', 10);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(out, 'hash.png'), fullPage: true });
    console.log(`wrote ${path.join(out, 'hash.png')}`);
  }
  if (only === undefined || only === 'history') {
    const ids: string[] = [];
    for (const label of ['Same disk, run A', 'Same disk, run B']) {
      const json = execFileSync(process.execPath, [bin, 'run', target, '--size', '1GB', '--runs', '3', '--label', label, '--json'], {
        env,
        encoding: 'utf8',
      });
      ids.push((JSON.parse(json) as { id: string }).id);
    }
    execFileSync(process.execPath, [bin, 'share', ids[0]!, '--out', path.join(out, 'share-card.png')], { env });
    await page.getByTestId('nav-history').click();
    const row = (label: string) => page.getByTestId('history-row').filter({ hasText: label });
    await row('Same disk, run B').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(out, 'history.png') });
    await row('Same disk, run A').getByTestId('history-select').check();
    await row('Same disk, run B').getByTestId('history-select').check();
    await page.getByTestId('history-compare').click();
    await page.getByTestId('compare-bars').locator('.recharts-bar-rectangle').first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(out, 'history-compare.png'), fullPage: true });
    console.log(`wrote ${path.join(out, 'history.png')}, history-compare.png and share-card.png`);
  }
  if ((only === undefined && process.getuid?.() === 0) || only === 'wizard') {
    // A 2 GiB disk image on a loop device with direct I/O, erased into four formats.
    const img = path.join(target, 'disk.img');
    execFileSync('truncate', ['-s', '2G', img]);
    const loop = execFileSync('losetup', ['--find', '--partscan', '--direct-io=on', '--show', img], { encoding: 'utf8' }).trim();
    try {
      await page.getByTestId('nav-wizard').click();
      const disk = page.locator(`[data-testid="wizard-disk"][data-path="${loop}"]`);
      await disk.waitFor({ timeout: 15_000 });
      await page.screenshot({ path: path.join(out, 'wizard-disks.png') });
      await disk.getByTestId('wizard-disk-select').check();
      await page.getByTestId('wizard-next').click();
      const boxes = page.getByTestId('wizard-format');
      for (let i = 0; i < (await boxes.count()); i++) {
        const box = boxes.nth(i);
        if (await box.isDisabled()) continue;
        if (['ext4', 'ext4-fscrypt', 'xfs', 'btrfs'].includes((await box.getAttribute('data-format'))!)) await box.check();
        else await box.uncheck();
      }
      await page.getByTestId('wizard-next').click();
      await page.getByTestId('wizard-size-1000000000').uncheck();
      await page.getByTestId('wizard-size-5000000000').uncheck();
      await page.getByTestId('wizard-size-custom').check();
      await page.getByTestId('wizard-size-input').fill('512 MiB');
      await page.getByTestId('wizard-runs').fill('3');
      await page.getByTestId('wizard-rest').fill('0');
      await page.screenshot({ path: path.join(out, 'wizard-plan.png'), fullPage: true });
      await page.getByTestId('wizard-next').click();
      await page.getByTestId('wizard-confirm-input').fill(path.basename(loop));
      await page.getByTestId('wizard-start').click();
      await page.getByTestId('wizard-progress').waitFor({ timeout: 15_000 });
      await page.waitForTimeout(2500);
      await page.screenshot({ path: path.join(out, 'wizard-running.png') });
      await page.getByTestId('report-table').waitFor({ timeout: 20 * 60_000 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(out, 'wizard-report.png'), fullPage: true });
      console.log(`wrote ${path.join(out, 'wizard-report.png')}, wizard-disks.png, wizard-plan.png and wizard-running.png`);
    } finally {
      execFileSync('losetup', ['-d', loop]);
    }
  }
  if ((only === undefined && process.getuid?.() === 0) || only === 'campaign') await campaignShots(page);
  if ((only === undefined && process.getuid?.() === 0) || only === 'verify') await verifyShots(page);
  await browser.close();
  if (only === undefined || only === 'quick') console.log(`wrote ${path.join(out, 'quick-test.png')} and quick-test-running.png`);
} finally {
  await stopServe(server);
  await fsp.rm(target, { recursive: true, force: true });
}

/** Compare setups for real: serve and its engine child join a blkio group on the image's loop
 *  device, unthrottled for the first setup and capped for the second. */
async function campaignShots(page: Page): Promise<void> {
  const img = path.join(target, 'setups.img');
  const mnt = path.join(target, 'setups');
  execFileSync('truncate', ['-s', '1G', img]);
  const loop = execFileSync('losetup', ['--find', '--direct-io=on', '--show', img], { encoding: 'utf8' }).trim();
  const group = throttleGroup(loop, 'dd-shots');
  const pids = (): string[] => [
    String(server.pid),
    ...execFileSync('pgrep', ['-P', String(server.pid)], { encoding: 'utf8' })
      .split(/\s+/)
      .filter(Boolean),
  ];
  const move = (dir: string): void => {
    for (const pid of pids()) execFileSync('sh', ['-c', `echo ${pid} > ${path.join(dir, 'cgroup.procs')} 2>/dev/null || true`]);
  };
  try {
    execFileSync('mkfs.ext4', ['-q', loop]);
    mkdirSync(mnt);
    execFileSync('mount', [loop, mnt]);
    execFileSync('chmod', ['1777', mnt]);
    move(group.dir);
    await chooseTarget(page, mnt);
    await page.getByTestId('nav-campaign').click();
    await page.getByTestId('campaign-setup-0').fill('Front port');
    await page.getByTestId('campaign-setup-1').fill('Through the old hub');
    await page.getByTestId('campaign-size').selectOption({ label: '250 MB' });
    await page.getByTestId('campaign-start').click();
    const waiting = page.getByTestId('campaign-waiting');
    await waiting.getByText('Setup 1 of 2').waitFor({ timeout: 30_000 });
    await page.getByTestId('campaign-continue').click();
    await waiting.getByText('Setup 2 of 2').waitFor({ timeout: 10 * 60_000 });
    group.set(35_000_000);
    await page.screenshot({ path: path.join(out, 'campaign-waiting.png') });
    await page.getByTestId('campaign-continue').click();
    await page.getByTestId('report-table').waitFor({ timeout: 10 * 60_000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(out, 'campaign-report.png'), fullPage: true });
    console.log(`wrote ${path.join(out, 'campaign-report.png')} and campaign-waiting.png`);
  } finally {
    move('/sys/fs/cgroup/blkio');
    group.remove();
    execFileSync('sh', ['-c', `umount ${mnt} 2>/dev/null; losetup -d ${loop}`]);
  }
}

/** Verify capacity on a whole disk, genuine and fake: the panel after each run. */
async function verifyShots(page: Page): Promise<void> {
  const MiB = 1024 * 1024;
  const drives: Array<[FakeBehaviour, number, string]> = [
    ['genuine', 1024 * MiB, 'verify-genuine.png'],
    ['alias', 384 * MiB, 'verify-fake.png'],
  ];
  await page.getByTestId('nav-detailed').click();
  const panel = page.getByTestId('verify-panel');
  for (const [behaviour, real, file] of drives) {
    const drive = await makeFakeDrive({ face: 'device', behaviour, claimed: 1024 * MiB, real, dir: target });
    try {
      // Folder, then whole disk: the disk list is read again and has the new drive.
      await page.getByTestId('verify-face-folder').click();
      await page.getByTestId('verify-face-disk').click();
      await panel.locator(`[data-testid="verify-disk"] option[value="${drive.device}"]`).waitFor({ state: 'attached', timeout: 15_000 });
      await page.getByTestId('verify-disk').selectOption(drive.device!);
      await page.getByTestId('verify-confirm-input').fill(path.basename(drive.device!));
      await page.getByTestId('verify-start').click();
      // The job started (its button says Stop), then ended (Start again).
      const says = (word: string): boolean => (document.querySelector('[data-testid="verify-start"]')?.textContent ?? '').includes(word);
      await page.waitForFunction(says, 'Stop', { timeout: 30_000, polling: 50 });
      await page.waitForFunction(says, 'Start', { timeout: 5 * 60_000, polling: 200 });
      await page.waitForTimeout(500);
      await panel.screenshot({ path: path.join(out, file) });
      console.log(`wrote ${path.join(out, file)}`);
    } finally {
      await drive.cleanup();
    }
  }
}
