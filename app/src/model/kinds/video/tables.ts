// "Will it work?" in the exports: the verdict rows (will-it-work.ts) as the tables, CSV rows and
// JSON object each format prints — the report section the Quick Test adds (report/section.ts).
// Each format renders these with its own table helper and escaping; this module only decides what
// is said.
import type { ResultDocument } from '../../result.js';
import { formatFps } from './math.js';
import {
  AVERAGE_METHOD_SHORT,
  COMMON_FORMATS,
  COMMON_RESOLUTIONS,
  willItWork,
  type WillItWork,
  type WillItWorkOptions,
  type WorkRow,
} from './will-it-work.js';
import { byPaced, fastText, mbpsText, measuredLine, outcomeWord, sideMark, workNotes } from './will-it-work-words.js';
import type { ReportSection, SectionBlock, Table } from '../../report/section.js';

const needsText = (r: WorkRow): string => `${mbpsText(r.needsMBps)}${r.estimated ? '*' : ''}`;

/** One result's section: a table per format family, a row per format × resolution. */
export function willItWorkBlock(doc: ResultDocument, opts: WillItWorkOptions = {}): SectionBlock | null {
  const v = willItWork(doc, opts);
  if (!v || v.rows.length === 0) return null;
  const fps = `${formatFps(v.fps)} fps`;
  const families = [...new Set(v.rows.map((r) => r.familyLabel))];
  const tables = families.map((fam): Table => ({
    title: `${fam} at ${fps}`,
    head: ['Format', 'Resolution', 'Needs with margin (MB/s)', 'Write', 'Read', 'Write fps', 'Read fps'],
    rows: v.rows
      .filter((r) => r.familyLabel === fam)
      .map((r) => [
        { text: r.format },
        { text: r.resolution },
        { text: needsText(r) },
        { text: sideMark(r.write) },
        { text: sideMark(r.read) },
        { text: fastText(r.write.maxFps) },
        { text: fastText(r.read.maxFps) },
      ]),
  }));
  // Under the tables: the measured speeds, the method and, when the speeds carry warnings, the caveat.
  return { heading: `Will it work? At ${fps}`, tables, notes: [measuredLine(v), ...workNotes(v)] };
}

/** Several results side by side: the common formats, write / read per result. */
export function willItWorkCompareBlock(
  docs: readonly ResultDocument[],
  labels: readonly string[],
  opts: WillItWorkOptions = {},
): SectionBlock | null {
  const compact = { ...opts, formats: COMMON_FORMATS, resolutions: COMMON_RESOLUTIONS };
  const per = docs.map((d) => willItWork(d, compact));
  const first = per.find((v) => v !== null);
  if (!first) return null;
  const cols = per.flatMap((v, i) => (v ? [{ v, label: labels[i] ?? `#${i + 1}` }] : []));
  const key = (r: WorkRow): string => `${r.formatId}/${r.resolutionId}`;
  const table: Table = {
    title: `Common formats at ${formatFps(first.fps)} fps: write / read`,
    head: ['Format', 'Needs with margin (MB/s)', ...cols.map((c) => c.label)],
    rows: first.rows.map((r) => [
      { text: `${r.format} ${r.resolution}` },
      { text: needsText(r) },
      ...cols.map((c) => {
        const mine = c.v.rows.find((x) => key(x) === key(r));
        return { text: mine ? `${sideMark(mine.write)} / ${sideMark(mine.read)}` : '—' };
      }),
    ]),
  };
  const measured = cols.map((c) => `${c.label}: ${measuredLine(c.v)}`);
  const notes = cols.flatMap((c) => workNotes(c.v, c.label).slice(1));
  return {
    heading: `Will it work? At ${formatFps(first.fps)} fps`,
    tables: [table],
    notes: [first.method, ...measured, ...new Set(notes)],
  };
}

/** The columns Will-it-work rows fill in the CSV export (empty on the other rows). */
export const WILL_IT_WORK_CSV_HEAD = [
  'format',
  'resolution',
  'fps',
  'needs_mbps',
  'write_ok',
  'read_ok',
  'write_fps',
  'read_fps',
  'decided_by',
] as const;

export type WillItWorkCsvRow = Record<(typeof WILL_IT_WORK_CSV_HEAD)[number], string | number> & { test: string };

/** One CSV row per format × resolution (`test` is "will it work"); needs_mbps is MB/s with the
 *  margin, write_ok / read_ok are yes, no or "not proven". */
export function willItWorkCsvRows(doc: ResultDocument, opts: WillItWorkOptions = {}): WillItWorkCsvRow[] {
  const v = willItWork(doc, opts);
  return (v?.rows ?? []).map((r) => ({
    test: 'will it work',
    format: r.format,
    resolution: r.resolution,
    fps: r.fps,
    needs_mbps: Math.round(r.needsMBps * 100) / 100,
    write_ok: outcomeWord(r.write.outcome),
    read_ok: outcomeWord(r.read.outcome),
    write_fps: r.write.maxFps,
    read_fps: r.read.maxFps,
    decided_by: [r.write, r.read].find(byPaced)?.reason ?? [r.write, r.read].find((s) => s.reason)?.reason ?? AVERAGE_METHOD_SHORT,
  }));
}

/** The JSON export's `willItWork` object (absent for results it does not apply to). */
export function willItWorkJson(doc: ResultDocument, opts: WillItWorkOptions = {}): { willItWork?: WillItWork } {
  const v = willItWork(doc, opts);
  return v ? { willItWork: v } : {};
}

/** The section the Quick Test adds to every report (quick.ts registers it). */
export const willItWorkSection: ReportSection = {
  csvHead: WILL_IT_WORK_CSV_HEAD,
  one: willItWorkBlock,
  many: willItWorkCompareBlock,
  csvRows: willItWorkCsvRows,
  json: willItWorkJson,
};
