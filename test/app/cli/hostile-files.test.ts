// Files a user (or a stray process) put where DiskDial reads: a FIFO or a device named for import
// or report, a FIFO among the saved plans and campaigns. Each is answered at once in plain words
// (the child's own time limit is what fails if a read waits), and the command carries on.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin, runCli, type CliRun } from '../../helpers/cli.js';

let tmp: string;
let home: string;
// 15 s: a blocking open or a read of /dev/zero to its end would run into it (the last round's
// `import /dev/zero` took 7.6 GB in 20 s); a refusal takes the CLI's start-up time, well under 2 s.
const cli = (...args: string[]): CliRun => runCli(args, { cwd: tmp, home, timeout: 15_000 });

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-hostile-'));
  home = path.join(tmp, 'home');
  execFileSync('mkfifo', [path.join(tmp, 'results.json')]);
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

describe.runIf(process.platform !== 'win32')('hostile files on the command line', () => {
  it.each([
    ['import', 'a FIFO', 'results.json'],
    ['import', '/dev/zero', '/dev/zero'],
    ['report', 'a FIFO', 'results.json'],
  ])('%s of %s is refused at once as not a regular file', (command, _what, file) => {
    const r = cli(command, file, ...(command === 'report' ? [file] : []));
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain('is not a regular file (a pipe, a device or a socket), so it cannot be a results file');
  });

  it('check with a FIFO for its manifest, or --manifest /dev/zero, is refused at once', async () => {
    const d = path.join(tmp, 'check-fifo');
    await fsp.mkdir(d);
    await fsp.writeFile(path.join(d, 'a'), 'a\n');
    execFileSync('mkfifo', [path.join(d, 'SHA256SUMS')]);
    const fifo = cli('check', d, '--no-save');
    expect(fifo.status, fifo.stderr).toBe(2);
    expect(fifo.stderr).toContain('is not a regular file (a pipe, a device or a socket), so it cannot be a checksum manifest');
    const zero = cli('check', d, '--manifest', '/dev/zero', '--no-save');
    expect(zero.status, zero.stderr).toBe(2);
    expect(zero.stderr).toContain('/dev/zero is not a regular file');
  });

  it('a FIFO among the saved plans and campaigns is skipped: the lists still answer', async () => {
    for (const dir of ['plans', 'campaigns']) {
      await fsp.mkdir(path.join(home, dir), { recursive: true });
      execFileSync('mkfifo', [path.join(home, dir, '0123456789abcdef0123456789abcdef.json')]);
    }
    const plans = cli('compare', '--plans');
    expect(plans.status, plans.stderr).toBe(0);
    const campaigns = cli('campaign', '--list');
    expect(campaigns.status, campaigns.stderr).toBe(0);
  });

  it('a damaged campaign file is skipped, and nothing of it reaches the terminal', async () => {
    const id = 'fedcba9876543210fedcba9876543210';
    const state = {
      schema: 1,
      id,
      createdAt: '2026-11-28T00:00:00Z',
      updatedAt: '2026-11-28T00:00:00Z',
      status: 'stopped',
      target: tmp,
      setups: [
        { key: 'setup-1', name: 'GigE\u001b[2J\u001b]0;owned\u0007' },
        { key: 'setup-2', name: 'Wi-Fi' },
      ],
      kinds: ['quick'],
      runArgs: [],
      steps: { findIndex: 1 },
    };
    await fsp.mkdir(path.join(home, 'campaigns'), { recursive: true });
    await fsp.writeFile(path.join(home, 'campaigns', `${id}.json`), JSON.stringify(state));
    const list = cli('campaign', '--list');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout + list.stderr).not.toMatch(/TypeError|findIndex|owned/);
    expect(list.stdout + list.stderr).not.toContain(String.fromCharCode(27));
    const resume = cli('campaign', '--resume', id.slice(0, 8));
    expect(resume.stdout + resume.stderr).not.toMatch(/TypeError|findIndex|owned/);
    expect(resume.stdout + resume.stderr).not.toContain(String.fromCharCode(27));
  });

  // `yes ''` answers ahead without end: only as many lines as a campaign can ask are kept. Under a
  // 64 MB heap the old reader, which kept every line, ran out of memory within its first second.
  it("`yes '' | diskdial campaign` runs both setups in bounded memory", () => {
    const target = path.join(tmp, 'yes-target');
    execFileSync('mkdir', ['-p', target]);
    const cmd = `yes '' | "${process.execPath}" --max-old-space-size=64 "${bin}" campaign "${target}" --setups A,B --plan quick --size 16MiB --runs 1`;
    const r = spawnSync('sh', ['-c', cmd], {
      encoding: 'utf8',
      timeout: 120_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, DISKDIAL_HOME: home },
    });
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    expect(r.stdout).toContain('## A vs B on');
  });
});
