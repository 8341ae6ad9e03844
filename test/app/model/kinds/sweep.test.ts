// The sweep kind: the ladders of its presets, a plan of write-then-read steps per size on files
// of their own, the section its analysis makes (where each direction reaches 90 % of its top),
// the report's figures, and a result with a sweep read back by the parser.
import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../../../../app/src/model/analysis.js';
import type { EngineResult } from '../../../../app/src/model/engine-types.js';
import { buildPlan } from '../../../../app/src/model/presets.js';
import { fullSpeed } from '../../../../app/src/model/kinds/sweep/analysis.js';
import { sweep } from '../../../../app/src/model/kinds/sweep/index.js';
import { transferSizeText, SWEEP_LADDERS } from '../../../../app/src/model/kinds/sweep/plan.js';
import { fullSpeedText } from '../../../../app/src/model/kinds/sweep/report.js';
import { resultName } from '../../../../app/src/model/report/metrics.js';
import { formatFigure } from '../../../../app/src/model/report/figure-text.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { askedSizes, unitsOf } from '../../../../app/src/model/size-units.js';

const KiB = 1024;
const MiB = 1024 * KiB;

describe('the sweep plan', () => {
  it('runs the standard ladder 4 KiB–64 MiB, each size written then read for 2 s at QD1', () => {
    const plan = buildPlan('sweep', {});
    expect(SWEEP_LADDERS.standard).toHaveLength(15);
    expect(plan.steps.map((s) => s.name).slice(0, 4)).toEqual([
      'SEQ4K Q1T1 Write',
      'SEQ4K Q1T1 Read',
      'SEQ8K Q1T1 Write',
      'SEQ8K Q1T1 Read',
    ]);
    expect(plan.steps).toHaveLength(30);
    for (const s of plan.steps) {
      expect(s.spec).toMatchObject({ qd: 1, threads: 1, seconds: 2, fileSize: 256 * MiB, cache: 'auto', keepFile: true });
      // Reads never read what a time-bound write left as holes.
      expect(s.file).toBe(s.spec.rw === 'write' ? 'sweep-write.dat' : 'sweep-read.dat');
    }
    expect(plan.needBytes).toBe(512 * MiB);
    expect(plan.settings).toMatchObject({ preset: 'standard', seconds: 2, qd: 1 });
  });

  it('atto: 512 B to 64 MiB with 12, 24 and 48 MiB, QD4, and says 512 B may not run uncached', () => {
    const plan = buildPlan('sweep', { preset: 'atto' });
    const sizes = [...new Set(plan.steps.map((s) => s.spec.bs))];
    expect(sizes.map(transferSizeText)).toEqual([
      '512 B',
      '1 KiB',
      '2 KiB',
      '4 KiB',
      '8 KiB',
      '16 KiB',
      '32 KiB',
      '64 KiB',
      '128 KiB',
      '256 KiB',
      '512 KiB',
      '1 MiB',
      '2 MiB',
      '4 MiB',
      '8 MiB',
      '12 MiB',
      '16 MiB',
      '24 MiB',
      '32 MiB',
      '48 MiB',
      '64 MiB',
    ]);
    expect(plan.steps[0]!.spec.qd).toBe(4);
    expect(plan.notes.join(' ')).toMatch(/512 B to 2 KiB run uncached only where the file system takes direct I\/O/);
  });

  it('quickbench: tops out at 100 MiB in one transfer', () => {
    const plan = buildPlan('sweep', { preset: 'quickbench' });
    expect(plan.steps.at(-1)!.spec.bs).toBe(100 * MiB);
  });

  it('by volume: each step moves the size asked, in the whole transfers nearest it, with no time bound; never both', () => {
    const plan = buildPlan('sweep', { size: 1e9 });
    // What the step asked is named as chosen ("1 GB"): the settings keep it, not an aligned file.
    expect(plan.settings.size).toBe(1e9);
    expect(plan.fileSize).toBe(1e9);
    const moved = new Map(plan.steps.map((s) => [s.spec.bs, s.spec.bytes!]));
    expect(moved.get(4 * KiB)).toBe(244_141 * 4 * KiB); // 1,000,001,536 B
    // One file of whole 64 MiB transfers holds 896 MiB (939.5 MB, 6 % short): that is what ran before.
    expect(moved.get(64 * MiB)).toBe(15 * 64 * MiB); // 1.007 GB
    for (const [bs, bytes] of moved) {
      expect(bytes % bs, `${bs}`).toBe(0);
      expect(Math.abs(bytes - 1e9), `${bs}`).toBeLessThanOrEqual(Math.min(bs / 2, 0.01 * 1e9));
    }
    for (const s of plan.steps) expect(s.spec.seconds).toBeUndefined();
    expect(plan.notes.join(' ')).not.toMatch(/whole transfers/);
    // QuickBench's 100 MiB comes no nearer 1 GB than 10 transfers: the plan says what it moves.
    const qb = buildPlan('sweep', { preset: 'quickbench', size: 1e9 });
    expect(qb.steps.at(-1)!.spec.bytes).toBe(10 * 100 * MiB);
    expect(qb.notes).toContain('Each step moves whole transfers, the nearest to 1 GB: 1.05 GB at 100 MiB.');
    // A size asked in binary is whole transfers at every size of the ladder.
    const bin = buildPlan('sweep', { size: 1024 * MiB });
    for (const s of bin.steps) expect(s.spec.bytes).toBe(1024 * MiB);
    expect(() => buildPlan('sweep', { size: 200 * MiB, seconds: 1 })).toThrow(/a time \(--seconds\) or a volume \(--size\), not both/);
    expect(() => buildPlan('sweep', { size: 32 * MiB })).toThrow(/^--size 32 MiB is smaller than the sweep's largest transfer \(64 MiB\)/);
    expect(() => buildPlan('sweep', { size: 50e6 })).toThrow(/^--size 50 MB is smaller than the sweep's largest transfer \(64 MiB\)/);
  });

  it('by volume: the result, its comparison and the CLI name the step’s size as chosen', () => {
    for (const [size, named] of [
      [1e9, '1 GB'],
      [4e9, '4 GB'],
      [1024 * MiB, '1 GiB'],
    ] as const) {
      const plan = buildPlan('sweep', { size });
      const s = sweep.analyse(
        plan,
        outcomes(plan, () => 100),
      ).sweep!;
      expect(s.stepBytes).toBe(size);
      const doc = { kind: 'sweep', sweep: s, tests: [], settings: { ...plan.settings, runs: 1 } } as unknown as ResultDocument;
      const f = new Map<string, string>();
      sweep.report.comparable(doc, f);
      expect(f.get('per step')).toBe(named);
      expect(sweep.cli.tableLines(doc, unitsOf(askedSizes(doc)))[1]).toMatch(new RegExp(`each write and read for ${named}$`));
    }
  });

  it('a range (--from, --to): the part of the ladder between them, both ends included, on a file sized to its top', () => {
    const plan = buildPlan('sweep', { sweep: { fromBytes: 64 * KiB, toBytes: 16 * MiB }, seconds: 1 });
    expect([...new Set(plan.steps.map((s) => s.spec.bs))]).toEqual(SWEEP_LADDERS.standard.filter((b) => b >= 64 * KiB && b <= 16 * MiB));
    expect(plan.steps.map((s) => s.name).slice(0, 2)).toEqual(['SEQ64K Q1T1 Write', 'SEQ64K Q1T1 Read']);
    expect(plan.steps.at(-1)!.name).toBe('SEQ16M Q1T1 Read');
    // A timed step goes over four of the largest transfer, never less than 64 MiB nor more than the
    // full ladder's 256 MiB: the file and what the plan needs say so.
    expect(plan.fileSize).toBe(64 * MiB);
    expect(plan.settings.size).toBe(64 * MiB);
    expect(plan.needBytes).toBe(128 * MiB);
    expect(buildPlan('sweep', { sweep: { toBytes: 32 * MiB } }).fileSize).toBe(128 * MiB);
    expect(buildPlan('sweep', { sweep: { fromBytes: 1 * MiB } }).fileSize).toBe(256 * MiB);
    expect(buildPlan('sweep', { preset: 'quickbench' }).fileSize).toBe(256 * MiB);
    // One end alone: from it to the ladder's end, or from the ladder's start to it.
    expect(buildPlan('sweep', { sweep: { fromBytes: 32 * MiB } }).steps.map((s) => s.spec.bs)).toEqual(
      [32, 32, 64, 64].map((m) => m * MiB),
    );
    expect(buildPlan('sweep', { preset: 'atto', sweep: { toBytes: 1024 } }).steps.map((s) => s.spec.bs)).toEqual([512, 512, 1024, 1024]);
    expect(buildPlan('sweep', { sweep: { fromBytes: 8 * KiB, toBytes: 8 * KiB } }).steps).toHaveLength(2);
    // By volume, the volume must hold the range's largest transfer, not the ladder's.
    expect(buildPlan('sweep', { sweep: { toBytes: 1 * MiB }, size: 3 * MiB }).fileSize).toBe(3 * MiB);
    expect(buildPlan('sweep', { sweep: { toBytes: 1 * MiB }, size: 3 * MiB }).steps.at(-1)!.spec.bytes).toBe(3 * MiB);
    expect(() => buildPlan('sweep', { sweep: { toBytes: 4 * MiB }, size: 3 * MiB })).toThrow(/largest transfer \(4 MiB\)/);
  });

  it('a range refuses, in plain words, an end that is not a size of its ladder and a start above its end', () => {
    expect(() => buildPlan('sweep', { sweep: { fromBytes: 3 * KiB } })).toThrow(
      /^--from 3 KiB is not a transfer size of the standard sweep; use one of 4 KiB, 8 KiB, .*, 64 MiB$/,
    );
    expect(() => buildPlan('sweep', { sweep: { toBytes: 100 * MiB } })).toThrow(
      /^--to 100 MiB is not a transfer size of the standard sweep/,
    );
    expect(() => buildPlan('sweep', { preset: 'quickbench', sweep: { toBytes: 100 * MiB } })).not.toThrow();
    expect(() => buildPlan('sweep', { preset: 'atto', sweep: { fromBytes: 12 * MiB, toBytes: 24 * MiB } })).not.toThrow();
    expect(() => buildPlan('sweep', { sweep: { fromBytes: 1 * MiB, toBytes: 64 * KiB } })).toThrow(
      '--from 1 MiB is larger than --to 64 KiB: the sweep goes from the smaller transfer size up to the larger',
    );
  });
});

function outcomes(plan: ReturnType<typeof buildPlan>, mbps: (bs: number, rw: string) => number): StepOutcome[] {
  return plan.steps.map((step) => ({
    step,
    run: 1,
    result: {
      mbps: mbps(step.spec.bs, step.spec.rw),
      iops: (mbps(step.spec.bs, step.spec.rw) * 1e6) / step.spec.bs,
      cacheMode: 'direct',
    } as EngineResult,
  }));
}

describe('the analysis', () => {
  // A drive whose reads saturate at 500 MB/s from 256 KiB, writes at 400 from 1 MiB.
  const curve = (bs: number, rw: string): number => Math.min(rw === 'read' ? 500 : 400, (bs / KiB) * (rw === 'read' ? 2 : 0.4));

  it('finds the smallest size at 90 % of each direction’s top', () => {
    const plan = buildPlan('sweep', {});
    const { sweep: s } = sweep.analyse(plan, outcomes(plan, curve));
    const run = s!.runs[0]!;
    expect(run.points).toHaveLength(15);
    expect(run.fullSpeedRead).toEqual({ bs: 256 * KiB, topMBps: 500 });
    expect(run.fullSpeedWrite).toEqual({ bs: 1024 * KiB, topMBps: 400 });
    expect(fullSpeedText(s!)).toEqual([
      'Write reaches 90 % of its top speed (400 MB/s) at 1 MiB',
      'Read reaches 90 % of its top speed (500 MB/s) at 256 KiB',
    ]);
    expect(s).toMatchObject({ preset: 'standard', qd: 1, stepSeconds: 2 });
  });

  it('marks a size that did not run uncached, with the engine’s reason', () => {
    const plan = buildPlan('sweep', { preset: 'atto' });
    const os = outcomes(plan, curve).map((o) =>
      o.step.spec.bs === 512
        ? { ...o, result: { ...o.result, cacheMode: 'buffered-flushed' as const, cacheNote: 'not a multiple of 4096 B' } }
        : o,
    );
    const p = sweep.analyse(plan, os).sweep!.runs[0]!.points;
    expect(p[0]).toMatchObject({ bs: 512, cacheMode: 'buffered-flushed', cacheNote: 'not a multiple of 4096 B' });
    expect(p[1]!.cacheMode).toBeUndefined();
  });

  it('a direction that moved nothing has no full-speed point', () => {
    expect(fullSpeed([{ bs: 4096, readMBps: 0, writeMBps: 0, readIops: 0, writeIops: 0 }], 'read')).toBeUndefined();
  });

  it('report figures: top speed and the full-speed size (KiB) per direction first, then every size', () => {
    const plan = buildPlan('sweep', {});
    const { sweep: s } = sweep.analyse(plan, outcomes(plan, curve));
    const doc = { kind: 'sweep', sweep: s, tests: [], settings: { runs: 1 } } as unknown as ResultDocument;
    const m = sweep.report.metrics(doc)!.metrics;
    expect(m.slice(0, 4).map((x) => [x.key, x.values[0]])).toEqual([
      ['Sweep/write.topMBps', 400],
      ['Sweep/write.fullSpeedKiB', 1024],
      ['Sweep/read.topMBps', 500],
      ['Sweep/read.fullSpeedKiB', 256],
    ]);
    // Where the curve reaches 90 % of its own top describes it: never better or worse.
    expect(m[1]!.direction).toBe('none');
    expect(m[0]!.direction).toBe('higher');
    expect(formatFigure(256, 'KiB')).toBe('256');
    expect(m.filter((x) => x.group === 'Sweep 4K').map((x) => x.label)).toEqual(['4 KiB Write', '4 KiB Read']);
  });
});

describe("a sweep's name in History", () => {
  // A timed sweep runs each step for a time over an internal 256 MiB file: its name says the time,
  // not that file ("… · 256 MiB" read as the size asked); a sweep by volume names the size asked.
  const named = (sweepPart: object, size: number): string =>
    resultName({
      kind: 'sweep',
      target: { path: '/media/t7' },
      startedAt: '2026-11-29T10:00:00Z',
      settings: { size },
      sweep: { preset: 'standard', sizes: [4096], qd: 1, runs: [], ...sweepPart },
    } as unknown as ResultDocument);

  it('by time: "1 s a step"; by volume: the size asked', () => {
    expect(named({ stepSeconds: 1 }, 256 * 1024 * 1024)).toMatch(/ · 1 s a step$/);
    expect(named({ stepBytes: 1e9 }, 1e9)).toMatch(/ · 1 GB$/);
  });
});
