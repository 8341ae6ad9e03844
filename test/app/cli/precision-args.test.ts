// `--precision P` and `--preset fast`: the stop rule asked for from the command line, read as a
// percentage by the CrystalDiskMark grid and the Quick Test alone, and planned as data on each step.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../app/src/cli/args.js';
import { commandHelp } from '../../../app/src/cli/help.js';
import { buildPlan } from '../../../app/src/model/presets.js';

const dir = os.tmpdir();
const run = (...args: string[]): unknown => parseCli(['run', dir, ...args]);

describe('run --precision', () => {
  it('reads a percentage for the grid and the Quick Test', () => {
    expect(run('--test', 'cdm', '--precision', '2.5%')).toMatchObject({ precision: 0.025 });
    expect(run('--precision', '3')).toMatchObject({ test: 'quick', precision: 0.03 });
    expect(run('--test', 'cdm', '--preset', 'fast')).toMatchObject({ preset: 'fast' });
    expect(run('--test', 'cdm')).not.toHaveProperty('precision');
  });

  it('refuses what is not a percentage from 0.1 to 50, and any other test', () => {
    for (const bad of ['0', '60', 'three', '-3', '3 percent'])
      expect(() => run('--test', 'cdm', '--precision', bad)).toThrow(/--precision must be a percentage from 0.1 to 50/);
    expect(() => run('--test', 'sustained', '--precision', '3')).toThrow(/--precision applies to --test .*cdm.* only/);
    expect(commandHelp('run')).toMatch(/--precision P\s+end each test once its 95 % interval is within ± P %/);
  });
});

describe('the Fast profile', () => {
  it('plans Default’s eight tests, each at most 5 s, under the stop rule at ± 3 %', () => {
    const fast = buildPlan('cdm', { preset: 'fast', size: 64 << 20 });
    const dflt = buildPlan('cdm', { preset: 'default', size: 64 << 20 });
    expect(fast.steps.map((s) => s.name)).toEqual(dflt.steps.map((s) => s.name));
    expect(fast.steps).toHaveLength(8);
    for (const s of fast.steps) expect(s.spec).toMatchObject({ seconds: 5, settle: { precision: 0.03, minSeconds: 1 } });
    for (const s of dflt.steps) expect(s.spec.settle).toBeUndefined();
    expect(fast.settings).toMatchObject({ preset: 'fast', precision: 0.03 });
    // --precision sets the rule on any profile, and the Fast profile's own.
    expect(buildPlan('cdm', { preset: 'fast', precision: 0.01, size: 64 << 20 }).steps[0]!.spec.settle?.precision).toBe(0.01);
    expect(buildPlan('quick', { precision: 0.05, size: 64 << 20 }).steps.map((s) => s.spec.settle?.precision)).toEqual([0.05, 0.05]);
  });
});
