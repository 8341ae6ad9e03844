// The format report as one HTML page: its tables and the grouped bar charts of each figure.
import type { ResultDocument } from '../../result.js';
import { esc, htmlFlags, htmlPage, htmlSection, htmlTable, niceStep, PALETTE, truncate } from './html.js';
import type { ComparisonFigure, ComparisonModel } from '../comparison.js';
import { formatFigure, sizeText } from '../metrics.js';
import { aboutLines, driveLines, legendText, reportTable, rowLabel, transposed } from '../report-rows.js';
import { variantOf } from './markdown.js';

// ---- HTML --------------------------------------------------------------------------------------

export const REPORT_STYLE = `
.charts { display: grid; grid-template-columns: 1fr; gap: .5rem; }
figure.chart { margin: .4rem 0 1rem; }
figure.chart figcaption { font-weight: 600; margin: 0 0 .3rem; }
.findings li { margin: .3rem 0; }
p.legend { font-size: .85rem; color: #555; margin-top: -.4rem; }
@media print {
  body { font-size: 9.5pt; }
  .charts { gap: 0; }
  figure.chart svg { max-height: 95mm; width: auto; max-width: 100%; }
  .findings, ul.flags, p.rule { break-inside: avoid; }
  p.rule, p.legend, footer { font-size: 8.5pt; }
}
`;

export const SERIES = [PALETTE[0], PALETTE[1]] as const;

export function reportHtml(r: ComparisonModel, docs: readonly ResultDocument[]): string {
  const body = [`<h1>${esc(r.title)}</h1>`];
  const about = [...aboutLines(r, docs), ...driveLines(r, docs).map(([k, v]): [string, string] => [`  ${k}`, v])];
  body.push(`<dl class="meta">${about.map(([k, v]) => `<dt>${esc(k.trim())}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`);
  // Past five figures a row per result no longer fits a printed page: figures become the rows.
  const table = r.columns.length > 5 ? transposed(reportTable(r, docs)) : reportTable(r, docs);
  body.push('<h2>Results</h2>', htmlTable(table), `<p class="legend">${esc(legendText(r))}</p>`);
  const charts = reportCharts(r);
  if (charts.length > 0) body.push('<h2>Charts</h2>', `<div class="charts">${charts.join('\n')}</div>`);
  if (r.findings.length > 0)
    body.push('<h2>Findings</h2>', `<ul class="findings">${r.findings.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>`);
  for (const b of r.sections ?? []) body.push(...htmlSection(b));
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
export function reportCharts(r: ComparisonModel): string[] {
  const mbps = r.columns.map((col, j) => ({ col, j })).filter(({ col }) => col.unit === 'MB/s');
  const sizes = [...new Set(mbps.map(({ col }) => col.sizeBytes).filter((s): s is number => s !== undefined))].sort((a, b) => a - b);
  const bar = (i: number, j: number, color: string): ChartBar | undefined => {
    const cell = r.cells[i]?.[j];
    return cell ? { mean: cell.spread.mean, sd: cell.spread.n > 1 ? cell.spread.stdev : 0, color } : undefined;
  };
  const byVariant = (cols: ReadonlyArray<{ col: ComparisonFigure; j: number }>, figureOnly: boolean): ChartSpec => ({
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

export interface ChartBar {
  mean: number;
  sd: number;
  color: string;
}
export interface ChartSpec {
  series: Array<{ label: string; color: string }>;
  groups: Array<{ label: string; note?: string | undefined; bars: Array<ChartBar | undefined> }>;
}

/** A vertical grouped bar chart as inline SVG: a bar per series in each group, ±SD error bars,
 *  the mean over each bar, a legend, and the interface ceiling as a dashed line when it is at
 *  most 1.5× the largest bar (further up it would squash the bars). */
export function groupedBarChart(title: string, spec: ChartSpec, ceiling: number | undefined): string {
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
export function legendRows(labels: readonly string[], width: number): number {
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
export function wrapText(text: string, width: number, lines: number): string[] {
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
