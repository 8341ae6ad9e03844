// A test file's end-to-end setup: the build, a target folder of its own, Chromium and (unless
// `serve: false`) `diskdial serve`; all closed, stopped and removed after the file's tests. A test
// may start or replace `server` itself: whatever is there at the end is stopped. For files that open
// many pages on one server; a file with one page uses openApp (harness.ts).
import type { ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildIfNeeded, chooseTarget, collectErrors, launchChromium, startServe, stopServe, tempDir } from './harness.js';

export interface E2eFile {
  server: ChildProcess | undefined;
  /** The URL `serve` printed (token included); '' with `serve: false`. */
  url: string;
  browser: Browser;
  target: string;
  /** The server's DISKDIAL_HOME with `home: true` (a temp folder of the file's own); else ''. */
  home: string;
  /** A new page on `url` (1280×900 unless `viewport`) with the target picked; `errors` collects its
   *  uncaught and console errors from the start. */
  open(viewport?: { width: number; height: number }): Promise<Page & { errors: string[] }>;
}

export function e2eFile(tmpPrefix: string, opts: { serve?: boolean; home?: boolean } = {}): E2eFile {
  const ctx = { server: undefined, url: '', target: '', home: '' } as unknown as E2eFile;
  ctx.open = async (viewport = { width: 1280, height: 900 }) => {
    const page = await ctx.browser.newPage({ viewport });
    const errors = collectErrors(page);
    await page.goto(ctx.url);
    await chooseTarget(page, ctx.target);
    return Object.assign(page, { errors });
  };
  beforeAll(async () => {
    buildIfNeeded();
    ctx.target = await tempDir(tmpPrefix);
    if (opts.home) ctx.home = await tempDir(`${tmpPrefix}home-`);
    if (opts.serve !== false) ({ server: ctx.server, url: ctx.url } = await startServe(opts.home ? { DISKDIAL_HOME: ctx.home } : {}));
    ctx.browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await ctx.browser?.close();
    await stopServe(ctx.server);
    for (const d of [ctx.target, ctx.home]) if (d) await fsp.rm(d, { recursive: true, force: true });
  });
  return ctx;
}
