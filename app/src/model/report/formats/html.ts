// One self-contained HTML page that prints to PDF: inline style and charts, no script, nothing
// loaded from anywhere.
import type { ResultDocument } from '../../result.js';
import { spread } from '../../stats.js';
import { plainText } from '../../text.js';
import type { ComparisonModel } from '../comparison.js';
import { compareTables } from '../report-rows.js';
import { cellMark, markLegend } from '../../verdict/compare-words.js';
import { formatFigure, methodLine, resultName, resultTitle, targetLine } from '../metrics.js';
import { dateText, machineLine, metricMap, resultStatements, resultTables, runsNote, versionLine, type Table } from '../tables.js';
import { REPORT_SECTIONS } from '../../kinds/registry.js';
import type { SectionBlock, SectionOptions } from '../section.js';
import { sizeChartSvg, type SizeChart } from '../size-chart.js';

// ---- HTML --------------------------------------------------------------------------------------

/** Text safe in HTML content and quoted attributes. '/' is escaped too, so no text can form "//";
 *  control characters go (HTML forbids them; tabs and line breaks become spaces). */
export function esc(s: string): string {
  return plainText(s).replace(
    /[&<>"'/]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '/': '&#47;' })[ch] ?? ch,
  );
}

export const STYLE = `
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
.same { color: #666; }
.inconclusive { color: #8a4a00; font-style: italic; }
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

export interface Bar {
  value: number;
  color: string;
  /** Printed after the value: a cell mark, "(−9 %)", "(≈)", "(−9 %?)". */
  note?: string;
}
export interface BarGroup {
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
export function barChart(
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

/** A chart of a kind's section (MB/s against transfer or file size) as a captioned inline SVG. */
function htmlChart(c: SizeChart): string {
  return `<figure class="chart">\n<figcaption>${esc(c.title)}</figcaption>\n${sizeChartSvg(c, undefined, undefined, undefined, true)}\n</figure>`;
}

/** A kind's report section ("Will it work?"): a heading, its charts and tables, and how it was decided. */
export function htmlSection(s: SectionBlock | null): string[] {
  if (!s) return [];
  return [
    `<h2>${esc(s.heading)}</h2>`,
    ...(s.charts ?? []).map(htmlChart),
    ...s.tables.map(htmlTable),
    ...s.notes.map((n) => `<p class="rule">${esc(n)}</p>`),
  ];
}

export function htmlOne(doc: ResultDocument, opts: SectionOptions = {}): string {
  const name = resultName(doc);
  const body = [`<h1>${esc(name)}</h1>`, `<p class="sub">${esc(resultTitle(doc))}</p>`];
  const meta: Array<[string, string]> = [
    ['Drive', targetLine(doc)],
    ['Method', methodLine(doc)],
    ['Machine', machineLine(doc)],
    ['Date', dateText(doc.startedAt)],
  ];
  body.push(`<dl class="meta">${meta.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`);
  const sections = REPORT_SECTIONS.map((s) => s.one(doc, opts));
  // A kind that draws its own chart (MB/s against transfer size) leads with it, in place of bars
  // of its headline figures (they are the chart's points again); its section then says the rest.
  const charts = sections.flatMap((b) => b?.charts ?? []);
  body.push(...charts.map(htmlChart));
  if (charts.length === 0) {
    const bars = [...metricMap(doc).values()].filter((m) => m.primary && m.unit === 'MB/s');
    const ceiling = doc.target.device.linkInfo?.ceilingMBps;
    body.push(
      barChart(
        `${name}: MB/s`,
        bars.map((m) => ({
          label: m.label,
          bars: [{ value: spread(m.values.filter(Number.isFinite)).mean, color: PALETTE[0] as string }],
        })),
        [],
        ceiling ? [ceiling] : [],
      ),
    );
  }
  body.push('<h2>Figures</h2>', ...resultTables(doc).map(htmlTable));
  const runs = runsNote(doc);
  if (runs) body.push(`<p class="rule">${esc(runs)}</p>`);
  for (const b of sections) body.push(...htmlSection(b && { ...b, charts: [] }));
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

export function htmlMany(docs: readonly ResultDocument[], cmp: ComparisonModel, opts: SectionOptions = {}): string {
  const labels = cmp.variants.map((v) => v.label);
  const body = [`<h1>${esc(cmp.title)}</h1>`, `<p class="sub">Baseline: ${esc(labels[cmp.baseline] ?? '')}</p>`];
  const cols = cmp.variants.map(
    (v, i) =>
      `<li><strong style="color:${PALETTE[i % PALETTE.length]}">■</strong> <strong>${esc(v.label)}</strong>${i === cmp.baseline ? ' (baseline)' : ''} — ${esc(v.result?.title ?? '')}<br>${esc(v.drive)} · ${esc(v.method)} · ${esc(dateText(v.result?.startedAt ?? ''))}</li>`,
  );
  body.push(`<ol>${cols.join('\n')}</ol>`);
  const chart = cmp.columns.flatMap((f, j) => (f.metric?.primary !== false && f.unit === 'MB/s' ? [{ f, j }] : []));
  const groups: BarGroup[] = chart.map(({ f, j }) => ({
    label: f.label,
    bars: cmp.variants.map((_, i) => {
      const cell = cmp.cells[i]?.[j];
      if (!cell) return undefined;
      const note = cellMark(cell.verdict, cell.claim) || undefined;
      return { value: cell.spread.mean, color: PALETTE[i % PALETTE.length] as string, ...(note ? { note } : {}) };
    }),
  }));
  const ceilings = cmp.variants.flatMap((v) => (v.result?.ceilingMBps ? [v.result.ceilingMBps] : []));
  body.push(
    barChart(
      'MB/s side by side',
      groups,
      labels.map((l, i) => ({ label: l, color: PALETTE[i % PALETTE.length] as string })),
      ceilings,
    ),
  );
  for (const t of compareTables(cmp)) body.push(`<h2>${esc(t.title ?? '')}</h2>`, htmlTable({ ...t, title: undefined }));
  body.push(`<p class="rule">${esc(markLegend('the baseline'))}</p>`);
  for (const s of REPORT_SECTIONS) body.push(...htmlSection(s.many(docs, labels, opts)));
  if (cmp.findings.length > 0) body.push('<h2>Findings</h2>', ...cmp.findings.map((f) => `<p>${esc(f)}</p>`));
  const flags = [
    ...cmp.warnings.map((w) => ({ text: w, info: false })),
    ...docs.flatMap((d, i) => d.flags.map((f) => ({ text: `${labels[i] ?? ''}: ${f.message}`, info: f.severity === 'info' }))),
  ];
  if (flags.length > 0) body.push('<h2>Warnings</h2>', htmlFlags(flags));
  body.push(`<p class="rule"><strong>Rule:</strong> ${esc(cmp.rule)}</p>`);
  return htmlPage(`DiskDial comparison of ${docs.length} results`, body.filter(Boolean), docs);
}
