// The share card: one result document as a 16:9 picture to post (800 × 450 CSS pixels). The
// figures sit in the middle, drawn by kind (dials, the CrystalDiskMark grid, the sustained
// curve, the many-file rates, the hash bars); the method — drive, interface, file system,
// cache mode, data pattern, date, versions — is always printed in the band at the bottom, and
// a warning flag shows as an amber strip, so a card never hides that its numbers may be the
// cache's. The app and the CLI rasterize this same SVG (core/card-png.ts), so both give the
// same picture.
//
// Browser-safe: no node:* imports. The SVG keeps to what resvg draws: presentation attributes,
// no <style>, no external resources, one font family (Inter 400/600/700). Text widths are
// estimates (no font metrics here), deliberately on the wide side, so truncation errs early.
import type { ResultDocument } from '../../model/result.js';
import { plainText } from '../../model/text.js';
import { hashVerdictText, kneeWithheld, shownOverhead, sustainedVerdictText, trustOf } from '../../model/trust.js';
import {
  formatFigure,
  kindName,
  metricValue,
  methodLine,
  resultMetrics,
  resultName,
  resultTitle,
  sizeText,
  targetLine,
  type Metric,
} from '../../model/report/metrics.js';

export const CARD_WIDTH = 800;
export const CARD_HEIGHT = 450;

const PAD = 28;
const HEADER_BOTTOM = 74;
const BAND_TOP = 376;

