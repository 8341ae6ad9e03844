// Result documents as files a person keeps or posts: a Markdown table for a forum, text in
// CrystalDiskMark's layout, CSV for a spreadsheet, the JSON documents themselves, and one
// self-contained HTML page that prints to PDF. One result gives a single-result export; several
// give a comparison (compare.ts) with the noise rule printed under it.
//
// Browser-safe: no node:* imports (the renderer bundles it). The HTML page loads nothing from
// anywhere: its style and charts are inline, and it has no script. The format-and-compare
// report (format-report.ts) is built from the same escaping, table, CSV and page helpers,
// exported below, so both print alike and are safe alike. Text in a result may have come from
// anywhere (an imported file): each format escapes its own syntax, and no format lets a control
// character through raw — an ESC in a label must not reach a terminal that shows the file (JSON
// keeps them, as \u escapes, so the document stays the same).

import type { ResultDocument, ResultFlag, ResultTest } from '../../model/result.js';
import { spread } from '../../model/stats.js';
import { plainText, safeJson, withoutControls } from '../../model/text.js';
import { hashVerdictText, OVERHEAD_BELOW_ZERO, shownOverhead, sustainedVerdictText } from '../../model/trust.js';
import { columnLabels, compareResults, deltaText, type CompareCell, type CompareRow, type Comparison } from '../../model/report/compare.js';
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

/** The MIME type of each export format (shared with format-report.ts, as are the helpers marked exported below). */
export const MIME: Record<ExportFormat, string> = {
  md: 'text/markdown;charset=utf-8',
  txt: 'text/plain;charset=utf-8',
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  html: 'text/html;charset=utf-8',
};

/** One result (a single-result export) or several (a comparison against `baseline`, a result
 *  id; the first by default) as a file in `format`. Throws a RangeError when given no result. */
