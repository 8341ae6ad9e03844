// From engine results to the figures a reader wants: the spread of each test across runs and the
// many-file test's per-file rates, aggregates and line fits (a kind with a folder analyses in it). Pure functions of the results; the runner calls them once the runs are done.
import type { EngineResult } from './engine-types.js';
import type { FileSet } from './file-set.js';
import { poolLatency } from './latency.js';
import type { Plan, PlanStep } from './kinds/plan.js';
import {
  weakestCacheMode,
  type FileFit,
  type FileItem,
  type FilesPassStats,
  type FilesRun,
  type FilesSection,
  type ResultDocument,
  type ResultFlag,
  type ResultTest,
  type RunStat,
  type StepSummary,
} from './result.js';
import { leastSquares, median, mean, spread, theilSen, trimmedMean } from './stats.js';
import { toResultTest } from './result-tests.js';
import { runsInterval, type FigureInterval } from './precision.js';

/** One finished step of one run, as the runner collected it. */
export interface StepOutcome {
  step: PlanStep;
  run: number;
  result: EngineResult;
}

function runStat(xs: readonly number[], higherIsBetter: boolean): RunStat {
  const s = spread(xs);
  return { ...s, best: higherIsBetter ? s.max : s.min };
}

const withInterval = (iv: FigureInterval | undefined): { mbpsInterval?: FigureInterval } => (iv ? { mbpsInterval: iv } : {});

/** Each test name across runs, in the order the tests first ran. */
export function summarize(tests: readonly ResultTest[]): StepSummary[] {
  const byName = new Map<string, ResultTest[]>();
  for (const t of tests) {
    const list = byName.get(t.name);
    if (list) list.push(t);
    else byName.set(t.name, [t]);
  }
  return [...byName.entries()].map(([name, ts]) => ({
    name,
    rw: ts[0]!.rw,
    runs: ts.length,
    mbps: runStat(
      ts.map((t) => t.mbps),
      true,
    ),
    iops: runStat(
      ts.map((t) => t.iops),
      true,
    ),
    meanUs: runStat(
      ts.map((t) => t.latencyUs.mean),
      false,
    ),
    p99Us: runStat(
      ts.map((t) => t.latencyUs.p99),
      false,
    ),
    ...withInterval(runsInterval(ts.map((t) => t.mbps))),
  }));
}

function fit(kind: 'theilSen' | 'leastSquares', bytes: number[], seconds: number[]): FileFit | undefined {
  // A line needs two different sizes.
  if (bytes.length < 2 || new Set(bytes).size < 2) return undefined;
  const f = kind === 'theilSen' ? theilSen(bytes, seconds) : leastSquares(bytes, seconds);
  const out: FileFit = {
    rateMBps: f.slope > 0 ? 1 / f.slope / 1e6 : Infinity,
    overheadMs: f.intercept * 1e3,
    slope: f.slope,
    intercept: f.intercept,
  };
  if (f.r2 !== undefined) out.r2 = f.r2;
  return out;
}

export function passStats(items: ReadonlyArray<{ bytes: number; seconds: number }>): FilesPassStats {
  const bytes = items.reduce((a, i) => a + i.bytes, 0);
  const seconds = items.reduce((a, i) => a + i.seconds, 0);
  const rates = items.map((i) => i.bytes / i.seconds / 1e6);
  const stats: FilesPassStats = {
    files: items.length,
    bytes,
    seconds,
    mbps: seconds > 0 ? bytes / seconds / 1e6 : 0,
    meanMBps: mean(rates),
    medianMBps: median(rates),
    trimmedMeanMBps: trimmedMean(rates, 0.2),
  };
  const xs = items.map((i) => i.bytes);
  const ys = items.map((i) => i.seconds);
  const ts = fit('theilSen', xs, ys);
  const ls = fit('leastSquares', xs, ys);
  if (ts && Number.isFinite(ts.rateMBps)) stats.theilSen = ts;
  if (ls && Number.isFinite(ls.rateMBps)) stats.leastSquares = ls;
  return stats;
}

/** All of one pass's files as one row of the document: bytes and seconds summed, latency pooled
 *  from the engine's histograms, the series laid end to end. */
function passRow(name: string, run: number, outcomes: readonly StepOutcome[]): ResultTest {
  const results = outcomes.map((o) => o.result);
  const first = toResultTest(name, results[0]!, run);
  const bytes = results.reduce((a, r) => a + r.bytes, 0);
  const seconds = results.reduce((a, r) => a + r.seconds, 0);
  const ios = results.reduce((a, r) => a + r.ios, 0);
  let offset = 0;
  const series = results.flatMap((r) => {
    const pts = r.series.map((p) => ({ t: p.t + offset, mbps: p.mbps }));
    offset += r.seconds;
    return pts;
  });
  const row: ResultTest = {
    ...first,
    bs: Math.max(...results.map((r) => r.bs)),
    bytes,
    seconds,
    mbps: seconds > 0 ? bytes / seconds / 1e6 : 0,
    iops: seconds > 0 ? ios / seconds : 0,
    latencyUs: poolLatency(results).latencyUs,
    series,
    cacheMode: weakestCacheMode(results.map((r) => r.cacheMode)),
    prepareSeconds: results.reduce((a, r) => a + r.prepareSeconds, 0),
    flushSeconds: results.reduce((a, r) => a + r.flushSeconds, 0),
    spec: { ...first.spec, bs: Math.max(...results.map((r) => r.bs)), fileSize: bytes },
  };
  const note = results.find((r) => r.cacheNote)?.cacheNote;
  if (note) row.cacheNote = note;
  else delete row.cacheNote;
  return row;
}

