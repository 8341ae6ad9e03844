// How sure a timed figure is: a 95 % interval for a step's MB/s from its own series (batch means,
// so that neighbouring buckets that move together do not make it look surer than it is), and one
// across runs from the runs' figures (Student t). And the stop rule that ends a step once its
// interval is narrow enough and the rate shows no trend. The method is stated in
// docs/detailed-tests.md ("How sure a figure is").
import { mean, stdev, studentTwoSidedCritical } from './stats.js';

/** A 95 % interval around a figure, as the document keeps it beside the figure. */
export interface FigureInterval {
  /** Half the interval's width, in the figure's unit (MB/s). */
  halfWidth: number;
  /** halfWidth / figure (0.018 = ± 1.8 %); 0 for a figure of 0. */
  relative: number;
  /** series: batch means of one step's series; runs: Student t over the runs' figures. */
  method: 'series' | 'runs';
  /** Batches (series) or runs the interval stands on. */
  n: number;
  /** Buckets per batch (series only). */
  batchLength?: number;
}

/** The fewest batches an interval stands on: fewer leaves Student t too wide to be of use. */
export const MIN_BATCHES = 10;
/** Batch means whose lag-1 correlation is below this are treated as independent. */
export const MAX_BATCH_CORRELATION = 0.1;
const ALPHA = 0.05;

/** Lag-1 autocorrelation (the usual biased estimator); 0 when the values do not vary. */
export function lag1Correlation(xs: readonly number[]): number {
  const n = xs.length;
  if (n < 3) return 0;
  const m = mean(xs);
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = (xs[i] as number) - m;
    den += d * d;
    if (i > 0) num += d * ((xs[i - 1] as number) - m);
  }
  return den === 0 ? 0 : num / den;
}

/** Means of consecutive batches of `length` values; a remainder at the start is left out (the
 *  start is where a step is least settled). */
function batchMeans(xs: readonly number[], length: number): number[] {
  const k = Math.floor(xs.length / length);
  const skip = xs.length - k * length;
  const out: number[] = [];
  for (let i = 0; i < k; i++) out.push(mean(xs.slice(skip + i * length, skip + (i + 1) * length)));
  return out;
}

/**
 * The 95 % interval of the mean of a series of equal-width samples (per-bucket MB/s) by batch
 * means: the batch length starts at 1 and doubles while the batch means' lag-1 correlation is
 * above MAX_BATCH_CORRELATION and at least 2 × MIN_BATCHES batches would remain; the half-width is
 * t(0.975, k − 1) · sd(batch means) / √k, the variance widened by (1 + r) / (1 − r) (the AR(1)
 * factor) when the batch means still correlate positively. Undefined with fewer than MIN_BATCHES
 * samples. `figure` scales the relative width (default: the series' mean).
 */
export function seriesInterval(rates: readonly number[], figure?: number): FigureInterval | undefined {
  if (rates.length < MIN_BATCHES) return undefined;
  let length = 1;
  let batches = batchMeans(rates, length);
  let r = lag1Correlation(batches);
  while (r > MAX_BATCH_CORRELATION && Math.floor(rates.length / (length * 2)) >= 2 * MIN_BATCHES) {
    length *= 2;
    batches = batchMeans(rates, length);
    r = lag1Correlation(batches);
  }
  const k = batches.length;
  // A constant series has no width (rounding in the mean must not give it one).
  if (Math.min(...rates) === Math.max(...rates)) return { halfWidth: 0, relative: 0, method: 'series', n: k, batchLength: length };
  const inflate = r > 0 ? (1 + r) / (1 - Math.min(r, 0.9)) : 1;
  const halfWidth = studentTwoSidedCritical(ALPHA, k - 1) * Math.sqrt(inflate) * (stdev(batches) / Math.sqrt(k));
  const centre = figure ?? mean(rates);
  return { halfWidth, relative: centre > 0 ? halfWidth / centre : 0, method: 'series', n: k, batchLength: length };
}

/** The 95 % interval of the mean of independent runs' figures (Student t, n − 1 df); undefined
 *  for fewer than 2 runs. */
export function runsInterval(figures: readonly number[]): FigureInterval | undefined {
  const n = figures.length;
  if (n < 2) return undefined;
  const halfWidth = studentTwoSidedCritical(ALPHA, n - 1) * (stdev(figures) / Math.sqrt(n));
  const m = mean(figures);
  return { halfWidth, relative: m > 0 ? halfWidth / m : 0, method: 'runs', n };
}

