// The comparison verdict: one figure's runs against a baseline's runs of the same figure, decided
// on ratios. Benchmark figures spread multiplicatively (a cached run is 7× the others, not +900
// MB/s), so the runs are compared on the log scale: the change is the ratio of geometric means,
// and its 95 % interval comes from Welch's t on the log values. Three outcomes: a real change, no
// difference (the whole interval within ±5 %: an equivalence test), or inconclusive with reasons.
// Every compare cell, finding and campaign verdict of every surface is decided here; the words
// are compare-words.ts's. Browser-safe: no node:* imports.
import type { Claim } from './claim.js';
import { mean, spread, stdev, studentTwoSidedCritical, welchError } from '../stats.js';

/** Which way is better for a figure; 'none' for one that only describes (the transfer size at
 *  which a sweep reaches 90 % of its own top speed): it is never better or worse. */
export type Direction = 'higher' | 'lower' | 'none';

export type CompareOutcome = 'change' | 'same' | 'inconclusive';

/** Which way a real change points: better/worse for a directed figure, higher/lower otherwise. */
export type ChangeSense = 'better' | 'worse' | 'higher' | 'lower';

/** How the interval was made: Welch's t on both sides' log values; one side's single run against
 *  the other side's spread; or none (one run each). */
export type CompareTest = 'welch' | 'one-run-side' | 'none';

/** Why a comparison is inconclusive, for machines; compare-words.ts says them. */
export type InconclusiveReason =
  /** one run on each side: no interval */
  | 'one-run-each'
  /** fewer than three runs on a side */
  | 'few-runs'
  /** the baseline's runs vary more than NOISY_CV */
  | 'noisy-baseline'
  /** the candidate's runs vary more than NOISY_CV */
  | 'noisy-candidate'
  /** the interval spans 0 and reaches past ±5 % with enough, steady runs */
  | 'wide'
  /** a figure of 0 (or below) has no ratio */
  | 'not-positive';

/** The 95 % interval. */
export const COMPARE_ALPHA = 0.05;
/** "No difference" means the whole interval within a factor of 1.05 either way (±5 %). Symmetric
 *  on the log scale, so swapping the sides never changes the outcome. */
export const SAME_WITHIN = 0.05;
/** A side whose runs' coefficient of variation is above this is flagged. */
export const NOISY_CV = 0.25;

/** One side's runs as the verdict sees them. */
export interface SideRuns {
  n: number;
  /** Coefficient of variation (sample SD / mean); 0 for one run. */
  cv: number;
  /** Largest run / smallest run. */
  span: number;
  /** cv > NOISY_CV. */
  noisy: boolean;
  /** The run (1-based) farthest from the mean of the others on the log scale: named with 3 runs
   *  or more on a noisy side. */
  outlier?: number;
  /** Whether that run is above the others. */
  outlierHigh?: boolean;
}

export interface CompareClaim extends Claim<'compare', CompareOutcome> {
  direction: Direction;
  /** d = mean(ln candidate) − mean(ln baseline): the change on the log scale (NaN for a figure ≤ 0). */
  logRatio: number;
  /** Ratio of geometric means − 1: e^d − 1. */
  change: number;
  /** The 95 % interval of the change; absent without one (one run each, or a figure ≤ 0). */
  low?: number;
  high?: number;
  /** The interval's ends on the log scale, d ∓ t·se (exact: near −100 % the change keeps few digits). */
  logLow?: number;
  logHigh?: number;
  /** For a real change. */
  sense?: ChangeSense;
  test: CompareTest;
  /** Degrees of freedom of the interval's t. */
  df?: number;
  /** Empty unless inconclusive. */
  reasons: InconclusiveReason[];
  candidate: SideRuns;
  baseline: SideRuns;
}

/** Log quantities are compared on a 1e-12 grid: a ratio of exactly 1.05 or a tie lands on the
 *  same side of a bound however the runs were scaled (the last bits of ln() are not). */
const grid = (x: number): number => Math.round(x * 1e12) / 1e12;
const SAME_LOG = grid(Math.log1p(SAME_WITHIN));

