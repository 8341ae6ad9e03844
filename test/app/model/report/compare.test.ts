import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { columnLabels, compareResults } from '../../../../app/src/model/report/compare.js';
import { targetLine } from '../../../../app/src/model/report/metrics.js';
import { COMPARE_RULE, deltaText } from '../../../../app/src/model/verdict/compare-words.js';
import { lnGamma, mean, regularizedIncompleteBeta, studentTwoSidedP, welchError } from '../../../../app/src/model/stats.js';

/** Welch's t-test from welchError: t, its degrees of freedom and the two-sided p-value. */
function welchTTest(a: number[], b: number[]): { t: number; df: number; p: number } {
  const { se, df } = welchError(a, b);
  const t = (mean(a) - mean(b)) / se;
  return { t, df, p: studentTwoSidedP(t, df) };
}

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
function load(kind: string): ResultDocument {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;
}

/** A copy of a result with a new id and label, its write tests' MB/s scaled by `factor` with a
 *  small deterministic jitter (±0.3 %) so the runs are not identical. */
function variant(doc: ResultDocument, id: string, label: string, factor = 1, only: 'write' | 'read' | 'all' = 'write'): ResultDocument {
  const d = structuredClone(doc);
  d.id = id;
  d.label = label;
  d.tests.forEach((t, i) => {
    const hit = only === 'all' || (only === 'write' ? t.rw.includes('write') : t.rw.includes('read'));
    if (hit && factor !== 1) t.mbps *= factor * (1 + 0.003 * ((i % 3) - 1));
  });
  return d;
}

describe("Welch's standard error and degrees of freedom, and the Student t p-value", () => {
  it('matches R: t.test(c(1,2,3,4,5), c(2,4,6,8,10))', () => {
    const r = welchTTest([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]);
    // R: t = -1.8974, df = 5.8824, p-value = 0.1075
    expect(r.t).toBeCloseTo(-1.8973665961, 9);
    expect(r.df).toBeCloseTo(5.8823529412, 9);
    expect(r.p).toBeCloseTo(0.1075311949, 9);
  });

  it('matches values computed with mpmath (30 digits)', () => {
    // mpmath: betainc(df/2, 1/2, 0, df/(df+t²), regularized=True) on Welch's t and df.
    const cases: Array<[number[], number[], number, number, number]> = [
      [[100, 102, 98, 101], [95, 96, 94, 97, 93], 4.735369976417822, 6.3023536511768254, 0.0028123252393820303],
      [[1763.56, 1816.13, 1725.91], [1535.49, 1452.96, 1361.05], 5.613989627061732, 3.0055614418322403, 0.011117089959881647],
      [[10.1, 10.3], [10.2, 10.25, 10.4, 9.9], 0.08627959628145863, 3.1411100294623755, 0.9364521279014082],
    ];
    for (const [a, b, t, df, p] of cases) {
      const r = welchTTest(a, b);
      expect(r.t).toBeCloseTo(t, 9);
      expect(r.df).toBeCloseTo(df, 9);
      expect(r.p).toBeCloseTo(p, 10);
    }
  });

  it('gives p = 0.05 at the t-table critical values, two-sided', () => {
    expect(studentTwoSidedP(2.228138851986, 10)).toBeCloseTo(0.05, 10);
    expect(studentTwoSidedP(12.7062047361747, 1)).toBeCloseTo(0.05, 10);
    expect(studentTwoSidedP(2.04227245630124, 30)).toBeCloseTo(0.05, 10);
    expect(studentTwoSidedP(-2.228138851986, 10)).toBeCloseTo(0.05, 10);
    // df = 3, t = 5.8409: p = 0.01
    expect(studentTwoSidedP(5.84090929, 3)).toBeCloseTo(0.01, 8);
    expect(studentTwoSidedP(0.5, 5)).toBeCloseTo(0.638298871640929, 10);
    expect(studentTwoSidedP(0, 7)).toBeCloseTo(1, 12);
    expect(studentTwoSidedP(Infinity, 4)).toBe(0);
    expect(studentTwoSidedP(1, 0)).toBeNaN();
  });

  it('computes the regularized incomplete beta and ln Γ', () => {
    // I_0.4(2, 3) = 0.5248 exactly (a polynomial for integer a, b)
    expect(regularizedIncompleteBeta(0.4, 2, 3)).toBeCloseTo(0.5248, 12);
    expect(regularizedIncompleteBeta(0.3, 0.5, 0.5)).toBeCloseTo(0.36901011956554536, 12);
    expect(regularizedIncompleteBeta(0.55, 50, 40)).toBeCloseTo(0.4547952108638691, 10);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
    expect(regularizedIncompleteBeta(1.5, 2, 3)).toBeNaN();
    // Γ(5) = 24, Γ(0.5) = √π
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(lnGamma(0.1)).toBeCloseTo(2.252712651734206, 12);
  });

  it('handles runs without spread and too few runs', () => {
    expect(welchError([5, 5, 5], [4, 4])).toEqual({ se: 0, df: 3 });
    expect(welchTTest([5, 5, 5], [4, 4])).toEqual({ t: Infinity, df: 3, p: 0 });
    expect(welchError([5, 5], [5, 5])).toEqual({ se: 0, df: 2 });
    expect(welchError([1], [2, 3]).se).toBeNaN();
    // One side without spread: df falls to the other side's n − 1.
    expect(welchError([5, 5, 5], [1, 2, 3, 4]).df).toBeCloseTo(3, 12);
  });
});

