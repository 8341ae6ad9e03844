// The sweep in every export (issue 33): the HTML page draws MB/s against transfer size as an
// inline SVG — a write and a read line with a dot at each size where the result measured it, on a
// log axis with size ticks under "transfer size", and the link's ceiling when the target has one —
// and every format states QuickBench's two headline averages. The document is a real QuickBench
// run (test/fixtures/results/sweep-quickbench.json: 0.3 s a step on this machine's shared virtio
// disk, whose write fell to 305 MB/s at 100 MiB). Each export is read back by an independent
// parser: jsdom for the HTML, csv-parse for the CSV.
import { formatMBpsFigure } from '../../../../app/src/model/units.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { renderExport } from '../../../../app/src/model/report/export.js';
import { formatFigure } from '../../../../app/src/model/report/figure-text.js';
import { parseCsv } from '../../../helpers/csv.js';
import { markdownTableLines } from '../../../helpers/markdown.js';
import { dots, parseHtml, sizeCharts } from '../../../helpers/size-chart.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as ResultDocument;
const MiB = 1024 * 1024;

describe("a QuickBench sweep's HTML export", () => {
  const doc = load('sweep-quickbench');
  const run = doc.sweep!.runs[0]!;

  it('draws MB/s against transfer size: both series, a dot per size at its measured MB/s, on a log axis', () => {
    const html = renderExport([doc], 'html').text;
    const charts = sizeCharts(html);
    expect(charts).toHaveLength(1);
    const svg = charts[0]!;
    expect(svg.getAttribute('aria-label')).toBe('MB/s against transfer size');
    for (const dir of ['write', 'read'] as const) {
      const d = dots(svg, dir);
      // Every size of the ladder, at the figure the result holds (to the 0.1 MB/s the SVG keeps).
      expect(d.map(([bs]) => bs)).toEqual(doc.sweep!.sizes);
      d.forEach(([bs, mbps], i) => {
        const p = run.points[i]!;
        expect(bs).toBe(p.bs);
        expect(Math.abs(mbps - (dir === 'write' ? p.writeMBps : p.readMBps))).toBeLessThanOrEqual(0.05);
      });
      // x is log2 of the size: each doubling moves as far right as any other (4K…16M)…
      const step = d[1]![2] - d[0]![2];
      expect(step).toBeGreaterThan(0);
      for (let i = 1; i < 13; i++) expect(Math.abs(d[i]![2] - d[i - 1]![2] - step)).toBeLessThanOrEqual(0.11);
      // …and 20 MiB → 100 MiB spans log2(5) doublings.
      expect(Math.abs(d[17]![2] - d[13]![2] - step * Math.log2(5))).toBeLessThanOrEqual(0.2);
      // y falls linearly with MB/s, one scale for both lines (the two extremes pin it).
      const lo = d.reduce((a, b) => (b[1] < a[1] ? b : a));
      const hi = d.reduce((a, b) => (b[1] > a[1] ? b : a));
      const perMBps = (lo[3] - hi[3]) / (hi[1] - lo[1]);
      for (const [, mbps, , y] of d) expect(Math.abs(y - (lo[3] - (mbps - lo[1]) * perMBps))).toBeLessThanOrEqual(0.2);
    }
    const labels = [...svg.querySelectorAll('text')].map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(['4K', '64K', '1M', '16M', '100M', 'transfer size', 'MB/s', 'Write', 'Read']));
    expect(svg.textContent).not.toContain('bytes');
    // The machine's disk has no link ceiling: no line.
    expect(svg.querySelector('[data-ceiling]')).toBeNull();
    // The one chart of the page: no bars of the same figures above it.
    expect(parseHtml(html).querySelectorAll('svg')).toHaveLength(1);
  });

  it("a share's known ceiling is a dashed line at its MB/s, on the same scale as the dots", () => {
    const share = structuredClone(doc);
    share.target.network = { protocol: 'SMB', version: '3.1.1', client: 'kernel', ceilingMBps: 1250 } as NonNullable<
      ResultDocument['target']['network']
    >;
    const svg = sizeCharts(renderExport([share], 'html').text)[0]!;
    const line = svg.querySelector('line[data-ceiling]')!;
    expect(line.getAttribute('data-ceiling')).toBe('1250');
    expect(line.getAttribute('stroke-dasharray')).toBeTruthy();
    const d = dots(svg, 'read');
    const [a, b] = [d[0]!, d.reduce((x, y) => (y[1] > x[1] ? y : x))];
    const yAt = (mbps: number): number => a[3] + ((mbps - a[1]) * (b[3] - a[3])) / (b[1] - a[1]);
    expect(Math.abs(Number(line.getAttribute('y1')) - yAt(1250))).toBeLessThanOrEqual(0.3);
    expect(svg.textContent).toContain('interface ceiling 1,250 MB/s');
    // A ceiling far above the curve is named, not drawn (it would flatten the curve).
    share.target.network!.ceilingMBps = 125_000;
    const far = sizeCharts(renderExport([share], 'html').text)[0]!;
    expect(far.querySelector('line[data-ceiling]')).toBeNull();
    expect(far.textContent).toContain('interface ceiling 125,000 MB/s (off the scale)');
  });

  it('states the two headline averages, the sizes they were taken at, and where write falls after full speed', () => {
    const document = parseHtml(renderExport([doc], 'html').text);
    const table = [...document.querySelectorAll('table')].find(
      (t) => t.querySelector('caption')?.textContent === "QuickBench's headline averages",
    )!;
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    const [small, large] = run.averages!;
    expect(rows).toEqual([
      ['4 KB (4 KiB)', formatFigure(small!.writeMBps, 'MB/s'), formatFigure(small!.readMBps, 'MB/s')],
      ['20–100 MB (20, 40, 60, 80, 100 MiB)', formatFigure(large!.writeMBps, 'MB/s'), formatFigure(large!.readMBps, 'MB/s')],
    ]);
    const said = document.body.textContent ?? '';
    expect(said).toContain(
      `Write reaches 90 % of its top speed (${formatMBpsFigure(run.fullSpeedWrite!.topMBps)} MB/s) at 4 MiB, then falls to 305 MB/s (18 % of top) at 100 MiB.`,
    );
    expect(said).toContain("QuickBench's 20–100 MB steps ran as 20, 40, 60, 80 and 100 MiB (20.97–104.86 MB)");
  });
});