export function renderExport(docs: readonly ResultDocument[], format: ExportFormat, opts: { baseline?: string } = {}): ExportFile {
  const first = docs[0];
  if (first === undefined) throw new RangeError('renderExport: no result to export');
  const filename = exportFilename(docs, format);
  // The helpers below strip control characters field by field; this pass covers every line the
  // text formats print without one (the CrystalDiskMark-style text has no cell escaping at all).
  const clean = (text: string): string => (format === 'json' ? text : withoutControls(text));
  if (docs.length === 1) return { filename, mime: MIME[format], text: clean(SINGLE[format](first)) };
  const cmp = compareResults(docs, opts.baseline !== undefined ? { baseline: opts.baseline } : {});
  return { filename, mime: MIME[format], text: clean(MANY[format](docs, cmp)) };
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

const SINGLE: Record<ExportFormat, (doc: ResultDocument) => string> = {
  md: markdownOne,
  txt: (doc) => [txtHeader([doc]), txtBlock(doc)].join('\n'),
  csv: (doc) => csvText([doc]),
  json: (doc) => safeJson(doc, 2) + '\n',
  html: htmlOne,
};

const MANY: Record<ExportFormat, (docs: readonly ResultDocument[], cmp: Comparison) => string> = {
  md: markdownMany,
  txt: txtMany,
  csv: (docs) => csvText(docs),
  json: (docs, cmp) => safeJson({ format: 'diskdial-comparison', schema: 1, results: docs, comparison: cmp }, 2) + '\n',
  html: htmlMany,
};

// ---- the figures every format shows ----------------------------------------------------------

/** A table as text cells; `tone` colours a comparison cell in HTML. */
export interface Cell {
  text: string;
  tone?: 'better' | 'worse' | 'noise';
}
export interface Table {
  title?: string;
  head: string[];
  /** Columns after the first are numbers, right-aligned. */
  rows: Cell[][];
}

const c = (text: string): Cell => ({ text });

/** The files table's overhead cell: the clamped figure, and the reason when a run's Theil–Sen fit
 *  fell below zero. */
function overheadCell(text: string, runs: NonNullable<ResultDocument['files']>['runs'], pass: 'write' | 'read'): string {
  return runs.some((r) => shownOverhead(r[pass].theilSen?.overheadMs ?? 0).belowZero) ? `${text} (${OVERHEAD_BELOW_ZERO})` : text;
}

/** A figure across runs: "1,234" for one run, "1,234 ± 12" (mean ± sample SD) for several. */
export function figure(values: readonly number[], unit?: MetricUnit): string {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return '—';
  const s = spread(v);
  const m = formatFigure(s.mean, unit);
  if (s.n < 2) return m;
  const decimals = m.includes('.') ? m.length - m.indexOf('.') - 1 : 0;
  return `${m} ± ${s.stdev.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
}

function withUnit(text: string, unit: MetricUnit): string {
  return text === '—' ? text : `${text} ${unit}`;
}

/** Metrics of one result by key, the first of a repeated key kept. */
function metricMap(doc: ResultDocument): Map<string, Metric> {
  const out = new Map<string, Metric>();
  for (const m of resultMetrics(doc)) if (!out.has(m.key)) out.set(m.key, m);
  return out;
}

/** The tables of one result: per test for the grid and the Quick Test, per pass for the
 *  many-file test, per stage for the hash test, the curve's figures for the sustained write. */
function resultTables(doc: ResultDocument): Table[] {
  const metrics = metricMap(doc);
  const vals = (key: string): number[] => metrics.get(key)?.values ?? [];
  if (doc.kind === 'hash' && doc.hash) {
    const h = doc.hash;
    const stage = (label: string, r: { bytes: number; seconds: number; mbps: number }): Cell[] => [
      c(label),
      c(formatFigure(r.mbps, 'MB/s')),
      c(sizeText(r.bytes, true)),
      c(formatFigure(r.seconds)),
    ];
    const label = (m: string): string => metrics.get(`Hash/${m}`)?.label ?? m;
    return [
      {
        head: ['Stage', 'MB/s', 'Data', 'Seconds'],
        rows: [
          stage(label('read'), h.read),
          stage(label('readHash'), h.readHash),
          stage(label('memory'), h.memory),
          stage(label('memoryParallel'), h.memoryParallel),
        ],
      },
    ];
  }
  const tables: Table[] = [];
  if (doc.kind === 'files' && doc.files) {
    const run = doc.files.runs[0];
    const rows = (['Write', 'Read'] as const).map((P) => {
      const k = (m: string): string => `Files ${P}/${m}`;
      return [
        c(P),
        c(run ? String(run[P === 'Write' ? 'write' : 'read'].files) : '—'),
        c(run ? sizeText(run[P === 'Write' ? 'write' : 'read'].bytes, true) : '—'),
        c(figure(vals(k('mbps')), 'MB/s')),
        c(figure(vals(k('medianMBps')), 'MB/s')),
        c(figure(vals(k('trimmedMeanMBps')), 'MB/s')),
        c(figure(vals(k('rateMBps')), 'MB/s')),
        c(overheadCell(figure(vals(k('overheadMs')), 'ms'), doc.files!.runs, P === 'Write' ? 'write' : 'read')),
      ];
    });
    tables.push({
      head: [
        'Pass',
        'Files',
        'Data',
        'Aggregate MB/s',
        'Median file MB/s',
        '20 % trimmed mean MB/s',
        'Rate (Theil–Sen) MB/s',
        'Per-file overhead (ms)',
      ],
      rows,
    });
    return tables;
  }
  if (doc.kind === 'sustained' && doc.sustained) {
    const rows = [...metrics.values()]
      .filter((m) => m.group === 'Sustained')
      .map((m) => [c(m.label), c(withUnit(figure(m.values, m.unit), m.unit))]);
    tables.push({ head: ['Figure', 'Value'], rows });
  }
  const names = [...new Set(doc.tests.map((t) => t.name))];
  if (names.length > 0) {
    tables.push({
      title: doc.kind === 'sustained' ? 'The write as one test' : undefined,
      head: ['Test', 'MB/s', 'IOPS', 'Mean latency (µs)', 'p99 latency (µs)'],
      rows: names.map((n) => [
        c(n),
        c(figure(vals(`${n}/mbps`), 'MB/s')),
        c(figure(vals(`${n}/iops`), 'IOPS')),
        c(figure(vals(`${n}/meanUs`), 'µs')),
        c(figure(vals(`${n}/p99Us`), 'µs')),
      ]),
    });
  }
  return tables;
}

/** Sentences a result states besides its tables: the sustained verdicts, the hash verdict and digest. */
function resultStatements(doc: ResultDocument): Array<{ label: string; text: string; code?: boolean }> {
  const out: Array<{ label: string; text: string; code?: boolean }> = [];
  if (doc.sustained) {
    const runs = doc.sustained.runs;
    for (const r of runs) out.push({ label: runs.length > 1 ? `Run ${r.run}` : 'Verdict', text: sustainedVerdictText(r, doc.flags) });
    if (doc.sustained.limitedBy === 'free-space') {
      out.push({
        label: 'Note',
        text: `Limited by free space to ${sizeText(doc.sustained.plannedBytes, true)} (asked for ${sizeText(doc.sustained.requestedBytes, true)}).`,
      });
    }
  }
  if (doc.files?.scaled) out.push({ label: 'Note', text: doc.files.scaled });
  if (doc.hash) {
    const h = doc.hash;
    out.push({ label: 'Verdict', text: hashVerdictText(doc) ?? h.verdict.text });
    out.push({ label: algoName(h.algo), text: h.digest, code: true });
    if (h.verify) out.push({ label: 'Verify', text: h.verify.text });
    out.push({ label: 'Crypto library', text: h.provider });
  }
  return out;
}

function algoName(algo: string): string {
  return algo === 'sha512' ? 'SHA-512' : 'SHA-256';
}

/** The machine in one line: "Debian GNU/Linux 12 (bookworm) x64 · Intel Xeon … · 2 cores". */
function machineLine(doc: ResultDocument): string {
  const h = doc.host;
  const parts = [`${h.osName ?? `${h.os} ${h.osRelease}`} ${h.arch}`, h.cpu];
  if (h.cores) parts.push(`${h.cores} cores`);
  if (h.ramBytes) parts.push(`${sizeText(h.ramBytes, true)} RAM`);
  return parts.join(' · ');
}

/** "2026-11-22 02:39 UTC". */
export function dateText(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;
}

export function versionLine(docs: readonly ResultDocument[]): string {
  const apps = [...new Set(docs.map((d) => d.app?.version ?? '?'))];
  const engines = [...new Set(docs.map((d) => d.app?.engine ?? '?'))];
  return `Measured with DiskDial ${apps.join(', ')} (engine ${engines.join(', ')})`;
}

function flagMark(f: ResultFlag): string {
  return f.severity === 'info' ? 'ℹ' : '⚠';
}

function runsNote(doc: ResultDocument): string | undefined {
  const runs = doc.settings?.runs ?? 1;
  return runs > 1 ? `Runs: ${runs}. Figures are the mean ± the sample standard deviation across runs.` : undefined;
}

/** A comparison cell as text: "1,234 ± 12 (−9 %)" when it differs, "1,230 ≈" within noise. */
function compareCellText(cell: CompareCell | undefined, unit: MetricUnit): Cell {
  if (!cell) return c('—');
  const fig = figure(cell.values, unit);
  if (cell.verdict === 'better' || cell.verdict === 'worse')
    return { text: `${fig} (${deltaText(cell.delta ?? NaN)})`, tone: cell.verdict };
  if (cell.verdict === 'noise') return { text: `${fig} ≈`, tone: 'noise' };
  return c(fig);
}

function compareTables(cmp: Comparison): Table[] {
  const labels = columnLabels(cmp);
  const head = ['Metric', ...labels.map((l, i) => (i === cmp.baseline ? `${l} (baseline)` : l))];
  const row = (r: CompareRow): Cell[] => [
    c(r.label.includes(r.unit) ? r.label : `${r.label} (${r.unit})`),
    ...r.cells.map((cell) => compareCellText(cell, r.unit)),
  ];
  const tables: Table[] = [{ title: 'Headline figures', head, rows: cmp.rows.filter((r) => r.primary).map(row) }];
  const detail = cmp.rows.filter((r) => !r.primary);
  if (detail.length > 0) tables.push({ title: 'Detail', head, rows: detail.map(row) });
  return tables;
}

// ---- Markdown --------------------------------------------------------------------------------

/** A table cell: a backslash and '|' escaped so the row keeps its columns. */
export function mdCell(s: string): string {
  return mdInline(s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|'));
}

/** Text on one line without control characters, with '<' as an entity so a label cannot open an
 *  HTML tag where a forum renders HTML. */
export function mdInline(s: string): string {
  return plainText(s).replace(/</g, '&lt;');
}

export function mdTable(t: Table): string[] {
  const out: string[] = [];
  if (t.title) out.push(`**${mdInline(t.title)}**`, '');
  out.push(`| ${t.head.map(mdCell).join(' | ')} |`);
  out.push(`|${t.head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const r of t.rows) out.push(`| ${r.map((x) => mdCell(x.text)).join(' | ')} |`);
  out.push('');
  return out;
}

function markdownOne(doc: ResultDocument): string {
  const out = [`## ${mdInline(resultName(doc))} — ${mdInline(resultTitle(doc))}`, ''];
  out.push(`- **Drive:** ${mdInline(targetLine(doc))}`);
  out.push(`- **Method:** ${mdInline(methodLine(doc))}`);
  out.push(`- **Machine:** ${mdInline(machineLine(doc))}`);
  out.push(`- **Date:** ${dateText(doc.startedAt)}`, '');
  for (const t of resultTables(doc)) out.push(...mdTable(t));
  const runs = runsNote(doc);
  if (runs) out.push(`_${runs}_`, '');
  const said = resultStatements(doc);
  if (said.length > 0) {
    for (const s of said)
      out.push(`- **${mdInline(s.label)}:** ${s.code ? `\`${mdInline(s.text).replace(/`/g, '')}\`` : mdInline(s.text)}`);
    out.push('');
  }
  const notes = [
    ...doc.flags.map((f) => `- ${flagMark(f)} ${mdInline(f.message)} ${mdInline(f.fix)}`.trimEnd()),
    ...(doc.notes ?? []).map((n) => `- ℹ ${mdInline(n)}`),
  ];
  if (notes.length > 0) out.push(...notes, '');
  out.push(versionLine([doc]));
  return out.join('\n') + '\n';
}

function markdownMany(docs: readonly ResultDocument[], cmp: Comparison): string {
  const labels = columnLabels(cmp);
  const out = [`## Comparison of ${docs.length} results`, ''];
  cmp.columns.forEach((col, i) => {
    const base = i === cmp.baseline ? ' (baseline)' : '';
    out.push(
      `${i + 1}. **${mdInline(labels[i] ?? '')}**${base} — ${mdInline(col.title)} · ${mdInline(col.drive)} · ${mdInline(col.method)} · ${dateText(col.startedAt)}`,
    );
  });
  out.push('');
  for (const t of compareTables(cmp)) out.push(...mdTable(t));
  out.push('Changes are against the baseline; ≈ marks a difference within run-to-run noise (see the rule below).', '');
  if (cmp.findings.length > 0) out.push('**Findings**', '', ...cmp.findings.map((f) => `- ${mdInline(f)}`), '');
  const flags = docs.flatMap((d, i) => d.flags.map((f) => `- ${flagMark(f)} ${mdInline(labels[i] ?? '')}: ${mdInline(f.message)}`));
  const warnings = [...cmp.warnings.map((w) => `- ⚠ ${mdInline(w)}`), ...flags];
  if (warnings.length > 0) out.push('**Warnings**', '', ...warnings, '');
  out.push(`_Rule: ${mdInline(cmp.rule)}_`, '');
  out.push(versionLine(docs));
  return out.join('\n') + '\n';
}

