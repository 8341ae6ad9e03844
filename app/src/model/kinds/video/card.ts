// The video test's card: the format, then per direction the verdict and the frame figures, and
// the timeline as a strip of cells (on time, late, dropped) for the first run.
import { type Box, COLOR, fitText, r1, text } from '../../report/card-draw.js';
import type { Metric } from '../../report/figure-text.js';
import type { ResultDocument } from '../../result.js';
import type { VideoPhase } from './result.js';
import { formatFps } from './math.js';
import { rejudged } from './paced.js';

const STRIP_CELLS = 120;

/** The timeline squeezed into `cells` cells: a cell is as bad as its worst frame. */
export function stripCells(timeline: string, cells = STRIP_CELLS): string {
  if (timeline.length <= cells) return timeline;
  let out = '';
  for (let c = 0; c < cells; c++) {
    const part = timeline.slice(Math.floor((c * timeline.length) / cells), Math.floor(((c + 1) * timeline.length) / cells));
    out += part.includes('D') ? 'D' : part.includes('L') ? 'L' : '.';
  }
  return out;
}

export function videoFigures(doc: ResultDocument, box: Box, _metrics: readonly Metric[]): string | undefined {
  // Judged again by today's paced rule: a result saved under an older one shows today's verdict.
  const s = doc.video ? rejudged(doc.video) : undefined;
  const run = s?.runs[0];
  if (!s || !run) return undefined;
  const out: string[] = [];
  let y = box.y + 30;
  out.push(
    text(
      box.x,
      y,
      fitText(`${s.format} · ${s.resolution} · ${formatFps(s.fps)} fps · ${s.frames.toLocaleString('en-US')} frames`, box.w, 18, 700),
      {
        size: 18,
        weight: 700,
      },
    ),
  );
  const row = (label: string, p: VideoPhase, color: string): void => {
    y += 52;
    out.push(text(box.x, y, label, { size: 15, weight: 700, fill: color }));
    out.push(text(box.x + 70, y, fitText(p.verdict, box.w - 70, 15, 600), { size: 15, weight: 600, fill: p.ok ? COLOR.text : COLOR.bad }));
    y += 24;
    const figures = `p50 ${p.p50Ms.toFixed(1)} ms · p99 ${p.p99Ms.toFixed(1)} ms · max ${p.maxMs.toFixed(1)} ms · jitter ${p.jitterMs.toFixed(1)} ms · ${p.mbps.toFixed(0)} MB/s`;
    out.push(text(box.x + 70, y, fitText(figures, box.w - 70, 13), { size: 13, fill: COLOR.muted }));
    y += 14;
    const cells = stripCells(p.timeline);
    const w = (box.w - 70) / Math.max(cells.length, 1);
    [...cells].forEach((c, i) => {
      const fill = c === '.' ? color : c === 'L' ? COLOR.warn : COLOR.bad;
      out.push(
        `<rect x="${r1(box.x + 70 + i * w)}" y="${r1(y)}" width="${r1(Math.max(1, w - 1))}" height="10" fill="${fill}" fill-opacity="0.85"/>`,
      );
    });
  };
  row('Write', run.write, COLOR.write);
  row('Read', run.read, COLOR.read);
  return out.join('\n');
}
