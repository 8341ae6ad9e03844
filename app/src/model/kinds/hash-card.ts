// The hash test's card: the four rates as bars, the verdict and the digest.
import { type Box, COLOR, fitText, mbps, r1, text, textWidth, wrapText } from '../report/card-draw.js';
import { type Metric, sizeText } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import { hashVerdictText } from '../trust.js';
import { hashFileBytes } from '../trust.js';

function firstSentence(s: string): string {
  const m = /^(.*?[.!?])(\s|$)/.exec(s.trim());
  return m ? (m[1] as string) : s.trim();
}

export function hashFigures(doc: ResultDocument, box: Box, _metrics: readonly Metric[]): string | undefined {
  if (!doc.hash) return undefined;
  const h = doc.hash!;
  const algo = h.algo === 'sha512' ? 'SHA-512' : 'SHA-256';
  const rows: Array<[string, number, string]> = [
    [h.read.cacheMode === 'direct' || h.read.cacheMode === 'nocache' ? 'Read (uncached)' : 'Read (cached)', h.read.mbps, COLOR.read],
    [`Read + ${algo}`, h.readHash.mbps, '#7fd8c0'],
    [`${algo} in memory, 1 core`, h.memory.mbps, COLOR.blue],
    [`${algo} in memory, ${h.memoryParallel.threads} cores`, h.memoryParallel.mbps, COLOR.violet],
  ];
  const labelW = Math.min(300, Math.max(...rows.map((r) => textWidth(r[0], 14, 600))) + 16);
  const valueW = 130;
  const barH = 28;
  const gap = 13;
  const top = Math.max(...rows.map((r) => r[1]).filter(Number.isFinite), 1);
  const verdict = wrapText(firstSentence(hashVerdictText(doc) ?? h.verdict.text), box.w, 16, 2, 600);
  const barsH = rows.length * barH + (rows.length - 1) * gap;
  const contentH = barsH + 30 + verdict.length * 21 + 26;
  const y0 = box.y + Math.max(4, (box.h - contentH) / 2);
  const out: string[] = [];
  rows.forEach(([label, v, color], i) => {
    const y = y0 + i * (barH + gap);
    const bx = box.x + labelW;
    const bw = box.w - labelW - valueW;
    out.push(text(box.x, y + barH / 2 + 5, fitText(label, labelW - 12, 14, 600), { size: 14, weight: 600 }));
    out.push(`<rect x="${bx}" y="${r1(y)}" width="${r1(bw)}" height="${barH}" rx="6" fill="${COLOR.surface2}"/>`);
    if (Number.isFinite(v))
      out.push(
        `<rect x="${bx}" y="${r1(y)}" width="${r1(Math.max(6, bw * (v / top)))}" height="${barH}" rx="6" fill="${color}" fill-opacity="0.9"/>`,
      );
    out.push(text(box.x + box.w - 40, y + barH / 2 + 8, mbps(v), { size: 22, weight: 700, anchor: 'end', spacing: -0.4 }));
    out.push(text(box.x + box.w, y + barH / 2 + 8, 'MB/s', { size: 12.5, weight: 600, fill: COLOR.muted, anchor: 'end' }));
  });
  let y = y0 + barsH + 36;
  verdict.forEach((l, i) => out.push(text(box.x, y + i * 21, l, { size: 16, weight: 600 })));
  y += (verdict.length - 1) * 21 + 28;
  const digest = h.digest.length > 28 ? `${h.digest.slice(0, 16)}…${h.digest.slice(-8)}` : h.digest;
  let line = `${algo} ${digest} · ${sizeText(hashFileBytes(doc))} file`;
  if (h.verify) line += h.verify.match ? ' · matches the expected digest' : ' · does NOT match the expected digest';
  out.push(text(box.x, y, fitText(line, box.w, 13), { size: 13, fill: h.verify && !h.verify.match ? COLOR.bad : COLOR.muted }));
  return out.join('\n');
}

// anything else: the headline figures as a list ------------------------------------------