// ---- CrystalDiskMark-style text --------------------------------------------------------------

const DASHES = '-'.repeat(78);

function txtHeader(docs: readonly ResultDocument[]): string {
  const lines = [DASHES, versionLine(docs).replace('Measured with ', ''), DASHES];
  lines.push('* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]');
  lines.push('* KB = 1000 bytes, KiB = 1024 bytes');
  if (docs.some((d) => (d.settings?.runs ?? 1) > 1 && d.tests.length > 0)) {
    lines.push('* With several runs each line is the best run, as CrystalDiskMark reports (mean and spread: Markdown, HTML, CSV)');
  }
  return lines.join('\n') + '\n';
}

const KiB = 1024;
const MiB = 1024 * 1024;

function bsText(bs: number): string {
  if (bs >= MiB && bs % MiB === 0) return `${bs / MiB}MiB`;
  if (bs >= KiB && bs % KiB === 0) return `${bs / KiB}KiB`;
  return `${bs}B`;
}

const fx = (x: number, digits: number, width: number): string => (Number.isFinite(x) ? x.toFixed(digits) : '-').padStart(width);

/** "  SEQ    1MiB (Q=  8, T= 1):  1234.567 MB/s [   1177.4 IOPS] <  6789.01 us>" */
export function cdmLine(t: Pick<ResultTest, 'rw' | 'bs' | 'qd' | 'threads' | 'mbps' | 'iops'> & { latencyUs: { mean: number } }): string {
  const seq = t.rw === 'read' || t.rw === 'write' || t.rw === 'rw';
  return (
    `  ${seq ? 'SEQ' : 'RND'} ${bsText(t.bs).padStart(7)} (Q=${String(t.qd).padStart(3)}, T=${String(t.threads).padStart(2)}):` +
    ` ${fx(t.mbps, 3, 9)} MB/s [${fx(t.iops, 1, 9)} IOPS] <${fx(t.latencyUs.mean, 2, 9)} us>`
  );
}

