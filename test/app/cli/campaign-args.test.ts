import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../app/src/cli/args.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';

describe('diskdial campaign arguments', () => {
  it('takes a folder, setups and a plan; every other option goes to each test as typed', () => {
    expect(
      parseCli(['campaign', 'share', '--setups', 'GigE,Wi-Fi', '--plan', 'quick, sweep', '--runs', '3', '--size=1GB', '--wait']),
    ).toEqual({
      command: 'campaign',
      action: 'run',
      target: path.resolve('share'),
      setups: 'GigE,Wi-Fi',
      kinds: ['quick', 'sweep'],
      runArgs: ['--runs', '3', '--size=1GB', '--wait'],
      json: false,
    });
  });

  it('defaults to the Quick Test, and writes a report file when asked', () => {
    const cmd = parseCli(['campaign', '/mnt/nas', '--setups', 'A,B', '--report', 'out.md', '--json']);
    expect(cmd).toMatchObject({ kinds: ['quick'], report: path.resolve('out.md'), json: true });
  });

  it('lists and resumes', () => {
    expect(parseCli(['campaign', '--list'])).toEqual({ command: 'campaign', action: 'list', json: false });
    expect(parseCli(['campaign', '--resume', '1a2b3c4d'])).toEqual({ command: 'campaign', action: 'resume', ref: '1a2b3c4d', json: false });
  });

  it('answers mistakes in words', () => {
    expect(() => parseCli(['campaign', '--setups', 'A,B'])).toThrow('missing <dir>');
    expect(() => parseCli(['campaign', '/mnt'])).toThrow('--setups is needed');
    expect(() => parseCli(['campaign', '/mnt', '--setups'])).toThrow('--setups needs a value');
    expect(() => parseCli(['campaign', '/mnt', '/other', '--setups', 'A,B'])).toThrow('unexpected argument "/other"');
    expect(() => parseCli(['campaign', '/mnt', '--setups', 'A,B', '--test', 'cdm'])).toThrow('runs the tests of --plan');
    expect(() => parseCli(['campaign', '/mnt', '--setups', 'A,B', '--label', 'x'])).toThrow("labels each result with its setup's name");
    expect(() => parseCli(['campaign', '/mnt', '--setups', 'A,B', '--plan', 'quick,quick'])).toThrow('--plan names quick twice');
    expect(() => parseCli(['campaign', '/mnt', '--setups', 'A,B', '--report', 'r.pdf'])).toThrow('--report must end in');
    expect(() => parseCli(['campaign', '--resume', 'x', '/mnt'])).toThrow('--resume goes on with the campaign as it was planned');
  });
});

/** `diskdial campaign <home> --setups A,B …` in a fresh data folder, removed after `body`. */
function withCampaignCli(body: (cli: (...args: string[]) => ReturnType<typeof runCli>, home: string) => void): void {
  buildCoreIfChanged();
  const home = mkdtempSync(path.join(os.tmpdir(), 'dd-campaign-args-'));
  try {
    body((...args) => runCli(['campaign', home, '--setups', 'A,B', ...args], { cwd: home, home, timeout: 30_000 }), home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe('diskdial campaign passes each option to the tests that take it', () => {
  it('refuses an option no test of the plan takes, and a bad value for the one that does, before any test', () => {
    withCampaignCli((cli) => {
      const none = cli('--plan', 'quick,cdm', '--files', '10');
      expect([none.status, none.stderr]).toEqual([2, "diskdial: --files applies to none of the plan's tests (quick, cdm)\n"]);
      const bad = cli('--plan', 'quick,small-files', '--files', '0');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/^diskdial: --plan's small-files: --files must be /);
      expect(bad.stderr).not.toContain('Setup 1');
    });
  });
});

describe('diskdial campaign: each test of --plan with its own options', () => {
  const plan = (text: string) =>
    parseCli(['campaign', '/mnt', '--setups', 'A,B', '--plan', text]) as { kinds: string[]; testArgs?: unknown };

  it('reads options after colons, commas between tests, and a backslash before a comma, colon or = in a value', () => {
    expect(plan('quick:size=1GB,sweep:preset=atto:seconds=1,small-files')).toMatchObject({
      kinds: ['quick', 'sweep', 'small-files'],
      testArgs: { quick: ['--size', '1GB'], sweep: ['--preset', 'atto', '--seconds', '1'] },
    });
    expect(plan(String.raw`quick:pattern=a\,b\:c\=d\\e:wait`).testArgs).toEqual({ quick: ['--pattern', String.raw`a,b:c=d\e`, '--wait'] });
    expect(plan('quick,sweep')).not.toHaveProperty('testArgs');
    expect(() => plan('quick:size=1GB,quick')).toThrow('--plan names quick twice');
    expect(() => plan(':size=1GB')).toThrow('names options but no test');
    expect(() => plan('quick:label=x')).toThrow("labels each result with its setup's name");
  });

  it('lists every problem of every test at once, before the first setup; a test’s own option overrides the global one', () => {
    withCampaignCli((cli, home) => {
      // The plan: the sweep's refusal of 16 MiB came after the first setup's Quick Test.
      const small = cli('--plan', 'quick,sweep,small-files', '--size', '16MiB');
      expect(small.status).toBe(2);
      expect(small.stderr).toBe(
        "diskdial: --plan's sweep: --size 16 MiB is smaller than the sweep's largest transfer (64 MiB); use at least 64 MiB\n",
      );
      const many = cli('--plan', 'quick:size=16MiB:files=3,sweep:seconds=1:size=64MiB,seq-read:foo,cdm', '--runs', '0');
      expect(many.status).toBe(2);
      for (const part of [
        'nothing was tested',
        "--plan's quick: --files is not an option of this test",
        "--plan's sweep:",
        "--plan's seq-read: unknown option --foo",
        "--plan's cdm: --runs 0 runs until Ctrl-C",
      ])
        expect(many.stderr).toContain(part);
      expect(many.stderr).not.toContain('Setup 1');
      // Global --size 16MiB fits every test but the sweep; the sweep's own 64 MiB overrides it, so the
      // plan is sound: the campaign says its length and asks for the first setup (stdin is empty: it stops there).
      const own = cli('--plan', 'quick,sweep:size=64MiB', '--size', '16MiB');
      expect(own.stderr).toMatch(/4 tests \(2 on each of 2 setups\): about \d+ min of testing at 500 MB\/s/);
      expect(own.stderr).toContain('Setup 1 of 2: "A"');
      const saved = readdirSync(path.join(home, 'campaigns')).map(
        (n) => JSON.parse(readFileSync(path.join(home, 'campaigns', n), 'utf8')) as { testArgs?: unknown; runArgs: unknown },
      );
      expect(saved.map((c) => [c.runArgs, c.testArgs])).toEqual([[['--size', '16MiB'], { sweep: ['--size', '64MiB'] }]]);
    });
  });
});
