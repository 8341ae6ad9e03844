// `diskdial run --test sweep --from SIZE --to SIZE`: ATTO's start and end transfer size, read as
// sizes by the parser, claimed by the sweep alone (a campaign passes them to its sweep only), and
// in the help. The range's own checks (a ladder size, start not above end) are the plan's
// (test/app/model/kinds/sweep.test.ts); the CLI says them as a usage error before any disk is
// touched.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindTakesFlag, parseCli, UsageError } from '../../../app/src/cli/args.js';
import { commandHelp } from '../../../app/src/cli/help.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';

const dir = os.tmpdir();
const run = (...args: string[]): unknown => parseCli(['run', dir, ...args]);

describe('run --test sweep --from --to', () => {
  it('reads both ends as sizes, either one alone', () => {
    expect(run('--test', 'sweep', '--from', '64KiB', '--to', '16MiB')).toMatchObject({
      test: 'sweep',
      sweep: { fromBytes: 64 * 1024, toBytes: 16 * 1024 * 1024 },
    });
    expect(run('--test', 'sweep', '--to', '1M')).toMatchObject({ sweep: { toBytes: 1024 * 1024 } });
    expect(run('--test', 'sweep', '--from', '512B', '--preset', 'atto')).toMatchObject({ sweep: { fromBytes: 512 } });
    expect(run('--test', 'sweep')).not.toHaveProperty('sweep');
  });

  it('refuses what is not a size, and the flags on any other test', () => {
    expect(() => run('--test', 'sweep', '--from', 'small')).toThrow(
      new UsageError('--from "small" is not a size; use e.g. 4KiB, 1MiB, 512MiB, 1GiB or 1GB'),
    );
    expect(() => run('--test', 'quick', '--to', '1MiB')).toThrow(new UsageError('--to applies to --test sweep only'));
    expect(kindTakesFlag('from', 'sweep')).toBe(true);
    expect(kindTakesFlag('to', 'small-files')).toBe(false);
  });

  it('is in the help of run', () => {
    const help = commandHelp('run');
    expect(help).toMatch(/--from SIZE +the sweep's smallest transfer size/);
    expect(help).toMatch(/--to SIZE +the sweep's largest transfer size/);
    expect(help).toMatch(/--from and\n +--to run part of the ladder, as ATTO's start and end sizes/);
  });
});

describe('the command refuses a bad range in plain words, exit 2, before touching the disk', () => {
  let target: string;
  beforeAll(() => {
    buildCoreIfChanged();
    target = mkdtempSync(path.join(os.tmpdir(), 'dd-sweep-range-'));
  });
  afterAll(() => rmSync(target, { recursive: true, force: true }));

  it.each([
    [['--from', '3KiB'], /^diskdial: --from 3 KiB is not a transfer size of the standard sweep; use one of 4 KiB, 8 KiB, .*, 64 MiB\n$/],
    [
      ['--from', '1MiB', '--to', '64KiB'],
      /^diskdial: --from 1 MiB is larger than --to 64 KiB: the sweep goes from the smaller transfer size up to the larger\n$/,
    ],
  ])('%j', (range, message) => {
    const r = runCli(['run', target, '--test', 'sweep', ...range], { cwd: target, home: target, timeout: 30_000 });
    expect(r.stderr).toMatch(message);
    expect(r.status).toBe(2);
    expect(readdirSync(target)).toEqual([]);
  });
});
