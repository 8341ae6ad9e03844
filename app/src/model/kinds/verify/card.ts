// The verify test's card: the verdict, a capacity bar (intact / read back wrong / not verified)
// and both curves, write and read-and-verify, against position on the volume.
import { axes, axisCeil, baseline, type Box, COLOR, r1, text, wrapText } from '../../report/card-draw.js';
import type { CurvePoint } from '../../knee.js';
import type { ResultDocument } from '../../result.js';
import { amountText } from '../../verdict/capacity.js';
import { verifyVerdictText } from './report.js';

/** A curve as steps, flat over the bytes each slice covers: the data as measured. */
function steps(curve: readonly CurvePoint[], from: number, X: (gb: number) => number, Y: (mbps: number) => number): string {
  const pts: string[] = [];
  let prev = from;
  for (const p of curve) {
    pts.push(`${r1(X(prev / 1e9))} ${r1(Y(p.mbps))}`, `${r1(X(p.bytes / 1e9))} ${r1(Y(p.mbps))}`);
    prev = p.bytes;
  }
  return pts.length > 0 ? `M ${pts.join(' L ')}` : '';
}

export function verifyFigures(doc: ResultDocument, box: Box): string | undefined {
  const s = doc.verify;
  if (!s) return undefined;
  const f = s.verdict.figures;
  const out: string[] = [];
  const good = s.verdict.outcome === 'genuine';
  const lines = wrapText(verifyVerdictText(s), box.w, 18, 2, 600);
  lines.forEach((l, i) =>
    out.push(
      text(box.x, box.y + 20 + i * 24, l, {
        size: 18,
        weight: 600,
        fill: good || s.verdict.outcome === 'stopped' ? COLOR.text : COLOR.bad,
      }),
    ),
  );
  // The capacity bar: what of the planned bytes read back intact, wrong, or was not read.
  const barY = box.y + 20 + (lines.length - 1) * 24 + 22;
  const planned = Math.max(f.plannedBlocks, 1);
  const parts: Array<[number, string, string]> = [
    [f.intactBlocks, COLOR.read, 'intact'],
    [f.checkedBlocks - f.intactBlocks, COLOR.bad, 'read back wrong'],
    [Math.max(0, f.plannedBlocks - f.checkedBlocks), COLOR.surface2, 'not verified'],
  ];
  let x = box.x;
  for (const [blocks, fill] of parts) {
    const w = (blocks / planned) * box.w;
    if (w > 0) out.push(`<rect x="${r1(x)}" y="${r1(barY)}" width="${r1(w)}" height="14" fill="${fill}"/>`);
    x += w;
  }
  let lx = box.x;
  for (const [blocks, fill, label] of parts) {
    if (blocks <= 0) continue;
    const words = `${label} ${amountText(blocks * f.blockBytes)}`;
    out.push(`<rect x="${r1(lx)}" y="${r1(barY + 22)}" width="10" height="10" fill="${fill}"/>`);
    out.push(text(lx + 14, barY + 31, words, { size: 11, fill: COLOR.muted }));
    lx += 14 + words.length * 6.2 + 16;
  }
  // Both curves on one chart, MB/s against position on the volume.
  const chartTop = barY + 62;
  const chart: Box = { x: box.x + 42, y: chartTop, w: box.w - 42 - 10, h: box.y + box.h - chartTop - 24 };
  const all = [...s.writeCurve, ...s.readCurve].filter((p) => Number.isFinite(p.mbps) && Number.isFinite(p.bytes) && p.mbps >= 0);
  const start = f.startBytes;
  const xMax = axisCeil(Math.max(start + s.plannedBytes, ...all.map((p) => p.bytes), 1) / 1e9);
  const yMax = axisCeil(Math.max(...all.map((p) => p.mbps), 1) * 1.1);
  const { X, Y, svg } = axes(chart, xMax, yMax, 'GB on the volume', 'MB/s');
  out.push(...svg);
  for (const [curve, color] of [
    [s.writeCurve, COLOR.write],
    [s.readCurve, COLOR.read],
  ] as const) {
    const d = steps(curve, start, X, Y);
    if (d) out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round"/>`);
  }
  out.push(baseline(chart));
  out.push(text(chart.x + chart.w, chart.y - 14, 'write', { size: 11, weight: 600, fill: COLOR.write, anchor: 'end' }));
  out.push(text(chart.x + chart.w - 40, chart.y - 14, 'read and verify', { size: 11, weight: 600, fill: COLOR.read, anchor: 'end' }));
  return out.join('\n');
}
