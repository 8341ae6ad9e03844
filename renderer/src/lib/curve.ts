// The sustained-write curve shaped for drawing: MB/s against decimal GB written, one line per
// run, at most CURVE_POINTS points a line; live points kept bounded while a long run streams;
// and the verdict as marks — where the fast cache ran out, the speeds before and after, or the
// band a throttling drive swings in. Charts only draw what these functions return.
import type { CurvePoint, CurveRun } from '@model/knee';
import { formatGB } from './figure-format';
import { formatMBpsFigure } from '@model/units';

/** Points drawn per line at most. */
export const CURVE_POINTS = 600;
/** Live points kept per job; beyond it neighbours are averaged in pairs. */
export const LIVE_CAP = 4000;

/** A progress sample of the running job: bytes written so far in its run, and MB/s just now. */
export interface LivePoint {
  run: number;
  bytes: number;
  mbps: number;
}

/** One point of a drawn line: GB written (10^9 bytes) and MB/s. */
export interface ChartPoint {
  gb: number;
  mbps: number;
}

export interface CurveLine {
  run: number;
  points: ChartPoint[];
}

/** Halves the live points by averaging neighbours of the same run: bounded memory, shape kept. */
export function thinLive(points: readonly LivePoint[]): LivePoint[] {
  const out: LivePoint[] = [];
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1];
    if (b && b.run === a.run) {
      out.push({ run: a.run, bytes: b.bytes, mbps: (a.mbps + b.mbps) / 2 });
      i++;
    } else out.push(a);
  }
  return out;
}

/** At most `max` points: consecutive buckets averaged, each placed at its last x. */
export function downsampleCurve(points: readonly CurvePoint[], max = CURVE_POINTS): CurvePoint[] {
  if (points.length <= max) return points.slice();
  const out: CurvePoint[] = [];
  const size = points.length / max;
  for (let b = 0; b < max; b++) {
    const from = Math.floor(b * size);
    const to = Math.max(from + 1, Math.min(points.length, Math.floor((b + 1) * size)));
    let sum = 0;
    for (let i = from; i < to; i++) sum += points[i]!.mbps;
    out.push({ bytes: points[to - 1]!.bytes, mbps: sum / (to - from) });
  }
  return out;
}

function toChart(points: readonly CurvePoint[]): ChartPoint[] {
  return downsampleCurve(points).map((p) => ({ gb: p.bytes / 1e9, mbps: p.mbps }));
}

/** A finished document's curves, one line per run. */
export function resultLines(runs: readonly CurveRun[]): CurveLine[] {
  return runs.map((r) => ({ run: r.run, points: toChart(r.curve) }));
}

/** The running job's live samples, one line per run. */
export function liveLines(points: readonly LivePoint[]): CurveLine[] {
  const runs = [...new Set(points.map((p) => p.run))].sort((a, b) => a - b);
  return runs.map((run) => ({ run, points: toChart(points.filter((p) => p.run === run)) }));
}

export interface KneeMark {
  run: number;
  gb: number;
  label: string;
}
export interface LevelMark {
  mbps: number;
  label: string;
}
export interface VerdictMarks {
  knees: KneeMark[];
  /** Dashed speeds before and after the first run's knee. */
  levels: LevelMark[];
  /** A throttling drive's min–max band (first run). */
  band: { min: number; max: number } | null;
}

/** Marks for the chart: every run's knee as a vertical line (a later run's knee coming
 *  earlier says the cache had not drained); the first run's levels or band. */
export function verdictMarks(runs: ReadonlyArray<Pick<CurveRun, 'run' | 'verdict'>>): VerdictMarks {
  const marks: VerdictMarks = { knees: [], levels: [], band: null };
  runs.forEach(({ run, verdict: v }, i) => {
    if (v.kind === 'knee') {
      // Below 1 GB the amount reads better in MB ("cache full ≈ 84 MB").
      const amount = v.kneeBytes >= 1e9 ? `${formatGB(v.kneeBytes)} GB` : `${Math.round(v.kneeBytes / 1e6).toLocaleString('en-US')} MB`;
      marks.knees.push({
        run,
        gb: v.kneeBytes / 1e9,
        label: runs.length > 1 ? `run ${run}: cache full ≈ ${amount}` : `cache full ≈ ${amount}`,
      });
      if (i === 0) {
        marks.levels.push(
          { mbps: v.beforeMBps, label: `before ${formatMBpsFigure(v.beforeMBps)} MB/s` },
          { mbps: v.afterMBps, label: `after ${formatMBpsFigure(v.afterMBps)} MB/s` },
        );
      }
    } else if (v.kind === 'varies' && i === 0) {
      marks.band = { min: v.minMBps, max: v.maxMBps };
    }
  });
  return marks;
}
