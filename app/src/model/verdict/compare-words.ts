// The comparison verdict in words: the rule printed under every report, a cell's mark, a change
// with its interval ("−99 %, CI −99.6 to −97 %"), why a comparison is inconclusive, and a
// setup's overall verdict. Every table, finding, export and screen says a comparison through
// these functions, so the same claim reads the same everywhere. Browser-safe.
import {
  NOISY_CV,
  SAME_WITHIN,
  type ChangeSense,
  type CompareClaim,
  type CompareOutcome,
  type InconclusiveReason,
  type OverallClaim,
  type SideRuns,
} from './compare.js';
import { groupedNumber } from '../units.js';

const pct = (x: number): number => Math.round(x * 100);

/** The rule every comparison states, in plain words; judgeComparison() applies exactly this. */
export const COMPARE_RULE =
  "Each change is the ratio of the runs' geometric means, with a 95 % confidence interval from Welch's t-test on the runs' log values " +
  '(Welch–Satterthwaite degrees of freedom); when one side has a single run, the other side’s spread stands in for it, and with one run on ' +
  `each side there is no interval. A change is real when its interval excludes 0 and is not wholly within ±${pct(SAME_WITHIN)} %; ` +
  `no difference when the whole interval is within ±${pct(SAME_WITHIN)} % (a factor of ${1 + SAME_WITHIN} either way); inconclusive otherwise, with the reason. ` +
  'A change of 2× or more is never no difference. ' +
  `Runs that vary more than ${pct(NOISY_CV)} % (coefficient of variation) are flagged, naming the run farthest from the others. ` +
  'Figures without a direction (such as the transfer size reaching 90 % of top speed) are higher or lower, never better or worse. ' +
  'Cells show the mean across runs ± the sample standard deviation.';

/** A change as people write it: "+12 %", "−9.5 %", "0 %", "−99.6 %" (one decimal under 10 %, and
 *  as many as keep a near-total drop from reading −100 %). */
export function deltaText(delta: number, minDecimals = 0): string {
  if (!Number.isFinite(delta)) return '—';
  const p = delta * 100;
  const a = Math.abs(p);
  let num: string;
  if (a < 10) num = a.toFixed(Math.max(1, minDecimals)).replace(/\.0+$/, '');
  else if (p > -99.5) num = groupedNumber(a, minDecimals);
  else {
    // One significant figure of what is left: −99.6 %, −99.96 %.
    const left = 100 - a;
    const decimals = left > 0 ? Math.min(6, Math.max(1, -Math.floor(Math.log10(left)))) : 1;
    num = a.toFixed(decimals);
  }
  if (num === '0') return '0 %';
  return `${p > 0 ? '+' : '−'}${num} %`;
}

/** "CI −99.6 to −97 %", or '' without an interval. */
export function intervalText(c: Pick<CompareClaim, 'low' | 'high'>): string {
  const { low, high } = c;
  if (low === undefined || high === undefined) return '';
  // A narrow interval gets the decimals that keep its ends apart: "CI −80.2 to −79.9 %".
  let digits = 0;
  while (digits < 3 && low !== high && deltaText(low, digits) === deltaText(high, digits)) digits++;
  return `CI ${deltaText(low, digits).replace(/ %$/, '')} to ${deltaText(high, digits)}`;
}

/** The change and its interval: "−99 %, CI −99.6 to −97 %"; "−54 %, no interval" without one. */
export function changeText(c: CompareClaim): string {
  if (!Number.isFinite(c.change)) return 'no ratio';
  const ci = intervalText(c);
  return `${deltaText(c.change)}, ${ci || 'no interval'}`;
}

/** "3 runs each", "2 vs 3 runs", "one run each". */
export function runsText(c: Pick<CompareClaim, 'candidate' | 'baseline'>): string {
  const [n, nb] = [c.candidate.n, c.baseline.n];
  if (n === nb) return n === 1 ? 'one run each' : `${n} runs each`;
  return `${n} vs ${nb} runs`;
}

/** "7×", "2.5×" for a wide span; "by a CV of 40 %" for a narrower one. */
function varyText(s: SideRuns): string {
  if (s.span >= 2) return `${s.span < 10 ? Number(s.span.toFixed(1)) : Math.round(s.span)}×`;
  return `by a CV of ${pct(s.cv)} %`;
}

