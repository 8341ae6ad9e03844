// The comparison report people post after testing one disk in several formats (or any saved
// results side by side: "direct to the port" vs "through a hub"): one row per variant (a format,
// or a result's name), a column per figure and stress size (Read 1 GB, Write 1 GB, Read 5 GB…),
// every cell a mean with its spread across runs, its change against a baseline row, and whether
// that change is larger than run-to-run noise by the rule compare.ts states.
//
// Browser-safe: no node:* imports (the renderer bundles it).

import type { ResultDocument } from '../../model/result.js';
import { spread } from '../../model/stats.js';
import { COMPARE_RULE, NOISE_RULE, deltaText, judgeChange, pText, type CompareCell } from '../../model/report/compare.js';
import {
  MIME,
  PALETTE,
  csvNumber,
  csvQuote,
  csvText1,
  esc,
  figure,
  htmlFlags,
  htmlPage,
  htmlTable,
  mdInline,
  mdTable,
  niceStep,
  truncate,
  versionLine,
  type Cell,
  type Table,
} from './export.js';
import {
  formatFigure,
  kindName,
  methodLine,
  resultMetrics,
  resultName,
  resultTitle,
  sizeText,
  targetLine,
  type Metric,
  type MetricUnit,
} from '../../model/report/metrics.js';
import type { ExportFile } from '../../model/history.js';
import type { ExportFormat } from '../../model/settings.js';

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
  higherIsBetter: boolean;
}

/** A cell: the same as a compare cell (values, spread, delta against the baseline row, verdict). */
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
}

export interface FormatReportOptions {
  /** The baseline row: its key, or its index (default 0). */
  baseline?: string | number;
}

/** The comparison report of `docs`: rows by format (wizard results) or by name, a column per
 *  figure and stress size, each cell judged against the baseline row by compare.ts's rule.
 *  Never throws on odd documents: a figure a row lacks is an empty cell. */
export function buildFormatReport(docs: readonly ResultDocument[], opts: FormatReportOptions = {}): FormatReport {
  const list = usable(docs);
  const groups = groupVariants(list);
  const variants: ReportVariant[] = groups.map((g) => ({
    key: g.key,
    label: g.label,
    resultIds: g.docs.map((d, i) => (typeof d.id === 'string' ? d.id : `${g.key}-${i + 1}`)),
    drive: safe(() => targetLine(g.docs[0] as ResultDocument), 'unknown drive'),
    method: safe(() => methodLine(g.docs[0] as ResultDocument), 'unknown method'),
  }));
  const baseline = baselineIndex(variants, opts.baseline);
  const specs = columnSpecs(list);
  const columns = specs.map((s) => s.column);
  const pooled: string[] = [];
  const values = groups.map((g) =>
    specs.map((s) => {
      const members = g.docs.filter((d) => s.matches(d));
      if (members.length > 1) pooled.push(`${g.label} has ${members.length} ${s.results}: their runs are pooled.`);
      return members.flatMap((d) => metricsOf(d).get(s.column.metricKey)?.values.filter(Number.isFinite) ?? []);
    }),
  );
  const cells = values.map((row, i) =>
    row.map((v, j): ReportCell | undefined => {
      if (v.length === 0) return undefined;
      const base = values[baseline]?.[j] ?? [];
      if (i === baseline) return { values: v, spread: spread(v), verdict: 'baseline' };
      if (base.length === 0) return { values: v, spread: spread(v), verdict: 'n/a' };
      return { values: v, spread: spread(v), ...judgeChange(v, base, columns[j]?.higherIsBetter ?? true) };
    }),
  );
  const report: FormatReport = {
    title: reportTitle(list, variants),
    variants,
    baseline,
    columns,
    cells,
    rule: COMPARE_RULE,
    findings: [],
    warnings: [],
  };
  const ceiling = commonCeiling(list);
  if (ceiling !== undefined) report.ceilingMBps = ceiling;
  report.findings = reportFindings(report, isCampaign(list) ? 'format' : 'result');
  report.warnings = [...reportWarnings(list, groups), ...new Set(pooled)];
  return report;
}

/** The report as a file: a forum-ready Markdown table, CSV (a row per cell), the report and its
 *  results as JSON, or one self-contained HTML page that prints to PDF. Throws a RangeError when
 *  given no result. */
export function renderFormatReport(docs: readonly ResultDocument[], format: ExportFormat, opts: FormatReportOptions = {}): ExportFile {
  docs = usable(docs);
  if (docs.length === 0) throw new RangeError('renderFormatReport: no result to report');
  const report = buildFormatReport(docs, opts);
  const filename = `diskdial-report-${newestDay(docs)}.${format}`;
  const render: Record<ExportFormat, () => string> = {
    md: () => reportMarkdown(report, docs),
    txt: () => reportText(report, docs),
    csv: () => reportCsv(report),
    json: () => JSON.stringify({ format: 'diskdial-format-report', schema: 1, report, results: docs }, null, 2) + '\n',
    html: () => reportHtml(report, docs),
  };
  return { filename, mime: MIME[format], text: render[format]() };
}

// ---- rows and columns ------------------------------------------------------------------------

/** The documents a report can read (a damaged file in history is left out, not thrown on). */
function usable(docs: readonly ResultDocument[]): ResultDocument[] {
  return docs.filter(
    (d): d is ResultDocument =>
      typeof d === 'object' && d !== null && Array.isArray(d.tests) && typeof d.target === 'object' && d.target !== null,
  );
}

interface VariantGroup {
  key: string;
  label: string;
  docs: ResultDocument[];
}

