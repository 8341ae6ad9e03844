import { mkdtempSync, rmSync } from 'node:fs';
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
    expect(() => parseCli(['campaign', '/mnt', '--setups', 'A,B', '--plan', 'quick,quick'])).toThrow('--plan names each test once');
    expect(() => parseCli(['campaign', '/mnt', '--setups', 'A,B', '--report', 'r.pdf'])).toThrow('--report must end in');
    expect(() => parseCli(['campaign', '--resume', 'x', '/mnt'])).toThrow('--resume goes on with the campaign as it was planned');
  });
});

describe('diskdial campaign passes each option to the tests that take it', () => {
  it('refuses an option no test of the plan takes, and a bad value for the one that does, before any test', () => {
    buildCoreIfChanged();
    const home = mkdtempSync(path.join(os.tmpdir(), 'dd-campaign-args-'));
    try {
      const cli = (...args: string[]) => runCli(['campaign', home, '--setups', 'A,B', ...args], { cwd: home, home, timeout: 30_000 });
      const none = cli('--plan', 'quick,cdm', '--files', '10');
      expect([none.status, none.stderr]).toEqual([2, "diskdial: --files applies to none of the plan's tests (quick, cdm)\n"]);
      const bad = cli('--plan', 'quick,small-files', '--files', '0');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/^diskdial: --plan's small-files: --files must be /);
      expect(bad.stderr).not.toContain('Setup 1');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
