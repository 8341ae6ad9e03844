// Verify capacity on a whole disk, end to end: `diskdial serve` (real services, real engine) in
// Debian's Chromium, on a fake drive (root: a 256 MiB loop device over a FUSE file that wraps at
// 96 MiB, test/helpers/fake-drive.ts). Started with --allow-erase, the panel lists the disk, waits
// for its exact name, runs, and says the drive's verdict with its exact capacity. Started without,
// it says up front why no disk can be used, and Start stays off.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFakeDrive, type FakeDrive } from '../helpers/fake-drive.js';
import { rootOnly } from '../helpers/loopfs.js';
import { openApp, tempDir, type App } from './helpers/harness.js';

const MiB = 1024 * 1024;

describe.runIf(rootOnly())('Verify a whole disk in Chromium against diskdial serve (root: a fake drive)', () => {
  let drive: FakeDrive;
  let dir: string;
  const apps: App[] = [];

  beforeAll(async () => {
    dir = await tempDir('dd-e2e-verify-disk-');
    drive = await makeFakeDrive({ face: 'device', behaviour: 'alias', claimed: 256 * MiB, real: 96 * MiB, dir });
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    await drive?.cleanup();
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  async function open(args: string[]): Promise<Page> {
    const app = await openApp({ home: path.join(dir, `home-${apps.length}`), args, screen: 'detailed' });
    apps.push(app);
    await app.page.getByTestId('verify-face-disk').click();
    return app.page;
  }

  it('with --allow-erase: the disk is listed, Start waits for its name, and the verdict is the drive’s', async () => {
    const page = await open(['--allow-erase']);
    const name = path.basename(drive.device!);
    const panel = page.getByTestId('verify-panel');
    await panel.locator(`[data-testid="verify-disk"] option[value="${drive.device}"]`).waitFor({ state: 'attached', timeout: 15_000 });
    await page.getByTestId('verify-disk').selectOption(drive.device!);
    await page.getByTestId('verify-confirm-input').fill(name.toUpperCase());
    await expect.poll(() => page.getByTestId('verify-start').isDisabled()).toBe(true);
    await page.getByTestId('verify-confirm-input').fill(name);
    await expect.poll(() => page.getByTestId('verify-start').isDisabled()).toBe(false);
    await page.getByTestId('verify-start').click();
    await expect
      .poll(() => page.getByTestId('verify-verdict').textContent(), { timeout: 120_000 })
      .toBe('Fake capacity: only 101 MB of the 268 MB it reports hold data; writes beyond wrap to the start');
    await expect.poll(() => page.getByTestId('verify-bar').textContent()).toBe('intact 101 MBread back wrong 168 MB');
    await expect.poll(() => page.getByTestId('verify-saved').textContent()).toContain('Saved to History');
  }, 180_000);

  it('without --allow-erase: the reason up front, no disk listed, Start off', async () => {
    const page = await open([]);
    await expect
      .poll(() => page.getByTestId('verify-erase-refused').textContent(), { timeout: 15_000 })
      .toContain('diskdial serve --allow-erase');
    expect(await page.getByTestId('verify-disk').count()).toBe(0);
    await expect.poll(() => page.getByTestId('verify-start').isDisabled()).toBe(true);
  }, 120_000);
});