describe('compareResults', () => {
  it('builds columns from each result', () => {
    const q = load('quick');
    const c = load('cdm');
    c.target.device.linkInfo = { kind: 'usb', label: 'USB 3.2 Gen 2 (10 Gb/s)', ceilingMBps: 1212, source: 'sysfs' };
    const cmp = compareResults([q, c]);
    expect(cmp.columns).toHaveLength(2);
    expect(cmp.columns[0]).toMatchObject({
      id: q.id,
      kind: 'quick',
      name: 'Boot disk',
      title: 'Quick Test · 1 GiB · 3 runs',
      startedAt: q.startedAt,
    });
    expect(cmp.columns[0]?.drive).toBe('virtio (virtual disk) · ext4 · 271 GB');
    expect(cmp.columns[0]?.method).toBe('uncached (direct I/O) · random data · writes flushed');
    expect(cmp.columns[0]?.ceilingMBps).toBeUndefined();
    expect(cmp.columns[1]?.ceilingMBps).toBe(1212);
    expect(cmp.rule).toBe(COMPARE_RULE);
  });

  it('marks a 10 % slower write as worse, and an unchanged read whose runs spread 6 % as inconclusive', () => {
    const plain = variant(load('quick'), 'plain', 'Plain');
    const enc = variant(load('quick'), 'enc', 'Encrypted', 0.9);
    const cmp = compareResults([plain, enc]);
    expect(cmp.baseline).toBe(0);
    const write = cmp.rows.find((r) => r.key === 'Write/mbps');
    const read = cmp.rows.find((r) => r.key === 'Read/mbps');
    expect(write?.primary).toBe(true);
    expect(write?.cells[0]?.verdict).toBe('baseline');
    expect(write?.cells[0]?.claim).toBeUndefined();
    const w = write?.cells[1];
    expect(w?.verdict).toBe('worse');
    expect(w?.claim?.change).toBeCloseTo(-0.1, 2);
    expect(w?.claim?.high).toBeLessThan(0);
    expect(w?.claim?.low).toBeLessThan(-0.05);
    expect(w?.claim?.test).toBe('welch');
    expect(w?.values).toHaveLength(3);
    expect(w?.spread.n).toBe(3);
    // Identical values: no change, but 3 runs spread over 6 % cannot show it is within ±5 %.
    expect(read?.cells[1]).toMatchObject({ verdict: 'inconclusive', claim: { change: 0, reasons: ['wide'] } });
    // Lower latency is better: scale the write's mean latency down by 20 % in every run.
    const fast = variant(load('quick'), 'fast', 'Fast');
    fast.tests.forEach((t, i) => {
      if (t.rw === 'write') t.latencyUs.mean *= 0.8 * (1 + 0.002 * ((i % 3) - 1));
    });
    const lat = compareResults([plain, fast]).rows.find((r) => r.key === 'Write/meanUs');
    expect(lat?.direction).toBe('lower');
    expect(lat?.cells[1]?.verdict).toBe('better');
  });

  it('calls a faster result better', () => {
    const cmp = compareResults([variant(load('quick'), 'a', 'A'), variant(load('quick'), 'b', 'B', 1.15)]);
    expect(cmp.rows.find((r) => r.key === 'Write/mbps')?.cells[1]?.verdict).toBe('better');
  });

  it('calls a small but consistent change (1 %) no difference: its whole interval is within ±5 %', () => {
    // 1 % slower in every run with a tight spread: the interval excludes 0 but lies inside ±5 %.
    const a = variant(load('quick'), 'a', 'A');
    const b = variant(load('quick'), 'b', 'B');
    a.tests.forEach((t) => (t.mbps = t.rw === 'write' ? 1000 + t.run : t.mbps));
    b.tests.forEach((t) => (t.mbps = t.rw === 'write' ? 990 + t.run : t.mbps));
    const cell = compareResults([a, b]).rows.find((r) => r.key === 'Write/mbps')?.cells[1];
    expect(cell?.claim?.high).toBeLessThan(0);
    expect(cell?.claim?.low).toBeGreaterThan(-0.05);
    expect(cell?.claim?.change).toBeCloseTo(-0.00998, 4);
    expect(cell?.verdict).toBe('same');
  });

  it('gives runs without spread on both sides a point interval: real beyond ±5 %, no difference within', () => {
    const a = variant(load('quick'), 'a', 'A');
    const b = variant(load('quick'), 'b', 'B');
    a.tests.forEach((t) => (t.mbps = 1000));
    b.tests.forEach((t) => (t.mbps = t.rw === 'write' ? 900 : 970));
    const rows = compareResults([a, b]).rows;
    const w = rows.find((r) => r.key === 'Write/mbps')?.cells[1];
    const r = rows.find((r) => r.key === 'Read/mbps')?.cells[1];
    expect(w).toMatchObject({ verdict: 'worse', claim: { low: w?.claim?.high } });
    expect(w?.claim?.change).toBeCloseTo(-0.1, 12);
    expect(r?.verdict).toBe('same');
    expect(r?.claim?.change).toBeCloseTo(-0.03, 12);
  });

  it('gives one run on each side no interval (inconclusive, however large), and lends one side its spread', () => {
    const one = (id: string, mbps: number): ResultDocument => {
      const d = load('sustained');
      d.id = id;
      d.label = id;
      d.tests[0]!.mbps = mbps;
      return d;
    };
    const cmp = compareResults([one('base', 1000), one('minus9', 910), one('half', 500), one('plus12', 1120)]);
    const row = cmp.rows.find((r) => r.key === 'Sustained/mbps');
    for (const cell of row!.cells.slice(1))
      expect(cell).toMatchObject({ verdict: 'inconclusive', claim: { test: 'none', reasons: ['one-run-each'] } });
    expect(row?.cells[2]?.claim?.change).toBeCloseTo(-0.5, 12);
    expect(cmp.findings).toContain(
      'half: inconclusive on Sustained write · average −50 % — one run each: no interval; more runs would tell.',
    );
    // A multi-run column against a single-run baseline: the three runs lend their spread.
    const multi = load('quick');
    const single = variant(load('quick'), 's', 'Single');
    single.tests = single.tests.filter((t) => t.run === 1);
    single.settings.runs = 1;
    const c = compareResults([single, multi]).rows.find((r) => r.key === 'Write/mbps')?.cells[1];
    expect(c?.claim).toMatchObject({ test: 'one-run-side', df: 2, reasons: ['few-runs'] });
    expect(c?.verdict).toBe('inconclusive');
  });

  it('picks the baseline by index or id, and falls back to the first', () => {
    const docs = [variant(load('quick'), 'a', 'A'), variant(load('quick'), 'b', 'B', 0.8), variant(load('quick'), 'c', 'C', 0.9)];
    expect(compareResults(docs, { baseline: 'b' }).baseline).toBe(1);
    expect(compareResults(docs, { baseline: 2 }).baseline).toBe(2);
    expect(compareResults(docs, { baseline: 'nope' }).baseline).toBe(0);
    expect(compareResults(docs, { baseline: 7 }).baseline).toBe(0);
    expect(compareResults(docs, { baseline: -1 }).baseline).toBe(0);
    expect(compareResults(docs, { baseline: 1.5 }).baseline).toBe(0);
    const byId = compareResults(docs, { baseline: 'b' });
    const w = byId.rows.find((r) => r.key === 'Write/mbps');
    expect(w?.cells.map((c) => c?.verdict)).toEqual(['better', 'baseline', 'better']);
    expect(w?.cells[0]?.claim?.change).toBeCloseTo(0.25, 2);
  });

  it('gives one result a table without deltas', () => {
    const cmp = compareResults([load('cdm')]);
    expect(cmp.columns).toHaveLength(1);
    expect(cmp.findings).toEqual([]);
    expect(cmp.warnings).toEqual([]);
    for (const r of cmp.rows) {
      expect(r.cells).toHaveLength(1);
      expect(r.cells[0]?.verdict).toBe('baseline');
      expect(r.cells[0]?.claim).toBeUndefined();
    }
  });

  it('orders rows by first sight, headline figures first', () => {
    const cmp = compareResults([load('cdm')]);
    const primary = cmp.rows.filter((r) => r.primary).map((r) => r.key);
    expect(primary).toEqual([
      'SEQ1M Q8T1 Read/mbps',
      'SEQ1M Q1T1 Read/mbps',
      'RND4K Q32T1 Read/mbps',
      'RND4K Q1T1 Read/mbps',
      'SEQ1M Q8T1 Write/mbps',
      'SEQ1M Q1T1 Write/mbps',
      'RND4K Q32T1 Write/mbps',
      'RND4K Q1T1 Write/mbps',
    ]);
    expect(cmp.rows.findIndex((r) => !r.primary)).toBe(primary.length);
    expect(cmp.rows.slice(primary.length).every((r) => !r.primary)).toBe(true);
    expect(cmp.rows[0]?.cells[0]?.values).toEqual([1669.6655339247657, 1627.1630821867295]);
  });

  it('keeps the many-file passes as headline rows', () => {
    const cmp = compareResults([load('files'), variant(load('files'), 'f2', 'Other')]);
    const keys = cmp.rows.filter((r) => r.primary).map((r) => r.key);
    expect(keys).toEqual(['Files Write/mbps', 'Files Read/mbps']);
    expect(cmp.rows.find((r) => r.key === 'Files Write/mbps')?.label).toBe('Files Write · aggregate');
  });

  it('joins different kinds on the figures they share, and warns', () => {
    const cmp = compareResults([load('quick'), load('cdm')]);
    expect(cmp.warnings).toContain(
      'These results are different tests (Quick Test, CrystalDiskMark grid): only figures they share are compared.',
    );
    const seq = cmp.rows.find((r) => r.key === 'SEQ1M Q8T1 Read/mbps');
    expect(seq?.cells[0]).toBeUndefined();
    expect(seq?.cells[1]?.verdict).toBe('n/a');
    expect(cmp.findings).toEqual(['dd · Nov 22 00:21 · 64 MiB: no headline figure in common with Boot disk.']);
  });

  it('warns about a result measured through the page cache, and about different settings', () => {
    const a = variant(load('cdm'), 'a', 'Plain');
    const b = variant(load('cdm'), 'b', 'Cached');
    b.cacheMode = 'buffered';
    b.settings.size = 1024 ** 3;
    b.settings.preset = 'nvme';
    const cmp = compareResults([a, b]);
    expect(cmp.warnings).toContain("Cached was measured through the page cache: its figures are not the disk's.");
    const settings = cmp.warnings.find((w) => w.includes('different settings'));
    expect(settings).toContain('The CrystalDiskMark grid results were run with different settings');
    expect(settings).toContain('test size: 64 MiB (Plain), 1 GiB (Cached)');
    expect(settings).toContain('profile: default (Plain), nvme (Cached)');
    expect(compareResults([a, variant(load('cdm'), 'c', 'Same')]).warnings).toEqual([]);
  });

  it('writes findings per column, headline rows only', () => {
    const plain = variant(load('cdm'), 'plain', 'Plain');
    const enc = variant(load('cdm'), 'enc', 'Encrypted');
    // Shrink the run-to-run spread to ±0.1 % so that 9 % stands out of the noise with two runs.
    const means = new Map(
      plain.tests.map((t) => [t.name, plain.tests.filter((u) => u.name === t.name).reduce((s, u) => s + u.mbps, 0) / 2]),
    );
    plain.tests.forEach((t) => (t.mbps = means.get(t.name)! * (t.run === 1 ? 1.001 : 0.999)));
    // Every write test 9 % slower than Plain's same run; reads unchanged.
    enc.tests.forEach((t) => {
      const base = plain.tests.find((u) => u.name === t.name && u.run === t.run)!;
      t.mbps = base.mbps * (t.rw.includes('write') ? 0.91 : 1);
    });
    const cs = variant(load('cdm'), 'cs', 'case-sensitive');
    cs.tests = structuredClone(plain.tests);
    const cmp = compareResults([plain, enc, cs]);
    expect(cmp.findings).toHaveLength(2);
    const f = cmp.findings[0]!;
    // ln 0.91 ± t(0.975, df 2) × 0.0014 = −0.094 ± 0.006: the ratio's interval is 0.904 to 0.916.
    expect(f).toBe(
      'Encrypted (vs Plain, 2 runs each): SEQ1M Q8T1 Write −9 %, CI −9.6 to −8.4 %; SEQ1M Q1T1 Write −9 %, CI −9.6 to −8.4 %; ' +
        'RND4K Q32T1 Write −9 %, CI −9.6 to −8.4 %; RND4K Q1T1 Write −9 %, CI −9.6 to −8.4 %.',
    );
    expect(f).not.toContain('Read');
    expect(f.endsWith('.')).toBe(true);
    expect(cmp.findings[1]).toBe('case-sensitive: no difference from Plain on any headline figure (each 95 % interval within ±5 %).');
  });

  it('never throws on odd documents', () => {
    const odd = { id: 'odd', kind: 'mystery', startedAt: 'yesterday' } as unknown as ResultDocument;
    const cmp = compareResults([load('quick'), odd]);
    expect(cmp.columns[1]).toMatchObject({ id: 'odd', kind: 'mystery', name: 'Result 2' });
    expect(cmp.rows.every((r) => r.cells[1] === undefined)).toBe(true);
    expect(compareResults([]).columns).toEqual([]);
    // A baseline of 0 MB/s gives no ratio.
    const zero = variant(load('quick'), 'z', 'Zero');
    zero.tests.forEach((t) => (t.mbps = 0));
    expect(compareResults([zero, load('quick')]).rows[0]?.cells[1]).toMatchObject({
      verdict: 'inconclusive',
      claim: { reasons: ['not-positive'] },
    });
  });

  it('labels repeated names apart by what tells them apart: the start, to the second, the drive; else a number', () => {
    const cmp = compareResults([load('cdm'), load('cdm'), load('cdm')]);
    expect(columnLabels(cmp)).toEqual(['dd · Nov 22 00:21 · 64 MiB', 'dd · Nov 22 00:21 · 64 MiB (2)', 'dd · Nov 22 00:21 · 64 MiB (3)']);
    const at = (iso: string, label = 'Boot disk'): ResultDocument => ({ ...load('quick'), label, startedAt: iso });
    const days = [at('2026-11-22T02:39:49Z'), at('2026-11-23T10:11:12Z'), at('2026-11-22T02:39:49Z', 'Other')];
    expect(columnLabels(compareResults(days))).toEqual(['Boot disk · 22 Nov 2026 02:39 UTC', 'Boot disk · 23 Nov 2026 10:11 UTC', 'Other']);
    // The sentences name them the same way.
    expect(compareResults(days).findings.join(' ')).toContain('Boot disk · 23 Nov 2026 10:11 UTC');
    const seconds = [at('2026-11-22T02:39:01Z'), at('2026-11-22T02:39:49Z')];
    expect(columnLabels(compareResults(seconds))).toEqual(['Boot disk · 2026-11-22 02:39:01 UTC', 'Boot disk · 2026-11-22 02:39:49 UTC']);
    const other = at('2026-11-22T02:39:49Z');
    other.target = { ...other.target, device: { ...other.target.device, model: 'Samsung T7' } };
    expect(columnLabels(compareResults([at('2026-11-22T02:39:49Z'), other]))).toEqual([
      `Boot disk · ${targetLine(at('2026-11-22T02:39:49Z'))}`,
      `Boot disk · ${targetLine(other)}`,
    ]);
  });
});

