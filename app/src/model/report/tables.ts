// The report model every export format prints: a result's tables and statements, a comparison's
// tables, and the lines about the machine and versions. Browser-safe: no node:* imports.
import { kindOf, RESULT_KINDS } from '../kinds/registry.js';
import type { ResultDocument, ResultFlag } from '../result.js';
import { spread } from '../stats.js';
import { hashVerdictText, OVERHEAD_BELOW_ZERO, shownOverhead } from '../trust.js';
import type { ComparisonCell } from './comparison.js';
import { cellMark } from '../verdict/compare-words.js';
import { ladderMedian, settleText, twoRunsText } from './figure-text.js';
import { formatFigure, intervalText, resultMetrics, sizeText, type Metric, type MetricUnit } from './metrics.js';

// ---- the figures every format shows ----------------------------------------------------------

// Cell and Table live below the kinds (section.ts), where a kind's report section draws them too.
import type { Cell, Table } from './section.js';
import { groupedNumber } from '../units.js';
export type { Cell, Table };

export const c = (text: string): Cell => ({ text });

/** The files table's overhead cell: the clamped figure, and the reason when a run's Theil–Sen fit
 *  fell below zero. */
export function overheadCell(text: string, runs: NonNullable<ResultDocument['files']>['runs'], pass: 'write' | 'read'): string {
  return runs.some((r) => shownOverhead(r[pass].theilSen?.overheadMs ?? 0).belowZero) ? `${text} (${OVERHEAD_BELOW_ZERO})` : text;
}

/** A figure across runs: "1,234" for one run, "1,234 ± 12" (mean ± sample SD) for several. */
export function figure(values: readonly number[], unit?: MetricUnit): string {
  const v = values.filter(Number.isFinite);
  if (v.length === 0) return '—';
  const s = spread(v);
  // A transfer size: the median run's, with the runs' range when they differ (never a mean ± SD).
  if (unit === 'KiB') {
    const m = formatFigure(ladderMedian(v), unit);
    return s.min === s.max ? m : `${m} (median; runs ${formatFigure(s.min, unit)}–${formatFigure(s.max, unit)})`;
  }
  const m = formatFigure(s.mean, unit);
  if (s.n < 2) return m;
  const decimals = m.includes('.') ? m.length - m.indexOf('.') - 1 : 0;
  return `${m} ± ${groupedNumber(s.stdev, decimals)}`;
}

export function withUnit(text: string, unit: MetricUnit): string {
  return text === '—' ? text : `${text} ${unit}`;
}

/** Metrics of one result by key, the first of a repeated key kept. */
export function metricMap(doc: ResultDocument): Map<string, Metric> {
  const out = new Map<string, Metric>();
  for (const m of resultMetrics(doc)) if (!out.has(m.key)) out.set(m.key, m);
  return out;
}

/** The tables of one result: per test for the grid and the Quick Test, per pass for the
 *  many-file test, per stage for the hash test, the curve's figures for the sustained write. */
export function resultTables(doc: ResultDocument): Table[] {
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
  const own = kindOf(doc.kind)?.report;
  if (own?.figureGroup?.present(doc)) {
    const rows = [...metrics.values()]
      .filter((m) => m.group === own.figureGroup!.group)
      .map((m) => [c(m.label), c(withUnit(figure(m.values, m.unit), m.unit))]);
    tables.push({ head: ['Figure', 'Value'], rows });
  }
  const names = [...new Set(doc.tests.map((t) => t.name))];
  if (names.length > 0) {
    // Results made before intervals were kept show no interval column.
    const intervals = doc.tests.some((t) => t.interval || t.settle);
    tables.push({
      title: own?.testsTitle,
      head: ['Test', 'MB/s', ...(intervals ? ['95 % interval'] : []), 'IOPS', 'Mean latency (µs)', 'p99 latency (µs)'],
      rows: names.map((n) => [
        c(n),
        c(figure(vals(`${n}/mbps`), 'MB/s')),
        ...(intervals ? [c(intervalCell(doc, n, metrics.get(`${n}/mbps`)))] : []),
        c(figure(vals(`${n}/iops`), 'IOPS')),
        c(figure(vals(`${n}/meanUs`), 'µs')),
        c(figure(vals(`${n}/p99Us`), 'µs')),
      ]),
    });
  }
  return tables;
}

/** A test's interval cell: one run's own interval and how the stop rule ended it ("settled in
 *  1.4 s: ± 2.1 %"), or the interval across runs and how many of them settled. */
function intervalCell(doc: ResultDocument, name: string, m: Metric | undefined): string {
  const runs = doc.tests.filter((t) => t.name === name);
  if (runs.length === 1) return settleText(runs[0]!) || '—';
  const settled = runs.filter((t) => t.settle?.settled).length;
  const text = intervalText(m?.interval) || twoRunsText(runs.sort((a, b) => a.run - b.run).map((t) => t.mbps)) || '—';
  return runs.some((t) => t.settle) ? `${text} (settled in ${settled} of ${runs.length} runs)` : text;
}

/** Sentences a result states besides its tables: the kinds' own (a verdict per run), the hash verdict and digest. */
export function resultStatements(doc: ResultDocument): Array<{ label: string; text: string; code?: boolean }> {
  const out: Array<{ label: string; text: string; code?: boolean }> = RESULT_KINDS.flatMap((k) => k.report?.statements?.(doc) ?? []);
  if (doc.files?.scaled) out.push({ label: 'Note', text: doc.files.scaled });
  if (doc.check) {
    out.push({ label: 'Result', text: doc.check.summary });
    if (doc.check.bound) out.push({ label: 'Verdict', text: doc.check.bound.text });
  }
  if (doc.hash) {
    const h = doc.hash;
    out.push({ label: 'Verdict', text: hashVerdictText(doc) ?? h.verdict.text });
    out.push({ label: algoName(h.algo), text: h.digest, code: true });
    if (h.verify) out.push({ label: 'Verify', text: h.verify.text });
    out.push({ label: 'Crypto library', text: h.provider });
  }
  return out;
}

export function algoName(algo: string): string {
  return algo === 'sha512' ? 'SHA-512' : 'SHA-256';
}

/** The machine in one line: "Debian GNU/Linux 12 (bookworm) x64 · Intel Xeon … · 2 cores". */
export function machineLine(doc: ResultDocument): string {
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

export function flagMark(f: ResultFlag): string {
  return f.severity === 'info' ? 'ℹ' : '⚠';
}

export function runsNote(doc: ResultDocument): string | undefined {
  const runs = doc.settings?.runs ?? 1;
  return runs > 1 ? `Runs: ${runs}. Figures are the mean ± the sample standard deviation across runs.` : undefined;
}

/** A comparison cell as text, in every table of every format: "1,234 ± 12 (−9 %)" a real change,
 *  "1,230 (≈)" no difference, "1,100 (−11 %?)" inconclusive (compare-words.ts's marks). */
export function compareCellText(cell: ComparisonCell | undefined, unit: MetricUnit): Cell {
  if (!cell || cell.values.length === 0) return c('—');
  const fig = figure(cell.values, unit);
  const mark = cellMark(cell.verdict, cell.claim);
  return mark ? { text: `${fig} ${mark}`, tone: cell.verdict } : c(fig);
}
