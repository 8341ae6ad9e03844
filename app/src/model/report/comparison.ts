// The one comparison model. What is compared (subjects: one result each in the History compare,
// a format's, setup's or name's results in the format report) on which figures; every cell a mean
// with its spread and its verdict against the subject's reference, judged here and nowhere else.
// compare.ts and format-report.ts build it; every export format renders it; the verdicts and
// their words are model/verdict/'s. Browser-safe: no node:* imports.
import type { SectionBlock } from './section.js';
import type { ResultDocument } from '../result.js';
import { spread, type Spread } from '../stats.js';
import { judgeComparison, type CompareClaim, type Direction } from '../verdict/compare.js';
import { cellVerdictOf, COMPARE_RULE, type CellVerdict } from '../verdict/compare-words.js';
import type { MetricUnit } from './figure-text.js';
import type { CacheClass, Pairing } from './like-for-like.js';
import { resultMetrics, type Metric } from './metrics.js';

/** A subject: one result (the History compare), one format of a wizard plan, or the results that
 *  share a name (the format report). */
export interface ComparisonSubject {
  /** campaign.format for wizard results, else the result's name (the result id in the compare). */
  key: string;
  /** "ext4", "APFS (Encrypted)", "Through the hub": unique among the subjects. */
  label: string;
  /** The results it is made of (one per stress size for a quick plan). */
  resultIds: string[];
  /** targetLine() and methodLine() of its first result. */
  drive: string;
  method: string;
  /** How its results were measured (like-for-like.ts): subjects of different classes are compared
   *  only through a subject of their own class. */
  cacheClass: CacheClass;
  /** The subject its cells are judged against (the baseline, or the baseline format's subject in
   *  this one's mode); absent when it is not compared. */
  reference?: number;
  /** Why it is not compared, in words: the figures only. */
  notCompared?: string;
  /** An encrypted subject with a cipher ceiling: the encryption verdict (model/cipher). */
  encryption?: string;
  /** One result's own lines (the History compare): its kind, resultName(), resultTitle(), start
   *  and the interface's payload ceiling in MB/s when known. */
  result?: { kind: string; name: string; title: string; startedAt: string; ceilingMBps?: number };
}

/** A figure: one metric, at one stress size in the format report. */
export interface ComparisonFigure {
  key: string;
  /** "Read", "Write", "SEQ1M Q8T1 Read", "Files Write". */
  figure: string;
  /** The quick plan's stress size, bytes; absent for tests without one. */
  sizeBytes?: number;
  /** "Read 1 GB" (figure and size), as a table header. */
  label: string;
  /** The metric key in resultMetrics() this figure reads. */
  metricKey: string;
  unit: MetricUnit;
  direction: Direction;
  /** The metric's group, measure and headline flag (the History compare shows every metric). */
  metric?: Pick<Metric, 'group' | 'measure' | 'primary'>;
}

export interface ComparisonCell {
  values: number[];
  spread: Spread;
  /** The reference, no figure to compare with, or the claim's outcome (a real change by its sense). */
  verdict: CellVerdict;
  /** The comparison against the reference's cell (verdict/compare.ts); absent for the reference and n/a. */
  claim?: CompareClaim;
}

export interface ComparisonModel {
  /** "ext4 vs XFS vs Btrfs on Samsung T7 (USB 3.2 Gen 2)", "Comparison of 3 results". */
  title: string;
  variants: ComparisonSubject[];
  /** Index into variants. */
  baseline: number;
  columns: ComparisonFigure[];
  /** [subject][figure]; undefined where a subject has no such figure. */
  cells: Array<Array<ComparisonCell | undefined>>;
  /** The interface's payload ceiling (MB/s) when every result knows the same one: drawn on charts. */
  ceilingMBps?: number;
  /** The statistical rule in words (verdict/compare-words.ts's). */
  rule: string;
  /** Plain words: "ext4 (fscrypt encrypted): write −9 % at 1 GB and −7 % at 5 GB than ext4." */
  findings: string[];
  warnings: string[];
  /** Some subjects were compared with the baseline format's common-mode subject rather than the baseline. */
  likeRows?: boolean;
  /** What the kinds add with a column per subject (the Quick Test's "Will it work?" grid). */
  sections?: SectionBlock[];
}

