// `diskdial serve` as a user runs it (from source, in a child process): its argument errors,
// the missing-UI error, the printed URL, and a clean stop on SIGINT.
import { spawn, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP, parseCli } from '../../../app/src/cli/args.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const mainTs = pathToFileURL(path.join(root, 'app/src/cli/main.ts')).href;
// The CLI's main() from source, argv after the script, exit code as main returns it.
const script = `const m = await import(${JSON.stringify(mainTs)}); process.exitCode = await m.main(process.argv.slice(1));`;
const argvFor = (args: string[]) => ['--import', tsx, '--input-type=module', '-e', script, ...args];
let tmp: string;

beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-serve-'));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, argvFor(args), { encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('serve arguments', () => {
  it('parses --port, default 0 (a free port)', () => {
    expect(parseCli(['serve'])).toEqual({ command: 'serve', port: 0 });
    expect(parseCli(['serve', '--port', '8080'])).toEqual({ command: 'serve', port: 8080 });
    expect(parseCli(['serve', '-p', '0'])).toEqual({ command: 'serve', port: 0 });
    expect(HELP).toContain('diskdial serve [--port N]');
  });
  it.each([
    [['serve', '--port', 'abc'], /--port must be a whole number from 0 to 65535, not "abc"/],
    [['serve', '--port', '70000'], /--port must be from 0 to 65535, not 70000/],
    [['serve', '/tmp'], /unexpected argument "\/tmp"; serve takes no folder/],
    [['serve', '--size', '1GB'], /--size does not apply to serve/],
    [['run', '/tmp', '--port', '80'], /--port applies to diskdial serve only/],
  ])('%j is bad input', (args, message) => {
    expect(() => parseCli(args)).toThrow(message);
  });
  it('the CLI answers bad --port with one line and exit 2', () => {
    const r = cli(['serve', '--port', 'abc']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('diskdial: --port must be a whole number from 0 to 65535, not "abc"\n');
  });
});

describe('diskdial serve', () => {
  it('without a built UI: one line, exit 1', () => {
    const r = cli(['serve'], { DISKDIAL_RENDERER_DIR: path.join(tmp, 'nothing-here') });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('diskdial: The UI is not built: run `npm run build:renderer`.\n');
  });

  it('prints the URL with a token, serves the page there, and stops cleanly on SIGINT', async () => {
    const ui = path.join(tmp, 'ui');
    await fsp.mkdir(ui);
    await fsp.writeFile(path.join(ui, 'index.html'), '<!doctype html><title>DiskDial UI</title>');
    const child = spawn(process.execPath, argvFor(['serve']), {
      env: { ...process.env, DISKDIAL_RENDERER_DIR: ui },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('Press Ctrl-C to stop.\n')) resolve();
      });
      void exited.then(() => reject(new Error(`exited early: ${stderr}`)));
    });
    const m = /^DiskDial is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43}))\nPress Ctrl-C to stop\.\n$/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const page = await fetch(m![1]!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('DiskDial UI');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });
});
