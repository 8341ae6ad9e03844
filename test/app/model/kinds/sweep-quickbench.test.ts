// QuickBench's ladder and its two headline figures (issue 33): the 20/40/60/80/100 MB steps as
// whole MiB, said in the result; the 4 KB and 20–100 MB averages as the mean of exactly the rows
// they name (laws over seeded random curves); and a full-speed sentence that says where a curve
// falls again instead of standing unqualified.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../../../../app/src/model/analysis.js';
import type { EngineResult } from '../../../../app/src/model/engine-types.js';
import { buildPlan } from '../../../../app/src/model/presets.js';
import { fullSpeed, sweepAverages } from '../../../../app/src/model/kinds/sweep/analysis.js';
import { sweep } from '../../../../app/src/model/kinds/sweep/index.js';
import { SWEEP_LADDERS, transferSizeText } from '../../../../app/src/model/kinds/sweep/plan.js';
import { averageLines, fullSpeedText, sweepMetrics } from '../../../../app/src/model/kinds/sweep/report.js';
import type { SweepPoint } from '../../../../app/src/model/kinds/sweep/result.js';
import { metricValue } from '../../../../app/src/model/report/figure-text.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const LARGE = [20, 40, 60, 80, 100].map((m) => m * MiB);

function outcomes(plan: ReturnType<typeof buildPlan>, mbps: (bs: number, rw: string, run: number) => number, runs = 1): StepOutcome[] {
  return Array.from({ length: runs }, (_, k) =>
    plan.steps.map((step) => ({
      step,
      run: k + 1,
      result: { mbps: mbps(step.spec.bs, step.spec.rw, k + 1), iops: 1, cacheMode: 'direct' } as EngineResult,
    })),
  ).flat();
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("QuickBench's ladder", () => {
  it('runs 4 KiB to 16 MiB in powers of two, then its 20, 40, 60, 80 and 100 MB steps as whole MiB', () => {
    const plan = buildPlan('sweep', { preset: 'quickbench' });
    const sizes = [...new Set(plan.steps.map((s) => s.spec.bs))];
    expect(sizes).toEqual(SWEEP_LADDERS.quickbench);
    expect(sizes.map(transferSizeText).slice(-7)).toEqual(['8 MiB', '16 MiB', '20 MiB', '40 MiB', '60 MiB', '80 MiB', '100 MiB']);
    // Whole MiB: direct I/O takes every one (its alignment is at most 4 KiB on the file systems here).
    for (const bs of sizes) expect(bs % (4 * KiB)).toBe(0);
    // The sizes that really ran are said in the result, in MB too.
    expect(plan.notes).toContain(
      "QuickBench's 20–100 MB steps ran as 20, 40, 60, 80 and 100 MiB (20.97–104.86 MB): whole MiB, so direct I/O takes them.",
    );
    expect(buildPlan('sweep', { preset: 'quickbench', sweep: { toBytes: 16 * MiB } }).notes).toEqual([]);
    expect(buildPlan('sweep', {}).notes).toEqual([]);
  });

  it('refuses, in plain words, a range end between its steps (30 MB is not one)', () => {
    expect(() => buildPlan('sweep', { preset: 'quickbench', sweep: { toBytes: 30 * MiB } })).toThrow(
      /^--to 30 MiB is not a transfer size of the quickbench sweep; use one of 4 KiB, .*, 16 MiB, 20 MiB, 40 MiB, 60 MiB, 80 MiB, 100 MiB$/,
    );
  });
});

describe("QuickBench's headline averages", () => {
  const plan = buildPlan('sweep', { preset: 'quickbench' });
  // Curves drawn from a seeded generator: each size's write and read MB/s per run, any positive value.
  const curves = fc.array(
    fc.array(fc.double({ min: 0.5, max: 20_000, noNaN: true }), {
      minLength: 2 * SWEEP_LADDERS.quickbench.length,
      maxLength: 2 * SWEEP_LADDERS.quickbench.length,
    }),
    {
      minLength: 1,
      maxLength: 3,
    },
  );

  it('each is the mean of exactly the rows it names, per run and direction, and the figure is the mean of the runs', () => {
    fc.assert(
      fc.property(curves, (runs) => {
        const sizes = SWEEP_LADDERS.quickbench;
        const at = (bs: number, rw: string, run: number): number => runs[run - 1]![sizes.indexOf(bs) * 2 + (rw === 'read' ? 1 : 0)]!;
        const s = sweep.analyse(plan, outcomes(plan, at, runs.length)).sweep!;
        for (const r of s.runs) {
          const [small, large] = r.averages!;
          expect(small).toMatchObject({ id: 'avg4K', name: '4 KB', sizes: [4 * KiB] });
          expect(large).toMatchObject({ id: 'avg20to100M', name: '20–100 MB', sizes: LARGE });
          for (const rw of ['write', 'read'] as const) {
            const key = rw === 'write' ? 'writeMBps' : 'readMBps';
            expect(small![key]).toBeCloseTo(at(4 * KiB, rw, r.run), 9);
            expect(large![key]).toBeCloseTo(mean(LARGE.map((bs) => at(bs, rw, r.run))), 9);
            // An average of rows lies within them.
            const rows = LARGE.map((bs) => at(bs, rw, r.run));
            expect(large![key]).toBeGreaterThanOrEqual(Math.min(...rows) * (1 - 1e-12));
            expect(large![key]).toBeLessThanOrEqual(Math.max(...rows) * (1 + 1e-12));
          }
        }
        // The figures every surface shows: one value per run, the shown figure their mean.
        const m = sweepMetrics(s);
        const fig = m.find((x) => x.key === 'Sweep/read.avg20to100MMBps')!;
        expect(fig.values).toEqual(s.runs.map((r) => r.averages![1]!.readMBps));
        expect(metricValue(fig)).toBeCloseTo(mean(s.runs.map((r) => r.averages![1]!.readMBps)), 9);
        expect(m.slice(0, 4).map((x) => x.label)).toEqual([
          'Write · 4 KB average',
          'Read · 4 KB average',
          'Write · 20–100 MB average',
          'Read · 20–100 MB average',
        ]);
        expect(m.slice(0, 4).every((x) => x.primary && x.unit === 'MB/s' && x.direction === 'higher')).toBe(true);
      }),
      { numRuns: 200, seed: 33 },
    );
  });

  it('scale every figure and the averages scale alike; a row outside them changes nothing', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.double({ min: 1, max: 9_000, noNaN: true }), (k, other) => {
        const points: SweepPoint[] = SWEEP_LADDERS.quickbench.map((bs, i) => ({
          bs,
          writeMBps: 10 + i,
          readMBps: 20 + 3 * i,
          writeIops: 0,
          readIops: 0,
        }));
        const base = sweepAverages('quickbench', points);
        const scaled = sweepAverages(
          'quickbench',
          points.map((p) => ({ ...p, writeMBps: p.writeMBps * k, readMBps: p.readMBps * k })),
        );
        scaled.forEach((a, i) => {
          expect(a.writeMBps).toBeCloseTo(base[i]!.writeMBps * k, 6);
          expect(a.readMBps).toBeCloseTo(base[i]!.readMBps * k, 6);
        });
        // 8 MiB and 16 MiB are no rows of either average.
        const moved = points.map((p) => (p.bs === 8 * MiB || p.bs === 16 * MiB ? { ...p, writeMBps: other, readMBps: other } : p));
        expect(sweepAverages('quickbench', moved)).toEqual(base);
      }),
      { numRuns: 200, seed: 34 },
    );
  });

  it('an average whose rows did not all run is left out, and other ladders have none', () => {
    const part = buildPlan('sweep', { preset: 'quickbench', sweep: { toBytes: 60 * MiB } });
    const s = sweep.analyse(
      part,
      outcomes(part, () => 100),
    ).sweep!;
    expect(s.runs[0]!.averages!.map((a) => a.name)).toEqual(['4 KB']);
    const from = buildPlan('sweep', { preset: 'quickbench', sweep: { fromBytes: 8 * KiB } });
    expect(
      sweep
        .analyse(
          from,
          outcomes(from, () => 100),
        )
        .sweep!.runs[0]!.averages!.map((a) => a.name),
    ).toEqual(['20–100 MB']);
    const standard = buildPlan('sweep', {});
    const st = sweep.analyse(
      standard,
      outcomes(standard, () => 100),
    ).sweep!;
    expect(st.runs[0]!.averages).toBeUndefined();
    expect(averageLines(st)).toEqual([]);
  });

  it('the CLI prints them under its table, the mean of the runs', () => {
    const two = sweep.analyse(
      plan,
      outcomes(plan, (bs, rw, run) => (rw === 'write' ? 100 : 300) * run, 2),
    ).sweep!;
    const doc = { kind: 'sweep', sweep: two, settings: { runs: 2 } } as unknown as Parameters<typeof sweep.cli.tableLines>[0];
    const lines = sweep.cli.tableLines(doc, 'binary');
    expect(lines.filter((l) => / average: /.test(l))).toEqual([
      'Write · 4 KB average: 150.0 MB/s',
      'Read · 4 KB average: 450.0 MB/s',
      'Write · 20–100 MB average: 150.0 MB/s',
      'Read · 20–100 MB average: 450.0 MB/s',
    ]);
  });
});

