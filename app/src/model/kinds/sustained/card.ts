// The sustained write's card: the verdict, the MB/s curve with its knee, and the figures beside it.
import { axes, axisCeil, baseline, type Box, COLOR, mbps, r1, text, textWidth, wrapText } from '../../report/card-draw.js';
import { formatFigure, type Metric, metricValue } from '../../report/figure-text.js';
import type { ResultDocument } from '../../result.js';
import { kneeWithheld } from '../../trust.js';
import { sustainedVerdictText } from './report.js';

export function sustainedFigures(doc: ResultDocument, box: Box, all: readonly Metric[]): string | undefined {
  if (!doc.sustained?.runs[0]) return undefined;
  const s = doc.sustained!;
  const run = s.runs[0]!;
  const metrics = all.filter((m) => m.group === 'Sustained');
  const out: string[] = [];
  // The verdict on top, up to two lines.
  const lines = wrapText(sustainedVerdictText(run, doc.flags), box.w, 18, 2, 600);
  lines.forEach((l, i) => out.push(text(box.x, box.y + 20 + i * 24, l, { size: 18, weight: 600 })));
  const sideW = 190;
  const chartTop = box.y + 20 + (lines.length - 1) * 24 + 38;
  const chart: Box = { x: box.x + 42, y: chartTop, w: box.w - sideW - 42 - 30, h: box.y + box.h - chartTop - 24 };
  const curve = run.curve.filter((p) => Number.isFinite(p.mbps) && Number.isFinite(p.bytes) && p.mbps >= 0);
  const xMax = axisCeil(Math.max(run.bytes, ...curve.map((p) => p.bytes), 1) / 1e9);
  const yMax = axisCeil(Math.max(...curve.map((p) => p.mbps), 1) * 1.1);
  const { X, Y, svg } = axes(chart, xMax, yMax, 'GB written', 'MB/s');
  out.push(...svg);
  if (curve.length > 0) {
    // Each slice is a step, flat over the bytes it covers: the picture is the data as measured.
    const pts: string[] = [];
    let prev = 0;
    for (const p of curve) {
      pts.push(`${r1(X(prev / 1e9))} ${r1(Y(p.mbps))}`, `${r1(X(p.bytes / 1e9))} ${r1(Y(p.mbps))}`);
      prev = p.bytes;
    }
    const line = `M ${pts.join(' L ')}`;
    const base = r1(Y(0));
    out.push(`<path d="${line} L ${r1(X(prev / 1e9))} ${base} L ${r1(X(0))} ${base} Z" fill="url(#dd-area)"/>`);
    out.push(`<path d="${line}" fill="none" stroke="${COLOR.write}" stroke-width="2" stroke-linejoin="round"/>`);
  }
  out.push(baseline(chart));
  if (s.runs.length > 1)
    out.push(text(chart.x + chart.w, chart.y - 14, `run 1 of ${s.runs.length}`, { size: 11, fill: COLOR.faint, anchor: 'end' }));
  const v = run.verdict;
  if (v.kind === 'knee' && !kneeWithheld(v, doc.flags)) {
    const kx = X(v.kneeBytes / 1e9);
    out.push(
      `<line x1="${r1(kx)}" y1="${r1(chart.y)}" x2="${r1(kx)}" y2="${r1(chart.y + chart.h)}" stroke="${COLOR.text}" stroke-opacity="0.8" stroke-width="1.5" stroke-dasharray="5 4"/>`,
    );
    const label = `knee at ${formatFigure(v.kneeBytes / 1e9, 'GB')} GB`;
    const right = kx + 8 + textWidth(label, 11.5, 600) < chart.x + chart.w;
    out.push(
      text(right ? kx + 7 : kx - 7, chart.y + 12, label, { size: 11.5, weight: 600, fill: COLOR.text, anchor: right ? 'start' : 'end' }),
    );
  }
  // The side panel: the average, then the knee's figures (or the slowest slice).
  const side: Array<[string, string, string]> = [];
  const find = (measure: string): Metric | undefined => metrics.find((m) => m.measure === measure);
  const avg = find('mbps');
  if (avg) side.push(['AVERAGE', mbps(metricValue(avg)), 'MB/s']);
  const cache = find('cacheGB');
  const after = find('afterMBps');
  const slowest = find('minMBps');
  if (cache) side.push(['FAST CACHE', formatFigure(metricValue(cache), 'GB'), 'GB']);
  if (after) side.push(['AFTER THE CACHE', mbps(metricValue(after)), 'MB/s']);
  else if (slowest) side.push(['SLOWEST SLICE', mbps(metricValue(slowest)), 'MB/s']);
  const sx = box.x + box.w - sideW + 14;
  let y = chart.y - 6;
  side.forEach(([label, value, unit], i) => {
    const big = i === 0 ? 36 : 26;
    out.push(text(sx, y + 10, label, { size: 11, weight: 700, fill: COLOR.muted, spacing: 1.6 }));
    out.push(
      text(sx - 1, y + 14 + big * 0.9, value, {
        size: big,
        weight: 700,
        fill: i === 0 ? COLOR.write : COLOR.text,
        spacing: -0.6,
        tail: { text: unit, size: 13, weight: 600, fill: COLOR.muted },
      }),
    );
    y += 14 + big * 0.9 + 28;
  });
  return out.join('\n');
}
