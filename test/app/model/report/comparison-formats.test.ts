// The one comparison model (model/report/comparison.ts), rendered: for generated comparisons,
// every format states the same subjects, the same cells (figure and verdict mark, in the model's
// order) and the same findings and warnings as the model — no format drops or rewords one. Each
// format is read back on its own terms (HTML cells unescaped, text columns split, CSV through
// csv-parse, JSON parsed), and what it should say is taken from the model, not from the tables
// the formats print.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { byMetric, compareModel } from '../../../../app/src/model/report/compare.js';
import type { ComparisonModel } from '../../../../app/src/model/report/comparison.js';
import { buildFormatReport, renderFormatReport } from '../../../../app/src/model/report/format-report.js';
import { compareCellText, csvNumber, esc, mdCell, mdInline, renderExport } from '../../../../app/src/model/report/export.js';
import { parseCsv } from '../../../helpers/csv.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
const BASE: Record<'quick' | 'cdm', ResultDocument> = {
  quick: JSON.parse(readFileSync(path.join(FIXTURES, 'quick.json'), 'utf8')) as ResultDocument,
  cdm: JSON.parse(readFileSync(path.join(FIXTURES, 'cdm.json'), 'utf8')) as ResultDocument,
};

interface Spec {
  kind: 'quick' | 'cdm';
  label: string;
  /** Every run's MB/s times this, and each run's own wobble. */
  scale: number;
  wobble: number[];
  buffered: boolean;
}

// Labels from plain words (repeats allowed: a shared label pools runs, a repeated name is numbered).
const spec = fc.record({
  kind: fc.constantFrom('quick' as const, 'cdm' as const),
  label: fc.constantFrom('Port', 'Hub', 'Dock', 'Cable A', 'Cable B'),
  scale: fc.double({ min: 0.25, max: 4, noNaN: true }),
  wobble: fc.array(fc.double({ min: -0.2, max: 0.2, noNaN: true }), { minLength: 16, maxLength: 16 }),
  buffered: fc.boolean(),
});
const specs = fc
  .array(spec, { minLength: 2, maxLength: 4 })
  .chain((xs) => fc.record({ xs: fc.constant(xs), baseline: fc.nat({ max: xs.length - 1 }) }));

function docsOf(xs: readonly Spec[]): ResultDocument[] {
  return xs.map((s, i) => {
    const d = structuredClone(BASE[s.kind]);
    d.id = `r${i + 1}`;
    d.label = s.label;
    d.startedAt = `2026-11-2${i}T10:00:00.000Z`;
    if (s.buffered) d.cacheMode = 'buffered';
    d.tests.forEach((t, k) => {
      t.mbps *= s.scale * (1 + (s.wobble[k % s.wobble.length] ?? 0));
    });
    return d;
  });
}

/** The rows the model states: a subject's label (marked as the baseline) and its cells' texts. */
function subjectRows(m: ComparisonModel, alwaysMark: boolean, figures = m.columns.map((_, j) => j)): string[][] {
  return m.variants.map((v, i) => [
    i === m.baseline && (alwaysMark || m.variants.length > 1) ? `${v.label} (baseline)` : v.label,
    ...figures.map((j) => compareCellText(m.cells[i]?.[j], m.columns[j]!.unit).text),
  ]);
}
/** The same rows by figure (the several-result exports): the figure's cells across the subjects. */
function figureRows(m: ComparisonModel): string[][] {
  return m.columns.map((f, j) => [
    f.label.includes(f.unit) ? f.label : `${f.label} (${f.unit})`,
    ...m.variants.map((_, i) => compareCellText(m.cells[i]?.[j], f.unit).text),
  ]);
}

const unesc = (s: string): string =>
  s.replace(/&(amp|lt|gt|quot|#39|#47);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#47': '/' })[e] ?? e);
function htmlRows(html: string): string[][] {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => unesc(c[1]!)));
}
function mdRows(md: string): string[][] {
  return md
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .map((l) => l.slice(2, -2).split(' | '));
}
function txtRows(txt: string): string[][] {
  return txt.split('\n').map((l) => l.trim().split(/ {2,}/));
}

