// The share card's drawing kit: its size, colours, text that fits (estimated widths, on the wide
// side so truncation errs early), axes and ticks. The frame (card.ts) and every kind's layout
// (model/kinds/*-card.ts) draw with it. Browser-safe: no node:* imports.
import { plainText } from '../text.js';
import type { ResultDocument } from '../result.js';
import { formatFigure } from './figure-text.js';
import { groupedNumber } from '../units.js';

export const CARD_WIDTH = 800;
export const CARD_HEIGHT = 450;

export const COLOR = {
  bg: '#0d0f12',
  bg2: '#111419',
  surface: '#161a20',
  surface2: '#1d2229',
  border: '#282e37',
  grid: '#222831',
  text: '#e8eaed',
  muted: '#9aa3af',
  faint: '#6b7380',
  write: '#ff6a3d',
  read: '#2fd4a3',
  warn: '#f5b942',
  bad: '#ff5c6c',
  blue: '#8ab4ff',
  violet: '#b892ff',
} as const;

// ---- text ---------------------------------------------------------------------------------

/** Escapes text and attribute values for XML. Control characters go (XML 1.0 forbids most of
 *  them, and one would make the whole card fail to parse), and so do unpaired surrogates. */
export function escapeXml(s: string): string {
  return plainText(s)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

export const NARROW = new Set([...' .,:;!|\'"`ijlI1()[]{}·/\\-tfr']);
export const WIDE = new Set([...'MWmw@%—…⚠']);

/** One character's width in em, an over-estimate for Inter. */
export function charEm(ch: string): number {
  return NARROW.has(ch) ? 0.32 : WIDE.has(ch) ? 0.9 : ch >= 'A' && ch <= 'Z' ? 0.7 : 0.6;
}

/** Text width in px, an over-estimate for Inter: about 0.6 em a character, less for the thin ones. */
export function textWidth(s: string, size: number, weight = 400): number {
  let em = 0;
  for (const ch of s) em += charEm(ch);
  return em * size * (weight >= 600 ? 1.05 : 1);
}

/** textWidth(s) <= max, reading no further than the room: a huge text costs what fits. */
export function fits(s: string, max: number, size: number, weight = 400): boolean {
  const room = max / (size * (weight >= 600 ? 1.05 : 1));
  let em = 0;
  for (const ch of s) if ((em += charEm(ch)) > room) return false;
  return true;
}

/** The text cut to fit `max` px, ending in "…" when cut; runs of white space count as one space.
 *  Widths add up character by character, so one pass from the start finds the cut and stops
 *  there: the work grows with what is shown, never with what was given (the old loop re-measured
 *  every prefix and took minutes on a long label). */
export function fitText(s: string, max: number, size: number, weight = 400): string {
  const room = max / (size * (weight >= 600 ? 1.05 : 1));
  const ellipsis = charEm('…');
  const chars: string[] = [];
  let em = 0;
  // n: how many characters fit with the ellipsis after them.
  let n = -1;
  let space = false;
  const take = (ch: string): boolean => {
    const w = charEm(ch);
    if (n < 0 && em + w + ellipsis > room) n = chars.length;
    em += w;
    chars.push(ch);
    // Past the room: it does not fit whole, and the one character past the cut is in hand.
    return em > room;
  };
  // Control characters and terminal escapes go before measuring, so they leave no gap behind.
  for (const ch of plainText(s)) {
    // An unpaired surrogate is no character at all (and not valid XML).
    if (ch.length === 1 && ch >= '\uD800' && ch <= '\uDFFF') continue;
    if (/\s/.test(ch)) {
      space = chars.length > 0;
      continue;
    }
    if (space && take(' ')) break;
    space = false;
    if (take(ch)) break;
  }
  if (em <= room) return chars.join('');
  // Cut at a word's end when one is near, rather than mid-word.
  const cut = chars.slice(0, n + 1).lastIndexOf(' ');
  if (cut >= n * 0.7) n = cut;
  return (
    chars
      .slice(0, n)
      .join('')
      .replace(/[\s·,;:–—-]+$/, '') + '…'
  );
}

/** Words wrapped to at most `lines` lines of `max` px; when text is left over, the last line is
 *  cut with "…". Words are read one at a time, only as many as can show. */
export function wrapText(s: string, max: number, size: number, lines: number, weight = 400): string[] {
  const words = /\S+/g;
  const next = (): string | undefined => words.exec(s)?.[0];
  const out: string[] = [];
  let word = next();
  while (word !== undefined && out.length < lines) {
    let line = word;
    while ((word = next()) !== undefined && fits(`${line} ${word}`, max, size, weight)) line += ` ${word}`;
    out.push(line);
  }
  if (word !== undefined && out.length > 0) {
    // Text is left over: the last line takes what could show of it, and fitText ends it with "…".
    let last = `${out.pop()} ${word}`;
    while (fits(last, max, size, weight) && (word = next()) !== undefined) last += ` ${word}`;
    out.push(last);
  }
  return out.map((l) => fitText(l, max, size, weight));
}

export interface TextOpts {
  size: number;
  weight?: 400 | 600 | 700;
  fill?: string;
  anchor?: 'start' | 'middle' | 'end';
  spacing?: number;
  /** A smaller run after the text, e.g. the unit after a figure. */
  tail?: { text: string; size: number; weight?: 400 | 600 | 700; fill?: string; dx?: number };
}

export function text(x: number, y: number, s: string, o: TextOpts): string {
  const a = [`x="${r1(x)}"`, `y="${r1(y)}"`, `font-size="${o.size}"`];
  if (o.weight && o.weight !== 400) a.push(`font-weight="${o.weight}"`);
  if (o.fill) a.push(`fill="${o.fill}"`);
  if (o.anchor && o.anchor !== 'start') a.push(`text-anchor="${o.anchor}"`);
  if (o.spacing) a.push(`letter-spacing="${o.spacing}"`);
  let tail = '';
  if (o.tail) {
    const t = o.tail;
    const ta = [`dx="${t.dx ?? 5}"`, `font-size="${t.size}"`];
    if (t.weight && t.weight !== 400) ta.push(`font-weight="${t.weight}"`);
    if (t.fill) ta.push(`fill="${t.fill}"`);
    if (o.spacing) ta.push('letter-spacing="0"');
    tail = `<tspan ${ta.join(' ')}>${escapeXml(t.text)}</tspan>`;
  }
  return `<text ${a.join(' ')}>${escapeXml(s)}${tail}</text>`;
}

export function r1(x: number): string {
  return String(Math.round(x * 10) / 10);
}

export const mbps = (v: number): string => formatFigure(v, 'MB/s');

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** What a card may show besides its own document: saved frame-paced video results, which decide
 *  the rows of a Quick Test's "Will it work?" block for their drive and format. */
export interface CardOptions {
  paced?: readonly ResultDocument[];
}

export function niceCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x * (1 - 1e-9)) return m * p;
  return 10 * p;
}

