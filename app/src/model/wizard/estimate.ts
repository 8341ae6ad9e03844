// How long a wizard plan takes, said before it runs: the plans the runner will build for each
// format (the many-file set and a kind's own plan, the sustained write, sized to the free space a
// fresh format leaves, as they will be), timed at stated rates (eta.ts), with the rests, the common-mode pass
// and the per-format erase. The plan step and `diskdial compare` print it; the real-disk test
// holds it to a real run's time.
import { planRunSeconds, planSeconds, PLAN_RATES, type PlanRates } from '../eta.js';
import { freeAfterFormat } from '../fit.js';
import { buildPlan } from '../presets.js';
import type { PlanOptions, PlanTarget } from '../kinds/plan.js';
import type { WizardSettings } from '../settings.js';
import { wizardKindOf } from './plan-kinds.js';

/** The hash test's in-memory passes: one core, then all, two seconds each (hash-run.ts). */
const HASH_MEMORY_SECONDS = 4;

export type PlanEstimateSettings = Pick<WizardSettings, 'plan' | 'sizes' | 'runs' | 'restSeconds'> &
  Pick<Partial<WizardSettings>, 'filesSet' | 'files' | 'commonMode'>;

export interface PlanEstimate {
  seconds: number;
  /** What the many-file set or a kind's own plan was scaled to, on this disk. */
  scaled?: string;
}

/** The plan's time for `formats` formats on a disk of `diskBytes` (unknown: nothing scaled).
 *  `commonPasses`: formats that get the common-mode pass (default: all when it is on). */
export function estimatePlan(
  s: PlanEstimateSettings,
  o: { formats: number; diskBytes?: number; commonPasses?: number },
  rates: PlanRates = PLAN_RATES,
): PlanEstimate {
  const target: PlanTarget = o.diskBytes !== undefined ? freeAfterFormat(o.diskBytes) : { freeBytes: 2 ** 52, totalBytes: 2 ** 52 };
  const run = (kind: Parameters<typeof buildPlan>[0], opts: PlanOptions = {}) => buildPlan(kind, opts, target);
  const runSeconds: number[] = [];
  let scaled: string | undefined;
  let runs = s.runs;
  const own = wizardKindOf(s.plan);
  if (s.plan === 'quick' || s.plan === 'write') {
    for (const size of s.sizes) runSeconds.push(planRunSeconds(run(s.plan === 'quick' ? 'quick' : 'seq-write', { size }), rates));
  } else if (s.plan === 'cdm') {
    runSeconds.push(planRunSeconds(run('cdm'), rates));
  } else if (s.plan === 'files') {
    const plan = run('files', { preset: s.filesSet ?? 'quick', ...(s.filesSet === 'custom' && s.files ? { files: s.files } : {}) });
    runSeconds.push(planRunSeconds(plan, rates));
    scaled = plan.scaled;
  } else if (own) {
    const plan = run(own.id);
    runSeconds.push(planRunSeconds(plan, rates));
    scaled = own.wizard.scaled?.(plan);
  } else {
    // The hash test writes its file, reads it, reads and hashes it, then hashes in memory; once.
    runs = 1;
    for (const size of s.sizes) runSeconds.push(size / (rates.writeMBps * 1e6) + (2 * size) / (rates.readMBps * 1e6) + HASH_MEMORY_SECONDS);
  }
  const commonPasses = s.commonMode && s.plan !== 'hash' ? (o.commonPasses ?? o.formats) : 0;
  const seconds = planSeconds({ runSeconds, runs, restSeconds: s.restSeconds, formats: o.formats, commonPasses }, rates);
  return { seconds, ...(scaled ? { scaled } : {}) };
}