describe('where full speed is reached, and where the curve falls again', () => {
  const pts = (write: number[]): SweepPoint[] =>
    write.map((w, i) => ({ bs: 4 * KiB * 2 ** i, writeMBps: w, readMBps: w, writeIops: 0, readIops: 0 }));

  it("says where a curve that reached 90 % of its top falls back under it (issue 33's 4,134 then 1,612 MB/s)", () => {
    // 4K … 1M reach 4,134.3; 2M and 4M hold; 8M falls to 1,612; 16M is back.
    const w = [100, 400, 1000, 2000, 2500, 3000, 3300, 3600, 4134.3, 4120, 4000, 1612, 4050];
    const f = fullSpeed(pts(w), 'write')!;
    expect(f).toEqual({ bs: 1 * MiB, topMBps: 4134.3, falls: { bs: 8 * MiB, mbps: 1612 } });
    const s = { preset: 'standard', sizes: pts(w).map((p) => p.bs), qd: 1, runs: [{ run: 1, points: pts(w) }] } as const;
    expect(fullSpeedText({ ...s, runs: [...s.runs] })[0]).toBe(
      'Write reaches 90 % of its top speed (4,134 MB/s) at 1 MiB, then falls to 1,612 MB/s (39 % of top) at 8 MiB',
    );
  });

  it('a curve that stays at or above 90 % after it gets there has no fall, and its sentence no caveat', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1, max: 10_000, noNaN: true }), { minLength: 1, maxLength: 16 }), (raw) => {
        // Make it rise, then hold within 90 % of its top.
        const rising = [...raw].sort((a, b) => a - b);
        const f = fullSpeed(pts(rising), 'write')!;
        expect(f.falls).toBeUndefined();
        // And any later point pushed under 90 % of the top is named as the fall, with its size.
        const at = rising.findIndex((v) => v >= 0.9 * rising.at(-1)!);
        if (at < rising.length - 2) {
          const dipped = [...rising];
          dipped[at + 1] = 0.5 * rising.at(-1)!;
          expect(fullSpeed(pts(dipped), 'write')!.falls).toEqual({ bs: 4 * KiB * 2 ** (at + 1), mbps: dipped[at + 1] });
        }
      }),
      { numRuns: 300, seed: 35 },
    );
  });
});
