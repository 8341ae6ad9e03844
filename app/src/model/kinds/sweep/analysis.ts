// What the sweep makes of its steps: a curve of MB/s against transfer size per run, and where each
// direction reaches full speed.
import type { StepOutcome } from '../../analysis.js';
import type { Plan } from '../plan.js';
import type { SweepPreset } from './plan.js';
import type { SweepFullSpeed, SweepPoint, SweepSection } from './result.js';

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

/** The smallest size reaching FULL_SPEED_SHARE of the top MB/s in one direction, and the top. */
export function fullSpeed(points: readonly SweepPoint[], dir: 'read' | 'write'): SweepFullSpeed | undefined {
  const pick = (p: SweepPoint): number => (dir === 'read' ? p.readMBps : p.writeMBps);
  const top = Math.max(0, ...points.map(pick));
  if (!(top > 0)) return undefined;
  const first = points.find((p) => pick(p) >= FULL_SPEED_SHARE * top)!;
  return { bs: first.bs, topMBps: top };
}

export function sweepSection(plan: Plan, outcomes: readonly StepOutcome[]): SweepSection {
  const sizes = [...new Set(plan.steps.map((s) => s.spec.bs))];
  const runNumbers = [...new Set(outcomes.map((o) => o.run))];
  const runs = runNumbers.map((run) => {
    const points = sizes.map((bs) =>
      point(bs, (rw) => outcomes.find((o) => o.run === run && o.step.spec.bs === bs && o.step.spec.rw === rw)),
    );
    const read = fullSpeed(points, 'read');
    const write = fullSpeed(points, 'write');
    return { run, points, ...(read ? { fullSpeedRead: read } : {}), ...(write ? { fullSpeedWrite: write } : {}) };
  });
  const s = plan.settings;
  return {
    preset: (s.preset ?? 'standard') as SweepPreset,
    sizes,
    qd: plan.steps[0]!.spec.qd,
    ...(s.seconds !== undefined ? { stepSeconds: s.seconds } : { stepBytes: plan.fileSize }),
    runs,
  };
}
