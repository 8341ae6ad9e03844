// `npm start` on a machine where Electron's binary is missing (CI never has it; a user whose
// download failed): one plain line with the fix, the browser UI offered, never a stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIfNeeded } from '../../e2e/helpers/harness.js';

const root = path.resolve(import.meta.dirname, '../../..');
const emptyDist = mkdtempSync(path.join(os.tmpdir(), 'diskdial-no-electron-'));
afterAll(() => rmSync(emptyDist, { recursive: true, force: true }));

/** `npm start` with no Electron binary (an empty dist folder stands in for a failed download). */
function npmStart(opts: { env?: Record<string, string>; tty?: boolean; answer?: string; until?: RegExp }) {
  const env = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: emptyDist, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', ...opts.env };
  // util-linux script(1) gives npm a terminal, as a person's shell would.
  const child = opts.tty
    ? spawn('script', ['-qec', 'npm start', '/dev/null'], { cwd: root, env })
    : spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (opts.answer !== undefined && out.includes('[Y/n]')) {
        child.stdin!.write(`${opts.answer}\r`);
        opts.answer = undefined;
      }
      if (opts.until?.test(out)) child.kill('SIGINT');
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const FIX =
  /desktop app cannot start because Electron's binary is not installed .*Fix: connect to the internet and run `npm start` again\. The same UI runs in your browser: `npx diskdial serve`\./;

describe('npm start without the Electron binary', () => {
  it('says so in one line with the fix and exits 1 when no one can answer', async () => {
    const { code, out } = await npmStart({});
    expect(code).toBe(1);
    expect(out).toMatch(FIX);
    expect(out).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("a failed download (the registry reachable, Electron's mirror not) ends the same way, with the reason in one line", async () => {
    const cache = mkdtempSync(path.join(os.tmpdir(), 'diskdial-electron-cache-'));
    try {
      // Port 9 (discard) on loopback refuses at once: a download that fails, offline and fast.
      const { code, out } = await npmStart({
        env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '', ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: cache },
      });
      expect(code).toBe(1);
      expect(out).toMatch(/Downloading Electron for the first run/);
      expect(out).toMatch(/The download failed: .+/);
      expect(out).toMatch(FIX);
      expect(out).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('on a terminal it offers the browser UI: "n" exits 1', async () => {
    const { code, out } = await npmStart({ tty: true, answer: 'n' });
    expect(out).toMatch(FIX);
    expect(out).toContain('Open DiskDial in your browser instead? [Y/n]');
    expect(code).toBe(1);
  });

  it('on a terminal, Enter builds what changed and starts `diskdial serve` with its URL', async () => {
    buildIfNeeded();
    const built = () => ['dist/.core-built', 'dist/renderer/index.html'].map((f) => statSync(path.join(root, f)).mtimeMs);
    const before = built();
    const { out } = await npmStart({ tty: true, answer: '', until: /DiskDial is running at http:\/\/127\.0\.0\.1:\d+\/\S+/ });
    expect(out).toMatch(/DiskDial is running at http:\/\/127\.0\.0\.1:\d+\//);
    // A current build is kept, not rewritten under the other test chains' servers and CLI runs.
    expect(built()).toEqual(before);
  }, 240_000);

  it('the approval and the CI switch are in place', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.allowScripts.electron).toBe(true);
    expect(readFileSync(path.join(root, '.ci/run'), 'utf8')).toMatch(/^export ELECTRON_SKIP_BINARY_DOWNLOAD=1/m);
  });
});
