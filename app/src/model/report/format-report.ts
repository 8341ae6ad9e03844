// The comparison report people post after testing one disk in several formats (or any saved
// results side by side: "direct to the port" vs "through a hub"): one row per variant (a format,
// or a result's name), a column per figure and stress size (Read 1 GB, Write 1 GB, Read 5 GB…),
// every cell a mean with its spread across runs, its change against a baseline row, and whether
// that change is real, no difference or inconclusive by the rule verdict/compare.ts applies. It
// builds the one comparison model (comparison.ts) with a subject per row; the formats render it.
//
// Browser-safe: no node:* imports (the renderer bundles it).
import type { ResultDocument } from '../result.js';
import { MIME } from './export.js';
import { kindName, methodLine, resultName, sizeText, targetLine, type Metric } from './metrics.js';
import type { ExportFile } from '../history.js';
import type { ExportFormat } from '../settings.js';
import { kindOf, REPORT_SECTIONS } from '../kinds/registry.js';
import type { SectionBlock } from './section.js';
import { reportText } from './formats/cdm-text.js';
import { reportCsv } from './formats/csv.js';
import { reportHtml } from './formats/html-report.js';
import { reportMarkdown } from './formats/markdown.js';
import { campaignOf, commonCeiling, reportFindings, reportTitle, reportWarnings, rowNoun, type VariantGroup } from './report-findings.js';
import { newestDay } from './report-rows.js';
import { cacheClassOf, cacheFlagText, COMMON_LABEL, isCommonPass, pairRows } from './like-for-like.js';
import { addEncryptionVerdicts } from '../cipher/report-verdict.js';

import {
  baselineOf,
  markPairing,
  newModel,
  metricsByKey,
  safe,
  type ComparisonFigure,
  type ComparisonModel,
  type ComparisonSubject,
} from './comparison.js';

/** The format report is the comparison model (comparison.ts) with a subject per format, setup or
 *  name; these names are its own words for the model's parts. */
export type {
  ComparisonModel as FormatReport,
  ComparisonSubject as ReportVariant,
  ComparisonFigure as ReportColumn,
  ComparisonCell as ReportCell,
} from './comparison.js';

export interface FormatReportOptions {
  /** The baseline row: its key, or its index (default 0). */
  baseline?: string | number;
  /** The frame rate of the "Will it work?" grid (default the Quick Test's). */
  fps?: number;
}

/** The comparison report of `docs`: rows by format (wizard results) or by name, a column per
 *  figure and stress size, each cell judged against the baseline row by compare.ts's rule.
 *  Never throws on odd documents: a figure a row lacks is an empty cell. */
