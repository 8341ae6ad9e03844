// What every end-to-end test needs: the compiled core and built UI, `diskdial serve` running
// with its URL (token included), Debian's Chromium through playwright-core, a page that has
// chosen a folder as its target, and an orderly shutdown (SIGINT to the server: it stops any
// running test and removes its files).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildCoreIfChanged, newest } from '../../helpers/build-core.js';

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
  const html = path.join(root, 'dist/renderer/index.html');
  if (!existsSync(html) || statSync(html).mtimeMs < newest('app/src', 'renderer')) {
    execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'renderer/vite.config.ts'], {
      cwd: root,
      stdio: 'pipe',
    });
  }
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

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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
