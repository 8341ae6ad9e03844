// A write curve (MB/s against bytes written) resampled into equal-byte slices, and its verdict: a
// fast-cache knee, speed that varies (heat, background work), or steady; the words for a verdict
// belong to the kind that states it (kinds/sustained/verdict.ts). The method and its thresholds are in
// docs/detailed-tests.md ("How the knee is found").
import type { SeriesPoint } from './engine-types.js';
import { median, quantile } from './stats.js';

const MiB = 1024 * 1024;

/** One slice of the sustained-write curve. */
export interface CurvePoint {
  /** bytes written at the END of this slice */
  bytes: number;
  /** MB/s (10^6 B/s) over this slice */
  mbps: number;
}

/** Resamples a time series into equal-byte slices of `sliceBytes` (last slice may be partial and is kept only if ≥ half a slice). Bytes in a bucket = mbps·1e6·width; a bucket straddling a slice boundary is split proportionally (assume constant rate within a bucket); a slice's mbps = its bytes / the time it took / 1e6. Empty or zero-throughput input → [].
 *  Bucket widths come from consecutive t values, the first bucket starting at 0. Throws RangeError
 *  on a non-positive sliceBytes, a non-finite value, a negative speed or a t that goes backwards. */
export function sliceSeries(series: readonly SeriesPoint[], sliceBytes: number): CurvePoint[] {
  if (!(sliceBytes > 0) || !Number.isFinite(sliceBytes)) {
    throw new RangeError(`sliceSeries: sliceBytes must be a positive number, got ${sliceBytes}`);
  }
  // Float sums of bucket bytes rarely land exactly on a boundary; this much short still counts.
  const eps = sliceBytes * 1e-9;
  const out: CurvePoint[] = [];
  let prevT = 0;
  let sliceStartT = 0; // time the current slice began
  let acc = 0; // bytes in the current slice so far
  let total = 0; // bytes in all completed slices
  for (const [i, p] of series.entries()) {
    if (!Number.isFinite(p.t) || !Number.isFinite(p.mbps) || p.mbps < 0) {
      throw new RangeError(`sliceSeries: point ${i} is not a finite, non-negative speed (t=${p.t}, mbps=${p.mbps})`);
    }
    if (p.t < prevT) throw new RangeError(`sliceSeries: point ${i} goes back in time (t=${p.t} after ${prevT})`);
    const rate = p.mbps * 1e6; // bytes per second
    let t = prevT;
    let left = rate * (p.t - prevT); // bytes of this bucket not yet assigned
    while (left > 0 && acc + left >= sliceBytes - eps) {
      const need = Math.max(0, sliceBytes - acc);
      t = Math.min(p.t, t + need / rate);
      total += sliceBytes;
      out.push({ bytes: total, mbps: sliceBytes / (t - sliceStartT) / 1e6 });
      left -= need;
      acc = 0;
      sliceStartT = t;
    }
    if (left > 0) acc += left;
    prevT = p.t;
  }
  if (acc >= sliceBytes / 2 - eps) out.push({ bytes: total + acc, mbps: acc / (prevT - sliceStartT) / 1e6 });
  return out;
}

/** A slice size giving roughly `target` slices (default 200) for `totalBytes`, at least 16 MiB, rounded to a whole MiB. */
export function chooseSliceBytes(totalBytes: number, target = 200): number {
  if (!(totalBytes >= 0) || !Number.isFinite(totalBytes)) {
    throw new RangeError(`chooseSliceBytes: totalBytes must be a finite number ≥ 0, got ${totalBytes}`);
  }
  if (!(target >= 1) || !Number.isFinite(target)) {
    throw new RangeError(`chooseSliceBytes: target must be ≥ 1, got ${target}`);
  }
  return Math.max(16 * MiB, Math.round(totalBytes / target / MiB) * MiB);
}

/** One run's curve and what it shows, as a result keeps it (the sustained write's runs). */
export interface CurveRun {
  run: number;
  curve: CurvePoint[];
  verdict: CurveVerdict;
  /** The verdict in plain words. */
  summary: string;
}