/** A cell's verdict against its reference's runs of the same figure (verdict/compare.ts decides);
 *  'n/a' when the reference has none. */
function judgeCell(values: readonly number[], base: readonly number[], direction: Direction): Pick<ComparisonCell, 'verdict' | 'claim'> {
  if (base.filter(Number.isFinite).length === 0) return { verdict: 'n/a' };
  const claim = judgeComparison(values, base, direction);
  return { verdict: cellVerdictOf(claim), claim };
}

/** Every cell of the model: `values[subject][figure]` (finite runs), each judged against its
 *  subject's reference (pairing.reference) on the same figure. */
export function judgeCells(
  values: ReadonlyArray<ReadonlyArray<readonly number[]>>,
  pairing: Pick<Pairing, 'reference'>,
  figures: ReadonlyArray<Pick<ComparisonFigure, 'direction'>>,
): Array<Array<ComparisonCell | undefined>> {
  return values.map((row, i) =>
    row.map((v, j): ComparisonCell | undefined => {
      if (v.length === 0) return undefined;
      const ref = pairing.reference[i];
      if (ref === i) return { values: [...v], spread: spread(v), verdict: 'baseline' };
      const base = ref === undefined ? [] : (values[ref]?.[j] ?? []);
      return { values: [...v], spread: spread(v), ...judgeCell(v, base, figures[j]?.direction ?? 'none') };
    }),
  );
}

/** The model of `values[subject][figure]`: every cell judged against its subject's reference;
 *  the findings and warnings are the builder's to add. */
export function newModel(
  title: string,
  variants: ComparisonSubject[],
  baseline: number,
  columns: ComparisonFigure[],
  values: ReadonlyArray<ReadonlyArray<readonly number[]>>,
  pairing: Pick<Pairing, 'reference' | 'likeRows'>,
): ComparisonModel {
  const model: ComparisonModel = {
    title,
    variants,
    baseline,
    columns,
    cells: judgeCells(values, pairing, columns),
    rule: COMPARE_RULE,
    findings: [],
    warnings: [],
  };
  if (pairing.likeRows) model.likeRows = true;
  return model;
}

/** Sets each subject's reference, or why it is not compared, from the like-for-like pairing. */
export function markPairing(subjects: ComparisonSubject[], pairing: Pick<Pairing, 'reference' | 'notCompared'>): void {
  subjects.forEach((v, i) => {
    const ref = pairing.reference[i];
    if (ref !== undefined) v.reference = ref;
    const why = pairing.notCompared[i];
    if (why !== undefined) v.notCompared = why;
  });
}

/** A result's metrics by key; the first of a repeated key wins (a files result lists its passes'
 *  headline figures before the per-test rows of the same name). */
export function metricsByKey(doc: ResultDocument): Map<string, Metric> {
  const byKey = new Map<string, Metric>();
  for (const m of safe(() => resultMetrics(doc), [] as Metric[])) if (!byKey.has(m.key)) byKey.set(m.key, m);
  return byKey;
}

/** The baseline's index among `n` subjects: a valid index, else the first subject `find` names. */
export function baselineOf(n: number, want: number | string | undefined, find: (want: string) => number): number {
  if (typeof want === 'number') return Number.isInteger(want) && want >= 0 && want < n ? want : 0;
  if (typeof want === 'string') {
    const i = find(want);
    return i >= 0 ? i : 0;
  }
  return 0;
}

/** A figure read from a document that may be damaged (an imported file): the fallback, not a throw. */
export function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}
