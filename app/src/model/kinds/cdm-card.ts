// The CrystalDiskMark grid's card: its rows by read and write, as CrystalDiskMark lays them out.
import { type Box, COLOR, fitText, mbps, r1, text } from '../report/card-draw.js';
import { type Metric, metricValue } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';

const PASS_RE = /\s+(Read|Write|Mix(?:\s+\d+\/\d+)?)$/;

export function cdmFigures(doc: ResultDocument, box: Box, metrics: readonly Metric[]): string | undefined {
  const rates = metrics.filter((m) => m.primary).filter((m) => m.unit === 'MB/s' && PASS_RE.test(m.group));
  if (rates.length === 0) return undefined;
  const rows: string[] = [];
  const cols: string[] = [];
  const cell = new Map<string, number>();
  for (const m of rates) {
    const match = PASS_RE.exec(m.group) as RegExpExecArray;
    const row = m.group.slice(0, match.index);
    const col = match[1] as string;
    if (!rows.includes(row)) rows.push(row);
    if (!cols.includes(col)) cols.push(col);
    cell.set(`${row}\n${col}`, metricValue(m));
  }
  const order = (c: string): number => (c === 'Read' ? 0 : c === 'Write' ? 1 : 2);
  cols.sort((a, b) => order(a) - order(b));
  const all = [...cell.values()].filter(Number.isFinite);
  const top = Math.max(...all, 1);
  const headH = 24;
  const labelW = 150;
  const colGap = 12;
  const rowGap = 8;
  const rowH = Math.min(62, (box.h - headH - rowGap * (rows.length - 1)) / rows.length);
  const gridH = headH + rows.length * rowH + (rows.length - 1) * rowGap;
  const y0 = box.y + Math.max(0, (box.h - gridH) / 2);
  const cellW = (box.w - labelW - colGap * cols.length) / cols.length;
  const colColor = (c: string): string => (c === 'Read' ? COLOR.read : c === 'Write' ? COLOR.write : COLOR.blue);
  const runs = doc.settings.runs > 1 ? ` · mean of ${doc.settings.runs} runs` : '';
  const out: string[] = [text(box.x, y0 + 14, `MB/s${runs}`, { size: 12, weight: 600, fill: COLOR.faint })];
  cols.forEach((c, j) => {
    const x = box.x + labelW + colGap + j * (cellW + colGap);
    out.push(text(x + cellW / 2, y0 + 14, c.toUpperCase(), { size: 12.5, weight: 700, fill: colColor(c), anchor: 'middle', spacing: 2 }));
  });
  rows.forEach((row, i) => {
    const y = y0 + headH + i * (rowH + rowGap);
    // "SEQ1M Q8T1" as CrystalDiskMark's two-line button: the pattern big, queue and threads under it.
    const [first, ...more] = row.split(' ');
    out.push(`<rect x="${box.x}" y="${r1(y)}" width="${labelW - 4}" height="${r1(rowH)}" rx="8" fill="${COLOR.surface2}"/>`);
    const lx = box.x + 16;
    if (more.length > 0) {
      out.push(text(lx, y + rowH / 2 - 2, fitText(first as string, labelW - 30, 17, 700), { size: 17, weight: 700 }));
      out.push(text(lx, y + rowH / 2 + 15, fitText(more.join(' '), labelW - 30, 13, 600), { size: 13, weight: 600, fill: COLOR.muted }));
    } else {
      out.push(text(lx, y + rowH / 2 + 6, fitText(row, labelW - 30, 17, 700), { size: 17, weight: 700 }));
    }
    cols.forEach((c, j) => {
      const x = box.x + labelW + colGap + j * (cellW + colGap);
      const v = cell.get(`${row}\n${c}`);
      const color = colColor(c);
      out.push(
        `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(cellW)}" height="${r1(rowH)}" rx="8" fill="${COLOR.surface}" stroke="${COLOR.border}"/>`,
      );
      if (v !== undefined && Number.isFinite(v)) {
        const bw = Math.max(4, (cellW - 4) * (v / top));
        out.push(
          `<rect x="${r1(x + 2)}" y="${r1(y + 2)}" width="${r1(bw)}" height="${r1(rowH - 4)}" rx="6" fill="${color}" fill-opacity="0.13"/>`,
        );
        out.push(`<rect x="${r1(x + 2)}" y="${r1(y + rowH - 6)}" width="${r1(bw)}" height="4" rx="2" fill="${color}" fill-opacity="0.9"/>`);
      }
      const fs = Math.min(32, rowH * 0.52);
      out.push(
        text(x + cellW - 18, y + rowH / 2 + fs * 0.36, v === undefined ? '—' : mbps(v), {
          size: Math.round(fs),
          weight: 700,
          fill: COLOR.text,
          anchor: 'end',
          spacing: -0.5,
        }),
      );
    });
  });
  return out.join('\n');
}

// charts ---------------------------------------------------------------------------------

/** A chart axis's top: the smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k that is ≥ x. */