/** What a write curve shows: a fast-cache knee, steady speed, or speed that varies. */
export type CurveVerdict =
  | {
      kind: 'knee';
      /** bytes written before the drop */
      kneeBytes: number;
      /** median MB/s before the knee */
      beforeMBps: number;
      /** median MB/s after it */
      afterMBps: number;
      /** lowest smoothed MB/s after it */
      lowestMBps: number;
      /** (after − before)/before, negative */
      change: number;
    }
  | {
      kind: 'steady';
      /** median MB/s */
      mbps: number;
      /** true when there were too few slices to judge */
      tooShort?: boolean;
    }
  | {
      kind: 'varies';
      /** lowest smoothed MB/s */
      minMBps: number;
      /** highest smoothed MB/s */
      maxMBps: number;
      /** median of the raw slices */
      medianMBps: number;
      /** times the smoothed curve fell from the upper to the lower band (it climbed back at least once) */
      drops: number;
    };

export interface KneeOptions {
  /** a drop counts when the later level is below this fraction of the earlier one (default 0.8) */
  dropRatio?: number;
  /** max fraction of post-knee slices allowed back above the midpoint between the two levels (default 0.1);
   *  the same fraction of pre-knee slices may sit below it */
  recoverFraction?: number;
}

/** Fewer slices than this: too short to judge. */
const MIN_SLICES = 8;
/** Binary segmentation depth: the whole curve, its halves, its quarters. */
const SPLIT_DEPTH = 3;
/** Hysteresis half-width of the "varies" bands, as a fraction of the p10–p90 range. */
const BAND = 0.15;
/** The p10–p90 range must exceed this fraction of the median for "varies". */
const MIN_VARIATION = 0.25;
/** ...and exceed this many times the typical distance of raw slices from the smoothed curve. */
const MIN_SWING_OVER_JITTER = 6;

/** Judges a sustained-write curve: a fast-cache knee, steady, or varying (see the module header for the rule). */
export function detectKnee(curve: readonly CurvePoint[], opts: KneeOptions = {}): CurveVerdict {
  const dropRatio = opts.dropRatio ?? 0.8;
  const recoverFraction = opts.recoverFraction ?? 0.1;
  if (!(dropRatio > 0 && dropRatio <= 1)) throw new RangeError(`detectKnee: dropRatio must be in (0, 1], got ${dropRatio}`);
  if (!(recoverFraction >= 0 && recoverFraction < 1)) {
    throw new RangeError(`detectKnee: recoverFraction must be in [0, 1), got ${recoverFraction}`);
  }
  const raw = curve.map((p, i) => {
    if (!Number.isFinite(p.mbps) || !Number.isFinite(p.bytes)) {
      throw new RangeError(`detectKnee: slice ${i} is not finite (bytes=${p.bytes}, mbps=${p.mbps})`);
    }
    return p.mbps;
  });
  const n = raw.length;
  if (n < MIN_SLICES) return { kind: 'steady', mbps: median(raw), tooShort: true };

  const s = runningMedian(raw, Math.max(3, makeOdd(Math.round(n / 40))));
  const m = Math.max(2, Math.ceil(0.02 * n));

  // 3–4: candidates by binary segmentation; the earliest that passes the knee test wins.
  const candidates: Candidate[] = [];
  segment(s, 0, n, m, SPLIT_DEPTH, candidates);
  candidates.sort((x, y) => x.k - y.k);
  for (const { k, a, b } of candidates) {
    // A drop within the stretch it split (else it is a split of noise on one level)...
    if (!(median(raw.slice(k, b)) < dropRatio * median(raw.slice(a, k)))) continue;
    // ...and across the whole curve.
    const before = median(raw.slice(0, k));
    const after = median(raw.slice(k));
    if (!(before > 0) || !(after < dropRatio * before)) continue;
    const mid = (before + after) / 2;
    const backUp = countIf(s, k, n, (v) => v > mid);
    const lowEarly = countIf(s, 0, k, (v) => v < mid);
    if (backUp > recoverFraction * (n - k) || lowEarly > recoverFraction * k) continue;
    // The fall happens here, not later: the first m smoothed slices after it are mostly below
    // the midpoint (else noise in the fast level, shortly before the real drop, would pass).
    if (!(median(s.slice(k, k + m)) < mid)) continue;
    let lowest = Infinity;
    for (let i = k; i < n; i++) lowest = Math.min(lowest, s[i] as number);
    return {
      kind: 'knee',
      kneeBytes: (curve[k - 1] as CurvePoint).bytes,
      beforeMBps: before,
      afterMBps: after,
      lowestMBps: lowest,
      change: (after - before) / before,
    };
  }

  // 5: repeated falls from the upper to the lower band.
  const med = median(raw);
  const p10 = quantile(s, 0.1);
  const p90 = quantile(s, 0.9);
  // Slice-to-slice jitter: how far raw slices typically sit from the smoothed curve. Pure
  // jitter also spreads the smoothed curve a little; a real swing is several times wider.
  const jitter = median(raw.map((v, i) => Math.abs(v - (s[i] as number))));
  if (med > 0 && (p90 - p10) / med > MIN_VARIATION && p90 - p10 > MIN_SWING_OVER_JITTER * jitter) {
    const centre = (p10 + p90) / 2;
    const upper = centre + BAND * (p90 - p10);
    const lower = centre - BAND * (p90 - p10);
    const { drops, recoveries } = countSwings(s, lower, upper, m);
    if (recoveries >= 1) {
      let min = Infinity;
      let max = -Infinity;
      for (const v of s) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      return { kind: 'varies', minMBps: min, maxMBps: max, medianMBps: med, drops };
    }
  }

  // 6
  return { kind: 'steady', mbps: med };
}

