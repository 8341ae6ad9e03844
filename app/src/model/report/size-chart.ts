// MB/s against transfer size on a log axis (ATTO's and QuickBench's chart): a write and a read
// line per run with a dot at each size, size ticks (4K, 64K, 1M…) under "transfer size", and the
// link's ceiling as a dashed line when known. The one drawing of it: the HTML exports (light), the
// share card (dark) and the comparison report's chart per row all call drawSizeChart. The same
// axes draw Stibium's scatter: each file's MB/s against its size (decimal ticks under "file size"),
// dots alone, and a fitted model as a dashed line.
// Browser-safe, and kept to what resvg draws (presentation attributes, no <style>).
import { blockLabel, formatBytes } from '../units.js';
import { axisCeil, escapeXml, r1, text, textWidth, ticksFor, tickText, type Box } from './card-draw.js';
import { formatFigure } from './figure-text.js';

export interface SizeSeries {
  dir: 'write' | 'read';
  /** Which run it is (the first is drawn solid, later ones faded and dashed). */
  run: number;
  points: ReadonlyArray<{ bs: number; mbps: number }>;
  /** 'line' (the default): a line through a dot at each size; 'dots': the dots alone (a scatter,
   *  a dot a file); 'model': a fitted curve, a thin dashed line without dots. */
  style?: 'line' | 'dots' | 'model';
}

export interface SizeChart {
  /** What the chart is of: its accessible name and caption ("ext4 over USB: MB/s against transfer size"). */
  title: string;
  /** The ladder, bytes, smallest first: the x axis spans it. */
  sizes: readonly number[];
  series: readonly SizeSeries[];
  /** The link's ceiling, MB/s, when the target's interface has a known one. */
  ceilingMBps?: number;
  /** The y axis reaches at least this (charts of several results side by side share one scale). */
  scaleMBps?: number;
  /** What the x axis is: transfer sizes (the default; ticks 4K, 64K, 1M as block sizes are
   *  named) or file sizes (ticks 1 MB, 10 MB, 100 MB, 1 GB, as the files were asked). */
  axis?: 'transfer size' | 'file size';
}

/** The colours and type size of one surface. */
export interface ChartLook {
  grid: string;
  baseline: string;
  tick: string;
  label: string;
  write: string;
  read: string;
  ceiling: string;
  font: number;
}

/** The printed page's: dark text on white, the app's direction hues darkened for paper. */
export const LIGHT_LOOK: ChartLook = {
  grid: '#e4e4e4',
  baseline: '#888888',
  tick: '#444444',
  label: '#1b1b1b',
  write: '#d9541e',
  read: '#138a68',
  ceiling: '#a31616',
  font: 11,
};

/** The share card's and the app's: its dark ground and the dials' write and read colours. */
export const DARK_LOOK: ChartLook = {
  grid: '#222831',
  baseline: '#3a414c',
  tick: '#6b7380',
  label: '#9aa3af',
  write: '#ff6a3d',
  read: '#2fd4a3',
  ceiling: '#f5b942',
  font: 11,
};

/** Every sixteenfold size of the ladder from its first, and its last: 4K, 64K, 1M, 16M, 64M. */
export function sizeTicks(sizes: readonly number[]): number[] {
  if (sizes.length === 0) return [];
  const out: number[] = [];
  const last = sizes.at(-1)!;
  for (let t = sizes[0]!; t <= last; t *= 16) out.push(t);
  // The last size too, unless a tick sits within a factor of two below it (the labels would touch).
  if (out.at(-1)! * 2 < last) out.push(last);
  return out;
}

/** The powers of ten (bytes) from `lo` to `hi`: a file-size axis's ticks (1 MB, 10 MB, 100 MB…). */
function decadeTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let t = 10 ** Math.ceil(Math.log10(Math.max(lo, 1))); t <= hi; t *= 10) out.push(t);
  return out;
}

/** A ceiling further up than this many times the fastest point is named, not drawn: drawn, it
 *  would flatten the curve to the floor. */
const CEILING_ROOM = 3;

/** The chart drawn inside `box` (axes, labels and legend included), as SVG elements. Each line is
 *  a `<g data-series="write|read" data-run="n">` whose dots carry `data-bs` and `data-mbps`. */