export function buildFormatReport(docs: readonly ResultDocument[], opts: FormatReportOptions = {}): ComparisonModel {
  const list = usable(docs);
  const groups = groupVariants(list);
  const variants: ComparisonSubject[] = groups.map((g) => ({
    key: g.key,
    label: g.label,
    resultIds: g.docs.map((d, i) => (typeof d.id === 'string' ? d.id : `${g.key}-${i + 1}`)),
    drive: safe(() => targetLine(g.docs[0] as ResultDocument), 'unknown drive'),
    method: safe(() => methodLine(g.docs[0] as ResultDocument), 'unknown method'),
    cacheClass: cacheClassOf(g.docs),
  }));
  const baseline = baselineOf(
    variants.length,
    opts.baseline,
    (want) =>
      [
        variants.findIndex((v) => v.key === want),
        variants.findIndex((v) => v.label === want),
        variants.findIndex((v) => v.resultIds.includes(want)),
      ].find((x) => x >= 0) ?? -1,
  );
  // Like for like (like-for-like.ts): each row is judged against a row measured the same way.
  const pairing = pairRows(
    groups.map((g, i) => {
      const c = campaignOf(g.docs[0] as ResultDocument);
      return { label: variants[i]!.label, cls: cacheClassOf(g.docs), flagged: cacheFlagText(g.docs), ...(c ? { format: c.format } : {}) };
    }),
    baseline,
  );
  markPairing(variants, pairing);
  const specs = columnSpecs(list);
  const columns = specs.map((s) => s.column);
  const pooled: string[] = [];
  const values = groups.map((g) =>
    specs.map((s) => {
      const members = g.docs.filter((d) => s.matches(d));
      if (members.length > 1) pooled.push(`${g.label} has ${members.length} ${s.results}: their runs are pooled.`);
      return members.flatMap((d) => metricsByKey(d).get(s.column.metricKey)?.values.filter(Number.isFinite) ?? []);
    }),
  );
  const report = newModel(reportTitle(list, variants), variants, baseline, columns, values, pairing);
  const ceiling = commonCeiling(list);
  if (ceiling !== undefined) report.ceilingMBps = ceiling;
  report.findings = reportFindings(report, rowNoun(list));
  const sections = kindSections(groups, variants, opts);
  if (sections.length > 0) report.sections = sections;
  addEncryptionVerdicts(report, groups);
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

/** What the kinds add with a column per row (the Quick Test's "Will it work?" grid, per format):
 *  each row speaks through its result at the largest stress size, the one with most runs, as a
 *  Blackmagic table is made at the largest size tested. */
function kindSections(groups: readonly VariantGroup[], variants: readonly ComparisonSubject[], opts: FormatReportOptions): SectionBlock[] {
  const reps = groups.map((g) => [...g.docs].sort((a, b) => (sizeOf(b) ?? 0) - (sizeOf(a) ?? 0) || runsOf(b) - runsOf(a))[0]!);
  const labels = variants.map((v) => v.label);
  const sizes = [...new Set(reps.map(sizeOf).filter((x) => x !== undefined))];
  const note =
    sizes.length > 0 && groups.some((g) => g.docs.length > 1) ? [`Each ${rowNoun(reps)} at its largest stress size tested.`] : [];
  return REPORT_SECTIONS.flatMap((s) => {
    const b = safe(() => s.many(reps, labels, opts.fps !== undefined ? { fps: opts.fps } : {}), null);
    return b ? [{ ...b, notes: [...b.notes, ...note] }] : [];
  });
}

function runsOf(d: ResultDocument): number {
  return Array.isArray(d.tests) ? d.tests.length : 0;
}

// ---- rows and columns ------------------------------------------------------------------------

/** The documents a report can read (a damaged file in history is left out, not thrown on). */
function usable(docs: readonly ResultDocument[]): ResultDocument[] {
  return docs.filter(
    (d): d is ResultDocument =>
      typeof d === 'object' && d !== null && Array.isArray(d.tests) && typeof d.target === 'object' && d.target !== null,
  );
}

/** A common-mode row's key and label suffix: "ext4 · as applications see it". */
const COMMON_KEY = '~common';

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
      key = `${c.format}@${c.planId}${isCommonPass(d) ? COMMON_KEY : ''}`;
      label = `${c.formatLabel || c.format}${isCommonPass(d) ? COMMON_LABEL : ''} · ${String(d.startedAt).slice(0, 10)}`;
    } else if (c) {
      // The common-mode pass of a format is a row of its own: the same format, another mode.
      key = `${c.format}${isCommonPass(d) ? COMMON_KEY : ''}`;
      label = `${c.formatLabel || c.format}${isCommonPass(d) ? COMMON_LABEL : ''}`;
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

interface ColumnSpec {
  column: ComparisonFigure;
  /** Whether a result supplies this column (its kind, and its stress size for the Quick Test). */
  matches: (d: ResultDocument) => boolean;
  /** The results it reads, in words: "Quick Test results at 1 GB". */
  results: string;
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
    const metrics = members.map(metricsByKey);
    const has = (key: string, ds: ReadonlyArray<Map<string, Metric>> = metrics): Metric | undefined =>
      ds.map((m) => m.get(key)).find((m) => m !== undefined);
    const col = (metricKey: string, figure: string, m: Metric, sizeBytes?: number): ColumnSpec => {
      const column: ComparisonFigure = {
        key: `${kind}:${metricKey}${sizeBytes !== undefined ? `@${sizeBytes}` : ''}`,
        figure,
        label: sizeBytes !== undefined ? `${figure} ${sizeText(sizeBytes)}` : figure,
        metricKey,
        unit: m.unit,
        direction: m.direction,
      };
      if (sizeBytes !== undefined) column.sizeBytes = sizeBytes;
      return {
        column,
        matches: (d) => String(d.kind) === kind && (sizeBytes === undefined || sizeOf(d) === sizeBytes),
        results: `${kindName(kind)} results${sizeBytes !== undefined ? ` at ${sizeText(sizeBytes)}` : ''}`,
      };
    };
    const own = kindOf(kind)?.report?.columns;
    if (own?.bySize) {
      const sizes = [...new Set(members.map(sizeOf))].sort((a, b) => (a ?? -1) - (b ?? -1));
      for (const size of sizes) {
        const at = members
          .map((d, i) => ({ d, i }))
          .filter(({ d }) => sizeOf(d) === size)
          .map(({ i }) => metrics[i] as Map<string, Metric>);
        for (const [key, fig] of own.pick) {
          const m = has(key, at);
          if (m) out.push(col(key, fig, m, size));
        }
      }
      continue;
    }
    const pick = own?.pick ?? [];
    if (pick.length > 0) {
      for (const [key, fig] of pick) {
        const m = has(key);
        if (m) out.push(col(key, fig, m));
      }
      continue;
    }
    // The grid, the hash test and any other kind: every headline figure, in the order the first
    // result that has it lists it; a set per size when the results were measured at several
    // (a write-only plan at 64 MiB and 256 MiB is two columns, never their mean).
    const sizes = [...new Set(members.map(sizeOf))].sort((a, b) => (a ?? -1) - (b ?? -1));
    for (const size of sizes.length > 1 ? sizes : [undefined]) {
      const keys = new Map<string, Metric>();
      metrics.forEach((byKey, i) => {
        if (sizes.length > 1 && sizeOf(members[i]!) !== size) return;
        for (const m of byKey.values()) if (m.primary && !keys.has(m.key)) keys.set(m.key, m);
      });
      for (const m of keys.values()) out.push(col(m.key, m.label, m, size));
    }
  }
  return out;
}

function sizeOf(d: ResultDocument): number | undefined {
  const s = d.settings?.size;
  return typeof s === 'number' && s > 0 && Number.isFinite(s) ? s : undefined;
}