/** The many-file section and its two rows per run ("Files Write", "Files Read"). */
export function filesAnalysis(plan: Plan, outcomes: readonly StepOutcome[]): { section: FilesSection; tests: ResultTest[] } {
  const set: FileSet = plan.fileSet!;
  const runNumbers = [...new Set(outcomes.map((o) => o.run))].sort((a, b) => a - b);
  const tests: ResultTest[] = [];
  const runs: FilesRun[] = [];
  const writePos = new Map(set.writeOrder.map((index, k) => [index, k + 1]));
  const readPos = new Map(set.readOrder.map((index, k) => [index, k + 1]));
  for (const run of runNumbers) {
    const mine = outcomes.filter((o) => o.run === run);
    const writes = mine.filter((o) => o.step.pass === 'write');
    const reads = mine.filter((o) => o.step.pass === 'read');
    const items: FileItem[] = set.entries.map((e) => ({
      name: e.name,
      bytes: e.bytes,
      writeOrder: writePos.get(e.index) ?? 0,
      readOrder: readPos.get(e.index) ?? 0,
    }));
    for (const o of mine) {
      const item = items[o.step.fileIndex!]!;
      const figures = { seconds: o.result.seconds, mbps: o.result.mbps };
      if (o.step.pass === 'write') item.write = figures;
      else item.read = figures;
    }
    const perFile = (list: readonly StepOutcome[]): Array<{ bytes: number; seconds: number }> =>
      list.map((o) => ({ bytes: o.result.bytes, seconds: o.result.seconds }));
    runs.push({ run, items, write: passStats(perFile(writes)), read: passStats(perFile(reads)) });
    if (writes.length) tests.push(passRow('Files Write', run, writes));
    if (reads.length) tests.push(passRow('Files Read', run, reads));
  }
  const o = set.options;
  const requested = plan.settings.files ?? o;
  const section: FilesSection = {
    preset: (plan.settings.preset ?? 'custom') as FilesSection['preset'],
    count: set.entries.length,
    minBytes: Math.min(...set.entries.map((e) => e.bytes)),
    maxBytes: Math.max(...set.entries.map((e) => e.bytes)),
    seed: o.seed,
    totalBytes: set.totalBytes,
    requested: { count: requested.count, minBytes: requested.minBytes, maxBytes: requested.maxBytes },
    runs,
  };
  if (plan.scaled) section.scaled = plan.scaled;
  return { section, tests };
}

/**
 * The Quick Test's cycles as one document: each cycle ran as its own single-run benchmark (its
 * own workspace), and history keeps them as the runs of one result — tests numbered by cycle,
 * the summary across cycles, the weakest cache mode, every distinct flag once, the temperature
 * before the first and after the last. `note` says how the sequence ended when it matters
 * ("Stopped after 2 of 5 runs").
 */
export function combineRuns(cycles: readonly ResultDocument[], note?: string): ResultDocument {
  const first = cycles[0];
  if (!first) throw new RangeError('combineRuns: no cycles');
  if (cycles.length === 1 && !note) return first;
  const last = cycles[cycles.length - 1]!;
  const tests = cycles.flatMap((doc, i) => doc.tests.map((t) => ({ ...t, run: i + 1 })));
  const flags = new Map<string, ResultFlag>();
  for (const doc of cycles) for (const f of doc.flags) if (!flags.has(`${f.code}\0${f.message}`)) flags.set(`${f.code}\0${f.message}`, f);
  const notes = [...new Set(cycles.flatMap((d) => d.notes ?? []))];
  if (note) notes.push(note);
  const before = first.context?.temperatureC?.before;
  const after = last.context?.temperatureC?.after;
  const doc: ResultDocument = {
    ...first,
    finishedAt: last.finishedAt,
    settings: { ...first.settings, runs: cycles.length },
    cacheMode: weakestCacheMode(tests.map((t) => t.cacheMode)),
    flags: [...flags.values()],
    tests,
  };
  delete doc.summary;
  delete doc.notes;
  delete doc.context;
  if (cycles.length > 1) doc.summary = summarize(tests);
  if (notes.length > 0) doc.notes = notes;
  if (before !== undefined || after !== undefined) {
    doc.context = { temperatureC: { ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) } };
  }
  return doc;
}