/** Round tick steps dividing `max` into 3–6 intervals. */
export function ticksFor(max: number, maxIntervals = 6): number[] {
  const p = 10 ** Math.floor(Math.log10(max));
  const steps = [0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5].map((m) => m * p);
  const step = steps.find((s) => max / s <= maxIntervals && Math.abs(max / s - Math.round(max / s)) < 1e-6) ?? max / 4;
  const out: number[] = [];
  for (let v = 0; v <= max * (1 + 1e-9); v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

export function tickText(v: number, max: number): string {
  if (max >= 10000 && v >= 1000) return `${v / 1000}k`;
  return groupedNumber(v, 0, 2);
}

// quick: two dials, write and read --------------------------------------------------------

export function axisCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= x * (1 - 1e-9)) return m * p;
  return 10 * p;
}

export interface Axes {
  X(v: number): number;
  Y(v: number): number;
  svg: string[];
}

/** Grid lines and tick labels for a chart from 0 to xMax, 0 to yMax; `xUnit` follows the last x label. */
export function axes(chart: Box, xMax: number, yMax: number, xUnit: string, yUnit: string): Axes {
  const X = (v: number): number => chart.x + (v / xMax) * chart.w;
  const Y = (v: number): number => chart.y + chart.h - (v / yMax) * chart.h;
  const svg: string[] = [];
  for (const t of ticksFor(yMax, 5)) {
    if (t > 0) svg.push(`<rect x="${r1(chart.x)}" y="${r1(Y(t))}" width="${r1(chart.w)}" height="1" fill="${COLOR.grid}"/>`);
    svg.push(text(chart.x - 9, Y(t) + 4, tickText(t, yMax), { size: 11, fill: COLOR.faint, anchor: 'end' }));
  }
  if (yUnit) svg.push(text(chart.x - 9, chart.y - 14, yUnit, { size: 11, weight: 600, fill: COLOR.muted, anchor: 'end' }));
  const xt = ticksFor(xMax, 5);
  xt.forEach((t, i) => {
    const last = i === xt.length - 1;
    const label = tickText(t, xMax);
    // The unit rides on the last label, which is right-aligned so it stays inside the chart.
    svg.push(
      last && xUnit
        ? text(X(t) + 4, chart.y + chart.h + 17, label, {
            size: 11,
            fill: COLOR.faint,
            anchor: 'end',
            tail: { text: xUnit, size: 11, weight: 600, fill: COLOR.muted, dx: 3 },
          })
        : text(last ? X(t) + 4 : X(t), chart.y + chart.h + 17, label, {
            size: 11,
            fill: COLOR.faint,
            anchor: i === 0 ? 'start' : last ? 'end' : 'middle',
          }),
    );
  });
  return { X, Y, svg };
}

export function baseline(chart: Box): string {
  return `<rect x="${r1(chart.x)}" y="${r1(chart.y + chart.h)}" width="${r1(chart.w)}" height="1" fill="#3a414c"/>`;
}
