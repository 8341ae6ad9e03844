// Test plans by kind: each kind's module (model/kinds/) says which engine specs it runs, in what
// order, on which files; this is the generic part every screen, the CLI and the runner call.
import { fitTest, type Fit, type FitInput } from './fit.js';
import { MiB, validatePlanOptions, type Plan, type PlanOptions, type PlanTarget } from './kinds/plan.js';
import { runKind, type TestKind } from './kinds/registry.js';

export {
  CDM_MODES,
  CDM_PRESETS,
  GiB,
  isPowerOfTwo,
  KiB,
  MAX_BS,
  MAX_QD,
  MAX_THREADS,
  MiB,
  MIN_BS,
  validatePlanOptions,
  type CdmMode,
  type CdmPreset,
  type Plan,
  type PlanOptions,
  type PlanSettings,
  type PlanStep,
  type PlanTarget,
} from './kinds/plan.js';
export { isTestKind, TEST_KINDS, type TestKind } from './kinds/registry.js';
export { CDM_MAX_SIZE, CDM_MIN_SIZE, CDM_PRESET_ROWS, CDM_SECONDS } from './kinds/cdm.js';
export { RANDOM_SECONDS } from './kinds/single.js';
export { SUSTAINED_DEFAULT_BYTES, SUSTAINED_MIN_BYTES } from './kinds/sustained/plan.js';
// The reserve a sized plan keeps lives with the fit rule every screen and the runner share.
export { defaultReserve } from './fit.js';

/**
 * Builds the plan for a test. The file size is rounded down to a whole number of blocks (and of
 * blocks per thread for sequential slices) so every I/O is full-sized and aligned. `target` is
 * needed by the kinds that size themselves to free space.
 */
export function buildPlan(kind: TestKind, o: PlanOptions = {}, target?: PlanTarget): Plan {
  validatePlanOptions(o);
  return runKind(kind).plan(o, target);
}

/** Whether the kind sizes its plan to the target's free space (the runner reads it first). */
export function isSized(kind: TestKind): boolean {
  return runKind(kind).sized === true;
}

/**
 * Whether a test with these options fits on the target, by the one rule in fit.ts, for every
 * screen's Start and the wizard's plan. A fixed-size test needs its file plus a small head-room
 * and is offered the largest size that fits; a sized one shrinks to free space less its reserve
 * and needs only its least. Invalid options throw as buildPlan does.
 */
export function fitPlan(
  kind: TestKind,
  o: PlanOptions,
  target: PlanTarget,
  show: Pick<FitInput, 'what' | 'choices' | 'sizeLabel'> = {},
): Fit {
  const common = { freeBytes: target.freeBytes, totalBytes: target.totalBytes, ...show };
  const k = runKind(kind);
  if (!k.sized) {
    // The size asked is what the user sees; the plan may round it down to whole blocks.
    const plan = buildPlan(kind, o);
    return fitTest({
      ...common,
      needBytes: Math.max(plan.needBytes, o.size ?? 0),
      sizing: 'fixed',
      minBytes: k.leastBytes?.(o) ?? 16 * MiB,
    });
  }
  const reserve = o.reserveBytes !== undefined ? { reserveBytes: o.reserveBytes } : {};
  try {
    const plan = buildPlan(kind, o, target);
    return fitTest({ ...common, ...reserve, needBytes: plan.needBytes, sizing: 'sized' });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
    const least = k.leastBytes?.(o) ?? 0;
    // Sized tests take whatever room there is: no smaller size to offer.
    const f = fitTest({ ...common, ...reserve, needBytes: Math.max(least, 1), sizing: 'sized' });
    return { ...f, fits: false, largestBytes: 0, reason: f.reason ?? (err as Error).message };
  }
}
