// A figure as every report view names and rounds it: the Metric shape, one value per row, sizes as
// a person reads them ("1 GB", "64 MiB"). A leaf, so the kinds' rows and card layouts use it too.
import { mean } from '../stats.js';
import { groupedNumber, formatMBpsFigure } from '../units.js';
import type { FigureInterval, SettleOutcome } from '../precision.js';
import type { Direction } from '../verdict/compare.js';

export type MetricUnit = 'MB/s' | 'IOPS' | 'µs' | 'ms' | 'GB' | '%' | 'KiB' | 'files/s';

export interface Metric {
  /** Stable across documents of the same kind: "SEQ1M Q8T1 Read/mbps". Compare joins on it. */
  key: string;
  /** The row a person reads: "SEQ1M Q8T1 Read", "Write", "Files Read · per-file overhead". */
  label: string;
  /** The test or section it belongs to ("SEQ1M Q8T1 Read", "Sustained", "Hash"). */
  group: string;
  /** Which figure of the group: mbps, iops, meanUs, p99Us, cacheGB, afterMBps… */
  measure: string;
  unit: MetricUnit;
  /** Which way is better: 'higher' for rates, 'lower' for latencies and overheads, 'none' for a
   *  figure that only describes (never better or worse). Decides a compare's sense. */
  direction: Direction;
  /** One value per run, in run order (a single-run result has one). */
  values: number[];
  /** The headline figures (MB/s rows); the rest are detail a table can show on demand. */
  primary: boolean;
  /** The 95 % interval of the shown value (a test's MB/s: across runs, or one run's own series). */
  interval?: FigureInterval;
}

/** A kind's own figures under one group: `m(measure, label, unit, higher, values, primary)` is
 *  the metric "<group>/<measure>", labelled "<group> · <label>". */
export function groupMetrics(group: string) {
  return (measure: string, label: string, unit: MetricUnit, higher: boolean, values: number[], primary: boolean): Metric => ({
    key: `${group}/${measure}`,
    label: `${group} · ${label}`,
    group,
    measure,
    unit,
    direction: higher ? 'higher' : 'lower',
    values,
    primary,
  });
}

/** The one figure of a metric a row shows: the mean across runs (a single run's value); for a
 *  transfer size (KiB, a position on the sweep's ladder) the median run's, a size the ladder has. */
export function metricValue(m: Metric): number {
  return m.unit === 'KiB' ? ladderMedian(m.values) : mean(m.values);
}

/** The median of ladder positions as one of them: the lower middle of an even count (the mean
 *  of two positions, as of several, is no size the sweep ran: "2,218.7 ± 1,798.1 KiB"). */
export function ladderMedian(values: readonly number[]): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length === 0 ? NaN : v[Math.floor((v.length - 1) / 2)]!;
}

/** A figure with the precision its size deserves: 1,234 · 123.4 · 12.34 · 0.123 (no unit). */
export function formatFigure(value: number, unit?: MetricUnit): string {
  if (!Number.isFinite(value)) return '—';
  const a = Math.abs(value);
  // A transfer size (the sweep's full-speed point) is a whole number of KiB, or half of one.
  if (unit === 'KiB') return groupedNumber(value, 0, 1);
  const digits = unit === 'GB' ? (a >= 100 ? 0 : a >= 10 ? 1 : 2) : a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return groupedNumber(value, digits);
}

/** A figure in a fixed-width column of a text export ("-" when there is none). */
export const fx = (x: number, digits: number, width: number): string => (Number.isFinite(x) ? x.toFixed(digits) : '-').padStart(width);

/** A size as it was chosen: one asked in binary (a whole number of MiB below 1 GiB, or of
 *  hundredths of a GiB: 48 MiB, 100 MiB, 1.5 GiB) in MiB/GiB, any other (1 GB, 256 MB, 750 MB) in GB/MB. Name sizes
 *  from what was asked (settings.size, a kind's requested bytes), not from what an aligned run
 *  moved: a guess from bytes cannot tell 47 MiB chosen from "50 MB" aligned down. `decimalOnly`:
 *  a size nobody chose (a volume, RAM, bytes moved), in GB/MB. */
export function sizeText(bytes: number, decimalOnly = false): string {
  const GiB = 1024 ** 3;
  const MiB = 1024 ** 2;
  // A document saved before settings.size was the size asked holds Blackmagic's "1 GB" as the
  // 953 MiB it ran: within 0.1 % of a whole number of GB, it was that number.
  const wholeGB = Math.round(bytes / 1e9);
  if (wholeGB >= 1 && wholeGB < 1000 && bytes % (GiB / 4) !== 0 && Math.abs(bytes - wholeGB * 1e9) <= 0.001 * wholeGB * 1e9)
    return `${wholeGB} GB`;
  if (!decimalOnly && bytes >= GiB && exactHundredths(bytes, GiB)) return `${+(bytes / GiB).toFixed(2)} GiB`;
  if (!decimalOnly && bytes >= MiB && bytes < GiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1e12) return `${round(bytes / 1e12)} TB`;
  if (bytes >= 1e9) return `${round(bytes / 1e9)} GB`;
  if (bytes >= 1e6) return `${round(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${round(bytes / 1e3)} kB`;
  return `${bytes} B`;
}

/** Whether `bytes` is a whole number of hundredths of `unit`, to the byte a typed "1.1 GiB" was
 *  rounded to. */
function exactHundredths(bytes: number, unit: number): boolean {
  return Math.abs(Math.round((bytes * 100) / unit) * (unit / 100) - bytes) <= 1;
}

function round(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1).replace(/\.0$/, '') : x.toFixed(2).replace(/\.?0+$/, '');
}

/** A 95 % interval as every surface shows it: "± 1.8 %" (whole percent from 10 %); '' without one. */
export function intervalText(iv: Pick<FigureInterval, 'relative'> | undefined): string {
  if (!iv || !Number.isFinite(iv.relative)) return '';
  const pct = iv.relative * 100;
  return `± ${pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)} %`;
}

/** Two runs' MB/s in plain words, where an interval would be too wide to use (MIN_INTERVAL_RUNS):
 *  "runs 612 and 918", in run order, rounded as the dials and aggregates are; '' unless two. */
export function twoRunsText(mbps: readonly number[]): string {
  return mbps.length === 2 ? `runs ${formatMBpsFigure(mbps[0]!)} and ${formatMBpsFigure(mbps[1]!)}` : '';
}

/** A figure with its unit and interval: "1,412 MB/s ± 1.8 %". */
export function figureWithInterval(value: number, unit: MetricUnit, iv: Pick<FigureInterval, 'relative'> | undefined): string {
  const pm = intervalText(iv);
  return `${formatFigure(value, unit)} ${unit}${pm ? ` ${pm}` : ''}`;
}

/** How a step under the stop rule ended, with the precision reached: "settled in 1.4 s: ± 2.1 %",
 *  "did not settle within 5 s: ± 9 %". */
export function settleText(t: { seconds: number; settle?: SettleOutcome; interval?: Pick<FigureInterval, 'relative'> }): string {
  if (!t.settle) return intervalText(t.interval);
  const reached = intervalText(t.interval) || 'no interval (under 1 s)';
  return t.settle.settled
    ? `settled in ${t.seconds.toFixed(1)} s: ${reached}`
    : `did not settle within ${Math.round(t.seconds)} s: ${reached}`;
}
