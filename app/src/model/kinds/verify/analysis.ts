// What the verify test makes of its steps: the files' block checks combined into one picture of
// the run (counts, the bad runs in block order, the longest intact run from the start, the one
// distance aliased blocks are displaced by), the capacity verdict (model/verdict/capacity.ts), and
// the write and read-and-verify curves against position with the write curve's knee.
import type { StepOutcome } from '../../analysis.js';
import type { EngineResult, SeriesPoint, VerifyFigures, VerifyRun } from '../../engine-types.js';
import { chooseSliceBytes, detectKnee, sliceSeries, type CurvePoint } from '../../knee.js';
import { poolLatency } from '../../latency.js';
import type { ResultTest } from '../../result.js';
import { toResultTest, weakestCacheMode } from '../../result-tests.js';
import { capacityText, capacityVerdict, type CapacityFigures } from '../../verdict/capacity.js';
import type { Plan } from '../plan.js';
import { VERIFY_BLOCK_BYTES, type VerifyFile } from './plan.js';
import type { VerifySection } from './result.js';

/** One file's read back: where its blocks start, how many it has, and what the engine found. */
export interface FileCheck {
  baseBlock: number;
  blocks: number;
  figures: VerifyFigures | undefined;
}

/** The files' checks as one run: the verdict's figures (less capacity, which the verdict sets)
 *  and the bad runs in block order, runs that continue across a file's end joined. */
export function combineChecks(
  files: readonly FileCheck[],
  plannedBlocks: number,
  volume: { reportedBytes: number; startBytes: number },
): { figures: Omit<CapacityFigures, 'capacityBytes'>; runs: VerifyRun[]; truncated: boolean } {
  const sum = (k: 'blocks' | 'intact' | 'aliased' | 'zeros' | 'ones' | 'stale' | 'corrupted' | 'bitErrors'): number =>
    files.reduce((a, f) => a + (f.figures?.[k] ?? 0), 0);
  const ordered = [...files].sort((a, b) => a.baseBlock - b.baseBlock);
  const runs: VerifyRun[] = [];
  for (const r of ordered.flatMap((f) => f.figures?.runs ?? [])) {
    const last = runs.at(-1);
    const joins =
      last !== undefined &&
      last.kind === r.kind &&
      last.block + last.blocks === r.block &&
      (r.kind !== 'aliased' || (last.held ?? NaN) + last.blocks === r.held);
    if (!joins) runs.push({ ...r });
    else {
      last.blocks += r.blocks;
      if (r.bits !== undefined) last.bits = (last.bits ?? 0) + r.bits;
    }
  }
  // The longest intact run from block 0: up to the first bad block or the first block not read.
  let prefix = 0;
  for (const f of ordered) {
    if (f.baseBlock !== prefix) break;
    const firstBad = f.figures?.runs[0]?.block;
    const read = f.figures?.blocks ?? 0;
    prefix = firstBad !== undefined ? Math.min(firstBad, f.baseBlock + read) : f.baseBlock + read;
    if (firstBad !== undefined || read < f.blocks) break;
  }
  return {
    figures: {
      blockBytes: VERIFY_BLOCK_BYTES,
      plannedBlocks,
      checkedBlocks: sum('blocks'),
      intactBlocks: sum('intact'),
      aliasedBlocks: sum('aliased'),
      zerosBlocks: sum('zeros'),
      onesBlocks: sum('ones'),
      staleBlocks: sum('stale'),
      corruptedBlocks: sum('corrupted'),
      bitErrors: sum('bitErrors'),
      firstBadBlock: runs[0]?.block ?? -1,
      wrapBlocks: wrapDistance(runs),
      prefixBlocks: prefix,
      reportedBytes: volume.reportedBytes,
      startBytes: volume.startBytes,
    },
    runs,
    truncated: files.some((f) => f.figures?.runsTruncated),
  };
}

/** The one distance every aliased run is displaced by a multiple of (a drive that wraps at N
 *  blocks returns, for block b, the last block written to b mod N: b + kN); 0 when there is none. */
export function wrapDistance(runs: readonly VerifyRun[]): number {
  const shifts = runs.filter((r) => r.kind === 'aliased').map((r) => (r.held ?? NaN) - r.block);
  if (shifts.length === 0 || !shifts.every((d) => Number.isSafeInteger(d) && d > 0)) return 0;
  const d = Math.min(...shifts);
  return shifts.every((s) => s % d === 0) ? d : 0;
}

