// The share card: one result document as a 16:9 picture to post (800 × 450 CSS pixels). The
// figures sit in the middle, drawn by the kind's layout (model/kinds/*-card.ts: dials, the
// CrystalDiskMark grid, the sustained curve, the many-file rates, the hash bars); the method — drive, interface, file system,
// cache mode, data pattern, date, versions — is always printed in the band at the bottom, and
// a warning flag shows as an amber strip, so a card never hides that its numbers may be the
// cache's. The app and the CLI rasterize this same SVG (core/card-png.ts), so both give the
// same picture.
//
// Browser-safe: no node:* imports. The SVG keeps to what resvg draws: presentation attributes,
// no <style>, no external resources, one font family (Inter 400/600/700). Text widths are
// estimates (no font metrics here), deliberately on the wide side, so truncation errs early.
import type { ResultDocument } from '../result.js';

import { cacheDotGreen, trustOf } from '../verdict/trust.js';
import {
  dateTimeText,
  formatFigure,
  intervalText,
  kindName,
  metricValue,
  methodLine,
  resultMetrics,
  resultName,
  resultTitle,
  targetLine,
  type Metric,
} from './metrics.js';
import { kindOf } from '../kinds/registry.js';
import { CARD_HEIGHT, CARD_WIDTH, COLOR, escapeXml, fits, fitText, r1, text, textWidth, type Box, type CardOptions } from './card-draw.js';

// The tests and the PNG renderer reach the drawing kit through the card.
export { CARD_HEIGHT, CARD_WIDTH, escapeXml, fitText, niceCeil, textWidth, wrapText } from './card-draw.js';

const PAD = 28;
const HEADER_BOTTOM = 74;
const BAND_TOP = 376;

/** Renders the card as a standalone SVG document, CARD_WIDTH × CARD_HEIGHT user units. */
export function renderCardSvg(doc: ResultDocument, opts: CardOptions = {}): { svg: string; width: number; height: number } {
  // The trust rule's first warning: the card is amber exactly when every screen's badge is.
  const warning = trustOf(doc.flags).warnings[0];
  const top = HEADER_BOTTOM + 10;
  const bottom = warning ? BAND_TOP - 54 : BAND_TOP - 16;
  const middle: Box = { x: PAD, y: top, w: CARD_WIDTH - 2 * PAD, h: bottom - top };
  const parts = [defs(), background(), header(doc), figures(doc, middle, opts)];
  if (warning) parts.push(warningStrip(warning.message));
  parts.push(methodBand(doc));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" ` +
    `font-family="Inter" fill="${COLOR.text}">\n${parts.join('\n')}\n</svg>\n`;
  return { svg, width: CARD_WIDTH, height: CARD_HEIGHT };
}

// ---- frame --------------------------------------------------------------------------------

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

/** "22 Nov 2026 02:39 UTC": the date every screen writes (metrics.ts), so the card and History agree. */
export const cardDate = dateTimeText;

function methodBand(doc: ResultDocument): string {
  const y = BAND_TOP;
  const date = cardDate(doc.startedAt);
  // Versions come from the document: an imported one is cut to fit like any other text.
  const version = fitText(`DiskDial ${doc.app.version} · engine ${doc.app.engine}`, 300, 12.5);
  const rightW = Math.max(textWidth(date, 12.5, 600), textWidth(version, 12.5));
  const leftMax = CARD_WIDTH - 2 * PAD - rightW - 24;
  // The cache mode leads the method line, coloured by the trust verdict: green only when uncached
  // and no warning fired (an uncached read of a loop device over the page cache is no disk's).
  // The small print names how sure the figures are: the range of their 95 % intervals.
  const sure = intervalSpan(resultMetrics(doc));
  const method = fitText(sure ? `${methodLine(doc)} · ${sure}` : methodLine(doc), leftMax - 18, 13);
  const [cache, ...rest] = method.split(' · ');
  const cacheColor = cacheDotGreen(doc.cacheMode, doc.flags) ? COLOR.read : COLOR.warn;
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

/** "95 %: ± 0.8–2.1 %" over the headline figures that carry an interval; '' when none does. */
function intervalSpan(metrics: readonly Metric[]): string {
  const rel = metrics.filter((m) => m.primary && m.interval).map((m) => m.interval!.relative);
  if (rel.length === 0) return '';
  const lo = intervalText({ relative: Math.min(...rel) });
  const hi = intervalText({ relative: Math.max(...rel) }).replace('± ', '');
  return lo.replace('± ', '') === hi ? `95 %: ${lo}` : `95 %: ${lo.replace(' %', '')}–${hi}`;
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

function figures(doc: ResultDocument, box: Box, opts: CardOptions): string {
  try {
    const s = kindOf(doc.kind)?.card?.(doc, box, resultMetrics(doc), opts);
    if (s) return s;
  } catch {
    // A document missing a piece its kind promises still gets a card: the plain list below.
  }
  return metricList(doc, box);
}

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
