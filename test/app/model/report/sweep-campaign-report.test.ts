// A setup campaign's report with the sweep in its plan (issue 33): each setup's chart of MB/s
// against transfer size (the exports' one drawing, report/size-chart.ts) in the HTML report, both
// lines with each size's dot at that setup's own figures, and QuickBench's two headline averages
// as columns judged against the baseline in every format. The setups are the real QuickBench run
// (test/fixtures/results/sweep-quickbench.json) and the same run at a fifth of its speed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { buildFormatReport, renderFormatReport } from '../../../../app/src/model/report/format-report.js';
import { dots, parseHtml, sizeCharts } from '../../../helpers/size-chart.js';

const FIXTURE = path.join(import.meta.dirname, '../../..', 'fixtures', 'results', 'sweep-quickbench.json');

/** The QuickBench run as setup `n` of campaign c3, every MB/s times `scale`. */
function quickBenchSetup(n: number, name: string, scale: number): ResultDocument {
  const d = JSON.parse(readFileSync(FIXTURE, 'utf8')) as ResultDocument;
  d.id = `c3-${n}`;
  d.label = name;
  d.campaign = { planId: 'c3', format: `setup-${n}`, formatLabel: name, of: 'setups' };
  for (const r of d.sweep!.runs) {
    for (const p of r.points) Object.assign(p, { writeMBps: p.writeMBps * scale, readMBps: p.readMBps * scale });
    for (const a of r.averages ?? []) Object.assign(a, { writeMBps: a.writeMBps * scale, readMBps: a.readMBps * scale });
    for (const f of [r.fullSpeedWrite, r.fullSpeedRead]) if (f) f.topMBps *= scale;
  }
  for (const t of d.tests) t.mbps *= scale;
  return d;
}

describe("a setup campaign's report with a QuickBench sweep", () => {
  const docs = [quickBenchSetup(1, 'Thunderbolt dock', 1), quickBenchSetup(2, 'USB hub', 0.2)];

  it('the HTML report draws a chart per setup, named by it, both lines at its own figures', () => {
    const html = renderFormatReport(docs, 'html').text;
    const charts = sizeCharts(html);
    expect(charts.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Thunderbolt dock: MB/s against transfer size',
      'USB hub: MB/s against transfer size',
    ]);
    const document = parseHtml(html);
    expect([...document.querySelectorAll('figure.chart figcaption')].map((f) => f.textContent)).toEqual(
      expect.arrayContaining(['Thunderbolt dock: MB/s against transfer size', 'USB hub: MB/s against transfer size']),
    );
    charts.forEach((svg, i) => {
      const run = docs[i]!.sweep!.runs[0]!;
      for (const dir of ['write', 'read'] as const) {
        const d = dots(svg, dir);
        expect(d.map(([bs]) => bs)).toEqual(docs[i]!.sweep!.sizes);
        d.forEach(([, mbps], k) => {
          const want = dir === 'write' ? run.points[k]!.writeMBps : run.points[k]!.readMBps;
          expect(Math.abs(mbps - want)).toBeLessThanOrEqual(0.05);
        });
      }
    });
    // One y scale for both: the same MB/s sits at the same height in each chart, so the hub's
    // curve is drawn a fifth as high as the dock's (to the SVG's 0.1 px and 0.1 MB/s: within 1 %
    // over the hub's 30 px of curve; scaled each to its own top, the two would differ 5×).
    const scale = charts.map((svg) => {
      const d = dots(svg, 'read');
      const [lo, hi] = [d.reduce((a, b) => (b[1] < a[1] ? b : a)), d.reduce((a, b) => (b[1] > a[1] ? b : a))];
      const per = (lo[3] - hi[3]) / (hi[1] - lo[1]);
      return { per, zero: lo[3] + lo[1] * per };
    });
    expect(Math.abs(scale[0]!.per - scale[1]!.per)).toBeLessThanOrEqual(0.01 * scale[0]!.per);
    expect(Math.abs(scale[0]!.zero - scale[1]!.zero)).toBeLessThanOrEqual(0.5);
    // Each setup's full-speed lines, named by the setup.
    expect(document.body.textContent).toMatch(/USB hub: Write reaches 90 % of its top speed \([\d,.]+ MB\/s\) at 4 MiB, then falls to/);
  });

  it("QuickBench's averages are columns of the report, each a real change against the baseline (−80 %)", () => {
    const r = buildFormatReport(docs);
    const labels = r.columns.map((c) => c.label);
    expect(labels.slice(0, 4)).toEqual([
      'Write · 4 KB average',
      'Read · 4 KB average',
      'Write · 20–100 MB average',
      'Read · 20–100 MB average',
    ]);
    // One run each: no interval, so the −80 % is stated and judged inconclusive, never "no difference".
    const cells = r.cells[1]!.slice(0, 4);
    for (const c of cells) {
      expect(c!.claim?.change).toBeCloseTo(-0.8, 6);
      expect(c!.verdict).toBe('inconclusive');
    }
    const md = renderFormatReport(docs, 'md').text;
    expect(md).toMatch(/\| Setup \| .*Write · 4 KB average.*\| Read · 20–100 MB average/);
  });
});