/** Each expected row appears as one row of the printed table, its name first and its cells in order. */
function statesRows(printed: string[][], want: string[][], label: string): void {
  const seen = new Set(printed.map((r) => JSON.stringify(r)));
  for (const row of want) expect(seen.has(JSON.stringify(row)), `${label}: ${row.join(' | ')}`).toBe(true);
}
const asMd = (rows: string[][]): string[][] => rows.map((r) => r.map(mdCell));

const RUNS = 40;

describe('law: every format states the comparison model', () => {
  it('the format report: every subject, cell, verdict, finding and warning, in md, txt, html, csv and json', () => {
    fc.assert(
      fc.property(specs, ({ xs, baseline }) => {
        const docs = docsOf(xs);
        const m = buildFormatReport(docs, { baseline });
        const out = (f: 'md' | 'txt' | 'html' | 'csv' | 'json'): string => renderFormatReport(docs, f, { baseline }).text;
        const [md, txt, html, csv, json] = [out('md'), out('txt'), out('html'), out('csv'), out('json')];
        const rows = subjectRows(m, false);
        statesRows(mdRows(md), asMd(rows), 'md');
        statesRows(txtRows(txt), rows, 'txt');
        // Past five figures the HTML table is turned (figures as its rows): the same cells either way.
        const hRows = htmlRows(html);
        if (m.columns.length > 5) {
          const byFigure = m.columns.map((col, j) => [`${col.label} (${col.unit})`, ...rows.map((r) => r[j + 1]!)]);
          statesRows(hRows, byFigure, 'html');
        } else statesRows(hRows, rows, 'html');
        for (const f of [...m.findings, ...m.warnings]) {
          expect(md).toContain(mdInline(f));
          expect(txt).toContain(f);
          expect(html).toContain(esc(f));
        }
        const parsed = JSON.parse(json) as { report: unknown };
        expect(parsed.report).toEqual(JSON.parse(JSON.stringify(m)));
        // CSV: a row per subject × figure, its mean and its verdict.
        const table = parseCsv(csv);
        const head = table[0]!;
        const at = (name: string): number => head.indexOf(name);
        m.variants.forEach((v, i) =>
          m.columns.forEach((col, j) => {
            const row = table.find((r) => r[at('variant')] === v.label && r[at('label')] === col.label);
            const cell = m.cells[i]?.[j];
            expect(row, `${v.label} × ${col.label}`).toBeDefined();
            expect(row![at('mean')]).toBe(cell ? csvNumber(cell.spread.mean) : '');
            expect(row![at('verdict')]).toBe(cell && m.variants.length > 1 ? cell.verdict : '');
          }),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('the several-result export: every result, cell, verdict, finding and warning, in md, txt, html and json', () => {
    fc.assert(
      fc.property(specs, ({ xs, baseline }) => {
        const docs = docsOf(xs);
        const m = compareModel(docs, { baseline });
        const out = (f: 'md' | 'txt' | 'html' | 'json'): string => renderExport(docs, f, { baseline: `r${baseline + 1}` }).text;
        const [md, txt, html, json] = [out('md'), out('txt'), out('html'), out('json')];
        const rows = figureRows(m);
        statesRows(mdRows(md), asMd(rows), 'md');
        statesRows(txtRows(txt), rows, 'txt');
        statesRows(htmlRows(html), rows, 'html');
        for (const v of m.variants) expect(md).toContain(`**${mdCell(v.label)}**`);
        for (const f of [...m.findings, ...m.warnings]) {
          expect(md).toContain(mdInline(f));
          expect(txt).toContain(f);
          expect(html).toContain(esc(f));
        }
        // The JSON is the model by metric; its findings and cells are the model's.
        const parsed = JSON.parse(json) as { comparison: unknown };
        expect(parsed.comparison).toEqual(JSON.parse(JSON.stringify(byMetric(m))));
        // (The several-result CSV is the runs themselves, a row per test and run: it states no verdict.)
      }),
      { numRuns: RUNS },
    );
  });
});
