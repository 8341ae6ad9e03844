// What a kind may add to every report a result appears in (the Quick Test's "Will it work?"
// table): its block in the text formats, its CSV rows and its JSON keys. The formats render
// whatever sections the registry lists (REPORT_SECTIONS), so none of them names a kind; a
// section decides what is said, each format how it is printed. Below the kinds: types only.
import type { ResultDocument } from '../result.js';
import type { CellVerdict } from '../verdict/compare-words.js';
import type { SizeChart } from './size-chart.js';

/** A table as text cells; `tone` colours a comparison cell in HTML. */
export interface Cell {
  text: string;
  tone?: CellVerdict;
}
export interface Table {
  title?: string;
  head: string[];
  /** Columns after the first are numbers, right-aligned. */
  rows: Cell[][];
}

/** A section in Markdown and HTML: a heading, its tables, and the lines printed under them (the
 *  measured figures, the method, a caveat). */
export interface SectionBlock {
  heading: string;
  tables: Table[];
  notes: string[];
  /** Charts as data (MB/s against transfer size), drawn by the formats that draw (HTML, the app). */
  charts?: SizeChart[];
}

/** What the caller asks of the sections: the Will-it-work table's frame rate, and the saved
 *  frame-paced results that may decide its rows. */
export interface SectionOptions {
  fps?: number;
  /** Saved frame-paced results: those launched from this result decide rows; those of the same
   *  drive launched elsewhere become dated lines. */
  paced?: readonly ResultDocument[];
}

export type SectionCsvRow = Record<string, string | number>;

export interface ReportSection {
  /** The CSV columns its rows fill (empty on every other row). */
  csvHead: readonly string[];
  /** One result's block; null when the section does not apply to it. */
  one: (doc: ResultDocument, opts: SectionOptions) => SectionBlock | null;
  /** Several results side by side (`labels` as the comparison names them); null: none applies. */
  many: (docs: readonly ResultDocument[], labels: readonly string[], opts: SectionOptions) => SectionBlock | null;
  /** Its CSV rows for one result (each says its `test`). */
  csvRows: (doc: ResultDocument, opts: SectionOptions) => SectionCsvRow[];
  /** The keys the JSON export adds to the document (derived: a re-import that drops them loses nothing). */
  json: (doc: ResultDocument, opts: SectionOptions) => Record<string, unknown>;
}