describe('the headline averages in Markdown, CSV and text', () => {
  const doc = load('sweep-quickbench');
  const [small, large] = doc.sweep!.runs[0]!.averages!;
  const f = (x: number): string => formatFigure(x, 'MB/s');

  it('Markdown: the figures table and the QuickBench table', () => {
    const md = renderExport([doc], 'md').text;
    const figures = markdownTableLines(md, 0);
    expect(figures).toEqual(
      expect.arrayContaining([
        `| Write · 4 KB average | ${f(small!.writeMBps)} MB/s |`,
        `| Read · 4 KB average | ${f(small!.readMBps)} MB/s |`,
        `| Write · 20–100 MB average | ${f(large!.writeMBps)} MB/s |`,
        `| Read · 20–100 MB average | ${f(large!.readMBps)} MB/s |`,
      ]),
    );
    const tables = [0, 1, 2, 3].map((i) => markdownTableLines(md, i));
    const qb = tables.find((t) => t[0] === '| Average | Write MB/s | Read MB/s |')!;
    expect(qb.slice(2)).toEqual([
      `| 4 KB (4 KiB) | ${f(small!.writeMBps)} | ${f(small!.readMBps)} |`,
      `| 20–100 MB (20, 40, 60, 80, 100 MiB) | ${f(large!.writeMBps)} | ${f(large!.readMBps)} |`,
    ]);
  });

  it('CSV: a row per average and direction at full precision, with the sizes it averages', () => {
    const [head, ...rows] = parseCsv(renderExport([doc], 'csv').text);
    const col = (name: string): number => head!.indexOf(name);
    const avg = rows.filter((r) => r[col('test')]!.startsWith('average '));
    expect(avg.map((r) => [r[col('test')], r[col('rw')], Number(r[col('mbps')]), r[col('averaged_sizes')]])).toEqual([
      ['average 4 KB', 'write', small!.writeMBps, '4096'],
      ['average 4 KB', 'read', small!.readMBps, '4096'],
      ['average 20–100 MB', 'write', large!.writeMBps, [20, 40, 60, 80, 100].map((m) => m * MiB).join(' ')],
      ['average 20–100 MB', 'read', large!.readMBps, [20, 40, 60, 80, 100].map((m) => m * MiB).join(' ')],
    ]);
    // The average is the mean of the per-size rows the same file holds.
    const step = (name: string): number => Number(rows.find((r) => r[col('test')] === name)![col('mbps')]);
    const mean = [20, 40, 60, 80, 100].reduce((s, m) => s + step(`SEQ${m}M Q1T1 Write`), 0) / 5;
    expect(Math.abs(mean - large!.writeMBps)).toBeLessThanOrEqual(1e-9 * mean);
  });

  it('text: its block names the ladder, the averages and the full-speed lines', () => {
    const txt = renderExport([doc], 'txt').text;
    expect(txt).toContain('[Sweep] quickbench 4 KiB–100 MiB Q1');
    expect(txt).toMatch(new RegExp(`Write · 20–100 MB average\\s*: ${f(large!.writeMBps).replace(',', ',')} MB/s`));
    expect(txt).toMatch(/Full speed\s*: Write reaches 90 % of its top speed .* then falls to 305 MB\/s/);
  });
});