/** Wizard results (every one from one plan) are grouped by format, the rest by the user's label
 *  (unlabelled results stay apart); the order
 *  is first appearance. When results of several plans share a format, each plan's format is its
 *  own row (ext4 on one disk is not ext4 on another). */
function groupVariants(docs: readonly ResultDocument[]): VariantGroup[] {
  const planFormats = new Map<string, Set<string>>();
  for (const d of docs) {
    const c = campaignOf(d);
    if (c) planFormats.set(c.format, (planFormats.get(c.format) ?? new Set()).add(c.planId));
  }
  const groups = new Map<string, VariantGroup>();
  for (const d of docs) {
    const c = campaignOf(d);
    let key: string;
    let label: string;
    if (c && (planFormats.get(c.format)?.size ?? 0) > 1) {
      key = `${c.format}@${c.planId}`;
      label = `${c.formatLabel || c.format} · ${String(d.startedAt).slice(0, 10)}`;
    } else if (c) {
      key = c.format;
      label = c.formatLabel || c.format;
    } else {
      // A separate result is its own row; only results the user gave one label share a row
      // (their runs pooled), never two that merely read alike.
      const userLabel = typeof d.label === 'string' ? d.label.trim() : '';
      key = userLabel || String(d.id);
      label = userLabel || safe(() => resultName(d), String(d.id));
    }
    const g = groups.get(key);
    if (g) g.docs.push(d);
    else groups.set(key, { key, label, docs: [d] });
  }
  // Two rows may still read alike (a name equal to a format's label): number the repeats.
  const out = [...groups.values()];
  const seen = new Map<string, number>();
  for (const g of out) {
    const k = (seen.get(g.label) ?? 0) + 1;
    seen.set(g.label, k);
    if (k > 1) g.label = `${g.label} (${k})`;
  }
  return out;
}

function campaignOf(d: ResultDocument): { planId: string; format: string; formatLabel: string } | undefined {
  const c = d.campaign;
  return c && typeof c.planId === 'string' && typeof c.format === 'string' && c.format !== '' ? c : undefined;
}

/** Every result made by one wizard plan. */
function isCampaign(docs: readonly ResultDocument[]): boolean {
  const plans = new Set(docs.map((d) => campaignOf(d)?.planId));
  return docs.length > 0 && !plans.has(undefined) && plans.size === 1;
}

function baselineIndex(variants: readonly ReportVariant[], want: string | number | undefined): number {
  if (typeof want === 'number') return Number.isInteger(want) && want >= 0 && want < variants.length ? want : 0;
  if (typeof want === 'string') {
    const i = [
      variants.findIndex((v) => v.key === want),
      variants.findIndex((v) => v.label === want),
      variants.findIndex((v) => v.resultIds.includes(want)),
    ].find((x) => x >= 0);
    return i ?? 0;
  }
  return 0;
}

interface ColumnSpec {
  column: ReportColumn;
  /** Whether a result supplies this column (its kind, and its stress size for the Quick Test). */
  matches: (d: ResultDocument) => boolean;
  /** The results it reads, in words: "Quick Test results at 1 GB". */
  results: string;
}

/** A result's metrics by key, the first of a repeated key kept (as compare.ts joins them). */
function metricsOf(d: ResultDocument): Map<string, Metric> {
  const out = new Map<string, Metric>();
  for (const m of safe(() => resultMetrics(d), [] as Metric[])) if (!out.has(m.key)) out.set(m.key, m);
  return out;
}

/** The columns of every kind present, kinds in first-seen order: the Quick Test's Read and Write
 *  per stress size (ascending, Read first as forum tables have it); the grid's MB/s figures in
 *  grid order; the many-file test's aggregates; the sustained write's average and cache size;
 *  the hash test's headline rates. */
function columnSpecs(docs: readonly ResultDocument[]): ColumnSpec[] {
  const kinds = [...new Set(docs.map((d) => String(d.kind)))];
  const out: ColumnSpec[] = [];
  for (const kind of kinds) {
    const members = docs.filter((d) => String(d.kind) === kind);
    const metrics = members.map(metricsOf);
    const has = (key: string, ds: ReadonlyArray<Map<string, Metric>> = metrics): Metric | undefined =>
      ds.map((m) => m.get(key)).find((m) => m !== undefined);
    const col = (metricKey: string, figure: string, m: Metric, sizeBytes?: number): ColumnSpec => {
      const column: ReportColumn = {
        key: `${kind}:${metricKey}${sizeBytes !== undefined ? `@${sizeBytes}` : ''}`,
        figure,
        label: sizeBytes !== undefined ? `${figure} ${sizeText(sizeBytes)}` : figure,
        metricKey,
        unit: m.unit,
        higherIsBetter: m.higherIsBetter,
      };
      if (sizeBytes !== undefined) column.sizeBytes = sizeBytes;
      return {
        column,
        matches: (d) => String(d.kind) === kind && (sizeBytes === undefined || sizeOf(d) === sizeBytes),
        results: `${kindName(kind)} results${sizeBytes !== undefined ? ` at ${sizeText(sizeBytes)}` : ''}`,
      };
    };
    if (kind === 'quick') {
      const sizes = [...new Set(members.map(sizeOf))].sort((a, b) => (a ?? -1) - (b ?? -1));
      for (const size of sizes) {
        const at = members
          .map((d, i) => ({ d, i }))
          .filter(({ d }) => sizeOf(d) === size)
          .map(({ i }) => metrics[i] as Map<string, Metric>);
        for (const fig of ['Read', 'Write']) {
          const m = has(`${fig}/mbps`, at);
          if (m) out.push(col(`${fig}/mbps`, fig, m, size));
        }
      }
      continue;
    }
    const pick: Array<[string, string]> =
      kind === 'files'
        ? [
            ['Files Read/mbps', 'Files Read'],
            ['Files Write/mbps', 'Files Write'],
          ]
        : kind === 'sustained'
          ? [
              ['Sustained/mbps', 'Sustained write'],
              ['Sustained/cacheGB', 'Fast cache size'],
            ]
          : [];
    if (pick.length > 0) {
      for (const [key, fig] of pick) {
        const m = has(key);
        if (m) out.push(col(key, fig, m));
      }
      continue;
    }
    // The grid, the hash test and any other kind: every headline figure, in the order the first
    // result that has it lists it.
    const keys = new Map<string, Metric>();
    for (const byKey of metrics) for (const m of byKey.values()) if (m.primary && !keys.has(m.key)) keys.set(m.key, m);
    for (const m of keys.values()) out.push(col(m.key, m.label, m));
  }
  return out;
}

