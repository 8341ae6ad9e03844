// Result documents as files a person keeps or posts: a Markdown table for a forum, text in
// CrystalDiskMark's layout, CSV for a spreadsheet, the JSON documents themselves, and one
// self-contained HTML page that prints to PDF. One result gives a single-result export; several
// give a comparison (compare.ts) with its rule (verdict/compare-words.ts) printed under it.
//
// Browser-safe: no node:* imports (the renderer bundles it). The HTML page loads nothing from
// anywhere: its style and charts are inline, and it has no script. The format-and-compare
// report (format-report.ts) is built from the same escaping, table, CSV and page helpers,
// exported below, so both print alike and are safe alike. Text in a result may have come from
// anywhere (an imported file): each format escapes its own syntax, and no format lets a control
// character through raw — an ESC in a label must not reach a terminal that shows the file (JSON
// keeps them, as \u escapes, so the document stays the same).
import type { ResultDocument } from '../result.js';

import { withoutControls } from '../text.js';

import { compareModel } from './compare.js';
import type { ComparisonModel } from './comparison.js';
import type { ExportFile } from '../history.js';
import type { ExportFormat } from '../settings.js';
import { txtBlock, txtHeader, txtMany } from './formats/cdm-text.js';
import { csvText } from './formats/csv.js';
import { htmlMany, htmlOne } from './formats/html.js';
import { jsonMany, jsonOne } from './formats/json.js';
import { markdownMany, markdownOne } from './formats/markdown.js';
import type { SectionOptions } from './section.js';

// Helpers the format report (format-report.ts), the renderer and the tests share with the exports.
export { compareCellText, figure, dateText, versionLine, type Cell, type Table } from './tables.js';
export { mdCell, mdInline, mdTable } from './formats/markdown.js';
export { cdmLine } from './formats/cdm-text.js';
export { csvNumber, csvQuote, csvText1 } from './formats/csv.js';
export { esc, htmlFlags, htmlPage, htmlTable, niceStep, PALETTE, truncate } from './formats/html.js';

/** The MIME type of each export format (shared with format-report.ts, as are the helpers above). */
export const MIME: Record<ExportFormat, string> = {
  md: 'text/markdown;charset=utf-8',
  txt: 'text/plain;charset=utf-8',
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  html: 'text/html;charset=utf-8',
};

/** One result (a single-result export) or several (a comparison against `baseline`, a result
 *  id; the first by default) as a file in `format`. Throws a RangeError when given no result. */
export function renderExport(
  docs: readonly ResultDocument[],
  format: ExportFormat,
  opts: { baseline?: string; willItWork?: SectionOptions } = {},
): ExportFile {
  const first = docs[0];
  if (first === undefined) throw new RangeError('renderExport: no result to export');
  const filename = exportFilename(docs, format);
  // The helpers below strip control characters field by field; this pass covers every line the
  // text formats print without one (the CrystalDiskMark-style text has no cell escaping at all).
  const clean = (text: string): string => (format === 'json' ? text : withoutControls(text));
  if (docs.length === 1) return { filename, mime: MIME[format], text: clean(SINGLE[format](first, opts.willItWork ?? {})) };
  const cmp = compareModel(docs, opts.baseline !== undefined ? { baseline: opts.baseline } : {});
  return { filename, mime: MIME[format], text: clean(MANY[format](docs, cmp, opts.willItWork ?? {})) };
}

/** "diskdial-quick-2026-11-22.md" for one result, "diskdial-compare-3-results-2026-11-22.csv"
 *  for several (the day the newest started, UTC). */
export function exportFilename(docs: readonly ResultDocument[], format: ExportFormat): string {
  const day = (d: ResultDocument | undefined): string =>
    /^\d{4}-\d{2}-\d{2}/.test(d?.startedAt ?? '') ? (d?.startedAt ?? '').slice(0, 10) : 'undated';
  if (docs.length === 1) {
    const kind =
      String(docs[0]?.kind ?? 'result')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'result';
    return `diskdial-${kind}-${day(docs[0])}.${format}`;
  }
  const newest = [...docs].sort((a, b) => String(b.startedAt).localeCompare(String(a.startedAt)))[0];
  return `diskdial-compare-${docs.length}-results-${day(newest)}.${format}`;
}

// Section options: the frame rate (and paced results) of a Quick Test's "Will it work?" section.
const SINGLE: Record<ExportFormat, (doc: ResultDocument, opts: SectionOptions) => string> = {
  md: markdownOne,
  txt: (doc) => [txtHeader([doc]), txtBlock(doc)].join('\n'),
  csv: (doc, opts) => csvText([doc], opts),
  json: jsonOne,
  html: htmlOne,
};

const MANY: Record<ExportFormat, (docs: readonly ResultDocument[], cmp: ComparisonModel, opts: SectionOptions) => string> = {
  md: markdownMany,
  txt: txtMany,
  csv: (docs, _cmp, opts) => csvText(docs, opts),
  json: jsonMany,
  html: htmlMany,
};