/** Index of the best two-level split of s[a, b) with at least m slices each side, or -1. */
function bestSplit(s: readonly number[], a: number, b: number, m: number): number {
  if (b - a < 2 * m) return -1;
  // Prefix sums over the segment: SSE of a flat fit to [i, j) is Σx² − (Σx)²/len, and Σx² is
  // the same for every split, so minimising SSE means maximising the sum of (Σx)²/len.
  const len = b - a;
  const sum = new Float64Array(len + 1);
  for (let i = 0; i < len; i++) sum[i + 1] = (sum[i] as number) + (s[a + i] as number);
  const totalSum = sum[len] as number;
  let best = -1;
  let bestScore = -Infinity;
  for (let j = m; j <= len - m; j++) {
    const left = sum[j] as number;
    const right = totalSum - left;
    const score = (left * left) / j + (right * right) / (len - j);
    if (score > bestScore) {
      bestScore = score;
      best = a + j;
    }
  }
  return best;
}

/** A change point and the stretch [a, b) of the curve it best splits. */
interface Candidate {
  k: number;
  a: number;
  b: number;
}

/** Binary segmentation: the best split of [a, b), then of each side, `depth` levels deep. */
function segment(s: readonly number[], a: number, b: number, m: number, depth: number, out: Candidate[]): void {
  if (depth === 0) return;
  const k = bestSplit(s, a, b, m);
  if (k < 0) return;
  out.push({ k, a, b });
  segment(s, a, k, m, depth - 1, out);
  segment(s, k, b, m, depth - 1, out);
}

/** Falls from high to low: a slice above `upper` makes the state high, one below `lower` makes
 *  it low, anything between keeps it. Stays shorter than `minRun` slices are noise and ignored.
 *  `drops`: lasting high stays followed by a lasting low one; `recoveries`: lasting low stays,
 *  after a drop, followed by a lasting high one. */
function countSwings(s: readonly number[], lower: number, upper: number, minRun: number): { drops: number; recoveries: number } {
  const runs: { high: boolean; len: number }[] = [];
  let state: boolean | undefined;
  for (const v of s) {
    if (v > upper) state = true;
    else if (v < lower) state = false;
    if (state === undefined) continue;
    const last = runs[runs.length - 1];
    if (last && last.high === state) last.len++;
    else runs.push({ high: state, len: 1 });
  }
  let drops = 0;
  let recoveries = 0;
  let prev: boolean | undefined;
  for (const r of runs) {
    if (r.len < minRun) continue;
    if (prev === true && !r.high) drops++;
    if (prev === false && r.high && drops > 0) recoveries++;
    prev = r.high;
  }
  return { drops, recoveries };
}

/** Running median of odd window w; near the ends the window is cut short at the edge. */
function runningMedian(xs: readonly number[], w: number): number[] {
  const h = (w - 1) / 2;
  return xs.map((_, i) => median(xs.slice(Math.max(0, i - h), Math.min(xs.length, i + h + 1))));
}

function makeOdd(k: number): number {
  return k % 2 === 0 ? k + 1 : k;
}

function countIf(xs: readonly number[], a: number, b: number, pred: (v: number) => boolean): number {
  let c = 0;
  for (let i = a; i < b; i++) if (pred(xs[i] as number)) c++;
  return c;
}
