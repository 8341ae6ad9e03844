// The `diskdial` command as a user runs it: the compiled bin/diskdial.js in a child process.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../app/src/core/result.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/diskdial.js');
let tmp: string;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-'));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function leftovers(dir: string): Promise<string[]> {
  return (await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'));
}

async function waitFor<T>(fn: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('diskdial help and version', () => {
  it('--help prints usage on stdout', () => {
    const r = cli('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('diskdial run <dir>');
    expect(r.stdout).toMatch(/1, 2, 3 or 5 GB/);
    expect(r.stderr).toBe('');
  });
  it('--version prints the package version', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const r = cli('--version');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^diskdial ${pkg.version.replace(/\./g, '\\.')} \\(engine \\d+\\.\\d+`));
  });
});

describe('bad input: one line on stderr, exit 2, nothing touched', () => {
  const cases: Array<[string, () => string[], RegExp]> = [
    ['unknown flag', () => ['run', tmp, '--frobnicate'], /unknown option --frobnicate/],
    ['unknown command', () => ['frob', tmp], /unknown command "frob"/],
    ['no command', () => [], /missing command/],
    ['missing <dir>', () => ['run'], /missing <dir>/],
    ['--size abc', () => ['run', tmp, '--size', 'abc'], /--size "abc" is not a size/],
    ['--size 0', () => ['run', tmp, '--size', '0'], /--size/],
    ['--qd 0', () => ['run', tmp, '--qd', '0'], /--qd must be from 1 to 64/],
    ['--qd 65', () => ['run', tmp, '--qd', '65'], /--qd must be from 1 to 64/],
    ['--qd x', () => ['run', tmp, '--qd', 'x'], /--qd must be a whole number/],
    ['--bs 100', () => ['run', tmp, '--bs', '100'], /--bs must be a power of two/],
    ['--bs 128MiB', () => ['run', tmp, '--bs', '128MiB'], /--bs must be a power of two/],
    ['--test nope', () => ['run', tmp, '--test', 'nope'], /--test must be one of quick, cdm/],
    ['--bs with cdm', () => ['run', tmp, '--test', 'cdm', '--bs', '4k'], /--bs does not apply to --test cdm/],
    ['--cache nope', () => ['run', tmp, '--cache', 'nope'], /--cache must be one of/],
    ['--size without value', () => ['run', tmp, '--size'], /option --size needs a value/],
    ['--json=1', () => ['run', tmp, '--json=1'], /option --json does not take a value/],
    ['extra argument', () => ['run', tmp, tmp], /unexpected argument/],
    ['a file, not a folder', () => ['run', path.join(tmp, 'a-file')], /a-file is a file, not a folder \(ENOTDIR\)/],
    ['a missing path', () => ['run', path.join(tmp, 'missing')], /No such folder: .*missing \(ENOENT\)/],
  ];
  it.each(cases)('%s', async (_name, args, message) => {
    await fsp.writeFile(path.join(tmp, 'a-file'), 'x');
    const r = cli(...args());
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.endsWith('\n')).toBe(true);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^diskdial: /);
    expect(r.stderr).toMatch(message);
    expect(await leftovers(tmp)).toEqual([]);
  });
});

describe('diskdial run', () => {
  it('--json prints exactly one result document, direct I/O on ext4, and cleans up', async () => {
    const dir = await fsp.mkdtemp(path.join(tmp, 'json-'));
    const r = cli('run', dir, '--test', 'quick', '--size', '32MiB', '--json', '--label', 'ci');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument;
    expect(doc).toMatchObject({ schema: 1, kind: 'quick', label: 'ci', cacheMode: 'direct', dataPattern: 'random' });
    expect(doc.tests.map((t) => t.name)).toEqual(['Write', 'Read']);
    expect(doc.tests.every((t) => t.bytes === 32 << 20 && t.mbps > 0)).toBe(true);
    expect(doc.target).toMatchObject({ path: dir, fs: 'ext4' });
    expect(doc.flags).toEqual([]);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('prints a readable table without --json', async () => {
    const r = cli('run', tmp, '--test', 'seq-read', '--size', '16MiB', '--pattern', 'zeros');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Test\s+MB\/s\s+IOPS\s+Mean lat\s+p99 lat\s+Cache/);
    expect(r.stdout).toMatch(/SEQ1M Q8T1 Read\s+[\d.]+\s+[\d,]+\s+[\d.]+ (µs|ms)\s+[\d.]+ (µs|ms)\s+direct/);
    expect(r.stdout).toContain('Cache mode: direct   Data: zeros');
    expect(r.stdout).toContain('⚠ The test wrote zeros; disks and file systems that compress or deduplicate will look faster than with real data. — Run with --pattern random');
    expect(await leftovers(tmp)).toEqual([]);
  });

  it('reports a disk too small for the test as one line, exit 1', async () => {
    const st = await fsp.statfs(tmp);
    const tooBig = `${Math.ceil((st.blocks * st.bsize) / 2 ** 30) + 1}GiB`;
    const r = cli('run', tmp, '--size', tooBig);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^diskdial: Not enough free space on .*: the test needs [\d.]+ GB, [\d.]+ GB is free\. \(ENOSPC\)\n$/);
    expect(await leftovers(tmp)).toEqual([]);
  });

  it('SIGINT cancels the run, removes the test folder and exits 130', async () => {
    const dir = await fsp.mkdtemp(path.join(tmp, 'int-'));
    const child = spawn(process.execPath, [bin, 'run', dir, '--test', 'rand-write', '--size', '32MiB', '--qd', '1', '--seconds', '20', '--json']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Mid-run: the test file exists inside the workspace.
    await waitFor(async () => {
      for (const n of await leftovers(dir)) {
        if ((await fsp.readdir(path.join(dir, n)).catch((): string[] => [])).includes('testfile.dat')) return true;
      }
      return undefined;
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/cancelled/);
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('after a SIGKILL mid-run, the next run removes the leftover folder', async () => {
    const dir = await fsp.mkdtemp(path.join(tmp, 'kill-'));
    const child = spawn(process.execPath, [bin, 'run', dir, '--test', 'rand-write', '--size', '32MiB', '--qd', '1', '--seconds', '20'], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_c, sig) => resolve(sig)));
    const folder = await waitFor(async () => {
      for (const n of await leftovers(dir)) {
        if ((await fsp.readdir(path.join(dir, n)).catch((): string[] => [])).includes('testfile.dat')) return n;
      }
      return undefined;
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(await leftovers(dir)).toEqual([folder]);

    const r = cli('run', dir, '--test', 'quick', '--size', '8MiB', '--json');
    expect(r.status).toBe(0);
    expect(await fsp.readdir(dir)).toEqual([]);
  });
});