function sizeOf(d: ResultDocument): number | undefined {
  const s = d.settings?.size;
  return typeof s === 'number' && s > 0 && Number.isFinite(s) ? s : undefined;
}

// ---- title, ceiling, findings, warnings ------------------------------------------------------

function reportTitle(docs: readonly ResultDocument[], variants: readonly ReportVariant[]): string {
  const first = docs[0];
  if (!first || !isCampaign(docs)) return `Comparison of ${docs.length} result${docs.length === 1 ? '' : 's'}`;
  return `${variants.map((v) => v.label).join(' vs ')} on ${deviceName(first)}`;
}

/** The disk without its file system: "Samsung T7 (USB 3.2 Gen 2)", "/dev/vda · virtio (virtual disk)". */
function deviceName(d: ResultDocument): string {
  const dev = d.target?.device;
  const name = dev?.model && dev.model !== 'unknown' ? dev.model : (dev?.node ?? d.target?.volume ?? 'unknown drive');
  const link = dev?.link ?? (dev?.bus && dev.bus !== 'unknown' ? dev.bus : undefined);
  if (!link) return name;
  return link.includes('(') ? `${name} · ${link}` : `${name} (${link})`;
}

/** The identity of the drive and its connection, the file system left out (the wizard changes it). */
function deviceKey(d: ResultDocument): string {
  const dev = d.target?.device;
  return [dev?.model, dev?.serial, dev?.link ?? dev?.bus].map((x) => x ?? '').join('|');
}

function commonCeiling(docs: readonly ResultDocument[]): number | undefined {
  const all = docs.map((d) => d.target?.device?.linkInfo?.ceilingMBps);
  const first = all[0];
  if (typeof first !== 'number' || !(first > 0) || !Number.isFinite(first)) return undefined;
  return all.every((c) => c === first) ? first : undefined;
}

