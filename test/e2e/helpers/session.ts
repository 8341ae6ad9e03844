// A test file's end-to-end setup: the build, a target folder of its own, Chromium and (unless
// `serve: false`) `diskdial serve`; all closed, stopped and removed after the file's tests. A test
// may start or replace `server` itself: whatever is there at the end is stopped.
import type { ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildIfNeeded, launchChromium, startServe, stopServe } from './harness.js';

export interface E2eFile {
  server: ChildProcess | undefined;
  /** The URL `serve` printed (token included); '' with `serve: false`. */
  url: string;
  browser: Browser;
  target: string;
}

export function e2eFile(tmpPrefix: string, opts: { serve?: boolean } = {}): E2eFile {
  const ctx = { server: undefined, url: '', target: '' } as unknown as E2eFile;
  beforeAll(async () => {
    buildIfNeeded();
    ctx.target = await fsp.mkdtemp(path.join(os.tmpdir(), tmpPrefix));
    if (opts.serve !== false) ({ server: ctx.server, url: ctx.url } = await startServe());
    ctx.browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await ctx.browser?.close();
    await stopServe(ctx.server);
    if (ctx.target) await fsp.rm(ctx.target, { recursive: true, force: true });
  });
  return ctx;
}