/** Candidate runs against baseline runs of one figure. Non-finite runs are dropped; each side
 *  needs one run or more (an empty side gives an inconclusive claim without figures). */
export function judgeComparison(candidateRuns: readonly number[], baselineRuns: readonly number[], direction: Direction): CompareClaim {
  const x = candidateRuns.filter(Number.isFinite);
  const y = baselineRuns.filter(Number.isFinite);
  const base = { family: 'compare' as const, direction, candidate: sideRuns(x), baseline: sideRuns(y) };
  if (x.length === 0 || y.length === 0 || [...x, ...y].some((v) => v <= 0)) {
    // Identical figures (0 % late frames on both sides) are the same; any other 0 has no ratio.
    const equal = x.length > 0 && y.length > 0 && [...x, ...y].every((v) => v === x[0]);
    if (equal) {
      return finish({
        ...base,
        outcome: 'same',
        logRatio: 0,
        change: 0,
        low: 0,
        high: 0,
        logLow: 0,
        logHigh: 0,
        test: 'none',
        reasons: [],
      });
    }
    return finish({ ...base, outcome: 'inconclusive', logRatio: NaN, change: NaN, test: 'none', reasons: ['not-positive'] });
  }
  const lx = x.map(Math.log);
  const ly = y.map(Math.log);
  const d = mean(lx) - mean(ly);
  const change = Math.expm1(d);
  const interval = logInterval(lx, ly);
  if (!interval) {
    return finish({ ...base, outcome: 'inconclusive', logRatio: d, change, test: 'none', reasons: ['one-run-each'] });
  }
  const half = interval.t * interval.se;
  const [logLow, logHigh] = [d - half, d + half];
  const lo = grid(logLow);
  const hi = grid(logHigh);
  const claim = {
    ...base,
    logRatio: d,
    change,
    low: Math.expm1(logLow),
    high: Math.expm1(logHigh),
    logLow,
    logHigh,
    test: interval.test,
    df: interval.df,
  };
  if (lo >= -SAME_LOG && hi <= SAME_LOG) return finish({ ...claim, outcome: 'same', reasons: [] });
  if (lo > 0 || hi < 0) return finish({ ...claim, outcome: 'change', sense: senseOf(d, direction), reasons: [] });
  const reasons: InconclusiveReason[] = [];
  if (Math.min(x.length, y.length) < 3) reasons.push('few-runs');
  reasons.push(...noisyReasons(base));
  if (reasons.length === 0) reasons.push('wide');
  return finish({ ...claim, outcome: 'inconclusive', reasons });
}

/** The mean log difference's standard error, degrees of freedom and t at 97.5 %; undefined with
 *  one run each. With one run on one side, the other side's log variance stands in for both. */
function logInterval(lx: readonly number[], ly: readonly number[]): { se: number; df: number; t: number; test: CompareTest } | undefined {
  if (lx.length < 2 && ly.length < 2) return undefined;
  const at = (se: number, df: number, test: CompareTest) => ({ se, df, t: studentTwoSidedCritical(COMPARE_ALPHA, df), test });
  if (lx.length >= 2 && ly.length >= 2) {
    const w = welchError(lx, ly);
    return at(w.se, w.df, 'welch');
  }
  const many = lx.length >= 2 ? lx : ly;
  const v = stdev(many) ** 2;
  return at(Math.sqrt(v / many.length + v), many.length - 1, 'one-run-side');
}

function senseOf(d: number, direction: Direction): ChangeSense {
  if (direction === 'none') return d > 0 ? 'higher' : 'lower';
  return d > 0 === (direction === 'higher') ? 'better' : 'worse';
}

function noisyReasons(c: Pick<CompareClaim, 'candidate' | 'baseline'>): InconclusiveReason[] {
  const out: InconclusiveReason[] = [];
  if (c.baseline.noisy) out.push('noisy-baseline');
  if (c.candidate.noisy) out.push('noisy-candidate');
  return out;
}