const COLOR = {
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

/** Renders the card as a standalone SVG document, CARD_WIDTH × CARD_HEIGHT user units. */
export function renderCardSvg(doc: ResultDocument): { svg: string; width: number; height: number } {
  // The trust rule's first warning: the card is amber exactly when every screen's badge is.
  const warning = trustOf(doc.flags).warnings[0];
  const top = HEADER_BOTTOM + 10;
  const bottom = warning ? BAND_TOP - 54 : BAND_TOP - 16;
  const middle: Box = { x: PAD, y: top, w: CARD_WIDTH - 2 * PAD, h: bottom - top };
  const parts = [defs(), background(), header(doc), figures(doc, middle)];
  if (warning) parts.push(warningStrip(warning.message));
  parts.push(methodBand(doc));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" ` +
    `font-family="Inter" fill="${COLOR.text}">\n${parts.join('\n')}\n</svg>\n`;
  return { svg, width: CARD_WIDTH, height: CARD_HEIGHT };
}

// ---- text ---------------------------------------------------------------------------------

/** Escapes text and attribute values for XML. Control characters go (XML 1.0 forbids most of
 *  them, and one would make the whole card fail to parse), and so do unpaired surrogates. */
export function escapeXml(s: string): string {
  return plainText(s)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const NARROW = new Set([...' .,:;!|\'"`ijlI1()[]{}·/\\-tfr']);
const WIDE = new Set([...'MWmw@%—…⚠']);

/** One character's width in em, an over-estimate for Inter. */
function charEm(ch: string): number {
  return NARROW.has(ch) ? 0.32 : WIDE.has(ch) ? 0.9 : ch >= 'A' && ch <= 'Z' ? 0.7 : 0.6;
}

/** Text width in px, an over-estimate for Inter: about 0.6 em a character, less for the thin ones. */
export function textWidth(s: string, size: number, weight = 400): number {
  let em = 0;
  for (const ch of s) em += charEm(ch);
  return em * size * (weight >= 600 ? 1.05 : 1);
}

/** textWidth(s) <= max, reading no further than the room: a huge text costs what fits. */
function fits(s: string, max: number, size: number, weight = 400): boolean {
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

interface TextOpts {
  size: number;
  weight?: 400 | 600 | 700;
  fill?: string;
  anchor?: 'start' | 'middle' | 'end';
  spacing?: number;
  /** A smaller run after the text, e.g. the unit after a figure. */
  tail?: { text: string; size: number; weight?: 400 | 600 | 700; fill?: string; dx?: number };
}

function text(x: number, y: number, s: string, o: TextOpts): string {
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

function r1(x: number): string {
  return String(Math.round(x * 10) / 10);
}

const mbps = (v: number): string => formatFigure(v, 'MB/s');

// ---- frame --------------------------------------------------------------------------------

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function defs(): string {
  return `<defs>
  <radialGradient id="dd-bg" cx="50%" cy="0%" r="85%"><stop offset="0%" stop-color="#1a1f27"/><stop offset="100%" stop-color="${COLOR.bg}"/></radialGradient>
  <radialGradient id="dd-face" cx="50%" cy="42%" r="60%"><stop offset="0%" stop-color="#20242b"/><stop offset="100%" stop-color="#0c0e11"/></radialGradient>
  <linearGradient id="dd-bezel" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="#3a3f48"/><stop offset="100%" stop-color="#15171b"/></linearGradient>
  <linearGradient id="dd-area" x1="0" y1="0" x2="0" y2="1"><stop offset="0%" stop-color="${COLOR.write}" stop-opacity="0.38"/><stop offset="100%" stop-color="${COLOR.write}" stop-opacity="0.03"/></linearGradient>
  <filter id="dd-glow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="2.2" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
</defs>`;
}

function background(): string {
  return `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${COLOR.bg}"/><rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#dd-bg)"/>`;
}

function logo(x: number, y: number, size: number): string {
  const k = size / 32;
  return (
    `<g transform="translate(${x} ${y}) scale(${Math.round(k * 1000) / 1000})">` +
    `<circle cx="16" cy="16" r="14" fill="none" stroke="${COLOR.text}" stroke-width="2.5" stroke-dasharray="66 22" stroke-dashoffset="-11" stroke-linecap="round"/>` +
    `<path d="M16 16 L24 9" stroke="${COLOR.write}" stroke-width="3" stroke-linecap="round"/>` +
    `<circle cx="16" cy="16" r="3" fill="${COLOR.read}"/></g>`
  );
}

function header(doc: ResultDocument): string {
  const left = PAD + 36 + 10 + textWidth('DiskDial', 22, 700) + 28;
  const max = CARD_WIDTH - PAD - left;
  return [
    logo(PAD, 19, 36),
    text(PAD + 46, 45, 'DiskDial', { size: 22, weight: 700, spacing: -0.3 }),
    text(CARD_WIDTH - PAD, 34, fitText(resultTitle(doc), max, 16, 600), { size: 16, weight: 600, anchor: 'end' }),
    text(CARD_WIDTH - PAD, 56, fitText(resultName(doc), max, 13), { size: 13, fill: COLOR.muted, anchor: 'end' }),
    `<rect x="${PAD}" y="${HEADER_BOTTOM}" width="${CARD_WIDTH - 2 * PAD}" height="1" fill="${COLOR.border}"/>`,
  ].join('\n');
}

function warningStrip(message: string): string {
  const y = BAND_TOP - 42;
  const h = 28;
  const msg = fitText(`⚠ ${message}`, CARD_WIDTH - 2 * PAD - 28, 13, 600);
  return (
    `<rect x="${PAD}" y="${y}" width="${CARD_WIDTH - 2 * PAD}" height="${h}" rx="8" fill="${COLOR.warn}" fill-opacity="0.12" stroke="${COLOR.warn}" stroke-opacity="0.55"/>\n` +
    text(PAD + 14, y + 18.5, msg, { size: 13, weight: 600, fill: COLOR.warn })
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "22 Nov 2026 02:39 UTC": UTC, so the picture is the same in every time zone. */
export function cardDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}

function methodBand(doc: ResultDocument): string {
  const y = BAND_TOP;
  const date = cardDate(doc.startedAt);
  // Versions come from the document: an imported one is cut to fit like any other text.
  const version = fitText(`DiskDial ${doc.app.version} · engine ${doc.app.engine}`, 300, 12.5);
  const rightW = Math.max(textWidth(date, 12.5, 600), textWidth(version, 12.5));
  const leftMax = CARD_WIDTH - 2 * PAD - rightW - 24;
  // The cache mode leads the method line, coloured: green when uncached, amber when not.
  const method = fitText(methodLine(doc), leftMax - 18, 13);
  const [cache, ...rest] = method.split(' · ');
  const uncached = doc.cacheMode === 'direct' || doc.cacheMode === 'nocache';
  const cacheColor = uncached ? COLOR.read : COLOR.warn;
  const methodText =
    `<text x="${PAD + 16}" y="${y + 53}" font-size="13" fill="${COLOR.muted}">` +
    `<tspan fill="${cacheColor}" font-weight="600">${escapeXml(cache ?? '')}</tspan>${rest.length ? escapeXml(` · ${rest.join(' · ')}`) : ''}</text>`;
  return [
    `<rect x="0" y="${y}" width="${CARD_WIDTH}" height="${CARD_HEIGHT - y}" fill="${COLOR.bg2}"/>`,
    `<rect x="0" y="${y}" width="${CARD_WIDTH}" height="1" fill="${COLOR.border}"/>`,
    // The drive, then how it was measured; a dot in the cache mode's colour marks the method.
    text(PAD, y + 29, fitTarget(targetLine(doc), leftMax, 14, 600), { size: 14, weight: 600 }),
    `<circle cx="${PAD + 5}" cy="${y + 48.5}" r="4" fill="${cacheColor}"/>`,
    methodText,
    text(CARD_WIDTH - PAD, y + 29, date, { size: 12.5, weight: 600, fill: COLOR.muted, anchor: 'end' }),
    text(CARD_WIDTH - PAD, y + 53, version, { size: 12.5, fill: COLOR.faint, anchor: 'end' }),
  ].join('\n');
}

/** The drive line cut to fit, shortening the model first: the interface, file system and size
 *  matter more to a reader than the end of a long model name. */
function fitTarget(line: string, max: number, size: number, weight: 400 | 600 | 700): string {
  if (fits(line, max, size, weight)) return line;
  const [first, ...rest] = line.split(' · ');
  const tail = ` · ${rest.join(' · ')}`;
  const room = fits(tail, max, size, weight) ? max - textWidth(tail, size, weight) : 0;
  if (rest.length > 0 && room >= textWidth('Abcdefghij…', size, weight)) return fitText(first as string, room, size, weight) + tail;
  return fitText(line, max, size, weight);
}

// ---- figures by kind ----------------------------------------------------------------------

function figures(doc: ResultDocument, box: Box): string {
  try {
    if (doc.kind === 'quick') {
      const s = quickFigures(doc, box);
      if (s) return s;
    }
    if (doc.kind === 'cdm') {
      const s = cdmFigures(doc, box);
      if (s) return s;
    }
    if (doc.kind === 'sustained' && doc.sustained?.runs[0]) return sustainedFigures(doc, box);
    if (doc.kind === 'files' && doc.files?.runs[0]) return filesFigures(doc, box);
    if (doc.kind === 'hash' && doc.hash) return hashFigures(doc, box);
  } catch {
    // A document missing a piece its kind promises still gets a card: the plain list below.
  }
  return metricList(doc, box);
}

/** The primary MB/s metric of each test name. */
function primaryRates(doc: ResultDocument): Metric[] {
  return resultMetrics(doc).filter((m) => m.primary);
}

/** 1-2-5 steps: the smallest "nice" number ≥ x (100, 200, 500, 1000, 2000, 5000…). */
export function niceCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x * (1 - 1e-9)) return m * p;
  return 10 * p;
}

/** Round tick steps dividing `max` into 3–6 intervals. */
function ticksFor(max: number, maxIntervals = 6): number[] {
  const p = 10 ** Math.floor(Math.log10(max));
  const steps = [0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5].map((m) => m * p);
  const step = steps.find((s) => max / s <= maxIntervals && Math.abs(max / s - Math.round(max / s)) < 1e-6) ?? max / 4;
  const out: number[] = [];
  for (let v = 0; v <= max * (1 + 1e-9); v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

function tickText(v: number, max: number): string {
  if (max >= 10000 && v >= 1000) return `${v / 1000}k`;
  return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

// quick: two dials, write and read --------------------------------------------------------

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

function quickFigures(doc: ResultDocument, box: Box): string | undefined {
  const rates = primaryRates(doc).filter((m) => m.unit === 'MB/s');
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
  // The dial is drawn in a 240-unit square and scaled to the room there is.
  const size = Math.min(240, box.h - captionH - 4);
  const k = size / 240;
  const gap = 110;
  const centers = dials.length === 2 ? [CARD_WIDTH / 2 - (size + gap) / 2, CARD_WIDTH / 2 + (size + gap) / 2] : [CARD_WIDTH / 2];
  const top = box.y + (box.h - size - captionH) / 2;
  const out: string[] = [];
  dials.forEach((d, i) => {
    const cx = centers[i] as number;
    const v = values[i] as number;
    out.push(
      `<g transform="translate(${r1(cx - size / 2)} ${r1(top)}) scale(${Math.round(k * 1000) / 1000})">${dial(d.name, v, max, d.color)}</g>`,
    );
    if (runs > 1) {
      const best = Math.max(...d.m.values);
      out.push(
        text(cx, top + size + 18, `mean of ${d.m.values.length} runs · best ${mbps(best)}`, {
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

const PASS_RE = /\s+(Read|Write|Mix(?:\s+\d+\/\d+)?)$/;

function cdmFigures(doc: ResultDocument, box: Box): string | undefined {
  const rates = primaryRates(doc).filter((m) => m.unit === 'MB/s' && PASS_RE.test(m.group));
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
export function axisCeil(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= x * (1 - 1e-9)) return m * p;
  return 10 * p;
}

interface Axes {
  X(v: number): number;
  Y(v: number): number;
  svg: string[];
}

/** Grid lines and tick labels for a chart from 0 to xMax, 0 to yMax; `xUnit` follows the last x label. */
function axes(chart: Box, xMax: number, yMax: number, xUnit: string, yUnit: string): Axes {
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

function baseline(chart: Box): string {
  return `<rect x="${r1(chart.x)}" y="${r1(chart.y + chart.h)}" width="${r1(chart.w)}" height="1" fill="#3a414c"/>`;
}

// sustained: the curve -------------------------------------------------------------------

function sustainedFigures(doc: ResultDocument, box: Box): string {
  const s = doc.sustained!;
  const run = s.runs[0]!;
  const metrics = resultMetrics(doc).filter((m) => m.group === 'Sustained');
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

// files: the two passes ------------------------------------------------------------------

function filesFigures(doc: ResultDocument, box: Box): string {
  const f = doc.files!;
  const run = f.runs[0]!;
  const metrics = resultMetrics(doc);
  const get = (key: string): number | undefined => {
    const m = metrics.find((x) => x.key === key);
    return m ? metricValue(m) : undefined;
  };
  const out: string[] = [];
  const leftW = 320;
  const footH = 26;
  const blockH = (box.h - footH) / 2;
  const passes = [
    { P: 'Write', name: 'WRITE', color: COLOR.write, pass: 'write' as const },
    { P: 'Read', name: 'READ', color: COLOR.read, pass: 'read' as const },
  ];
  passes.forEach((p, i) => {
    const y = box.y + i * blockH;
    const rate = get(`Files ${p.P}/mbps`) ?? run[p.pass].mbps;
    const overhead = get(`Files ${p.P}/overheadMs`);
    out.push(`<rect x="${box.x}" y="${r1(y + 6)}" width="4" height="${r1(blockH - 18)}" rx="2" fill="${p.color}"/>`);
    out.push(
      text(box.x + 18, y + 22, p.name, {
        size: 12.5,
        weight: 700,
        fill: p.color,
        spacing: 2,
        tail: { text: 'aggregate', size: 12, weight: 400, fill: COLOR.faint, dx: 8 },
      }),
    );
    out.push(
      text(box.x + 16, y + 66, mbps(rate), {
        size: 46,
        weight: 700,
        spacing: -1,
        tail: { text: 'MB/s', size: 15, weight: 600, fill: COLOR.muted, dx: 8 },
      }),
    );
    if (overhead !== undefined) {
      // The metric is clamped at 0 (trust.ts); a fit below zero says so rather than "+0 ms".
      const belowZero = f.runs.some((r) => shownOverhead(r[p.pass].theilSen?.overheadMs ?? 0).belowZero);
      const line =
        belowZero && overhead === 0
          ? 'overhead too small to measure (Theil–Sen)'
          : `+${formatFigure(overhead, 'ms')} ms per file (Theil–Sen)`;
      out.push(
        text(box.x + 18, y + 90, fitText(line, leftW - 20, 13), {
          size: 13,
          fill: COLOR.muted,
        }),
      );
    }
  });
  const runsNote = f.runs.length > 1 ? ` · mean of ${f.runs.length} runs` : '';
  const set = `${f.count} files · ${sizeText(f.minBytes, true)} – ${sizeText(f.maxBytes, true)} · ${sizeText(f.totalBytes, true)} in all${runsNote}`;
  out.push(text(box.x, box.y + box.h - 4, fitText(set, leftW + 30, 13, 600), { size: 13, weight: 600 }));
  out.push(filesScatter(run, { x: box.x + leftW + 80, y: box.y + 34, w: box.w - leftW - 80, h: box.h - 34 - 24 }, f.runs.length));
  return out.join('\n');
}

/** Time per file against its size, write and read, with each pass's Theil–Sen line: where the
 *  line meets zero size is the per-file overhead. */
function filesScatter(run: NonNullable<ResultDocument['files']>['runs'][number], chart: Box, runs: number): string {
  const items = run.items;
  const xMax = axisCeil(Math.max(...items.map((i) => i.bytes), 1) / 1e6);
  const ms = items
    .flatMap((i) => [i.write?.seconds, i.read?.seconds])
    .filter((s): s is number => s !== undefined && Number.isFinite(s))
    .map((s) => s * 1000);
  const yMax = axisCeil(Math.max(...ms, 1) * 1.05);
  const { X, Y, svg } = axes(chart, xMax, yMax, '', '');
  const out = [...svg];
  const title = `Time per file (ms) against its size (MB)${runs > 1 ? ', run 1' : ''}`;
  out.push(text(chart.x, chart.y - 14, title, { size: 12, weight: 600, fill: COLOR.muted }));
  const legendX = chart.x + chart.w;
  out.push(`<circle cx="${r1(legendX - 92)}" cy="${r1(chart.y - 18)}" r="4" fill="${COLOR.write}"/>`);
  out.push(text(legendX - 84, chart.y - 14, 'write', { size: 11.5, fill: COLOR.muted }));
  out.push(`<circle cx="${r1(legendX - 40)}" cy="${r1(chart.y - 18)}" r="4" fill="${COLOR.read}"/>`);
  out.push(text(legendX - 32, chart.y - 14, 'read', { size: 11.5, fill: COLOR.muted }));
  for (const [pass, color] of [
    ['write', COLOR.write],
    ['read', COLOR.read],
  ] as const) {
    const fit = run[pass].theilSen;
    if (fit && Number.isFinite(fit.slope) && Number.isFinite(fit.intercept) && fit.slope > 0) {
      const y0 = Math.max(0, fit.intercept * 1000);
      // The line to the chart's right edge, or to its top if it leaves there first.
      const xEnd = Math.min(xMax, (yMax / 1000 - fit.intercept) / fit.slope / 1e6);
      const y1 = (fit.intercept + fit.slope * xEnd * 1e6) * 1000;
      out.push(
        `<line x1="${r1(X(0))}" y1="${r1(Y(y0))}" x2="${r1(X(xEnd))}" y2="${r1(Y(y1))}" stroke="${color}" stroke-opacity="0.6" stroke-width="1.5" stroke-dasharray="6 4"/>`,
      );
    }
    for (const it of items) {
      const s = it[pass]?.seconds;
      if (s === undefined || !Number.isFinite(s)) continue;
      out.push(
        `<circle cx="${r1(X(it.bytes / 1e6))}" cy="${r1(Y(Math.min(yMax, s * 1000)))}" r="3.3" fill="${color}" fill-opacity="0.9"/>`,
      );
    }
  }
  out.push(baseline(chart));
  return out.join('\n');
}

// hash: four rates -----------------------------------------------------------------------

/** The first sentence of a text (up to ". " or the end). */
function firstSentence(s: string): string {
  const m = /^(.*?[.!?])(\s|$)/.exec(s.trim());
  return m ? (m[1] as string) : s.trim();
}

function hashFigures(doc: ResultDocument, box: Box): string {
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
  let line = `${algo} ${digest} · ${sizeText(h.file.bytes)} file`;
  if (h.verify) line += h.verify.match ? ' · matches the expected digest' : ' · does NOT match the expected digest';
  out.push(text(box.x, y, fitText(line, box.w, 13), { size: 13, fill: h.verify && !h.verify.match ? COLOR.bad : COLOR.muted }));
  return out.join('\n');
}

// anything else: the headline figures as a list ------------------------------------------

function metricList(doc: ResultDocument, box: Box): string {
  const list = resultMetrics(doc).filter((m) => m.primary);
  const shown = list.slice(0, 8);
  if (shown.length === 0) {
    return text(CARD_WIDTH / 2, box.y + box.h / 2, fitText(`${kindName(doc.kind)}: no figures in this result`, box.w, 18, 600), {
      size: 18,
      weight: 600,
      fill: COLOR.muted,
      anchor: 'middle',
    });
  }
  const out: string[] = [];
  const cols = shown.length > 4 ? 2 : 1;
  const perCol = Math.ceil(shown.length / cols);
  const more = list.length > shown.length ? 20 : 0;
  const rowH = Math.min(58, (box.h - more) / perCol);
  const colW = cols === 1 ? Math.min(560, box.w) : (box.w - 20) / 2;
  const x0 = box.x + (box.w - (cols * colW + (cols - 1) * 20)) / 2;
  const y0 = box.y + (box.h - more - rowH * perCol) / 2;
  if (doc.settings.runs > 1)
    out.push(text(x0 + 2, y0 - 6, `mean of ${doc.settings.runs} runs`, { size: 12, weight: 600, fill: COLOR.faint }));
  shown.forEach((m, i) => {
    const x = x0 + Math.floor(i / perCol) * (colW + 20);
    const y = y0 + (i % perCol) * rowH;
    const value = formatFigure(metricValue(m), m.unit);
    const color = /write/i.test(m.label) ? COLOR.write : /read/i.test(m.label) ? COLOR.read : COLOR.text;
    const valueW = textWidth(value, 24, 700) + textWidth(` ${m.unit}`, 13, 600);
    out.push(
      `<rect x="${r1(x)}" y="${r1(y + 4)}" width="${r1(colW)}" height="${r1(rowH - 8)}" rx="8" fill="${COLOR.surface}" stroke="${COLOR.border}"/>`,
    );
    out.push(text(x + 16, y + rowH / 2 + 5, fitText(m.label, colW - valueW - 48, 15, 600), { size: 15, weight: 600 }));
    out.push(
      text(x + colW - 16, y + rowH / 2 + 8, value, {
        size: 24,
        weight: 700,
        fill: color,
        anchor: 'end',
        tail: { text: m.unit, size: 13, weight: 600, fill: COLOR.muted },
      }),
    );
  });
  if (more) out.push(text(box.x, box.y + box.h - 4, `and ${list.length - shown.length} more`, { size: 12, fill: COLOR.faint }));
  return out.join('\n');
}
