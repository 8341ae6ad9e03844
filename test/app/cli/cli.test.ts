// The `diskdial` command as a user runs it: the compiled bin/diskdial.js in a child process.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin/diskdial.js');
let tmp: string;

beforeAll(async () => {
  buildCoreIfChanged();
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
    ['empty <dir> (not the working directory)', () => ['run', ''], /<dir> is empty: which folder should be tested\?/],
    ['blank <dir>', () => ['run', '  '], /<dir> is empty/],
    ['empty <file> for hash', () => ['hash', ''], /<file> is empty: which file should be hashed\?/],
    ['--size abc', () => ['run', tmp, '--size', 'abc'], /--size "abc" is not a size/],
    ['--size 0', () => ['run', tmp, '--size', '0'], /--size/],
    ['--qd 0', () => ['run', tmp, '--qd', '0'], /--qd must be from 1 to 64/],
    ['--qd 65', () => ['run', tmp, '--qd', '65'], /--qd must be from 1 to 64/],
    ['--qd x', () => ['run', tmp, '--qd', 'x'], /--qd must be a whole number/],
    ['--bs 100', () => ['run', tmp, '--bs', '100'], /--bs must be a power of two/],
    ['--bs 256MiB', () => ['run', tmp, '--bs', '256MiB'], /--bs must be a power of two from 512 B to 128 MiB/],
    ['--test nope', () => ['run', tmp, '--test', 'nope'], /--test must be one of quick, cdm/],
    ['--bs with cdm', () => ['run', tmp, '--test', 'cdm', '--bs', '4k'], /--bs does not apply to --test cdm/],
    ['--cache nope', () => ['run', tmp, '--cache', 'nope'], /--cache must be one of/],
    ['--size without value', () => ['run', tmp, '--size'], /option --size needs a value/],
    ['--json=1', () => ['run', tmp, '--json=1'], /option --json does not take a value/],
    ['extra argument', () => ['run', tmp, tmp], /unexpected argument/],
    ['--preset with quick', () => ['run', tmp, '--preset', 'nvme'], /--preset applies to --test cdm or files or sweep or small-files only/],
    [
      '--preset nvme for files',
      () => ['run', tmp, '--test', 'files', '--preset', 'nvme'],
      /--preset must be one of quick, standard, custom, not "nvme"/,
    ],
    [
      '--preset huge for cdm',
      () => ['run', tmp, '--test', 'cdm', '--preset', 'huge'],
      /--preset must be one of default, nvme, peak, realworld/,
    ],
    ['--mode with files', () => ['run', tmp, '--test', 'files', '--mode', 'read'], /--mode applies to --test cdm only/],
    [
      '--mode sideways',
      () => ['run', tmp, '--test', 'cdm', '--mode', 'sideways'],
      /--mode must be one of readwrite, read, write, mix, all/,
    ],
    [
      '--reserve with cdm',
      () => ['run', tmp, '--test', 'cdm', '--reserve', '1GiB'],
      /--reserve applies to --test sustained or files or verify only/,
    ],
    [
      '--seconds with sustained',
      () => ['run', tmp, '--test', 'sustained', '--seconds', '5'],
      /--seconds does not apply to --test sustained: it is bounded by bytes/,
    ],
    ['--size with files', () => ['run', tmp, '--test', 'files', '--size', '1GB'], /--size does not apply to --test files/],
    ['--files 1', () => ['run', tmp, '--test', 'files', '--files', '1'], /--files must be from 2 to 10000/],
    [
      '--files with standard',
      () => ['run', tmp, '--test', 'files', '--preset', 'standard', '--files', '10'],
      /make a custom set; drop --preset standard/,
    ],
    [
      '--min-size above --max-size',
      () => ['run', tmp, '--test', 'files', '--min-size', '10MB', '--max-size', '5MB'],
      /the largest file must be at least as large as the smallest/,
    ],
    ['--rest soon', () => ['run', tmp, '--rest', 'soon'], /--rest must be minutes, or a time like 90s, 5m, 1h/],
    ['--interval soon', () => ['run', tmp, '--test', 'cdm', '--interval', 'soon'], /--interval must be a number of seconds/],
    ['--seconds -1', () => ['run', tmp, '--test', 'cdm', '--seconds', '-1'], /--seconds must be a number of seconds above zero, not "-1"/],
    ['cipher --seconds 1e9', () => ['cipher', '--seconds', '1e9'], /--seconds is at most 600 seconds, not 1e9/],
    ['--rwmixread 101', () => ['run', tmp, '--test', 'cdm', '--rwmixread', '101'], /--rwmixread must be from 0 to 100/],
    ['--size 8MiB for cdm', () => ['run', tmp, '--test', 'cdm', '--size', '8MiB'], /outside CrystalDiskMark's range; use 16 MiB to 64 GiB/],
    ['hash without a file', () => ['hash'], /missing <file>/],
    ['hash a folder without --size', () => ['hash', tmp], /is a folder, not a file: give a file to hash, or --size/],
    [
      'hash a missing file',
      () => ['hash', path.join(tmp, 'nope.iso')],
      /No such file: .*nope\.iso\. Check the path, or choose another file\. \[ENOENT\]$/m,
    ],
    ['hash --size on a file', () => ['hash', path.join(tmp, 'a-file'), '--size', '16MiB'], /--size applies to a folder/],
    ['hash --algo md5', () => ['hash', path.join(tmp, 'a-file'), '--algo', 'md5'], /--algo must be one of sha256, sha512/],
    ['hash --test', () => ['hash', path.join(tmp, 'a-file'), '--test', 'cdm'], /--test does not apply to diskdial hash/],
    [
      'hash --verify of neither kind',
      () => ['hash', path.join(tmp, 'a-file'), '--verify', '12345'],
      /"12345" is neither a SHA-256 or SHA-512 digest/,
    ],
    ['run --algo', () => ['run', tmp, '--algo', 'sha512'], /--algo applies to diskdial hash only/],
    [
      'a file, not a folder',
      () => ['run', path.join(tmp, 'a-file')],
      /a-file is a file, not a folder\. Choose the folder that holds it, or another folder\. \[ENOTDIR\]$/m,
    ],
    [
      'a missing path',
      () => ['run', path.join(tmp, 'missing')],
      /No such folder: .*missing\. Check the path, or choose another folder\. \[ENOENT\]$/m,
    ],
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
  it('prints a readable table without --json', async () => {
    const r = cli('run', tmp, '--test', 'seq-read', '--size', '16MiB', '--pattern', 'zeros');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Test\s+MB\/s\s+IOPS\s+Mean lat\s+p99 lat\s+Cache/);
    expect(r.stdout).toMatch(/SEQ1M Q8T1 Read\s+[\d.]+\s+[\d,]+\s+[\d.]+ (µs|ms)\s+[\d.]+ (µs|ms)\s+direct/);
    expect(r.stdout).toContain('Cache mode: direct   Data: zeros');
    expect(r.stdout).toContain(
      '⚠ The test wrote zeros; disks and file systems that compress or deduplicate will look faster than with real data. — Run with --pattern random',
    );
    expect(await leftovers(tmp)).toEqual([]);
  });

  it('--test files --json: the many-file section, two rows, and nothing left', async () => {
    const dir = await fsp.mkdtemp(path.join(tmp, 'files-'));
    const r = cli(
      'run',
      dir,
      '--test',
      'files',
      '--files',
      '6',
      '--min-size',
      '1MiB',
      '--max-size',
      '8MiB',
      '--seed',
      '3',
      '--reserve',
      '0',
      '--json',
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument;
    expect(doc.kind).toBe('files');
    expect(doc.tests.map((t) => t.name)).toEqual(['Files Write', 'Files Read']);
    expect(doc.files).toMatchObject({ preset: 'custom', count: 6, seed: 3, requested: { count: 6, minBytes: 1 << 20, maxBytes: 8 << 20 } });
    expect(doc.files!.runs[0]!.items).toHaveLength(6);
    expect(doc.settings).toMatchObject({ preset: 'custom', reserveBytes: 0, files: { count: 6, seed: 3 } });
    expect(await leftovers(dir)).toEqual([]);
  });

  it('--test sustained prints the verdict and a sparkline of the curve; --rest in the settings', async () => {
    const r = cli('run', tmp, '--test', 'sustained', '--size', '96MiB', '--reserve', '0', '--runs', '2', '--rest', '1s');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Sustained write: up to 96 MiB asked, 96 MiB written per run \(the size asked\)/);
    expect(r.stdout).toMatch(/Run 1: (Fast cache ≈|No slowdown within|Speed falls and recovers|Too short to judge)/);
    expect(r.stdout).toMatch(/^ {2}[▁▂▃▄▅▆▇█]+ {2}\(0 – 96 MiB, peak \d+ MB\/s, \d+ slices of 16 MiB\)$/m);
    expect(r.stdout).toMatch(/Across runs\s+n\s+Mean MB\/s\s+± SD\s+CV\s+Median\s+Best/);
    expect(await leftovers(tmp)).toEqual([]);
  });

  it('hash: the four rates as bars, the verdict, the digest in sha256sum’s format, exit 0', async () => {
    const file = path.join(tmp, 'clip.bin');
    await fsp.writeFile(file, Buffer.alloc(3 << 20, 7));
    const sum = execFileSync('sha256sum', [file], { encoding: 'utf8' }).trim();
    const r = cli('hash', file, '--threads', '2');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^DiskDial hash test of .*clip\.bin \(3\.15 MB\)$/m);
    expect(r.stdout).toMatch(/SHA-256 with OpenSSL/);
    for (const row of [
      'Read \\(storage, uncached\\)',
      'Read \\+ hash \\(pipelined\\)',
      'Hash in memory, 1 core',
      'Hash in memory, 2 cores',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^${row}\\s+\\d+(\\.\\d)? MB/s  █+$`, 'm'));
    }
    // A verdict, or the trust rule's refusal when a cache made read + hash beat the plain read.
    expect(r.stdout).toMatch(/^(CPU-bound|Storage-bound|Link-bound|No single limit|No verdict: read \+ hash)/m);
    expect(r.stdout.split('\n')).toContain(sum); // "HEX  /path/clip.bin", as sha256sum prints it
  });

  it('hash --verify: a match says so; a mismatch exits 1 with the reason on stderr; --json has the hash section', async () => {
    const file = path.join(tmp, 'clip.bin');
    const sums = path.join(tmp, 'clip.sha256');
    execFileSync('sh', ['-c', `cd ${tmp} && sha256sum clip.bin > clip.sha256`]);
    const ok = cli('hash', file, '--verify', sums, '--threads', '1');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('✓ Matches the SHA-256 in clip.sha256.');
    const bad = cli('hash', file, '--verify', 'f'.repeat(128), '--json', '--threads', '1');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('diskdial: Does NOT match the SHA-512 you gave: the file differs from the one that digest was made from.\n');
    const doc = JSON.parse(bad.stdout) as ResultDocument;
    expect(doc).toMatchObject({ kind: 'hash', hash: { algo: 'sha512', verify: { match: false } } });
    expect(doc.hash!.digest).toBe(execFileSync('sha512sum', [file], { encoding: 'utf8' }).split(' ')[0]);
  });

  it('hash <dir> --size: a generated test file, removed afterwards', async () => {
    const dir = await fsp.mkdtemp(path.join(tmp, 'hashgen-'));
    const r = cli('hash', dir, '--size', '16MiB', '--threads', '1', '--json');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument;
    expect(doc.hash!.file).toMatchObject({ bytes: 16 << 20, generated: true });
    expect(await fsp.readdir(dir)).toEqual([]);
  });

  it('reports a disk too small for the test as one line, exit 1', async () => {
    const st = await fsp.statfs(tmp);
    const tooBig = `${Math.ceil((st.blocks * st.bsize) / 2 ** 30) + 1}GiB`;
    const r = cli('run', tmp, '--size', tooBig);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^diskdial: Not enough free space on .*: the test needs [\d.]+ GB, [\d.]+ GB is free\. Free some space there or choose a smaller test size\. \[ENOSPC, statfs\]\n$/,
    );
    expect(await leftovers(tmp)).toEqual([]);
  });

  it('SIGINT cancels the run, removes the test folder and exits 130', async () => {
    const dir = await fsp.mkdtemp(path.join(tmp, 'int-'));
    const child = spawn(process.execPath, [
      bin,
      'run',
      dir,
      '--test',
      'rand-write',
      '--size',
      '32MiB',
      '--qd',
      '1',
      '--seconds',
      '20',
      '--json',
    ]);
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
    // On a loaded machine the CLI may give up waiting for the engine and leave the folder to its
    // detached remover (core/workspace.ts, up to a minute): once beside the other chains' tests.
    // Nothing may be left once that remover is done.
    await expect.poll(() => fsp.readdir(dir), { timeout: 60_000 }).toEqual([]);
  }, 120_000);

  it('after a SIGKILL mid-run, the next run removes the leftover folder', async () => {
    const dir = await fsp.mkdtemp(path.join(tmp, 'kill-'));
    const child = spawn(process.execPath, [bin, 'run', dir, '--test', 'rand-write', '--size', '32MiB', '--qd', '1', '--seconds', '20'], {
      stdio: 'ignore',
    });
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