/** Names for the two sides inside a sentence. */
export interface SideNames {
  candidate: string;
  baseline: string;
}
const DEFAULT_NAMES: SideNames = { candidate: 'the candidate', baseline: 'the baseline' };

/** A noisy side flagged: "the runs of the baseline vary 7× — run 1 looks cached". A run far on the
 *  better side of the others is what a cache gives; one on the worse side only stands out. */
export function noisyText(side: SideRuns, name: string, direction: CompareClaim['direction']): string {
  const head = `the runs of ${name} vary ${varyText(side)}`;
  if (side.outlier === undefined) return head;
  const better = direction !== 'none' && side.outlierHigh === (direction === 'higher');
  return `${head} — run ${side.outlier} ${better ? 'looks cached' : 'stands out'}`;
}

/** The flags a claim carries whatever its outcome: each noisy side. */
export function flagTexts(c: CompareClaim, names: SideNames = DEFAULT_NAMES): string[] {
  const out: string[] = [];
  if (c.baseline.noisy) out.push(noisyText(c.baseline, names.baseline, c.direction));
  if (c.candidate.noisy) out.push(noisyText(c.candidate, names.candidate, c.direction));
  return out;
}

/** Why a claim is inconclusive, each reason a phrase: "2 runs each", "one run each: no interval". */
export function reasonTexts(c: CompareClaim, names: SideNames = DEFAULT_NAMES): string[] {
  const say: Record<InconclusiveReason, () => string> = {
    'one-run-each': () => 'one run each: no interval',
    'few-runs': () => runsText(c),
    'noisy-baseline': () => noisyText(c.baseline, names.baseline, c.direction),
    'noisy-candidate': () => noisyText(c.candidate, names.candidate, c.direction),
    wide: () => `the interval spans 0 and reaches past ±${pct(SAME_WITHIN)} %`,
    'not-positive': () => 'a figure of 0 has no ratio',
  };
  return c.reasons.map((r) => say[r]());
}

/** A claim's flags after its figure, in parentheses: " (the runs of the baseline vary 7× — run 1
 *  looks cached)"; '' without any. */
export function flagNote(c: CompareClaim, names: SideNames = DEFAULT_NAMES): string {
  const flags = flagTexts(c, names);
  return flags.length > 0 ? ` (${flags.join('; ')})` : '';
}

/** A real change with its flags: "−99 %, CI −99.6 to −97 % (the runs of the baseline vary 7× —
 *  run 1 looks cached)". */
export function changePhrase(c: CompareClaim, names: SideNames = DEFAULT_NAMES): string {
  return `${changeText(c)}${flagNote(c, names)}`;
}

/** What a compare cell is, for marks and colours: the reference, no figure to compare with, or the
 *  claim's outcome (a real change by its sense). */
export type CellVerdict = 'baseline' | 'n/a' | ChangeSense | Exclude<CompareOutcome, 'change'>;

export function cellVerdictOf(c: CompareClaim): CellVerdict {
  return c.outcome === 'change' ? (c.sense ?? 'higher') : c.outcome;
}

/** The mark after a cell's figure: "(−9 %)" a real change, "(≈)" no difference, "(−54 %?)"
 *  inconclusive; '' for the reference or a cell without a claim. */
export function cellMark(verdict: CellVerdict, c: CompareClaim | undefined): string {
  if (!c || verdict === 'baseline' || verdict === 'n/a') return '';
  if (verdict === 'same') return '(≈)';
  const d = Number.isFinite(c.change) ? deltaText(c.change) : 'no ratio';
  return verdict === 'inconclusive' ? `(${d}?)` : `(${d})`;
}

/** What each verdict means, for a cell's title and screen readers. */
export const VERDICT_WORDS: Record<CellVerdict, string> = {
  baseline: 'the baseline',
  better: 'better than the baseline (a real change)',
  worse: 'worse than the baseline (a real change)',
  higher: 'higher than the baseline (a real change; this figure has no better or worse)',
  lower: 'lower than the baseline (a real change; this figure has no better or worse)',
  same: `no difference: the whole 95 % interval within ±${pct(SAME_WITHIN)} %`,
  inconclusive: 'inconclusive: the runs cannot tell (see the findings)',
  'n/a': 'the baseline has no such figure',
};

