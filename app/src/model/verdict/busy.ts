// Was the machine busy while the tests ran? Decided from the figures the runner recorded
// (ResultContext.machine), data first, words from busyFlag(). The flag is information: it is said
// on every surface, and on a paced (video) result says a late frame can be the CPU's, but it
// never turns a ✓ or a figure — those stay decided by what was measured.
// Browser-safe: no node:* imports.
import type { MachineLoad, ResultFlag } from '../result.js';
import type { Claim } from './claim.js';
import { kindOf } from '../kinds/registry.js';

/** Other programs' CPU use, in cores on average, from which they count at all: less took nothing
 *  a test needed (a desktop's background, a FUSE daemon serving the test itself). */
export const OTHERS_MIN_CORES = 0.5;
/** The share of every core in use from which the machine had no CPU to spare. */
export const SATURATED_SHARE = 0.9;

export const BUSY_RULE =
  `The machine was busy when other programs used at least ${OTHERS_MIN_CORES} of a core on average while the tests ran, ` +
  `and either the machine's cores were ${SATURATED_SHARE * 100} % busy on average (no CPU to spare) or the 1-minute load ` +
  'average exceeded the cores plus the test’s own threads.';

export type BusyOutcome = 'busy' | 'quiet';

export interface BusyVerdict extends Claim<'trust', BusyOutcome> {
  figures: { cores: number; load: number; othersCores: number; ownCores: number; usedShare: number };
}

/** The busy verdict of the recorded figures; undefined when nothing was recorded or no time ran. */
export function busyVerdict(m: MachineLoad | undefined): BusyVerdict | undefined {
  if (!m || !(m.wallSeconds > 0) || !(m.cores > 0)) return undefined;
  const othersCores = Math.max(0, m.othersCpuSeconds) / m.wallSeconds;
  const ownCores = Math.max(0, m.ownCpuSeconds) / m.wallSeconds;
  const usedShare = Math.max(0, m.machineCpuSeconds) / m.wallSeconds / m.cores;
  const competed = othersCores >= OTHERS_MIN_CORES && (usedShare >= SATURATED_SHARE || m.loadMax > m.cores + m.ownThreads);
  return {
    family: 'trust',
    outcome: competed ? 'busy' : 'quiet',
    figures: { cores: m.cores, load: m.loadMax, othersCores, ownCores, usedShare },
    rule: BUSY_RULE,
  };
}

const one = (x: number): string => (Math.round(x * 10) / 10).toFixed(1);

/** "load 5.2 on 2 cores": how busy, in the flag's words. */
function loadWords(v: BusyVerdict): string {
  const f = v.figures;
  return f.load > 0 ? `load ${one(f.load)} on ${f.cores} cores` : `${f.cores} cores`;
}

/** The flag a busy verdict raises, in its words; undefined when the machine was quiet. A paced
 *  (video) result hears what it means for its frames. */
export function busyFlag(m: MachineLoad | undefined, kind?: string): ResultFlag | undefined {
  const v = busyVerdict(m);
  if (v?.outcome !== 'busy') return undefined;
  const f = v.figures;
  const use = `other programs used ${one(f.othersCores)} cores on average while the tests ran (DiskDial ${one(f.ownCores)})`;
  const means =
    kind !== undefined && kindOf(kind)?.paced
      ? 'A late or dropped frame of this paced test can be the CPU’s, not the disk’s.'
      : 'The figures can be lower than the disk gives; a paced test can see late frames that are the CPU’s.';
  return {
    code: 'machine-busy',
    severity: 'info',
    message: `The machine was busy: ${loadWords(v)}; ${use}. ${means}`,
    fix: 'Close other programs (or wait for them to finish) and run the test again, paced video tests above all.',
  };
}