/** "a", "a and b", "a, b and c". */
function listText(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** How a column is named inside a sentence: "write" for the Quick Test, the figure otherwise. */
function figureWord(col: ReportColumn): string {
  return col.figure === 'Read' || col.figure === 'Write' ? col.figure.toLowerCase() : col.figure;
}

/** Where in a figure a column sits: its stress size, when it has one. */
function whereText(col: ReportColumn): string | undefined {
  return col.sizeBytes !== undefined ? sizeText(col.sizeBytes) : undefined;
}

function isReal(cell: ReportCell | undefined): cell is ReportCell {
  return cell?.verdict === 'better' || cell?.verdict === 'worse';
}

function reportFindings(r: FormatReport, noun: string): string[] {
  const base = r.variants[r.baseline]?.label ?? '';
  const out: string[] = [];
  r.variants.forEach((v, i) => {
    if (i === r.baseline) return;
    const row = r.cells[i] ?? [];
    const shared = r.columns.map((col, j) => ({ col, cell: row[j] })).filter((x) => x.cell && x.cell.verdict !== 'n/a');
    if (shared.length === 0) {
      out.push(`${v.label}: no figure in common with ${base}.`);
      return;
    }
    // Per figure (read, write, SEQ1M Q8T1 Read…), its stress sizes in column order.
    const figures = new Map<string, Array<{ col: ReportColumn; cell: ReportCell }>>();
    for (const x of shared) figures.set(x.col.figure, [...(figures.get(x.col.figure) ?? []), x as { col: ReportColumn; cell: ReportCell }]);
    const changed: string[] = [];
    const quiet: string[] = [];
    for (const members of figures.values()) {
      const word = figureWord(members[0]!.col);
      const real = members.filter((x) => isReal(x.cell));
      if (real.length === 0) {
        quiet.push(word);
        continue;
      }
      const deltas = real.map((x) => deltaText(x.cell.delta ?? NaN));
      const places = real.map((x) => whereText(x.col));
      let text: string;
      if (places.some((p) => p === undefined)) text = `${word} ${deltas[0]}`;
      else if (new Set(deltas).size === 1) text = `${word} ${deltas[0]} at ${listText(places as string[])}`;
      else text = `${word} ${listText(real.map((_, k) => `${deltas[k]} at ${places[k]}`))}`;
      const calm = members.filter((x) => !isReal(x.cell)).map((x) => whereText(x.col));
      if (calm.length > 0 && calm.every((p) => p !== undefined)) text += ` (no measurable difference at ${listText(calm as string[])})`;
      changed.push(text);
    }
    if (changed.length === 0) {
      out.push(`${v.label}: no measurable difference from ${base} on any figure.`);
      return;
    }
    const parts = [...changed];
    if (quiet.length > 0 && quiet.length <= 2) parts.push(`${listText(quiet)} no measurable difference`);
    else if (quiet.length > 2) parts.push(`no measurable difference on the other ${quiet.length} figures`);
    out.push(`${v.label}: ${parts.join(', ')} — vs ${base}.`);
  });
  out.push(...inconclusiveFindings(r));
  out.push(...fastestFindings(r, noun));
  return out;
}

/** A large change the rule still calls noise (too few runs, too much spread) is said as such,
 *  so "no measurable difference" is never read as "the same": "Btrfs: write −54 % at 32 MiB is
 *  within run-to-run noise with 2 runs each (p = 0.09); more runs would tell." */
function inconclusiveFindings(r: FormatReport): string[] {
  const out: string[] = [];
  r.variants.forEach((v, i) => {
    if (i === r.baseline) return;
    const big = r.columns
      .map((col, j) => ({ col, cell: r.cells[i]?.[j], base: r.cells[r.baseline]?.[j] }))
      .filter((x) => x.cell?.verdict === 'noise' && Math.abs(x.cell.delta ?? 0) >= NOISE_RULE.singleRunChange);
    if (big.length === 0) return;
    // One phrase per figure: "read −10 % at 1 GB and 5 GB", or each size's own change.
    const byFigure = new Map<string, typeof big>();
    for (const x of big) byFigure.set(x.col.figure, [...(byFigure.get(x.col.figure) ?? []), x]);
    const parts = [...byFigure.values()].map((xs) => {
      const word = figureWord(xs[0]!.col);
      const deltas = xs.map((x) => deltaText(x.cell!.delta!));
      const places = xs.map((x) => whereText(x.col));
      if (places.some((p) => p === undefined)) return `${word} ${deltas[0]}`;
      if (new Set(deltas).size === 1) return `${word} ${deltas[0]} at ${listText(places as string[])}`;
      return `${word} ${listText(xs.map((_, k) => `${deltas[k]} at ${places[k]}`))}`;
    });
    const n = big[0]!.cell!.values.length;
    const nb = big[0]!.base?.values.length ?? 0;
    const runs = n === nb ? `${n} run${n === 1 ? '' : 's'} each` : `${n} vs ${nb} runs`;
    const p = big[0]!.cell!.p;
    out.push(
      `${v.label}: ${listText(parts)} ${big.length === 1 ? 'is' : 'are'} still within run-to-run noise with ${runs}${p !== undefined ? ` (${pText(p)})` : ''}; more runs would tell.`,
    );
  });
  return out;
}

/** "Fastest write: XFS — ahead of every other format by more than run-to-run noise." With two
 *  rows the sentence above already says it, so only from three rows on. */
function fastestFindings(r: FormatReport, noun: string): string[] {
  if (r.variants.length < 3) return [];
  const out: string[] = [];
  for (const dir of ['read', 'write'] as const) {
    const cols = r.columns.map((col, j) => ({ col, j })).filter(({ col }) => col.unit === 'MB/s' && direction(col) === dir);
    const wins = new Map<number, ReportColumn[]>();
    for (const { col, j } of cols) {
      const present = r.variants
        .map((_, i) => ({ i, cell: r.cells[i]?.[j] }))
        .filter((x): x is { i: number; cell: ReportCell } => x.cell !== undefined);
      if (present.length < 2) continue;
      const top = present.reduce((a, b) => (b.cell.spread.mean > a.cell.spread.mean ? b : a));
      const ahead = present.every((x) => x === top || judgeChange(top.cell.values, x.cell.values, true).verdict === 'better');
      if (ahead) wins.set(top.i, [...(wins.get(top.i) ?? []), col]);
    }
    if (wins.size === 0) continue;
    const whole = wins.size === 1 && [...wins.values()][0]?.length === cols.length;
    const who = [...wins].map(([i, won]) => {
      const label = r.variants[i]?.label ?? '';
      return whole ? label : `${label} at ${listText(won.map((c) => whereText(c) ?? c.figure))}`;
    });
    out.push(`Fastest ${dir}: ${who.join('; ')} — ahead of every other ${noun} by more than run-to-run noise.`);
  }
  return out;
}

function direction(col: ReportColumn): 'read' | 'write' | undefined {
  if (/\bwrite\b/i.test(col.figure)) return 'write';
  if (/\bread\b/i.test(col.figure) && !/\+/.test(col.figure)) return 'read';
  return undefined;
}

function reportWarnings(docs: readonly ResultDocument[], groups: readonly VariantGroup[]): string[] {
  const out: string[] = [];
  const kinds = [...new Set(docs.map((d) => String(d.kind)))];
  if (kinds.length > 1) {
    out.push(`These results are different tests (${kinds.map(kindName).join(', ')}): each column compares only the rows that have it.`);
  }
  const drives = new Map<string, string[]>();
  for (const g of groups) {
    for (const d of g.docs) {
      const k = deviceKey(d);
      const who = drives.get(k) ?? [];
      if (!who.includes(g.label)) drives.set(k, [...who, g.label]);
    }
  }
  if (drives.size > 1) {
    const lines = groups.map((g) => `${g.label}: ${safe(() => targetLine(g.docs[0] as ResultDocument), 'unknown drive')}`);
    out.push(
      `The rows were measured on different drives or connections (${lines.join('; ')}). That is the point when comparing ports, hubs or cables; otherwise the rows are not the same disk.`,
    );
  }
  for (const g of groups) {
    if (g.docs.some((d) => d.cacheMode === 'buffered'))
      out.push(`${g.label} was measured through the page cache: its figures are not the disk's.`);
  }
  const runs = new Map<number, string[]>();
  for (const g of groups) {
    for (const d of g.docs) {
      const n = typeof d.settings?.runs === 'number' ? d.settings.runs : 1;
      const who = runs.get(n) ?? [];
      if (!who.includes(g.label)) runs.set(n, [...who, g.label]);
    }
  }
  if (runs.size > 1) {
    const parts = [...runs].sort((a, b) => b[0] - a[0]).map(([n, who]) => `${n} run${n === 1 ? '' : 's'}: ${who.join(', ')}`);
    const single = runs.has(1)
      ? ` A figure with a single run is judged by the ${NOISE_RULE.singleRunChange * 100} % threshold of the rule.`
      : '';
    out.push(`The rows have different numbers of runs (${parts.join('; ')}).${single}`);
  }
  const methods = new Map<string, string[]>();
  for (const g of groups) {
    for (const d of g.docs) {
      const m = methodWords(d);
      const who = methods.get(m) ?? [];
      if (!who.includes(g.label)) methods.set(m, [...who, g.label]);
    }
  }
  if (methods.size > 1) {
    out.push(
      `The rows were measured differently, so they are not like for like (${[...methods].map(([m, who]) => `${who.join(', ')}: ${m}`).join('; ')}).`,
    );
  }
  for (const kind of kinds.filter((k) => k !== 'quick')) {
    const titles = new Set(
      docs.filter((d) => String(d.kind) === kind).map((d) => safe(() => resultTitle(d), '').replace(/ · \d+ runs$/, '')),
    );
    if (titles.size > 1)
      out.push(`The ${kindName(kind)} results were run with different settings (${[...titles].join('; ')}): not like for like.`);
  }
  return out;
}

/** methodLine() without its run count (runs are stated, and warned about, on their own). */
function methodWords(d: ResultDocument): string {
  return safe(() => methodLine(d), 'unknown method').replace(/ · \d+ runs$/, '');
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

// ---- what every format prints ----------------------------------------------------------------

function newestDay(docs: readonly ResultDocument[]): string {
  const days = docs
    .map((d) => String(d?.startedAt ?? ''))
    .filter((s) => /^\d{4}-\d{2}-\d{2}/.test(s))
    .sort();
  return days.length > 0 ? (days[days.length - 1] as string).slice(0, 10) : 'undated';
}

/** The lines under the title: the drive, the method, runs and rest, the baseline. */
function aboutLines(r: FormatReport, docs: readonly ResultDocument[]): Array<[string, string]> {
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

function secondsText(s: number): string {
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** Each row's drive when they differ ("port vs hub"). */
function driveLines(r: FormatReport, docs: readonly ResultDocument[]): Array<[string, string]> {
  if (new Set(docs.map(deviceKey)).size <= 1) return [];
  return r.variants.map((v) => [v.label, v.drive]);
}

function rowLabel(r: FormatReport, i: number): string {
  const label = r.variants[i]?.label ?? '';
  return i === r.baseline && r.variants.length > 1 ? `${label} (baseline)` : label;
}

function headLabel(col: ReportColumn): string {
  return `${col.label} (${col.unit})`;
}

/** "1,234 ± 12", with " (−9 %)" for a change beyond noise and " (≈)" for one within it. */
function cellText(cell: ReportCell | undefined, unit: MetricUnit): Cell {
  if (!cell) return { text: '—' };
  const fig = figure(cell.values, unit);
  if (cell.verdict === 'better' || cell.verdict === 'worse')
    return { text: `${fig} (${deltaText(cell.delta ?? NaN)})`, tone: cell.verdict };
  if (cell.verdict === 'noise') return { text: `${fig} (≈)`, tone: 'noise' };
  return { text: fig };
}

function reportTable(r: FormatReport, docs: readonly ResultDocument[]): Table {
  const first = isCampaign(docs) ? 'Format' : 'Result';
  return {
    head: [first, ...r.columns.map(headLabel)],
    rows: r.variants.map((_, i) => [{ text: rowLabel(r, i) }, ...r.columns.map((col, j) => cellText(r.cells[i]?.[j], col.unit))]),
  };
}

/** The same table with rows and columns swapped: "Figure" over the rows' names. */
function transposed(t: Table): Table {
  const figures = t.head.slice(1);
  return {
    head: ['Figure', ...t.rows.map((row) => row[0]?.text ?? '')],
    rows: figures.map((f, j) => [{ text: f }, ...t.rows.map((row) => row[j + 1] ?? { text: '—' })]),
  };
}

function legendText(r: FormatReport): string {
  const base = r.variants[r.baseline]?.label ?? '';
  const what = 'Each cell is the mean across runs ± the sample standard deviation';
  if (r.variants.length < 2) return `${what}.`;
  return `${what}; changes are against ${base}, and (≈) marks a difference within run-to-run noise.`;
}

// ---- Markdown ----------------------------------------------------------------------------------

function reportMarkdown(r: FormatReport, docs: readonly ResultDocument[]): string {
  const out = [`## ${mdInline(r.title)}`, ''];
  out.push(
    aboutLines(r, docs)
      .map(([k, v]) => `**${k}:** ${mdInline(v)}`)
      .join(' · '),
    '',
  );
  const drives = driveLines(r, docs);
  if (drives.length > 0) out.push(...drives.map(([k, v]) => `- **${mdInline(k)}:** ${mdInline(v)}`), '');
  out.push(...mdTable(reportTable(r, docs)));
  out.push(`_${mdInline(legendText(r))}_`, '');
  if (r.findings.length > 0) out.push('**Findings**', '', mdInline(r.findings.join(' ')), '');
  const flags = docs.flatMap((d) => (d.flags ?? []).filter((f) => f.severity !== 'info').map((f) => `${variantOf(r, d)}: ${f.message}`));
  const warnings = [...r.warnings, ...new Set(flags)];
  if (warnings.length > 0) out.push('**Warnings**', '', ...warnings.map((w) => `- ⚠ ${mdInline(w)}`), '');
  out.push(`_Rule: ${mdInline(r.rule)}_`, '');
  out.push(versionLine(docs));
  return out.join('\n') + '\n';
}

function variantOf(r: FormatReport, d: ResultDocument): string {
  return r.variants.find((v) => v.resultIds.includes(d.id))?.label ?? safe(() => resultName(d), '');
}

// ---- plain text --------------------------------------------------------------------------------

/** The same table in fixed-width columns, for a terminal or a plain-text post. */
function reportText(r: FormatReport, docs: readonly ResultDocument[]): string {
  const t = reportTable(r, docs);
  const rows = [t.head, ...t.rows.map((row) => row.map((x) => x.text))];
  const widths = t.head.map((_, j) => Math.max(...rows.map((row) => [...(row[j] ?? '')].length)));
  const line = (row: readonly string[]): string =>
    row
      .map((x, j) => (j === 0 ? x.padEnd(widths[j] ?? 0) : x.padStart(widths[j] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [r.title, '='.repeat(Math.min(78, [...r.title].length)), ''];
  for (const [k, v] of aboutLines(r, docs)) out.push(`${k}: ${v}`);
  for (const [k, v] of driveLines(r, docs)) out.push(`  ${k}: ${v}`);
  out.push('', line(rows[0] as string[]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), '', legendText(r), '');
  if (r.findings.length > 0) out.push('Findings:', ...r.findings.map((f) => `  * ${f}`), '');
  if (r.warnings.length > 0) out.push('Warnings:', ...r.warnings.map((w) => `  ! ${w}`), '');
  out.push(`Rule: ${r.rule}`, '', versionLine(docs));
  return out.join('\n') + '\n';
}

// ---- CSV ---------------------------------------------------------------------------------------

const REPORT_CSV_HEAD = [
  'variant',
  'label',
  'figure',
  'size_bytes',
  'unit',
  'n',
  'mean',
  'stdev',
  'min',
  'max',
  'delta',
  'verdict',
  'p',
] as const;

/** One row per row × column (RFC 4180, CRLF); an empty cell has n = 0 and no figures. */
function reportCsv(r: FormatReport): string {
  const text = (s: string): string => csvQuote(csvText1(s));
  const num = (x: number | undefined): string => (x === undefined ? '' : csvNumber(x));
  const lines = [REPORT_CSV_HEAD.join(',')];
  r.variants.forEach((v, i) => {
    r.columns.forEach((col, j) => {
      const cell = r.cells[i]?.[j];
      const s = cell?.spread;
      lines.push(
        [
          text(v.label),
          text(col.label),
          text(col.figure),
          num(col.sizeBytes),
          text(col.unit),
          String(cell?.values.length ?? 0),
          num(s?.mean),
          num(s && s.n > 1 ? s.stdev : undefined),
          num(s?.min),
          num(s?.max),
          num(cell?.delta),
          cell ? text(cell.verdict) : '',
          num(cell?.p),
        ].join(','),
      );
    });
  });
  return lines.join('\r\n') + '\r\n';
}

// ---- HTML --------------------------------------------------------------------------------------

const REPORT_STYLE = `
.charts { display: grid; grid-template-columns: 1fr; gap: .5rem; }
figure.chart { margin: .4rem 0 1rem; }
figure.chart figcaption { font-weight: 600; margin: 0 0 .3rem; }
.findings p { margin: .3rem 0; }
p.legend { font-size: .85rem; color: #555; margin-top: -.4rem; }
@media print {
  body { font-size: 9.5pt; }
  .charts { gap: 0; }
  figure.chart svg { max-height: 95mm; width: auto; max-width: 100%; }
  .findings, ul.flags, p.rule { break-inside: avoid; }
  p.rule, p.legend, footer { font-size: 8.5pt; }
}
`;

const SERIES = [PALETTE[0], PALETTE[1]] as const;

function reportHtml(r: FormatReport, docs: readonly ResultDocument[]): string {
  const body = [`<h1>${esc(r.title)}</h1>`];
  const about = [...aboutLines(r, docs), ...driveLines(r, docs).map(([k, v]): [string, string] => [`  ${k}`, v])];
  body.push(`<dl class="meta">${about.map(([k, v]) => `<dt>${esc(k.trim())}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`);
  // Past five figures a row per result no longer fits a printed page: figures become the rows.
  const table = r.columns.length > 5 ? transposed(reportTable(r, docs)) : reportTable(r, docs);
  body.push('<h2>Results</h2>', htmlTable(table), `<p class="legend">${esc(legendText(r))}</p>`);
  const charts = reportCharts(r);
  if (charts.length > 0) body.push('<h2>Charts</h2>', `<div class="charts">${charts.join('\n')}</div>`);
  if (r.findings.length > 0) body.push('<h2>Findings</h2>', `<div class="findings"><p>${esc(r.findings.join(' '))}</p></div>`);
  // The results' own flags, once per row (a plan's results of one format share most of them).
  const own = new Map<string, boolean>();
  for (const d of docs) for (const f of d.flags ?? []) own.set(`${variantOf(r, d)}: ${f.message}`, f.severity === 'info');
  const flags = [...r.warnings.map((w) => ({ text: w, info: false })), ...[...own].map(([text, info]) => ({ text, info }))];
  if (flags.length > 0) body.push('<h2>Warnings</h2>', htmlFlags(flags));
  body.push(`<p class="rule"><strong>Rule:</strong> ${esc(r.rule)}</p>`);
  return htmlPage(r.title, body, docs, REPORT_STYLE);
}

/** One grouped chart per stress size (rows as groups, Read and Write side by side), and one for
 *  the MB/s figures without a size: rows as groups when there are at most three figures, else
 *  figures as groups with a bar per row (the grid's eight figures). */
function reportCharts(r: FormatReport): string[] {
  const mbps = r.columns.map((col, j) => ({ col, j })).filter(({ col }) => col.unit === 'MB/s');
  const sizes = [...new Set(mbps.map(({ col }) => col.sizeBytes).filter((s): s is number => s !== undefined))].sort((a, b) => a - b);
  const bar = (i: number, j: number, color: string): ChartBar | undefined => {
    const cell = r.cells[i]?.[j];
    return cell ? { mean: cell.spread.mean, sd: cell.spread.n > 1 ? cell.spread.stdev : 0, color } : undefined;
  };
  const byVariant = (cols: ReadonlyArray<{ col: ReportColumn; j: number }>, figureOnly: boolean): ChartSpec => ({
    series: cols.map(({ col }, k) => ({
      label: figureOnly ? col.figure : col.label,
      color: (cols.length <= 2 ? SERIES[k] : PALETTE[k % PALETTE.length]) as string,
    })),
    groups: r.variants.map((v, i) => ({
      label: v.label,
      note: i === r.baseline && r.variants.length > 1 ? 'baseline' : undefined,
      bars: cols.map(({ j }, k) => bar(i, j, (cols.length <= 2 ? SERIES[k] : PALETTE[k % PALETTE.length]) as string)),
    })),
  });
  const out: string[] = [];
  for (const size of sizes) {
    const cols = mbps.filter(({ col }) => col.sizeBytes === size);
    out.push(groupedBarChart(`Stress size ${sizeText(size)}: MB/s, mean ± SD`, byVariant(cols, true), r.ceilingMBps));
  }
  const rest = mbps.filter(({ col }) => col.sizeBytes === undefined);
  if (rest.length > 0 && rest.length <= 3) out.push(groupedBarChart('MB/s, mean ± SD', byVariant(rest, false), r.ceilingMBps));
  else if (rest.length > 3) {
    const spec: ChartSpec = {
      series: r.variants.map((v, i) => ({ label: rowLabel(r, i), color: PALETTE[i % PALETTE.length] as string })),
      groups: rest.map(({ col, j }) => ({
        label: col.label,
        bars: r.variants.map((_, i) => bar(i, j, PALETTE[i % PALETTE.length] as string)),
      })),
    };
    out.push(groupedBarChart('MB/s, mean ± SD', spec, r.ceilingMBps));
  }
  return out.filter(Boolean);
}

interface ChartBar {
  mean: number;
  sd: number;
  color: string;
}
interface ChartSpec {
  series: Array<{ label: string; color: string }>;
  groups: Array<{ label: string; note?: string | undefined; bars: Array<ChartBar | undefined> }>;
}

/** A vertical grouped bar chart as inline SVG: a bar per series in each group, ±SD error bars,
 *  the mean over each bar, a legend, and the interface ceiling as a dashed line when it is at
 *  most 1.5× the largest bar (further up it would squash the bars). */
function groupedBarChart(title: string, spec: ChartSpec, ceiling: number | undefined): string {
  const bars = spec.groups.flatMap((g) => g.bars).filter((b): b is ChartBar => b !== undefined && Number.isFinite(b.mean));
  if (bars.length === 0) return '';
  const maxMean = Math.max(...bars.map((b) => b.mean), 1e-9);
  const showCeiling = ceiling !== undefined && ceiling > 0 && ceiling <= maxMean * 1.5 ? ceiling : undefined;
  const W = 760;
  const left = 62;
  const right = 14;
  const plotW = W - left - right;
  const nSeries = Math.max(1, spec.series.length);
  const groupW = plotW / Math.max(1, spec.groups.length);
  const barW = Math.min(64, (groupW * 0.78) / nSeries);
  const rotate = barW < 34;
  const legendTop = 6;
  const legendLines = legendRows(
    spec.series.map((x) => truncate(x.label, 40)),
    W - left,
  );
  const top = 16 + legendLines * 18;
  const plotH = 220;
  const labelRoom = rotate ? 46 : 18;
  const need = Math.max(...bars.map((b) => b.mean + (b.sd || 0)), showCeiling ?? 0);
  let scaleMax = need;
  // Room over the tallest bar for its label: scale so `need` sits labelRoom px under the top.
  const raw = (need * plotH) / (plotH - labelRoom);
  const step = niceStep(raw);
  scaleMax = Math.ceil(raw / step) * step;
  const y = (v: number): number => top + plotH - (Math.max(0, v) / scaleMax) * plotH;
  const bottom = top + plotH;
  const labelLines = Math.max(
    ...spec.groups.map((g) => wrapText(g.label, Math.max(6, Math.floor(groupW / 6.8)), 2).length + (g.note ? 1 : 0)),
  );
  const H = bottom + 12 + labelLines * 14 + 6;
  const n = (x: number): string => x.toFixed(1);
  const parts: string[] = [
    `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
  ];
  // Legend, left to right, wrapping onto another line when it runs out of width.
  let lx = left;
  let ly = legendTop;
  for (const s of spec.series) {
    const label = truncate(s.label, 40);
    const w = 17 + label.length * 6.6 + 18;
    if (lx > left && lx + w > W) {
      lx = left;
      ly += 18;
    }
    parts.push(
      `<rect x="${n(lx)}" y="${ly}" width="12" height="12" rx="2" fill="${s.color}"></rect>`,
      `<text x="${n(lx + 17)}" y="${ly + 10.5}" font-size="12">${esc(label)}</text>`,
    );
    lx += w;
  }
  // Grid and axis.
  for (let v = 0; v <= scaleMax + step / 2; v += step) {
    const gy = n(y(v));
    parts.push(`<line x1="${left}" y1="${gy}" x2="${left + plotW}" y2="${gy}" stroke="${v === 0 ? '#888' : '#e4e4e4'}"></line>`);
    parts.push(
      `<text x="${left - 6}" y="${n(y(v) + 4)}" font-size="11" text-anchor="end">${esc(v.toLocaleString('en-US', { maximumFractionDigits: step >= 1 ? 0 : 2 }))}</text>`,
    );
  }
  parts.push(`<text transform="translate(14 ${n(top + plotH / 2)}) rotate(-90)" font-size="11" text-anchor="middle">MB&#47;s</text>`);
  spec.groups.forEach((g, gi) => {
    const gx = left + gi * groupW;
    const x0 = gx + (groupW - barW * g.bars.length) / 2;
    g.bars.forEach((b, k) => {
      if (!b || !Number.isFinite(b.mean)) return;
      const bx = x0 + k * barW;
      const inner = Math.max(1, barW - 3);
      parts.push(
        `<rect x="${n(bx + 1.5)}" y="${n(y(b.mean))}" width="${n(inner)}" height="${n(bottom - y(b.mean))}" fill="${b.color}"></rect>`,
      );
      const cx = bx + barW / 2;
      let labelY = y(b.mean) - 4;
      if (b.sd > 0) {
        const cap = Math.min(10, inner * 0.5) / 2;
        const hi = y(b.mean + b.sd);
        const lo = y(b.mean - b.sd);
        parts.push(
          `<line x1="${n(cx)}" y1="${n(hi)}" x2="${n(cx)}" y2="${n(lo)}" stroke="#222" stroke-width="1.2"></line>`,
          `<line x1="${n(cx - cap)}" y1="${n(hi)}" x2="${n(cx + cap)}" y2="${n(hi)}" stroke="#222" stroke-width="1.2"></line>`,
          `<line x1="${n(cx - cap)}" y1="${n(lo)}" x2="${n(cx + cap)}" y2="${n(lo)}" stroke="#222" stroke-width="1.2"></line>`,
        );
        labelY = hi - 4;
      }
      const value = esc(formatFigure(b.mean, 'MB/s'));
      if (rotate) parts.push(`<text transform="translate(${n(cx + 3.5)} ${n(labelY)}) rotate(-90)" font-size="10">${value}</text>`);
      else parts.push(`<text x="${n(cx)}" y="${n(labelY)}" font-size="11" text-anchor="middle">${value}</text>`);
    });
    const lines = wrapText(g.label, Math.max(6, Math.floor(groupW / 6.8)), 2);
    lines.forEach((line, k) =>
      parts.push(`<text x="${n(gx + groupW / 2)}" y="${bottom + 17 + k * 14}" font-size="12" text-anchor="middle">${esc(line)}</text>`),
    );
    if (g.note)
      parts.push(
        `<text x="${n(gx + groupW / 2)}" y="${bottom + 17 + lines.length * 14}" font-size="10" text-anchor="middle" style="fill:#666">${esc(g.note)}</text>`,
      );
  });
  if (showCeiling !== undefined) {
    const cy = n(y(showCeiling));
    parts.push(
      `<line x1="${left}" y1="${cy}" x2="${left + plotW}" y2="${cy}" stroke="#a31616" stroke-width="1.5" stroke-dasharray="6 4"></line>`,
    );
    parts.push(
      `<text x="${left + plotW - 2}" y="${n(y(showCeiling) - 5)}" font-size="11" text-anchor="end" style="fill:#a31616">${esc(`interface ceiling ${formatFigure(showCeiling)} MB/s`)}</text>`,
    );
  }
  parts.push('</svg>');
  return `<figure class="chart">\n<figcaption>${esc(title)}</figcaption>\n${parts.join('\n')}\n</figure>`;
}

/** How many legend lines `labels` take in `width` px (the chart's legend wraps the same way). */
function legendRows(labels: readonly string[], width: number): number {
  let rows = 1;
  let x = 0;
  for (const label of labels) {
    const w = 17 + label.length * 6.6 + 18;
    if (x > 0 && x + w > width) {
      rows++;
      x = 0;
    }
    x += w;
  }
  return rows;
}

/** Words in lines of at most `width` characters, at most `lines` lines (the last one cut with …). */
function wrapText(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  const words = text.split(/\s+/).filter(Boolean);
  for (let k = 0; k < words.length; k++) {
    const word = words[k] as string;
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width || !line) {
      line = next;
      continue;
    }
    if (out.length === lines - 1) {
      out.push(truncate(`${line} ${words.slice(k).join(' ')}`, width));
      return out;
    }
    out.push(truncate(line, width));
    line = word;
  }
  if (line) out.push(truncate(line, width));
  return out.slice(0, lines);
}