function sideRuns(xs: readonly number[]): SideRuns {
  const s = spread(xs);
  const side: SideRuns = { n: s.n, cv: s.n > 1 ? s.cv : 0, span: s.min > 0 ? s.max / s.min : NaN, noisy: s.n > 1 && s.cv > NOISY_CV };
  if (side.noisy && xs.length >= 3 && xs.every((v) => v > 0)) {
    const logs = xs.map(Math.log);
    const total = logs.reduce((a, b) => a + b, 0);
    let far = 0;
    let farGap = -1;
    logs.forEach((l, i) => {
      const gap = l - (total - l) / (logs.length - 1);
      if (Math.abs(gap) > farGap) [far, farGap] = [i, Math.abs(gap)];
    });
    side.outlier = far + 1;
    side.outlierHigh = logs[far]! > (total - logs[far]!) / (logs.length - 1);
  }
  return side;
}

/** The claim's figures by name and the rule of its test, filled in from its fields. */
function finish(c: Omit<CompareClaim, 'figures' | 'rule'>): CompareClaim {
  const figures: Record<string, number> = { change: c.change, candidateRuns: c.candidate.n, baselineRuns: c.baseline.n };
  if (c.low !== undefined && c.high !== undefined) Object.assign(figures, { low: c.low, high: c.high });
  if (c.df !== undefined) figures.df = c.df;
  figures.candidateCv = c.candidate.cv;
  figures.baselineCv = c.baseline.cv;
  return { ...c, figures, rule: TEST_RULE[c.test] };
}

/** Each test in a line (the claim's rule); COMPARE_RULE in compare-words.ts states them all. */
export const TEST_RULE: Record<CompareTest, string> = {
  welch: "95 % interval of the ratio of geometric means from Welch's t-test on the runs' log values (Welch–Satterthwaite df).",
  'one-run-side':
    "95 % interval of the ratio from Student's t on the log values, the side with several runs lending its spread to the single run.",
  none: 'No interval: one run on each side (or a figure of 0, which has no ratio).',
};

// ---- the overall verdict of a setup against the baseline -------------------------------------

export type OverallOutcome = 'better' | 'worse' | 'mixed' | 'same' | 'inconclusive';

export interface OverallClaim extends Claim<'compare', OverallOutcome> {
  /** The claims it weighed, in the order given. */
  weighed: CompareClaim[];
  better: number;
  worse: number;
  same: number;
  inconclusive: number;
}

/** Units of the figures a setup verdict weighs: throughputs. */
const THROUGHPUT_UNITS: ReadonlySet<string> = new Set(['MB/s', 'IOPS', 'files/s']);

/** Whether a figure counts towards a setup's overall verdict: a throughput with a direction. */
export function weighsInVerdict(f: { unit: string; direction: Direction }): boolean {
  return f.direction !== 'none' && THROUGHPUT_UNITS.has(f.unit);
}

/** One setup against the baseline over the throughput claims given: worse or better when every
 *  real change points that way, mixed only when real changes point both ways, the same when every
 *  figure is the same, else inconclusive. Undefined when nothing was weighed. */
export function overallVerdict(claims: readonly CompareClaim[]): OverallClaim | undefined {
  const weighed = claims.filter((c) => c.direction !== 'none');
  if (weighed.length === 0) return undefined;
  const count = (pred: (c: CompareClaim) => boolean): number => weighed.filter(pred).length;
  const better = count((c) => c.outcome === 'change' && c.sense === 'better');
  const worse = count((c) => c.outcome === 'change' && c.sense === 'worse');
  const same = count((c) => c.outcome === 'same');
  const inconclusive = count((c) => c.outcome === 'inconclusive');
  const outcome: OverallOutcome =
    better > 0 && worse > 0 ? 'mixed' : worse > 0 ? 'worse' : better > 0 ? 'better' : same === weighed.length ? 'same' : 'inconclusive';
  return {
    family: 'compare',
    outcome,
    figures: { better, worse, same, inconclusive, weighed: weighed.length },
    rule: 'Weighs the throughput figures of the tests asked for; mixed only when real changes point both ways.',
    weighed,
    better,
    worse,
    same,
    inconclusive,
  };
}