function section(rw: string): string {
  if (rw === 'read' || rw === 'randread') return 'Read';
  if (rw === 'write' || rw === 'randwrite') return 'Write';
  return 'Mix';
}

/** The best run of each test name (highest MB/s), in first-seen order. */
function bestRuns(tests: readonly ResultTest[]): ResultTest[] {
  const best = new Map<string, ResultTest>();
  for (const t of tests) {
    const b = best.get(t.name);
    if (!b || t.mbps > b.mbps) best.set(t.name, t);
  }
  return [...best.values()];
}

function txtFigures(rows: Array<[string, string]>): string[] {
  const w = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, v]) => `  ${l.padEnd(w)}: ${v}`);
}

function txtBlock(doc: ResultDocument): string {
  const lines: string[] = [];
  const metrics = metricMap(doc);
  if (doc.kind === 'hash' && doc.hash) {
    const h = doc.hash;
    lines.push('[Hash]');
    const rates = [...metrics.values()].map((m): [string, string] => [m.label, `${fx(m.values[0] ?? NaN, 3, 9)} MB/s`]);
    lines.push(
      ...txtFigures([
        ...rates,
        ['Verdict', hashVerdictText(doc) ?? h.verdict.text],
        [algoName(h.algo), h.digest],
        ...(h.verify ? [['Verify', h.verify.text] as [string, string]] : []),
      ]),
    );
    lines.push('');
  } else if (doc.kind === 'files' && doc.files) {
    lines.push('[Files]');
    const rows: Array<[string, string]> = [];
    for (const pass of ['write', 'read'] as const) {
      const runs = doc.files.runs;
      const best = runs.reduce<(typeof runs)[number] | undefined>((b, r) => (!b || r[pass].mbps > b[pass].mbps ? r : b), undefined);
      if (!best) continue;
      const s = best[pass];
      const P = pass === 'write' ? 'Write' : 'Read';
      rows.push([
        P,
        `${fx(s.mbps, 3, 9)} MB/s aggregate (${s.files} files, ${sizeText(s.bytes, true)}; median file ${formatFigure(s.medianMBps)} MB/s)`,
      ]);
      if (s.theilSen)
        rows.push([
          `${P} fit`,
          `${fx(s.theilSen.rateMBps, 3, 9)} MB/s + ${shownOverhead(s.theilSen.overheadMs).ms.toFixed(2)} ms per file (Theil–Sen${shownOverhead(s.theilSen.overheadMs).belowZero ? `; ${OVERHEAD_BELOW_ZERO}` : ''})`,
        ]);
    }
    lines.push(...txtFigures(rows), '');
  } else if (doc.kind === 'sustained' && doc.sustained) {
    lines.push('[Sustained write]');
    const avg = metrics.get('Sustained/mbps')?.values ?? [];
    const rows: Array<[string, string]> = [
      ['Average', `${fx(Math.max(...avg.filter(Number.isFinite)), 3, 9)} MB/s${avg.length > 1 ? ` (best of ${avg.length} runs)` : ''}`],
    ];
    for (const r of doc.sustained.runs)
      rows.push([doc.sustained.runs.length > 1 ? `Run ${r.run}` : 'Verdict', sustainedVerdictText(r, doc.flags)]);
    lines.push(...txtFigures(rows));
    for (const t of bestRuns(doc.tests)) lines.push(cdmLine(t));
    lines.push('');
  } else {
    const best = bestRuns(doc.tests);
    const sections = [...new Set(best.map((t) => section(t.rw)))];
    for (const s of sections) {
      lines.push(`[${s}]`);
      for (const t of best.filter((x) => section(x.rw) === s)) lines.push(cdmLine(t));
      lines.push('');
    }
  }
  lines.push(...txtProfile(doc));
  return lines.join('\n') + '\n';
}