/** The fewest runs an interval across runs is shown for. With two, Student t has one degree of
 *  freedom and the 95 % interval is 12.7 standard errors wide (± 254 % for runs of 612 and 918):
 *  a width that tells a reader nothing the two figures do not say better. */
export const MIN_INTERVAL_RUNS = 3;

/** The interval of a figure shown as the mean of its runs: across the runs (Student t) from
 *  MIN_INTERVAL_RUNS on, the one run's own (batch means) for one, none for two (the two figures
 *  themselves are shown instead: twoRunsText). */
export function figureInterval(runs: ReadonlyArray<{ mbps: number; interval?: FigureInterval }>): FigureInterval | undefined {
  if (runs.length >= MIN_INTERVAL_RUNS) return runsInterval(runs.map((r) => r.mbps));
  return runs.length === 1 ? runs[0]!.interval : undefined;
}

/** Per-bucket MB/s of an engine series, the last bucket left out when it is shorter than half a
 *  bucket (a partial bucket's rate is noisier than the rest). */
export function seriesRates(series: ReadonlyArray<{ t: number; mbps: number }>): number[] {
  if (series.length < 2) return series.map((p) => p.mbps);
  const width = series[1]!.t - series[0]!.t || series[0]!.t;
  const last = series.length - 1;
  const lastWidth = series[last]!.t - series[last - 1]!.t;
  return (lastWidth < width / 2 ? series.slice(0, last) : series).map((p) => p.mbps);
}

/** What the stop rule is asked to do (a step's spec carries it as data). */
export interface SettleSpec {
  /** The relative half-width to reach, 0.03 = ± 3 %. */
  precision: number;
  /** The least time measured before the rule may stop a step, seconds. */
  minSeconds: number;
}

/** How a step under the stop rule ended. */
export interface SettleOutcome {
  precision: number;
  /** True when the rule stopped the step; false when it ran to its full time without settling. */
  settled: boolean;
}

/** The rule's conditions must hold at this check and at the checks 2 and 4 buckets before it. */
const STABLE_CHECKS = 3;
/** A trend counts when its slope is more than this many standard errors from none. */
const TREND_T = 2.5;
const CHECK_SPACING = 2;
/** A drift across the window under precision / this is too small to matter, significant or not. */
const NEGLIGIBLE_DRIFT = 4;

/** The conditions at one point: an interval within the precision, and the first and second half
 *  of the series agreeing (within twice the interval and within half the precision: the interval
 *  alone widens to take in a slow trend as if it were noise), so a rate that
 *  drifts or has fallen off a cache cliff does not count as settled. */
function settledAt(rates: readonly number[], spec: SettleSpec): boolean {
  const iv = seriesInterval(rates);
  if (!iv || iv.relative > spec.precision) return false;
  // No trend: the least-squares slope is within 2.5 standard errors of none (a drift is
  // significant however the noise falls, where the halves' means let 0.35 % of drifts pass), and the
  // drift it draws across the window is within the precision.
  const n = rates.length;
  const m = mean(rates);
  const mid = (n - 1) / 2;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (i - mid) ** 2;
    sxy += (i - mid) * (rates[i]! - m);
  }
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (rates[i]! - m - slope * (i - mid)) ** 2;
  const se = Math.sqrt(sse / Math.max(1, n - 2) / sxx);
  if (!(m > 0)) return false;
  const drift = (Math.abs(slope) * (n - 1)) / m;
  // A drift within a quarter of the precision passes however significant: over hundreds of
  // buckets any slow change in the machine's load is, and the step then never settled.
  return drift <= spec.precision && (drift <= spec.precision / NEGLIGIBLE_DRIFT || Math.abs(slope) <= TREND_T * se);
}

/** The stop rule: true when at least spec.minSeconds have been measured and the series so far (equal
 *  buckets, e.g. the engine's 100 ms progress) has settled at this check and at the
 *  STABLE_CHECKS − 1 checks before it. Pure, so the same series always gives the same answer. */
export function isSettled(rates: readonly number[], elapsedSeconds: number, spec: SettleSpec): boolean {
  if (elapsedSeconds < spec.minSeconds) return false;
  for (let c = 0; c < STABLE_CHECKS; c++) {
    if (!settledAt(rates.slice(0, rates.length - c * CHECK_SPACING), spec)) return false;
  }
  return true;
}

/** The Fast profile's precision, and --precision's default: ± 3 %. */
export const DEFAULT_PRECISION = 0.03;
/** The least a step under the stop rule is measured, seconds. */
export const SETTLE_MIN_SECONDS = 1;