export function drawSizeChart(c: SizeChart, box: Box, look: ChartLook): string {
  const f = look.font;
  const finite = c.series.map((s) => ({ ...s, points: s.points.filter((p) => p.bs > 0 && Number.isFinite(p.mbps) && p.mbps >= 0) }));
  const peak = Math.max(0, ...finite.flatMap((s) => s.points.map((p) => p.mbps)));
  const ceiling = c.ceilingMBps !== undefined && c.ceilingMBps > 0 && Number.isFinite(c.ceilingMBps) ? c.ceilingMBps : undefined;
  const drawn = ceiling !== undefined && ceiling <= CEILING_ROOM * Math.max(peak, 1e-9) ? ceiling : undefined;
  const shared = c.scaleMBps !== undefined && Number.isFinite(c.scaleMBps) && c.scaleMBps > 0 ? c.scaleMBps : 0;
  const yMax = axisCeil(Math.max(peak, drawn ?? 0, shared, 1e-9) * 1.08);
  const yTicks = ticksFor(yMax, 5);
  const left = Math.max(...yTicks.map((t) => textWidth(tickText(t, yMax), f))) + 10;
  const plot: Box = { x: box.x + left, y: box.y + f * 2.4, w: box.w - left - 8, h: box.h - f * 2.4 - f * 3.4 };
  const lo = c.sizes[0] ?? 1;
  const hi = c.sizes.at(-1) ?? lo;
  const span = Math.log2(hi / lo);
  const X = (bs: number): number => (span > 0 ? plot.x + (Math.log2(bs / lo) / span) * plot.w : plot.x + plot.w / 2);
  const Y = (v: number): number => plot.y + plot.h - (v / yMax) * plot.h;
  const out: string[] = [];
  for (const t of yTicks) {
    out.push(`<rect x="${r1(plot.x)}" y="${r1(Y(t))}" width="${r1(plot.w)}" height="1" fill="${t === 0 ? look.baseline : look.grid}"/>`);
    out.push(text(plot.x - 6, Y(t) + f * 0.35, tickText(t, yMax), { size: f, fill: look.tick, anchor: 'end' }));
  }
  out.push(text(box.x, box.y + f, 'MB/s', { size: f, weight: 600, fill: look.label }));
  const files = c.axis === 'file size';
  for (const t of files ? decadeTicks(lo, hi) : sizeTicks(c.sizes)) {
    out.push(`<rect x="${r1(X(t))}" y="${r1(plot.y)}" width="1" height="${r1(plot.h)}" fill="${look.grid}"/>`);
    out.push(
      text(X(t), plot.y + plot.h + f * 1.45, files ? formatBytes(t) : blockLabel(t), { size: f, fill: look.tick, anchor: 'middle' }),
    );
  }
  out.push(
    text(plot.x + plot.w / 2, box.y + box.h - 2, c.axis ?? 'transfer size', { size: f, weight: 600, fill: look.label, anchor: 'middle' }),
  );
  if (drawn !== undefined) {
    const cy = r1(Y(drawn));
    out.push(
      `<line x1="${r1(plot.x)}" y1="${cy}" x2="${r1(plot.x + plot.w)}" y2="${cy}" stroke="${look.ceiling}" stroke-width="1.5" stroke-dasharray="6 4" data-ceiling="${r1(drawn)}"/>`,
    );
  }
  // Later runs first, so the first run's lines lie on top.
  for (const s of [...finite].sort((a, b) => b.run - a.run)) {
    if (s.points.length === 0) continue;
    const colour = s.dir === 'write' ? look.write : look.read;
    const first = s.run === Math.min(...finite.map((x) => x.run));
    const style = s.style ?? 'line';
    const d = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${r1(X(p.bs))} ${r1(Y(p.mbps))}`).join(' ');
    const dots = s.points.map(
      (p) => `<circle cx="${r1(X(p.bs))}" cy="${r1(Y(p.mbps))}" r="2.6" fill="${colour}" data-bs="${p.bs}" data-mbps="${r1(p.mbps)}"/>`,
    );
    const path =
      style === 'model'
        ? `<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.5" stroke-dasharray="6 4" stroke-opacity="0.8"/>`
        : `<path d="${d}" fill="none" stroke="${colour}" stroke-width="2" stroke-linejoin="round"${first ? '' : ' stroke-dasharray="5 4"'}/>`;
    out.push(
      `<g data-series="${s.dir}" data-run="${s.run}"${style === 'line' ? '' : ` data-style="${style}"`}${first ? '' : ' opacity="0.55"'}>` +
        (style === 'dots' ? '' : path) +
        (style === 'model' ? '' : dots.join('')) +
        '</g>',
    );
  }
  // The legend on the top line, right-aligned: Write, Read, and the ceiling when there is one.
  const runs = new Set(finite.map((s) => s.run)).size;
  if (runs > 1) out.push(text(box.x, box.y + box.h - 2, `${runs} runs (later ones faded)`, { size: f, fill: look.tick }));
  const items: Array<{ label: string; colour: string; dashed?: boolean }> = [
    { label: 'Write', colour: look.write },
    { label: 'Read', colour: look.read },
  ];
  if (ceiling !== undefined)
    items.push({
      label: `interface ceiling ${formatFigure(ceiling, 'MB/s')} MB/s${drawn === undefined ? ' (off the scale)' : ''}`,
      colour: look.ceiling,
      dashed: true,
    });
  let lx = box.x + box.w;
  for (const it of [...items].reverse()) {
    lx -= textWidth(it.label, f) + 22;
    out.push(
      `<line x1="${r1(lx)}" y1="${r1(box.y + f * 0.65)}" x2="${r1(lx + 14)}" y2="${r1(box.y + f * 0.65)}" stroke="${it.colour}" stroke-width="2.5"${it.dashed ? ' stroke-dasharray="4 3"' : ''}/>`,
      text(lx + 18, box.y + f, it.label, { size: f, fill: look.label }),
    );
  }
  return out.join('\n');
}

/** The chart as an SVG for a page or an image: `width` × `height`, named by its title. An image
 *  (a data URL) needs the SVG namespace; inline in an HTML page it is implied, and the exported
 *  page names no address at all (`inline`). */
export function sizeChartSvg(c: SizeChart, look: ChartLook = LIGHT_LOOK, width = 760, height = 300, inline = false): string {
  const ns = inline ? '' : ' xmlns="http://www.w3.org/2000/svg"';
  return (
    `<svg${ns} viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(c.title)}" data-chart="${c.axis === 'file size' ? 'file-size' : 'transfer-size'}" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">` +
    `<title>${escapeXml(c.title)}</title>\n${drawSizeChart(c, { x: 8, y: 6, w: width - 16, h: height - 12 }, look)}\n</svg>`
  );
}
