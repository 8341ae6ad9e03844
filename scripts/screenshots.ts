// Takes the README's screenshots of the real UI after a real test: `diskdial serve` (real engine)
// in Debian's Chromium, a 1 GB Quick Test on a folder of this machine. `npm run screenshots`
// (needs `npm run build` first); writes docs/screenshots/quick-test{,-running}.png.
import { spawn } from 'node:child_process';
import { mkdirSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/screenshots');
mkdirSync(out, { recursive: true });
const target = await fsp.mkdtemp(path.join(os.tmpdir(), 'DiskDial-demo-'));
const server = spawn(process.execPath, [path.join(root, 'bin/diskdial.js'), 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    server.stdout!.setEncoding('utf8').on('data', (d: string) => {
      text += d;
      const m = /running at (\S+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    server.on('exit', () => reject(new Error(`serve exited: ${text}`)));
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(url);
  await page.locator('.target-button').click();
  await page.getByRole('button', { name: 'Choose folder…' }).click();
  await page.getByPlaceholder('/media/me/Footage').fill(target);
  await page.getByRole('button', { name: 'Use', exact: true }).click();
  await page.getByRole('radio', { name: 'Runs' }).click();
  await page.getByLabel('Number of runs').fill('2');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByText(/reading/i).first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(out, 'quick-test-running.png') });
  await page.getByRole('button', { name: 'Start' }).waitFor({ timeout: 120_000 });
  await page.waitForTimeout(800); // let the needles settle on the averages
  await page.screenshot({ path: path.join(out, 'quick-test.png'), fullPage: true });
  await browser.close();
  console.log(`wrote ${path.join(out, 'quick-test.png')} and quick-test-running.png`);
} finally {
  server.kill('SIGINT');
  await new Promise((r) => server.once('exit', r));
  await fsp.rm(target, { recursive: true, force: true });
}
