// Browser mode without its server, in Chromium against the real `diskdial serve`: a page with the
// wrong token, and a page whose server stops and starts again on the same port and token. Either
// way the page says "Not connected" with what to do (a refused token told apart from a stopped
// server) and disables its controls; the second one comes back by itself, without a reload.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifacts, chooseTarget, startServe, stopServe } from './helpers/harness.js';
import { e2eFile } from './helpers/session.js';

const e2e = e2eFile('dd-e2e-conn-', { serve: false });

describe('connection banner in Chromium', () => {
  it('a wrong token: the banner says what to do and the controls are disabled', async () => {
    let printed: string;
    ({ server: e2e.server, url: printed } = await startServe());
    const url = new URL(printed);
    url.searchParams.set('token', 'not-the-token');
    const page = await e2e.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url.href);
    const banner = page.getByTestId('connection-banner');
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    // Refused, not stopped: the server answers, so the page says its token is the trouble.
    await expect
      .poll(() => banner.textContent())
      .toMatch(/Not connected to DiskDial\. The server is running but refused this page’s token.*Open the URL diskdial serve printed/);
    await expect.poll(() => banner.textContent()).not.toMatch(/stopped/);
    await expect.poll(() => page.getByRole('button', { name: 'Start' }).isDisabled()).toBe(true);
    // Under Start: the connection, not "Choose a drive or folder".
    await expect.poll(() => page.getByTestId('start-reason').textContent()).toBe('Not connected to DiskDial: see the note at the top.');
    await expect.poll(() => page.locator('.target-button').isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(artifacts, 'connection-wrong-token.png') });
    await page.close();
    await stopServe(e2e.server);
    e2e.server = undefined;
  });

  it('the server stops and starts again on the same port and token: banner, then gone by itself', async () => {
    const env = { DISKDIAL_TOKEN: randomBytes(24).toString('base64url') };
    ({ server: e2e.server, url: e2e.url } = await startServe(env));
    const port = new URL(e2e.url).port;
    const page = await e2e.open();
    const banner = page.getByTestId('connection-banner');
    await expect.poll(() => banner.count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Start' }).isEnabled()).toBe(true);

    await stopServe(e2e.server);
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    await expect.poll(() => banner.textContent()).toMatch(/If diskdial serve stopped, start it again/);
    await expect.poll(() => page.getByRole('button', { name: 'Start' }).isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(artifacts, 'connection-lost.png') });

    ({ server: e2e.server } = await startServe(env, ['--port', port]));
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => page.getByRole('button', { name: 'Start' }).isEnabled(), { timeout: 10_000 }).toBe(true);
    // The page works again: it can describe and pick a folder through the new server.
    await chooseTarget(page, e2e.target);
    await page.close();
  });
});