/** The steps' series one after another, as one series of one pass over the files. */
function joined(results: readonly EngineResult[]): SeriesPoint[] {
  const out: SeriesPoint[] = [];
  let t0 = 0;
  for (const r of results) {
    for (const p of r.series) out.push({ t: t0 + p.t, mbps: p.mbps });
    t0 += r.series.at(-1)?.t ?? 0;
  }
  return out;
}

/** A pass's steps (one per file) as one engine result over the whole run: one row of the document
 *  for the write and one for the read back, however many files the volume took. */
function passResult(results: readonly EngineResult[], totalBytes: number): EngineResult | undefined {
  const first = results[0];
  if (!first) return undefined;
  const sum = (
    k: 'bytes' | 'bytesRead' | 'bytesWritten' | 'seconds' | 'ios' | 'prepareSeconds' | 'warmupSeconds' | 'flushSeconds',
  ): number => results.reduce((a, r) => a + r[k], 0);
  const { latencyHistogram: _h, verify: _v, ...rest } = first;
  const seconds = sum('seconds');
  return {
    ...rest,
    bytes: sum('bytes'),
    bytesRead: sum('bytesRead'),
    bytesWritten: sum('bytesWritten'),
    seconds,
    mbps: seconds > 0 ? sum('bytes') / seconds / 1e6 : 0,
    iops: seconds > 0 ? sum('ios') / seconds : 0,
    ios: sum('ios'),
    latencyUs: poolLatency(results).latencyUs,
    series: joined(results),
    cacheMode: weakestCacheMode(results.map((r) => r.cacheMode)),
    prepareSeconds: sum('prepareSeconds'),
    warmupSeconds: sum('warmupSeconds'),
    flushSeconds: sum('flushSeconds'),
    cancelled: results.some((r) => r.cancelled),
    spec: { ...first.spec, fileSize: totalBytes },
  };
}

/** The document's rows: the write and the read back of each run, each over every file. */
export function verifyTests(plan: Plan, outcomes: readonly StepOutcome[]): ResultTest[] {
  const out: ResultTest[] = [];
  for (const run of [...new Set(outcomes.map((o) => o.run))]) {
    for (const [pass, name] of [
      ['write', 'Write'],
      ['read', 'Read and verify'],
    ] as const) {
      const r = passResult(
        outcomes.filter((o) => o.run === run && o.step.pass === pass).map((o) => o.result),
        plan.fileSize,
      );
      if (r) out.push(toResultTest(name, r, run));
    }
  }
  return out;
}

const at = (curve: readonly CurvePoint[], startBytes: number): CurvePoint[] =>
  curve.map((p) => ({ bytes: startBytes + p.bytes, mbps: p.mbps }));

export function verifySection(plan: Plan, outcomes: readonly StepOutcome[]): VerifySection {
  const layout = plan.verify!;
  const pass = (p: 'write' | 'read'): StepOutcome[] =>
    outcomes.filter((o) => o.step.pass === p).sort((a, b) => (a.step.fileIndex ?? 0) - (b.step.fileIndex ?? 0));
  const writes = pass('write');
  const reads = pass('read');
  const readOf = new Map(reads.map((o) => [o.step.fileIndex, o.result.verify]));
  const files = layout.files.map((f: VerifyFile, i): FileCheck => ({
    baseBlock: f.baseBlock,
    blocks: f.bytes / VERIFY_BLOCK_BYTES,
    figures: readOf.get(i),
  }));
  const { figures, runs, truncated } = combineChecks(files, plan.fileSize / VERIFY_BLOCK_BYTES, layout);
  const verdict = capacityVerdict(figures);
  const sliceBytes = chooseSliceBytes(plan.fileSize);
  const writeCurve = sliceSeries(joined(writes.map((o) => o.result)), sliceBytes);
  const readCurve = sliceSeries(joined(reads.map((o) => o.result)), sliceBytes);
  return {
    ...(layout.requestedBytes !== undefined ? { requestedBytes: layout.requestedBytes } : {}),
    plannedBytes: plan.fileSize,
    limitedBy: layout.limitedBy,
    reserveBytes: layout.reserveBytes,
    files: layout.files.length,
    ...(layout.device ? { device: true as const } : {}),
    seed: layout.seed,
    writtenBytes: writes.reduce((a, o) => a + o.result.bytesWritten, 0),
    checkedBytes: figures.checkedBlocks * VERIFY_BLOCK_BYTES,
    runs,
    runsTruncated: truncated,
    writeCurve: at(writeCurve, layout.startBytes),
    readCurve: at(readCurve, layout.startBytes),
    sliceBytes,
    // Where the fast cache runs out: bytes written before the drop, not a position.
    knee: detectKnee(writeCurve),
    verdict,
    summary: capacityText(verdict),
  };
}
