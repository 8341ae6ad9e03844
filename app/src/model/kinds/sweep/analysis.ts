// What the sweep makes of its steps: a curve of MB/s against transfer size per run, where each
// direction reaches full speed (and where it falls again), and the preset's headline averages.
import type { StepOutcome } from '../../analysis.js';
import type { Plan } from '../plan.js';
import { SWEEP_AVERAGES, type SweepPreset } from './plan.js';
import type { SweepAverage, SweepFullSpeed, SweepPoint, SweepSection } from './result.js';

/** What "full speed" means: the smallest size reaching this share of the top MB/s. */
export const FULL_SPEED_SHARE = 0.9;

function point(bs: number, of: (rw: 'read' | 'write') => StepOutcome | undefined): SweepPoint {
  const w = of('write')?.result;
  const r = of('read')?.result;
  const p: SweepPoint = { bs, writeMBps: w?.mbps ?? 0, readMBps: r?.mbps ?? 0, writeIops: w?.iops ?? 0, readIops: r?.iops ?? 0 };
  const buffered = [w, r].filter((x) => x && x.cacheMode.startsWith('buffered'));
  if (buffered.length) {
    p.cacheMode = buffered[0]!.cacheMode;
    const note = buffered.find((x) => x!.cacheNote)?.cacheNote;
    if (note) p.cacheNote = note;
  }
  return p;
}

const pickOf =
  (dir: 'read' | 'write') =>
  (p: SweepPoint): number =>
    dir === 'read' ? p.readMBps : p.writeMBps;

/** The smallest size reaching FULL_SPEED_SHARE of the top MB/s in one direction, and the top;
 *  when a larger size falls back under that share, the lowest of them (the curve does not hold). */
export function fullSpeed(points: readonly SweepPoint[], dir: 'read' | 'write'): SweepFullSpeed | undefined {
  const pick = pickOf(dir);
  const top = Math.max(0, ...points.map(pick));
  if (!(top > 0)) return undefined;
  const at = points.findIndex((p) => pick(p) >= FULL_SPEED_SHARE * top);
  const out: SweepFullSpeed = { bs: points[at]!.bs, topMBps: top };
  const low = points.slice(at + 1).reduce<SweepPoint | undefined>((lo, p) => (lo === undefined || pick(p) < pick(lo) ? p : lo), undefined);
  if (low && pick(low) < FULL_SPEED_SHARE * top) out.falls = { bs: low.bs, mbps: pick(low) };
  return out;
}

/** The preset's headline averages for one run (QuickBench's 4 KB and 20–100 MB): the mean MB/s of
 *  the rows each names, per direction; one whose rows did not all run (a --from/--to range) is left out. */
export function sweepAverages(preset: SweepPreset, points: readonly SweepPoint[]): SweepAverage[] {
  return (SWEEP_AVERAGES[preset] ?? []).flatMap((rule) => {
    const rows = rule.sizes.map((bs) => points.find((p) => p.bs === bs));
    if (rows.some((p) => p === undefined)) return [];
    const mean = (dir: 'read' | 'write'): number => rows.reduce((sum, p) => sum + pickOf(dir)(p!), 0) / rows.length;
    return [{ id: rule.id, name: rule.name, sizes: [...rule.sizes], writeMBps: mean('write'), readMBps: mean('read') }];
  });
}

export function sweepSection(plan: Plan, outcomes: readonly StepOutcome[]): SweepSection {
  const sizes = [...new Set(plan.steps.map((s) => s.spec.bs))];
  const runNumbers = [...new Set(outcomes.map((o) => o.run))];
  const preset = (plan.settings.preset ?? 'standard') as SweepPreset;
  const runs = runNumbers.map((run) => {
    const points = sizes.map((bs) =>
      point(bs, (rw) => outcomes.find((o) => o.run === run && o.step.spec.bs === bs && o.step.spec.rw === rw)),
    );
    const read = fullSpeed(points, 'read');
    const write = fullSpeed(points, 'write');
    const averages = sweepAverages(preset, points);
    return {
      run,
      points,
      ...(read ? { fullSpeedRead: read } : {}),
      ...(write ? { fullSpeedWrite: write } : {}),
      ...(averages.length > 0 ? { averages } : {}),
    };
  });
  const s = plan.settings;
  return {
    preset,
    sizes,
    qd: plan.steps[0]!.spec.qd,
    ...(s.seconds !== undefined ? { stepSeconds: s.seconds } : { stepBytes: plan.fileSize }),
    runs,
  };
}
