// One aggregate per saved result: the figure every surface (the Done screen's dials and table,
// History, the share card, the exports, the CLI) shows for a Quick Test and judges "Will it work?"
// by is the mean of its runs, said as "mean of 2 runs · best 918". CrystalDiskMark's Copy text
// alone keeps CrystalDiskMark's best-run convention, and says so (report/formats/cdm-text.ts).
import type { ResultDocument } from '../result.js';
import { formatMBpsFigure } from '../units.js';

export interface Aggregate {
  /** The mean across runs, MB/s: the figure shown and judged. */
  mean: number;
  /** The best (highest) run, MB/s. */
  best: number;
  runs: number;
}

/** The mean and best of `values` (the finite, positive ones), or null when none is. */
export function aggregateOf(values: readonly number[]): Aggregate | null {
  const xs = values.filter((x) => Number.isFinite(x) && x > 0);
  if (xs.length === 0) return null;
  return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, best: Math.max(...xs), runs: xs.length };
}

/** A Quick Test's write and read aggregates across its runs, or null for other kinds or when a
 *  direction moved nothing measurable. */
export function quickAggregate(doc: Pick<ResultDocument, 'kind' | 'tests'>): { write: Aggregate; read: Aggregate } | null {
  if (doc.kind !== 'quick' || !Array.isArray(doc.tests)) return null;
  const side = (rw: 'write' | 'read'): Aggregate | null => aggregateOf(doc.tests.filter((t) => t.rw === rw).map((t) => t.mbps));
  const write = side('write');
  const read = side('read');
  return write && read ? { write, read } : null;
}

/** MB/s as every aggregate is printed: whole numbers from 100 up, as the dials read. */
export const aggregateFigure = formatMBpsFigure;

/** The one exception, said where it applies: CrystalDiskMark's Copy text prints the best run. */
export function bestRunNote(runs: number): string {
  return `Each figure is the best of ${runs} runs, as CrystalDiskMark reports it; DiskDial's screens, card and other exports show the mean of the runs.`;
}

/** "mean of 2 runs · best 918", or "" for one run (its figure needs no gloss). */
export function aggregateText(a: Pick<Aggregate, 'best' | 'runs'>): string {
  return a.runs > 1 ? `mean of ${a.runs} runs · best ${aggregateFigure(a.best)}` : '';
}
