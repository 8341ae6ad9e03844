// What every format of the format report prints: the about and drive lines, the table and
// its legend.
import type { ResultDocument } from '../result.js';
import { compareCellText } from './tables.js';
import { markLegend } from '../verdict/compare-words.js';
import type { FormatReport, ReportColumn } from './report-types.js';
import { targetLine } from './metrics.js';
import { deviceKey, deviceName, isCampaign, methodWords, rowHeader, safe } from './report-findings.js';
import type { Table } from './tables.js';

// ---- what every format prints ----------------------------------------------------------------

export function newestDay(docs: readonly ResultDocument[]): string {
  const days = docs
    .map((d) => String(d?.startedAt ?? ''))
    .filter((s) => /^\d{4}-\d{2}-\d{2}/.test(s))
    .sort();
  return days.length > 0 ? (days[days.length - 1] as string).slice(0, 10) : 'undated';
}

/** The lines under the title: the drive, the method, runs and rest, the baseline. */
export function aboutLines(r: FormatReport, docs: readonly ResultDocument[]): Array<[string, string]> {
  const first = docs[0];
  const sameDrive = new Set(docs.map(deviceKey)).size === 1;
  const drive = !first
    ? 'unknown drive'
    : sameDrive
      ? isCampaign(docs)
        ? deviceName(first)
        : safe(() => targetLine(first), 'unknown drive')
      : 'differs by row (see below)';
  const methods = [...new Set(docs.map(methodWords))];
  const runs = [...new Set(docs.map((d) => (typeof d.settings?.runs === 'number' ? d.settings.runs : 1)))].sort((a, b) => a - b);
  const rests = [...new Set(docs.map((d) => d.settings?.restSeconds).filter((s): s is number => typeof s === 'number' && s > 0))];
  const lines: Array<[string, string]> = [
    ['Drive', drive],
    ['Method', methods.length === 1 ? (methods[0] as string) : 'differs by row (see the warnings)'],
    ['Runs', runs.length === 1 ? `${runs[0]} per figure` : `${runs[0]}–${runs[runs.length - 1]} per figure (differs by row)`],
  ];
  if (rests.length === 1) lines.push(['Rest', `${secondsText(rests[0] as number)} between runs`]);
  else if (rests.length > 1) lines.push(['Rest', `${rests.map(secondsText).join(', ')} between runs (differs by row)`]);
  if (r.variants.length > 1) lines.push(['Baseline', r.variants[r.baseline]?.label ?? '']);
  return lines;
}

export function secondsText(s: number): string {
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** Each row's drive when they differ ("port vs hub"). */
export function driveLines(r: FormatReport, docs: readonly ResultDocument[]): Array<[string, string]> {
  if (new Set(docs.map(deviceKey)).size <= 1) return [];
  return r.variants.map((v) => [v.label, v.drive]);
}

export function rowLabel(r: FormatReport, i: number): string {
  const label = r.variants[i]?.label ?? '';
  return i === r.baseline && r.variants.length > 1 ? `${label} (baseline)` : label;
}

export function headLabel(col: ReportColumn): string {
  return `${col.label} (${col.unit})`;
}

export function reportTable(r: FormatReport, docs: readonly ResultDocument[]): Table {
  return {
    head: [rowHeader(docs), ...r.columns.map(headLabel)],
    rows: r.variants.map((_, i) => [{ text: rowLabel(r, i) }, ...r.columns.map((col, j) => compareCellText(r.cells[i]?.[j], col.unit))]),
  };
}

/** The same table with rows and columns swapped: "Figure" over the rows' names. */
export function transposed(t: Table): Table {
  const figures = t.head.slice(1);
  return {
    head: ['Figure', ...t.rows.map((row) => row[0]?.text ?? '')],
    rows: figures.map((f, j) => [{ text: f }, ...t.rows.map((row) => row[j + 1] ?? { text: '—' })]),
  };
}

export function legendText(r: FormatReport): string {
  const base = r.variants[r.baseline]?.label ?? '';
  const what = 'Each cell is the mean across runs ± the sample standard deviation';
  if (r.variants.length < 2) return `${what}.`;
  return `${what}. ${markLegend(base)}`;
}