/** A figure's direction as a table says it. */
export const DIRECTION_WORDS: Record<CompareClaim['direction'], string> = {
  higher: 'higher is better',
  lower: 'lower is better',
  none: 'no better or worse',
};

/** The legend under a table of marks. */
export function markLegend(base: string): string {
  return (
    `Changes are against ${base}: (−9 %) a real change, (≈) no difference (the whole 95 % interval within ±${pct(SAME_WITHIN)} %), ` +
    '(−9 %?) inconclusive — the findings say why.'
  );
}

/** The hint beside a runs field. */
export const RUNS_HINT =
  'A difference is called better or worse only when its 95 % interval excludes no change: one run each gives no interval, 3 runs or more tell.';

/** Said when some rows have a single run. */
export const SINGLE_RUN_NOTE =
  "A figure with one run on each side has no interval and is inconclusive; with one run on one side, the other side's spread stands in for it.";

/** "no difference from ext4 on any figure (each 95 % interval within ±5 %)". */
export function noDifferenceText(base: string, what: string): string {
  return `no difference from ${base} on any ${what} (each 95 % interval within ±${pct(SAME_WITHIN)} %)`;
}

/** "no difference on read and write". */
export function noDifferenceOn(what: string): string {
  return `no difference on ${what}`;
}

/** Inconclusive figures of one row in a sentence, each part a figure with its change and the
 *  claims behind it: "Btrfs: inconclusive on write −54 % at 32 MiB — 2 runs each; more runs would
 *  tell." Reasons all parts share are said once at the end; else each part says its own. */
export function inconclusiveText(
  name: string,
  parts: ReadonlyArray<{ text: string; claims: readonly CompareClaim[] }>,
  names: SideNames,
): string {
  const why = (claims: readonly CompareClaim[]): string => [...new Set(claims.flatMap((c) => reasonTexts(c, names)))].join('; ');
  const all = parts.flatMap((p) => p.claims);
  const more = all.some((c) => c.reasons.some((r) => r !== 'not-positive')) ? '; more runs would tell' : '';
  const shared = new Set(parts.map((p) => why(p.claims))).size === 1;
  if (shared) return `${name}: inconclusive on ${parts.map((p) => p.text).join(', ')} — ${why(all)}${more}.`;
  return `${name}: inconclusive on ${parts.map((p) => `${p.text} (${why(p.claims)})`).join('; ')}${more}.`;
}

/** A setup's overall verdict in one sentence: "Wi-Fi is worse than GigE: worse on all 4
 *  throughput figures (Read · top speed −80 %; …)." `labels` name the weighed claims in order;
 *  each change's interval is in the finding before it. */
export function overallText(name: string, base: string, v: OverallClaim, labels: readonly string[]): string {
  const n = v.weighed.length;
  const of = (k: number): string =>
    k < n ? `${k} of ${n} throughput figures` : k === 1 ? 'its one throughput figure' : `all ${k} throughput figures`;
  const real = v.weighed
    .map((c, i) => ({ c, label: labels[i] ?? '' }))
    .filter(({ c }) => c.outcome === 'change')
    .map(({ c, label }) => `${label} ${deltaText(c.change)}`);
  const rest: string[] = [];
  if (v.same > 0 && v.outcome !== 'same') rest.push(`no difference on ${v.same}`);
  if (v.inconclusive > 0 && v.outcome !== 'inconclusive') rest.push(`inconclusive on ${v.inconclusive}`);
  const tail = rest.length > 0 ? `; ${rest.join(', ')}` : '';
  const names = { candidate: name, baseline: base };
  switch (v.outcome) {
    case 'worse':
    case 'better':
      return `${name} is ${v.outcome} than ${base}: ${v.outcome} on ${of(v.outcome === 'worse' ? v.worse : v.better)} (${real.join('; ')})${tail}.`;
    case 'mixed':
      return `${name} is mixed against ${base}: worse on ${of(v.worse)}, better on ${v.better} (${real.join('; ')})${tail}.`;
    case 'same':
      return `${name} is no different from ${base}: ${of(v.same)} within ±${pct(SAME_WITHIN)} %.`;
    case 'inconclusive': {
      const why = [...new Set(v.weighed.flatMap((c) => reasonTexts(c, names)))];
      return `${name} against ${base} is inconclusive on ${of(v.inconclusive)}${tail} — ${why.join('; ')}.`;
    }
  }
}