describe('a large change the rule cannot confirm', () => {
  it('is inconclusive, with why, and never reads as "no difference"', () => {
    const base = load('quick');
    // Two runs each, writes halved but with a wild spread: Welch cannot tell with two runs.
    const two = (doc: ResultDocument, id: string, label: string, writes: [number, number]): ResultDocument => ({
      ...doc,
      id,
      label,
      settings: { ...doc.settings, runs: 2 },
      tests: doc.tests.filter((t) => t.run <= 2).map((t) => (t.name === 'Write' ? { ...t, mbps: writes[t.run - 1]! } : t)),
    });
    const c = compareResults([two(base, 'a', 'ext4', [1300, 1600]), two(base, 'b', 'Btrfs', [650, 690])]);
    const write = c.rows.find((r) => r.key === 'Write/mbps')!.cells[1]!;
    expect(write.verdict).toBe('inconclusive');
    // The ratio of geometric means: √(650 · 690) / √(1300 · 1600).
    expect(write.claim?.change).toBeCloseTo(Math.sqrt((650 * 690) / (1300 * 1600)) - 1, 12);
    expect(c.findings).toContain(
      `Btrfs: inconclusive on Write ${deltaText(write.claim!.change)}, Read 0 % — 2 runs each; more runs would tell.`,
    );
    expect(c.findings.join(' ')).not.toMatch(/no difference/);
  });
});
