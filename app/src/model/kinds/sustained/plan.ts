// The sustained write's plan: one file, written once from start to end with large blocks, as big
// as asked or as free space less the reserve allows, whichever is smaller. Not time-bounded: the
// point is to write past the drive's fast cache, however long that takes.
import type { EngineSpec } from '../../engine-types.js';
import { inputError } from '../../errors.js';
import { formatBytes } from '../../units.js';
import { echoSettings, MiB, stepName, usable, type Plan, type PlanOptions, type PlanTarget } from '../plan.js';

/** How much to write at most by default, and the least worth a curve. */
export const SUSTAINED_DEFAULT_BYTES = 50e9;
export const SUSTAINED_MIN_BYTES = 64 * 1024 * 1024;

/** How the size was chosen: the request, or free space less the reserve when that is smaller. */
export interface SustainedSizing {
  requestedBytes: number;
  limitedBy: 'size' | 'free-space';
  reserveBytes: number;
}

declare module '../plan.js' {
  interface Plan {
    /** sustained test: how the size was chosen. */
    sustained?: SustainedSizing;
  }
}

export function sustainedPlan(o: PlanOptions, target?: PlanTarget): Plan {
  const bs = o.bs ?? MiB;
  const qd = o.qd ?? 8;
  const threads = o.threads ?? 1;
  if (o.seconds !== undefined) throw inputError('the sustained-write test is bounded by bytes, not seconds; use --size');
  const requested = o.size ?? SUSTAINED_DEFAULT_BYTES;
  const { usable: room, reserve } = usable(o, target, 'sustained');
  const limitedBy = room < requested ? 'free-space' : 'size';
  const unit = bs * threads;
  const fileSize = Math.floor(Math.min(requested, room) / unit) * unit;
  if (fileSize < Math.max(unit, Math.min(SUSTAINED_MIN_BYTES, requested))) {
    throw inputError(
      `Not enough free space for a sustained-write test: ${formatBytes(target!.freeBytes)} free, ${formatBytes(reserve)} kept in reserve. Free some space or lower the reserve.`,
      'ENOSPC',
    );
  }
  const spec: Omit<EngineSpec, 'path'> = {
    rw: 'write',
    bs,
    qd,
    threads,
    fileSize,
    pattern: o.pattern ?? 'random',
    cache: o.cache ?? 'auto',
    keepFile: false,
  };
  if (o.warmupSeconds !== undefined) spec.warmupSeconds = o.warmupSeconds;
  const notes =
    limitedBy === 'free-space'
      ? [
          `Writing ${formatBytes(fileSize)}, not ${formatBytes(requested)}: that is what free space allows with ${formatBytes(reserve)} kept free.`,
        ]
      : [];
  const settings = echoSettings(o, fileSize, spec.pattern, spec.cache);
  settings.reserveBytes = reserve;
  return {
    kind: 'sustained',
    fileSize,
    needBytes: fileSize,
    steps: [{ name: stepName('SEQ', bs, qd, threads, 'Sustained Write'), spec }],
    settings,
    notes,
    sustained: { requestedBytes: requested, limitedBy, reserveBytes: reserve },
  };
}