const CDM_PROFILES: Record<string, string> = {
  default: 'Default',
  nvme: 'NVMe SSD',
  peak: 'Peak Performance',
  realworld: 'Real World Performance',
};

function txtProfile(doc: ResultDocument): string[] {
  const s = doc.settings;
  const profile =
    doc.kind === 'cdm'
      ? `${CDM_PROFILES[s.preset ?? 'default'] ?? s.preset}${s.mode && s.mode !== 'readwrite' ? ` (${s.mode})` : ''}`
      : kindName(doc.kind);
  const size = doc.hash?.file.bytes ?? doc.files?.totalBytes ?? doc.sustained?.plannedBytes ?? s.size;
  const t = doc.target;
  const GiB = 1024 ** 3;
  const used =
    t.totalBytes > 0
      ? ` ${Math.round(((t.totalBytes - t.freeBytes) / t.totalBytes) * 100)}% (${Math.round((t.totalBytes - t.freeBytes) / GiB)}/${Math.round(t.totalBytes / GiB)}GiB)`
      : '';
  const iso = doc.startedAt;
  const date = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(iso) ? `${iso.slice(0, 10).replace(/-/g, '/')} ${iso.slice(11, 19)} UTC` : iso;
  const h = doc.host;
  const lines = [
    `Profile: ${profile}`,
    `   Test: ${size ? sizeText(size) : '—'} (x${s.runs ?? 1}) [${t.volume}${used}]`,
    `   Mode: ${methodLine(doc)}`,
    `  Drive: ${targetLine(doc)}`,
    `   Date: ${date}`,
    `     OS: ${h.osName ?? h.os} [${h.os} ${h.osRelease}] (${h.arch})`,
  ];
  if (doc.label) lines.push(`Comment: ${doc.label}`);
  for (const f of doc.flags) lines.push(`   ${flagMark(f)} ${f.message}`);
  for (const n of doc.notes ?? []) lines.push(`   ℹ ${n}`);
  return lines;
}

