// The e2e project's global setup: one Chromium for every e2e file (each file connects and makes its
// own contexts, which share nothing), instead of a launch per file. Files find it through
// DISKDIAL_CHROMIUM_WS; without it (scripts/screenshots.ts) launchChromium starts its own.
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './harness.js';

export default async function setup(): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  process.env.DISKDIAL_CHROMIUM_WS = server.wsEndpoint();
  return async () => {
    delete process.env.DISKDIAL_CHROMIUM_WS;
    await server.close();
  };
}
