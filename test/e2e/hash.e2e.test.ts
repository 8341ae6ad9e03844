// The Hash screen end to end: `diskdial serve` (real services, the engine in its own child, the
// real addon, OpenSSL's libcrypto) in Debian's Chromium. A user types a file's path (browser mode
// has no file picker), pastes a wrong digest and then the right one, reads the four rates, the
// verdict and the digest sha256sum gives; then hashes a generated test file, removed afterwards.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, openApp, tempDir, type App } from './helpers/harness.js';
import { expectFitsWidth } from './helpers/layout.js';

let app: App;
let page: Page;
let dir: string;
let file: string;
let sha256: string;
let errors: string[];

async function waitIdle(): Promise<void> {
  await expect.poll(() => page.getByTestId('hash-start').textContent(), { timeout: 90_000 }).toMatch(/Start/);
}

beforeAll(async () => {
  dir = await tempDir('dd-e2e-hash-');
  file = path.join(dir, 'A001_C002.braw');
  await fsp.writeFile(file, randomBytes(48 << 20));
  sha256 = execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0]!;
  // The test-file source writes on the selected target: pick the test folder.
  app = await openApp({ target: dir, screen: 'hash', remove: [dir] });
  ({ page, errors } = app);
}, 180_000);

afterAll(() => app?.close());

describe('Hash screen in Chromium against diskdial serve', () => {
  it('a wrong digest: the four bars, the verdict, the real digest and a plain mismatch; the file untouched', async () => {
    const before = await fsp.stat(file);
    await page.getByTestId('hash-path').fill(file);
    await page.getByTestId('hash-verify-input').fill('0'.repeat(64));
    await page.getByTestId('hash-start').click();
    await waitIdle();
    for (const bar of ['read', 'read-hash', 'memory', 'memory-parallel']) {
      await expect.poll(() => page.getByTestId(`hash-bar-${bar}`).textContent(), { message: bar }).toMatch(/\d[\d,.]* MB\/s/);
    }
    // A verdict, or — when a cache made read + hash beat the plain read — the trust rule's refusal.
    await expect
      .poll(() => page.getByTestId('hash-verdict').textContent())
      .toMatch(
        /^(CPU-bound|Storage-bound|Link-bound|No single limit|No verdict: read \+ hash \([\d,.]+ MB\/s\) was faster than reading alone)/,
      );
    // The verdict, given or withheld, sits right above the bars: no empty band between them.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const verdict = document.querySelector('[data-testid="hash-verdict"]')!.getBoundingClientRect();
          return document.querySelector('[data-testid="hash-bar-read"]')!.getBoundingClientRect().top - verdict.bottom;
        }),
      )
      .toBeLessThan(48);
    await expect.poll(async () => (await page.getByTestId('hash-digest').textContent())?.replace(/\s/g, '')).toBe(sha256);
    await expect.poll(() => page.getByTestId('hash-verify').textContent()).toMatch(/Does NOT match/);
    await expect.poll(() => page.getByTestId('hash-provider').textContent()).toMatch(/OpenSSL/);
    const after = await fsp.stat(file);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  }, 120_000);

  it('the right digest pasted as sha256sum prints it: a match', async () => {
    await page.getByTestId('hash-verify-input').fill(`${sha256}  ${path.basename(file)}`);
    await page.getByTestId('hash-start').click();
    await waitIdle();
    await expect.poll(() => page.getByTestId('hash-verify').textContent()).toMatch(/Matches/);
    await page.screenshot({ path: path.join(artifacts, 'hash.png'), fullPage: true });
  }, 120_000);

  it('a generated test file on the target: hashed with SHA-512, then removed', async () => {
    await page.getByTestId('hash-verify-input').fill('');
    await page.getByTestId('hash-source-generate').click();
    await page.getByTestId('hash-size-custom').click();
    await page.getByTestId('hash-size-input').fill('32 MiB');
    await page.getByTestId('hash-size-input').blur();
    await page.getByTestId('hash-algo-sha512').click();
    await page.getByTestId('hash-start').click();
    await waitIdle();
    await expect.poll(async () => (await page.getByTestId('hash-digest').textContent())?.replace(/\s/g, '')).toMatch(/^[0-9a-f]{128}$/);
    await expect.poll(() => page.getByTestId('hash-file').textContent()).toMatch(/removed/i);
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
  }, 120_000);

  it('holds its layout at 800 and 480 px, and the page logged no errors', async () => {
    for (const width of [800, 480]) {
      await expectFitsWidth(page, width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(errors).toEqual([]);
  }, 60_000);
});
