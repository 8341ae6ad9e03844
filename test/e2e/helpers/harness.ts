// What every end-to-end test needs: the compiled core and built UI, `diskdial serve` running
// with its URL (token included), Debian's Chromium through playwright-core, a page that has
// chosen a folder as its target, and an orderly shutdown (SIGINT to the server: it stops any
// running test and removes its files).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildCoreIfChanged, buildRendererIfChanged } from '../../../scripts/build-if-changed.mjs';
import { cleanupAllLoopFs, mountFs, type MountedFs } from '../../helpers/loopfs.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const artifacts = path.join(root, 'test-artifacts');
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The compiled core and the built UI are what `npm install` produces; rebuilt here only when
 *  their sources changed since, so the tests run what the tree says. (Compiling every time cost
 *  each file's beforeAll minutes on a loaded machine, past the hook's time limit.) */
export function buildIfNeeded(): void {
  mkdirSync(artifacts, { recursive: true });
  buildCoreIfChanged();
  buildRendererIfChanged();
}

/** `diskdial serve` on a free port (with `env` added, e.g. its own DISKDIAL_HOME, and `args`, e.g.
 *  --allow-erase or --port); resolves with the process and the URL it printed. `stderr: 'inherit'`
 *  shows the server's errors (scripts/screenshots.ts). */
export async function startServe(
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
  opts: { stderr?: 'pipe' | 'inherit' } = {},
): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, [path.join(root, 'bin/diskdial.js'), 'serve', ...args], {
    stdio: ['ignore', 'pipe', opts.stderr ?? 'pipe'],
    env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    server.on('exit', (code) => reject(new Error(`diskdial serve exited (${code}): ${out}`)));
  });
  return { server, url };
}

/** SIGINT, as Ctrl-C: the server stops its tests, removes their files and exits. */
export async function stopServe(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGINT');
  await exited;
}

/** The e2e run's shared Chromium (chromium-server.ts) when there is one, else a new one. Closing a
 *  connected browser closes its contexts and disconnects; the shared one lives on. */
export function launchChromium(): Promise<Browser> {
  const shared = process.env.DISKDIAL_CHROMIUM_WS;
  return shared ? chromium.connect(shared) : chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Browser mode cannot show an OS folder picker: the user types the folder into the target menu. */
export async function chooseTarget(page: Page, folder: string): Promise<void> {
  await page.locator('.target-button').click();
  await page.getByRole('button', { name: 'Choose folder…' }).click();
  await page.getByPlaceholder('/media/me/Footage').fill(folder);
  await page.getByRole('button', { name: 'Use', exact: true }).click();
  // A playwright wait, not expect.poll: this also runs in hooks.
  await page.getByRole('button', { name: `Target: ${path.basename(folder)}` }).waitFor({ timeout: 15_000 });
}

/** Collects the page's uncaught errors and console errors, for a test to assert none happened. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return errors;
}

/** A temp folder of the test's own (in /var/tmp where the figures should be the disk's: a tmpfs takes no direct I/O). */
export function tempDir(prefix: string, base = os.tmpdir()): Promise<string> {
  return fsp.mkdtemp(path.join(base, prefix));
}

/** The smallest, quickest CrystalDiskMark grid on the Detailed screen: 16 MiB, read and write, 1 s
 *  a test, no pause, one run (about 10 s on this machine). */
export async function chooseShortCdm(page: Page): Promise<void> {
  for (const [id, value] of [
    ['cdm-size', 16 * 1024 * 1024],
    ['cdm-mode', 'readwrite'],
    ['cdm-seconds', 1],
    ['cdm-interval', 0],
    ['cdm-runs', 1],
  ] as const)
    await page.getByTestId(id).selectOption(String(value));
}

export interface AppOptions {
  /** The folder the page picks as its target; none picked when absent. */
  target?: string;
  /** DISKDIAL_HOME for `serve`: a folder, or true for a temp one that close() removes; absent, the test run's. */
  home?: string | true;
  /** More `serve` arguments, e.g. ['--allow-erase']. */
  args?: string[];
  /** The screen shown once the target is picked (its nav tab clicked, its panel waited for). */
  screen?: string;
  /** Copy buttons write to the page's clipboard, and the test reads it back. */
  clipboard?: boolean;
  acceptDownloads?: boolean;
  /** Runs on the new page before it loads the app (e.g. to record its requests). */
  beforeLoad?: (page: Page) => void;
  /** The test's own folders, removed by close() after the server has stopped. */
  remove?: string[];
}

export interface App {
  page: Page;
  /** The URL `serve` printed (token included). */
  url: string;
  /** The DISKDIAL_HOME `serve` runs with. */
  home: string;
  server: ChildProcess;
  browser: Browser;
  context: BrowserContext;
  /** The page's uncaught and console errors so far. */
  errors: string[];
  /** Chromium closed, the server stopped (it removes its tests' files), the temp folders removed. */
  close(): Promise<void>;
}

/** `diskdial serve` and Chromium with one 1280×900 page on the app: the target picked and the
 *  screen shown, as a person would. Whatever was started is closed again if a step fails. */
export async function openApp(opts: AppOptions = {}): Promise<App> {
  buildIfNeeded();
  const remove = [...(opts.remove ?? [])];
  const home = opts.home === true ? await tempDir('dd-e2e-home-') : (opts.home ?? process.env.DISKDIAL_HOME ?? '');
  if (opts.home === true) remove.push(home);
  const app = { home, errors: [] as string[] } as App;
  app.close = async () => {
    await app.browser?.close();
    await stopServe(app.server);
    for (const d of remove) await fsp.rm(d, { recursive: true, force: true });
  };
  try {
    ({ server: app.server, url: app.url } = await startServe(opts.home ? { DISKDIAL_HOME: home } : {}, opts.args));
    app.browser = await launchChromium();
    app.context = await app.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: opts.acceptDownloads });
    if (opts.clipboard) await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.url).origin });
    app.page = await app.context.newPage();
    app.errors = collectErrors(app.page);
    opts.beforeLoad?.(app.page);
    await app.page.goto(app.url);
    if (opts.target) await chooseTarget(app.page, opts.target);
    if (opts.screen) {
      await app.page.getByTestId(`nav-${opts.screen}`).click();
      await app.page.locator(`#screen-${opts.screen}`).waitFor({ state: 'visible', timeout: 15_000 });
    }
    return app;
  } catch (e) {
    await app.close();
    throw e;
  }
}

/** openApp with a real ext4 volume of `sizeMiB` as the target (root: a loop device with
 *  --direct-io=on, which does not cache its image file, so the figures are the disk's). close()
 *  unmounts it too, after the server has removed its files. */
export async function openAppOnExt4(sizeMiB: number, opts: AppOptions = {}): Promise<App & { volume: MountedFs }> {
  const volume = await mountFs('ext4', { sizeMiB, directIo: true });
  const unmount = async () => {
    await volume.cleanup();
    await cleanupAllLoopFs();
  };
  try {
    const app = await openApp({ ...opts, target: volume.dir });
    const closeApp = app.close;
    return Object.assign(app, { volume, close: () => closeApp().then(unmount) });
  } catch (e) {
    await unmount();
    throw e;
  }
}
