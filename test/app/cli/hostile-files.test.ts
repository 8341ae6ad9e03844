// Files a user (or a stray process) put where DiskDial reads, for every command that reads one:
// a FIFO or /dev/zero named for import, report, check or hash --verify, and a FIFO, a link, an
// oversized or a damaged file among the saved plans and campaigns. Each is answered at once in
// plain words (the child's own time limit is what fails if a read waits), and a list carries on.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin, runCli, type CliRun } from '../../helpers/cli.js';
import { HOSTILE_ID, mkfifo, plantHostileFiles } from '../../helpers/hostile-files.js';

let tmp: string;
let home: string;
// 15 s: a blocking open or a read of /dev/zero to its end would run into it (the last round's
// `import /dev/zero` took 7.6 GB in 20 s, a FIFO never answered); a refusal takes the CLI's
// start-up time, under 1 s here unloaded and under 3 s at a load average of 10.
const cli = (...args: string[]): CliRun => runCli(args, { cwd: tmp, home, timeout: 15_000 });
const ID = HOSTILE_ID;
const fifo = mkfifo;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-hostile-'));
  home = path.join(tmp, 'home');
  fifo(path.join(tmp, 'results.json'));
  fifo(path.join(tmp, 'fifo.sha256'));
  await fsp.symlink('/dev/zero', path.join(tmp, 'zero.sha256'));
  await fsp.writeFile(path.join(tmp, 'data.bin'), 'data\n');
  for (const [dir, manifest] of [
    ['check-fifo', null],
    ['check-zero', '/dev/zero'],
  ] as const) {
    await fsp.mkdir(path.join(tmp, dir));
    await fsp.writeFile(path.join(tmp, dir, 'a'), 'a\n');
    if (manifest) await fsp.symlink(manifest, path.join(tmp, dir, 'SHA256SUMS'));
    else fifo(path.join(tmp, dir, 'SHA256SUMS'));
  }
  // Among the saved plans and campaigns: a FIFO, a link to /dev/zero, a file past the 4 MiB cap
  // (sparse), and a plan of the right id and schema with no settings.
  for (const dir of ['plans', 'campaigns']) await plantHostileFiles(path.join(home, dir), 5 * 1024 ** 2);
  const damaged = { schema: 1, id: `3${ID.slice(1)}`, createdAt: 'x', updatedAt: 'x', status: 'stopped', steps: [{ format: 'ext4' }] };
  await fsp.writeFile(path.join(home, 'plans', `${damaged.id}.json`), JSON.stringify(damaged));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

const NOT_A_FILE = 'is not a regular file (a pipe, a device or a socket), so it cannot be';

describe.runIf(process.platform !== 'win32')('hostile files on the command line', () => {
  // Every command that reads a file on the user's behalf, given a FIFO (nobody writing: a blocking
  // open waits for ever) and /dev/zero (a read to the end never ends): each answers in plain words
  // within the 15 s above, and a list carries on past what it skips.
  it.each([
    ['import a FIFO', ['import', 'results.json'], 2, `${NOT_A_FILE} a results file`],
    ['import /dev/zero', ['import', '/dev/zero'], 2, `${NOT_A_FILE} a results file`],
    ['report a FIFO', ['report', 'results.json', 'results.json'], 2, `${NOT_A_FILE} a results file`],
    ['report /dev/zero', ['report', '/dev/zero', '/dev/zero'], 2, `${NOT_A_FILE} a results file`],
    ['check with a FIFO for its manifest', ['check', 'check-fifo', '--no-save'], 2, `${NOT_A_FILE} a checksum manifest`],
    ['check with SHA256SUMS a link to /dev/zero', ['check', 'check-zero', '--no-save'], 2, `${NOT_A_FILE} a checksum manifest`],
    ['check --manifest /dev/zero', ['check', 'check-fifo', '--manifest', '/dev/zero', '--no-save'], 2, `/dev/zero ${NOT_A_FILE}`],
    ['hash --verify a FIFO', ['hash', 'data.bin', '--verify', 'fifo.sha256'], 2, `${NOT_A_FILE} a checksum file`],
    ['hash --verify a link to /dev/zero', ['hash', 'data.bin', '--verify', 'zero.sha256'], 2, `${NOT_A_FILE} a checksum file`],
    ['compare --plans past a FIFO, /dev/zero, 5 MiB and a plan with no settings', ['compare', '--plans'], 0, ''],
    ['compare --resume of a FIFO', ['compare', '--resume', ID], 2, `No unfinished plan has the id "${ID}".`],
    ['campaign --list past a FIFO, /dev/zero and 5 MiB', ['campaign', '--list'], 0, ''],
    ['campaign --resume of a FIFO', ['campaign', '--resume', ID.slice(0, 8)], 2, `no campaign "${ID.slice(0, 8)}"`],
  ])('%s: answered at once', (_what, args, status, words) => {
    const r = cli(...args);
    expect(r.status, r.stderr).toBe(status);
    expect(r.stderr).toContain(words);
    expect(r.stdout + r.stderr).not.toMatch(/TypeError|RangeError|Cannot read|is not a function|at .*\.js:\d+/);
  });

  it('the lists name nothing they skipped as if it were a plan or a campaign', () => {
    expect(cli('compare', '--plans').stdout).toBe('No unfinished plans.\n');
    expect(cli('campaign', '--list').stdout).toBe('No unfinished campaign.\n');
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

  // `yes ''` answers ahead without end, /dev/zero is one line without end: only as many answers as
  // a campaign can ask are kept, each at most 1,024 characters. Under a 64 MB heap the old reader,
  // which kept every line, ran out of memory within its first second on either.
  it.each([
    ["yes '' |", (cmd: string) => `yes '' | ${cmd}`],
    ['< /dev/zero', (cmd: string) => `${cmd} < /dev/zero`],
  ])('`diskdial campaign` with %s on stdin runs both setups in bounded memory', (_what, shell) => {
    const target = path.join(tmp, 'yes-target');
    execFileSync('mkdir', ['-p', target]);
    const cmd = `"${process.execPath}" --max-old-space-size=64 "${bin}" campaign "${target}" --setups A,B --plan quick --size 16MiB --runs 1`;
    const r = spawnSync('sh', ['-c', shell(cmd)], {
      encoding: 'utf8',
      timeout: 120_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, DISKDIAL_HOME: home },
    });
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    expect(r.stdout).toContain('## A vs B on');
  });
});
