// The Quick Test's card: a write dial and a read dial, Blackmagic-style, readings clear of the scale.
import { type Box, type CardOptions, COLOR, mbps, niceCeil, r1, text, textWidth, ticksFor, tickText } from '../report/card-draw.js';
import { type Metric, metricValue } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import { aggregateOf, aggregateText } from '../verdict/aggregate.js';
import { dialRoom, willItWorkCard, willItWorkCardLayout } from './video/quick-card.js';

const DIAL_START = -135;
const DIAL_SWEEP = 270;

function polar(cx: number, cy: number, r: number, deg: number): { x: number; y: number } {
  const rad = (deg * Math.PI) / 180;
  return { x: cx + r * Math.sin(rad), y: cy - r * Math.cos(rad) };
}

function arc(cx: number, cy: number, r: number, from: number, to: number): string {
  const a = polar(cx, cy, r, from);
  const b = polar(cx, cy, r, to);
  const large = to - from > 180 ? 1 : 0;
  return `M ${r1(a.x)} ${r1(a.y)} A ${r} ${r} 0 ${large} 1 ${r1(b.x)} ${r1(b.y)}`;
}

export function quickFigures(doc: ResultDocument, box: Box, metrics: readonly Metric[], opts: CardOptions = {}): string | undefined {
  const rates = metrics.filter((m) => m.primary).filter((m) => m.unit === 'MB/s');
  const write = rates.find((m) => /write$/i.test(m.group));
  const read = rates.find((m) => /read$/i.test(m.group));
  const dials: Array<{ m: Metric; name: string; color: string }> = [];
  if (write) dials.push({ m: write, name: 'WRITE', color: COLOR.write });
  if (read) dials.push({ m: read, name: 'READ', color: COLOR.read });
  if (dials.length === 0) return undefined;
  const values = dials.map((d) => metricValue(d.m));
  const max = niceCeil(Math.max(...values.filter(Number.isFinite), 1) * 1.04);
  const runs = Math.max(...dials.map((d) => d.m.values.length));
  const captionH = runs > 1 ? 24 : 0;
  // "Will it work?" for the common formats at the right; the dials share what is left.
  const willItWork = willItWorkCardLayout(doc, box, opts.paced);
  const room = dialRoom(box, willItWork);
  const mid = room.x + room.w / 2;
  // The dial is drawn in a 240-unit square and scaled to the room there is.
  const gap = willItWork ? 30 : 110;
  const size = Math.min(240, box.h - captionH - 4, dials.length === 2 ? (room.w - gap) / 2 : room.w);
  const k = size / 240;
  const centers = dials.length === 2 ? [mid - (size + gap) / 2, mid + (size + gap) / 2] : [mid];
  const top = box.y + (box.h - size - captionH) / 2;
  const out: string[] = willItWork ? [willItWorkCard(willItWork)] : [];
  dials.forEach((d, i) => {
    const cx = centers[i] as number;
    const v = values[i] as number;
    out.push(
      `<g transform="translate(${r1(cx - size / 2)} ${r1(top)}) scale(${Math.round(k * 1000) / 1000})">${dial(d.name, v, max, d.color)}</g>`,
    );
    if (runs > 1) {
      const a = aggregateOf(d.m.values);
      out.push(
        text(cx, top + size + 18, a ? aggregateText(a) : '', {
          size: 12.5,
          fill: COLOR.muted,
          anchor: 'middle',
        }),
      );
    }
  });
  return out.join('\n');
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const overlaps = (a: Rect, b: Rect): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

const DIAL_C = 120;
const LABEL_SIZE = 10.5;
const READING_Y = DIAL_C + 16;
/** Clear space kept around the reading, dial units. */
const READING_MARGIN = 3;

/**
 * Where a dial's scale labels and its reading go, in the dial's 240-unit square: the reading is
 * as large as fits (at most 40) without touching any scale label — labels near 9 and 3 o'clock
 * sit level with it — nor the bezel's inner track. Boxes are estimates from textWidth (which runs
 * wide), with a cap height of 0.75 em.
 */
export function dialLayout(
  value: number,
  max: number,
): { labels: Array<{ text: string; x: number; y: number; box: Rect }>; reading: { text: string; size: number; box: Rect } } {
  const labels = ticksFor(max, 5).map((t) => {
    const a = DIAL_START + (t / max) * DIAL_SWEEP;
    const l = polar(DIAL_C, DIAL_C, 65, a);
    const label = tickText(t, max);
    const w = textWidth(label, LABEL_SIZE, 600);
    const y = l.y + 3.8;
    return { text: label, x: l.x, y, box: { x0: l.x - w / 2, x1: l.x + w / 2, y0: y - 0.75 * LABEL_SIZE, y1: y } };
  });
  const reading = mbps(value);
  const boxAt = (size: number): Rect => {
    const w = textWidth(reading, size, 700);
    return {
      x0: DIAL_C - w / 2 - READING_MARGIN,
      x1: DIAL_C + w / 2 + READING_MARGIN,
      y0: READING_Y - 0.75 * size - READING_MARGIN,
      y1: READING_Y + READING_MARGIN,
    };
  };
  let size = 40;
  while (size > 12 && (textWidth(reading, size, 700) > 150 || labels.some((l) => overlaps(boxAt(size), l.box)))) size -= 1;
  return { labels, reading: { text: reading, size, box: boxAt(size) } };
}

/** One gauge in a 240 × 240 square: bezel, 270° scale with ticks, a coloured arc up to a
 *  pointer at the value, and the reading in the middle. */
function dial(name: string, value: number, max: number, color: string): string {
  const C = DIAL_C;
  const R = 96;
  const frac = Number.isFinite(value) ? Math.min(1, Math.max(0, value / max)) : 0;
  const angle = DIAL_START + frac * DIAL_SWEEP;
  const ticks = ticksFor(max, 5);
  const step = (ticks[1] ?? max) - (ticks[0] ?? 0);
  const layout = dialLayout(value, max);
  const out: string[] = [
    `<circle cx="${C}" cy="${C}" r="119" fill="url(#dd-bezel)"/>`,
    `<circle cx="${C}" cy="${C}" r="113" fill="url(#dd-face)" stroke="#000" stroke-opacity="0.6"/>`,
    `<path d="${arc(C, C, R, DIAL_START, DIAL_START + DIAL_SWEEP)}" fill="none" stroke="#262b33" stroke-width="6" stroke-linecap="round"/>`,
  ];
  if (frac > 0.002)
    out.push(
      `<path d="${arc(C, C, R, DIAL_START, angle)}" fill="none" stroke="${color}" stroke-width="6" stroke-linecap="round" stroke-opacity="0.95" filter="url(#dd-glow)"/>`,
    );
  for (let j = 1; j < 5 * (ticks.length - 1); j++) {
    if (j % 5 === 0) continue;
    const a = DIAL_START + ((j * step) / 5 / max) * DIAL_SWEEP;
    const p1 = polar(C, C, 84, a);
    const p2 = polar(C, C, 89, a);
    out.push(`<line x1="${r1(p1.x)}" y1="${r1(p1.y)}" x2="${r1(p2.x)}" y2="${r1(p2.y)}" stroke="#59616d" stroke-width="1"/>`);
  }
  ticks.forEach((t, i) => {
    const a = DIAL_START + (t / max) * DIAL_SWEEP;
    const p1 = polar(C, C, 80, a);
    const p2 = polar(C, C, 89, a);
    const l = layout.labels[i]!;
    out.push(
      `<line x1="${r1(p1.x)}" y1="${r1(p1.y)}" x2="${r1(p2.x)}" y2="${r1(p2.y)}" stroke="#d5d9de" stroke-width="2" stroke-linecap="round"/>`,
    );
    out.push(text(l.x, l.y, l.text, { size: LABEL_SIZE, weight: 600, fill: '#aeb5bf', anchor: 'middle' }));
  });
  // The pointer rides the scale, leaving the middle to the reading.
  const tip = polar(C, C, 103, angle);
  const bl = polar(C, C, 80, angle - 2.8);
  const br = polar(C, C, 80, angle + 2.8);
  out.push(
    `<path d="M ${r1(bl.x)} ${r1(bl.y)} L ${r1(tip.x)} ${r1(tip.y)} L ${r1(br.x)} ${r1(br.y)} Z" fill="${color}" stroke="${color}" stroke-width="1" stroke-linejoin="round" filter="url(#dd-glow)"/>`,
  );
  out.push(text(C + 1.5, C - 33, name, { size: 12.5, weight: 700, fill: COLOR.text, anchor: 'middle', spacing: 2.2 }));
  out.push(
    text(C, READING_Y, layout.reading.text, { size: layout.reading.size, weight: 700, fill: color, anchor: 'middle', spacing: -0.8 }),
  );
  out.push(text(C, C + 38, 'MB/s', { size: 13, weight: 600, fill: COLOR.muted, anchor: 'middle', spacing: 1 }));
  return out.join('');
}

// cdm: the grid --------------------------------------------------------------------------
