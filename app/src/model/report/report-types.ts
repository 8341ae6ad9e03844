// The format report's shapes, apart from its builder so its formats and parts can name them
// without importing the builder that imports them.
import type { CompareCell } from './compare.js';
import type { MetricUnit } from './figure-text.js';
import type { CacheClass } from './like-for-like.js';
import type { Direction } from '../verdict/compare.js';

/** A row: one format of a wizard plan, or the results that share a name. */
export interface ReportVariant {
  /** campaign.format for wizard results, else the result's name. */
  key: string;
  /** "ext4", "APFS (Encrypted)", "Through the hub". */
  label: string;
  /** The results it is made of (one per stress size for a quick plan). */
  resultIds: string[];
  /** targetLine() and methodLine() of its first result. */
  drive: string;
  method: string;
  /** How its results were measured (like-for-like.ts): rows of different classes are compared
   *  only through a row of their own class. */
  cacheClass: CacheClass;
  /** The row its cells are judged against (the baseline, or the baseline format's row in this
   *  row's mode); absent when it is not compared. */
  reference?: number;
  /** Why it is not compared, in words: the figures only. */
  notCompared?: string;
  /** An encrypted row with a cipher ceiling: the encryption verdict (model/cipher). */
  encryption?: string;
}

/** A column: one figure at one stress size. */
export interface ReportColumn {
  key: string;
  /** "Read", "Write", "SEQ1M Q8T1 Read", "Files Write". */
  figure: string;
  /** The quick plan's stress size, bytes; absent for tests without one. */
  sizeBytes?: number;
  /** "Read 1 GB" (figure and size), as a table header. */
  label: string;
  /** The metric key in resultMetrics() this column reads. */
  metricKey: string;
  unit: MetricUnit;
  direction: Direction;
}

/** A cell: the same as a compare cell (values, spread, verdict and claim against the reference row). */
export type ReportCell = CompareCell;

export interface FormatReport {
  /** "ext4 vs XFS vs Btrfs on Samsung T7 (USB 3.2 Gen 2)". */
  title: string;
  variants: ReportVariant[];
  /** Index into variants. */
  baseline: number;
  columns: ReportColumn[];
  /** [variant][column]; undefined where a variant has no such figure. */
  cells: Array<Array<ReportCell | undefined>>;
  /** The interface's payload ceiling (MB/s) when every result knows the same one: drawn on charts. */
  ceilingMBps?: number;
  /** The statistical rule in words (compare.ts's). */
  rule: string;
  /** Plain words: "ext4 (fscrypt encrypted): write −9 % at 1 GB and −7 % at 5 GB than ext4." */
  findings: string[];
  warnings: string[];
  /** Some rows were compared with the baseline format's common-mode row rather than the baseline. */
  likeRows?: boolean;
}

export interface FormatReportOptions {
  /** The baseline row: its key, or its index (default 0). */
  baseline?: string | number;
}
