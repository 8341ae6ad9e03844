// What every format of the format report prints: the about and drive lines, the table and
// its legend.
import type { ResultDocument } from '../result.js';
import { compareCellText } from './tables.js';
import { markLegend } from '../verdict/compare-words.js';
import { safe, type ComparisonFigure, type ComparisonModel } from './comparison.js';
import { targetLine } from './metrics.js';
import { deviceKey, deviceName, isCampaign, methodWords, rowHeader } from './report-findings.js';
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
export function aboutLines(r: ComparisonModel, docs: readonly ResultDocument[]): Array<[string, string]> {
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
export function driveLines(r: ComparisonModel, docs: readonly ResultDocument[]): Array<[string, string]> {
  if (new Set(docs.map(deviceKey)).size <= 1) return [];
  return r.variants.map((v) => [v.label, v.drive]);
}

/** A subject's label, marked when it is the baseline (`always`, or when there is more than one). */
export function rowLabel(r: ComparisonModel, i: number, always = false): string {
  const label = r.variants[i]?.label ?? '';
  return i === r.baseline && (always || r.variants.length > 1) ? `${label} (baseline)` : label;
}

export function headLabel(col: ComparisonFigure): string {
  return `${col.label} (${col.unit})`;
}

/** The one table of a comparison model: a row per subject, a column per figure (`figures`, by
 *  index; every figure by default), every cell its mean ± spread and verdict mark. */
export function modelTable(
  r: ComparisonModel,
  opts: { corner: string; figureName: (col: ComparisonFigure) => string; figures?: readonly number[]; alwaysMarkBaseline?: boolean },
): Table {
  const figures = opts.figures ?? r.columns.map((_, j) => j);
  return {
    head: [opts.corner, ...figures.map((j) => opts.figureName(r.columns[j]!))],
    rows: r.variants.map((_, i) => [
      { text: rowLabel(r, i, opts.alwaysMarkBaseline) },
      ...figures.map((j) => compareCellText(r.cells[i]?.[j], r.columns[j]!.unit)),
    ]),
  };
}

/** The format report's table: a row per format, setup or result. */
export function reportTable(r: ComparisonModel, docs: readonly ResultDocument[]): Table {
  return modelTable(r, { corner: rowHeader(docs), figureName: headLabel });
}

/** The several-result export's tables: the same model by figure, headline figures and the detail. */
export function compareTables(r: ComparisonModel): Table[] {
  const byFigure = (title: string, primary: boolean): Table => ({
    title,
    ...transposed(
      modelTable(r, {
        corner: '',
        figureName: (f) => (f.label.includes(f.unit) ? f.label : `${f.label} (${f.unit})`),
        figures: r.columns.flatMap((f, j) => ((f.metric?.primary !== false) === primary ? [j] : [])),
        alwaysMarkBaseline: true,
      }),
      'Metric',
    ),
  });
  const tables = [byFigure('Headline figures', true)];
  if (r.columns.some((f) => f.metric?.primary === false)) tables.push(byFigure('Detail', false));
  return tables;
}

/** The same table with rows and columns swapped: `corner` over the rows' names. */
export function transposed(t: Table, corner = 'Figure'): Table {
  const figures = t.head.slice(1);
  return {
    head: [corner, ...t.rows.map((row) => row[0]?.text ?? '')],
    rows: figures.map((f, j) => [{ text: f }, ...t.rows.map((row) => row[j + 1] ?? { text: '—' })]),
  };
}

export function legendText(r: ComparisonModel): string {
  const base = r.variants[r.baseline]?.label ?? '';
  const what = 'Each cell is the mean across runs ± the sample standard deviation';
  if (r.variants.length < 2) return `${what}.`;
  return `${what}. ${markLegend(base)}`;
}
