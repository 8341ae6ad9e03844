// `--precision P` and `--preset fast`: the stop rule asked for from the command line, read as a
// percentage by the CrystalDiskMark grid and the Quick Test alone, and planned as data on each step.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { formatReport } from '../../../app/src/cli/table.js';
import { summarize } from '../../../app/src/model/analysis.js';
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

  it('a sweep step ends when its rate has settled, its 2 s the most', () => {
    expect(run('--test', 'sweep', '--precision', '5', '--to', '1M')).toMatchObject({ precision: 0.05, sweep: { toBytes: 1 << 20 } });
    const plan = buildPlan('sweep', { precision: 0.05 });
    for (const s of plan.steps) expect(s.spec).toMatchObject({ seconds: 2, settle: { precision: 0.05, minSeconds: 1 } });
    expect(buildPlan('sweep', {}).steps[0]!.spec.settle).toBeUndefined();
  });
});

describe('the CLI table', () => {
  const load = (): ResultDocument =>
    JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/results/cdm.json'), 'utf8')) as ResultDocument;

  it('prints each test’s interval and how the stop rule ended it, last, and the runs’ interval', () => {
    const doc = load();
    doc.tests.forEach((t, i) => {
      t.interval = { halfWidth: 0.02 * t.mbps, relative: 0.02, method: 'series', n: 12 };
      t.settle = { precision: 0.03, settled: i % 2 === 0 };
    });
    doc.summary = summarize(doc.tests);
    const text = formatReport(doc);
    expect(text).toMatch(/^Test\s+Run\s+MB\/s\s+IOPS\s+Mean lat\s+p99 lat\s+Cache\s+95 % interval$/m);
    expect(text).toMatch(/^SEQ1M Q8T1 Read\s+1\s+.*direct\s+settled in 1\.0 s: ± 2\.0 %$/m);
    expect(text).toMatch(/^SEQ1M Q1T1 Read\s+1\s+.*direct\s+did not settle within 1 s: ± 2\.0 %$/m);
    // Two runs of SEQ1M Q8T1 Read, 1669.67 and 1627.16: their interval, t(0.975, 1) · 30.05 / √2 /
    // 1648.4 = ± 16 %, is not shown from two runs (MIN_INTERVAL_RUNS); the row has their mean, SD,
    // CV, median and best.
    expect(text).toMatch(/^SEQ1M Q8T1 Read\s+2\s+1648\s+30\.1\s+1\.8 %.*\d ms$/m);
    expect(text).toMatch(/^Across runs\s+n\s+Mean MB\/s\s+± SD\s+CV\s+Median\s+Best\s+p99 lat \(median\)$/m);
    // A third run (run 1 again): 1669.67, 1627.16, 1669.67 → t(0.975, 2) · 24.54 / √3 / 1655 = ± 3.7 %.
    const three = summarize([...doc.tests, ...doc.tests.filter((t) => t.run === 1).map((t) => ({ ...t, run: 3 }))]);
    const withThree = formatReport({ ...doc, summary: three });
    expect(withThree).toMatch(/^Across runs\s+n\s+Mean MB\/s\s+± SD\s+CV\s+Median\s+Best\s+p99 lat \(median\)\s+95 % interval$/m);
    expect(withThree).toMatch(/^SEQ1M Q8T1 Read\s+3\s+1655\s.*± 3\.7 %$/m);
    // A result made before intervals were kept: no such column.
    expect(formatReport(load())).not.toContain('95 % interval');
  });
});