function txtMany(docs: readonly ResultDocument[], cmp: Comparison): string {
  const labels = columnLabels(cmp);
  const blocks = docs.map((d, i) =>
    [`=== ${labels[i]}${i === cmp.baseline ? ' (baseline)' : ''} — ${resultTitle(d)} ===`, '', txtBlock(d)].join('\n'),
  );
  const out = [txtHeader(docs), blocks.join('\n'), '[Comparison]'];
  for (const t of compareTables(cmp)) {
    const rows = [t.head, ...t.rows.map((r) => r.map((x) => x.text))];
    const widths = t.head.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    const fmt = (r: string[]): string =>
      '  ' +
      r
        .map((x, i) => (i === 0 ? x.padEnd(widths[i] ?? 0) : x.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    if (t.title) out.push(`  ${t.title}`);
    out.push(fmt(t.head), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...t.rows.map((r) => fmt(r.map((x) => x.text))), '');
  }
  out.push('  ≈ : within run-to-run noise; (±n %) : change against the baseline', '');
  if (cmp.findings.length > 0) out.push('Findings:', ...cmp.findings.map((f) => `  * ${f}`), '');
  if (cmp.warnings.length > 0) out.push('Warnings:', ...cmp.warnings.map((w) => `  ⚠ ${w}`), '');
  out.push(`Rule: ${cmp.rule}`);
  return out.join('\n') + '\n';
}

// ---- CSV (RFC 4180) ----------------------------------------------------------------------------

const CSV_HEAD = [
  'result_id',
  'label',
  'kind',
  'started_at',
  'drive',
  'volume',
  'fs',
  'cache_mode',
  'data_pattern',
  'test',
  'run',
  'rw',
  'block_bytes',
  'queue_depth',
  'threads',
  'bytes',
  'seconds',
  'mbps',
  'iops',
  'lat_mean_us',
  'lat_p50_us',
  'lat_p90_us',
  'lat_p99_us',
  'lat_p999_us',
  'lat_max_us',
] as const;

type CsvRow = Partial<Record<(typeof CSV_HEAD)[number], string | number>>;

/** A text cell, guarded against spreadsheet formulas: one starting with = + - @ (or a tab or
 *  carriage return) gets a leading apostrophe, so a label cannot run as a formula. Control
 *  characters go; line breaks stay (csvQuote quotes them). */
export function csvText1(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${withoutControls(s)}` : withoutControls(s);
}

/** A number as plain digits at full precision; empty when not finite. */
export function csvNumber(x: number): string {
  if (!Number.isFinite(x)) return '';
  if (Number.isInteger(x)) return String(x);
  const s = String(x);
  return /e/i.test(s) ? x.toFixed(12).replace(/0+$/, '') : s;
}

export function csvQuote(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvRows(doc: ResultDocument): CsvRow[] {
  const base: CsvRow = {
    result_id: doc.id,
    label: doc.label ?? '',
    kind: doc.kind,
    started_at: doc.startedAt,
    drive: targetLine(doc),
    volume: doc.target.volume,
    fs: doc.target.fs,
    cache_mode: doc.cacheMode,
    data_pattern: doc.dataPattern,
  };
  const rows: CsvRow[] = doc.tests.map((t) => ({
    ...base,
    test: t.name,
    run: t.run,
    rw: t.rw,
    block_bytes: t.bs,
    queue_depth: t.qd,
    threads: t.threads,
    bytes: t.bytes,
    seconds: t.seconds,
    mbps: t.mbps,
    iops: t.iops,
    lat_mean_us: t.latencyUs.mean,
    lat_p50_us: t.latencyUs.p50,
    lat_p90_us: t.latencyUs.p90,
    lat_p99_us: t.latencyUs.p99,
    lat_p999_us: t.latencyUs.p999,
    lat_max_us: t.latencyUs.max,
  }));
  if (doc.hash) {
    const h = doc.hash;
    rows.push(
      { ...base, test: 'read', run: 1, rw: 'read', threads: 1, bytes: h.read.bytes, seconds: h.read.seconds, mbps: h.read.mbps },
      {
        ...base,
        test: 'read+hash',
        run: 1,
        rw: 'read',
        block_bytes: h.readHash.chunkBytes,
        queue_depth: h.readHash.buffers,
        threads: 1,
        bytes: h.readHash.bytes,
        seconds: h.readHash.seconds,
        mbps: h.readHash.mbps,
      },
      { ...base, test: 'memory', run: 1, threads: 1, bytes: h.memory.bytes, seconds: h.memory.seconds, mbps: h.memory.mbps },
      {
        ...base,
        test: 'memory-parallel',
        run: 1,
        threads: h.memoryParallel.threads,
        bytes: h.memoryParallel.bytes,
        seconds: h.memoryParallel.seconds,
        mbps: h.memoryParallel.mbps,
      },
    );
  }
  for (const r of doc.files?.runs ?? []) {
    for (const item of r.items) {
      for (const pass of ['write', 'read'] as const) {
        const p = item[pass];
        if (p)
          rows.push({
            ...base,
            test: `file ${item.name} ${pass}`,
            run: r.run,
            rw: pass,
            bytes: item.bytes,
            seconds: p.seconds,
            mbps: p.mbps,
          });
      }
    }
  }
  return rows;
}

function csvText(docs: readonly ResultDocument[]): string {
  const lines = [CSV_HEAD.join(',')];
  for (const doc of docs) {
    for (const row of csvRows(doc)) {
      lines.push(
        CSV_HEAD.map((k) => {
          const v = row[k];
          if (v === undefined) return '';
          return typeof v === 'number' ? csvNumber(v) : csvQuote(csvText1(v));
        }).join(','),
      );
    }
  }
  return lines.join('\r\n') + '\r\n';
}

// ---- HTML --------------------------------------------------------------------------------------

/** Text safe in HTML content and quoted attributes. '/' is escaped too, so no text can form "//";
 *  control characters go (HTML forbids them; tabs and line breaks become spaces). */
export function esc(s: string): string {
  return plainText(s).replace(
    /[&<>"'/]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '/': '&#47;' })[ch] ?? ch,
  );
}

const STYLE = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b; background: #fff; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .2rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
.sub { color: #555; margin: 0 0 1rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0 0 1rem; }
dl.meta dt { font-weight: 600; color: #444; }
dl.meta dd { margin: 0; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; }
th, td { border-bottom: 1px solid #d8d8d8; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; font-weight: 600; }
tbody th { background: none; font-weight: 500; }
th.num, td.num { text-align: right; white-space: nowrap; }
.better { color: #0b6b2e; font-weight: 600; }
.worse { color: #a31616; font-weight: 600; }
.noise { color: #666; }
ul.flags { padding-left: 1.2rem; }
li.warning { color: #8a4a00; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .9em; word-break: break-all; }
figure { margin: .5rem 0 1rem; }
figure svg { max-width: 100%; height: auto; display: block; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: #1b1b1b; }
.rule { font-size: .85rem; color: #555; }
footer { margin-top: 2rem; padding-top: .5rem; border-top: 1px solid #d8d8d8; font-size: .85rem; color: #555; }
@page { margin: 15mm; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  h2 { break-after: avoid; }
  table, figure, tr { break-inside: avoid; }
  th { background: #eee; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

/** A whole page: the shared style (plus `extraStyle`), the body, and the version footer. */
export function htmlPage(title: string, body: string[], docs: readonly ResultDocument[], extraStyle = ''): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}${extraStyle}</style>`,
    '</head>',
    '<body>',
    ...body,
    `<footer>${esc(versionLine(docs))}</footer>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export function htmlTable(t: Table): string {
  const head = t.head.map((h, i) => `<th${i > 0 ? ' class="num"' : ''} scope="col">${esc(h)}</th>`).join('');
  const rows = t.rows.map(
    (r) =>
      '<tr>' +
      r
        .map((x, i) => {
          const cls = [i > 0 ? 'num' : '', x.tone ?? ''].filter(Boolean).join(' ');
          const tag = i === 0 ? 'th scope="row"' : 'td';
          return `<${tag}${cls ? ` class="${cls}"` : ''}>${esc(x.text)}</${i === 0 ? 'th' : 'td'}>`;
        })
        .join('') +
      '</tr>',
  );
  return [
    `<table>${t.title ? `<caption>${esc(t.title)}</caption>` : ''}`,
    `<thead><tr>${head}</tr></thead>`,
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
  ].join('\n');
}

export function htmlFlags(items: Array<{ text: string; info: boolean }>): string {
  if (items.length === 0) return '';
  return `<ul class="flags">${items.map((f) => `<li class="${f.info ? 'info' : 'warning'}">${f.info ? 'ℹ' : '⚠'} ${esc(f.text)}</li>`).join('')}</ul>`;
}

export const PALETTE = ['#2f5d8a', '#d9822b', '#3a8f5c', '#8e4fa3', '#b23a48', '#5b6770', '#c9a227', '#2a9d9f'];

interface Bar {
  value: number;
  color: string;
  /** Printed after the value: "(−9 %)", "≈". */
  note?: string;
}
interface BarGroup {
  label: string;
  bars: Array<Bar | undefined>;
}

export function niceStep(max: number): number {
  const raw = max / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/** A horizontal bar chart in MB/s as inline SVG: groups of bars, a legend when given, and
 *  interface ceilings as dashed lines when they fit the scale (at most 1.5× the largest bar). */
function barChart(
  title: string,
  groups: readonly BarGroup[],
  legend: Array<{ label: string; color: string }>,
  ceilings: readonly number[],
): string {
  const values = groups.flatMap((g) => g.bars.map((b) => b?.value ?? NaN)).filter((v) => Number.isFinite(v) && v >= 0);
  if (values.length === 0) return '';
  const maxV = Math.max(...values, 1e-9);
  const shown = [...new Set(ceilings)].filter((x) => x <= maxV * 1.5);
  const step = niceStep(Math.max(maxV, ...shown));
  const scaleMax = Math.ceil(Math.max(maxV, ...shown) / step) * step;
  const W = 760;
  const labelW = 220;
  const plotW = 400;
  const x0 = labelW + 10;
  const barH = 14;
  const gap = 3;
  const groupGap = 12;
  const legendH = legend.length > 0 ? 22 * Math.ceil(legend.length / 3) : 0;
  const top = legendH + 22;
  const groupH = (g: BarGroup): number => g.bars.length * (barH + gap) - gap;
  const plotH = groups.reduce((s, g) => s + groupH(g) + groupGap, 0) - groupGap;
  const H = top + plotH + 26;
  const x = (v: number): number => x0 + (v / scaleMax) * plotW;
  const parts: string[] = [];
  parts.push(
    `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
  );
  legend.forEach((l, i) => {
    const lx = 10 + (i % 3) * 250;
    const ly = 4 + Math.floor(i / 3) * 22;
    parts.push(
      `<rect x="${lx}" y="${ly}" width="12" height="12" fill="${l.color}"></rect>`,
      `<text x="${lx + 18}" y="${ly + 11}" font-size="12">${esc(truncate(l.label, 36))}</text>`,
    );
  });
  for (let v = 0; v <= scaleMax + step / 2; v += step) {
    const gx = x(v).toFixed(1);
    parts.push(`<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${top + plotH}" stroke="#e2e2e2"></line>`);
    parts.push(
      `<text x="${gx}" y="${top + plotH + 16}" font-size="11" text-anchor="middle">${esc(v.toLocaleString('en-US', { maximumFractionDigits: step >= 1 ? 0 : 2 }))}</text>`,
    );
  }
  let y = top;
  for (const g of groups) {
    const h = groupH(g);
    parts.push(
      `<text x="${labelW}" y="${(y + h / 2 + 4).toFixed(1)}" font-size="12" text-anchor="end">${esc(truncate(g.label, 34))}</text>`,
    );
    for (const b of g.bars) {
      if (b && Number.isFinite(b.value)) {
        const w = Math.max(0, x(b.value) - x0);
        parts.push(`<rect x="${x0}" y="${y}" width="${w.toFixed(1)}" height="${barH}" fill="${b.color}"></rect>`);
        const label = `${formatFigure(b.value, 'MB/s')}${b.note ? ` ${b.note}` : ''}`;
        parts.push(`<text x="${(x0 + w + 4).toFixed(1)}" y="${y + barH - 3}" font-size="11">${esc(label)}</text>`);
      }
      y += barH + gap;
    }
    y += groupGap - gap;
  }
  for (const cl of shown) {
    const cx = x(cl).toFixed(1);
    parts.push(
      `<line x1="${cx}" y1="${top - 8}" x2="${cx}" y2="${top + plotH}" stroke="#a31616" stroke-width="1.5" stroke-dasharray="6 4"></line>`,
    );
    parts.push(
      `<text x="${cx}" y="${top - 10}" font-size="11" text-anchor="middle" style="fill:#a31616">${esc(`interface ceiling ${formatFigure(cl)} MB/s`)}</text>`,
    );
  }
  parts.push(`<text x="${x0 + plotW + 40}" y="${top + plotH + 16}" font-size="11">MB&#47;s</text>`, '</svg>');
  return `<figure>\n${parts.join('\n')}\n</figure>`;
}

export function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function htmlOne(doc: ResultDocument): string {
  const name = resultName(doc);
  const body = [`<h1>${esc(name)}</h1>`, `<p class="sub">${esc(resultTitle(doc))}</p>`];
  const meta: Array<[string, string]> = [
    ['Drive', targetLine(doc)],
    ['Method', methodLine(doc)],
    ['Machine', machineLine(doc)],
    ['Date', dateText(doc.startedAt)],
  ];
  body.push(`<dl class="meta">${meta.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`);
  const bars = [...metricMap(doc).values()].filter((m) => m.primary && m.unit === 'MB/s');
  const ceiling = doc.target.device.linkInfo?.ceilingMBps;
  body.push(
    barChart(
      `${name}: MB/s`,
      bars.map((m) => ({ label: m.label, bars: [{ value: spread(m.values.filter(Number.isFinite)).mean, color: PALETTE[0] as string }] })),
      [],
      ceiling ? [ceiling] : [],
    ),
  );
  body.push('<h2>Figures</h2>', ...resultTables(doc).map(htmlTable));
  const runs = runsNote(doc);
  if (runs) body.push(`<p class="rule">${esc(runs)}</p>`);
  const said = resultStatements(doc);
  if (said.length > 0)
    body.push(
      `<dl class="meta">${said.map((s) => `<dt>${esc(s.label)}</dt><dd>${s.code ? `<code>${esc(s.text)}</code>` : esc(s.text)}</dd>`).join('')}</dl>`,
    );
  const flags = [
    ...doc.flags.map((f) => ({ text: `${f.message} ${f.fix}`.trim(), info: f.severity === 'info' })),
    ...(doc.notes ?? []).map((n) => ({ text: n, info: true })),
  ];
  if (flags.length > 0) body.push('<h2>Worth knowing</h2>', htmlFlags(flags));
  return htmlPage(`${name} — ${resultTitle(doc)}`, body.filter(Boolean), [doc]);
}

function htmlMany(docs: readonly ResultDocument[], cmp: Comparison): string {
  const labels = columnLabels(cmp);
  const body = [`<h1>Comparison of ${docs.length} results</h1>`, `<p class="sub">Baseline: ${esc(labels[cmp.baseline] ?? '')}</p>`];
  const cols = cmp.columns.map(
    (col, i) =>
      `<li><strong style="color:${PALETTE[i % PALETTE.length]}">■</strong> <strong>${esc(labels[i] ?? '')}</strong>${i === cmp.baseline ? ' (baseline)' : ''} — ${esc(col.title)}<br>${esc(col.drive)} · ${esc(col.method)} · ${esc(dateText(col.startedAt))}</li>`,
  );
  body.push(`<ol>${cols.join('\n')}</ol>`);
  const chartRows = cmp.rows.filter((r) => r.primary && r.unit === 'MB/s');
  const groups: BarGroup[] = chartRows.map((r) => ({
    label: r.label,
    bars: r.cells.map((cell, i) => {
      if (!cell) return undefined;
      const note =
        cell.verdict === 'noise'
          ? '≈'
          : cell.verdict === 'better' || cell.verdict === 'worse'
            ? `(${deltaText(cell.delta ?? NaN)})`
            : undefined;
      return { value: cell.spread.mean, color: PALETTE[i % PALETTE.length] as string, ...(note ? { note } : {}) };
    }),
  }));
  const ceilings = cmp.columns.flatMap((col) => (col.ceilingMBps ? [col.ceilingMBps] : []));
  body.push(
    barChart(
      'MB/s side by side',
      groups,
      labels.map((l, i) => ({ label: l, color: PALETTE[i % PALETTE.length] as string })),
      ceilings,
    ),
  );
  for (const t of compareTables(cmp)) body.push(`<h2>${esc(t.title ?? '')}</h2>`, htmlTable({ ...t, title: undefined }));
  body.push('<p class="rule">Changes are against the baseline; ≈ marks a difference within run-to-run noise.</p>');
  if (cmp.findings.length > 0) body.push('<h2>Findings</h2>', ...cmp.findings.map((f) => `<p>${esc(f)}</p>`));
  const flags = [
    ...cmp.warnings.map((w) => ({ text: w, info: false })),
    ...docs.flatMap((d, i) => d.flags.map((f) => ({ text: `${labels[i] ?? ''}: ${f.message}`, info: f.severity === 'info' }))),
  ];
  if (flags.length > 0) body.push('<h2>Warnings</h2>', htmlFlags(flags));
  body.push(`<p class="rule"><strong>Rule:</strong> ${esc(cmp.rule)}</p>`);
  return htmlPage(`DiskDial comparison of ${docs.length} results`, body.filter(Boolean), docs);
}
