// The many-file test's card: each pass's aggregate rate and per-file overhead, and the first run's scatter.
import { axes, axisCeil, baseline, type Box, COLOR, fitText, mbps, r1, text } from '../report/card-draw.js';
import { formatFigure, type Metric, metricValue } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import { shownOverhead } from '../trust.js';
import { formatBytes } from '../units.js';

export function filesFigures(doc: ResultDocument, box: Box, metrics: readonly Metric[]): string | undefined {
  if (!doc.files?.runs[0]) return undefined;
  const f = doc.files!;
  const run = f.runs[0]!;
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
  // The files' sizes as they are (2 MiB is "2.1 MB"), as the CLI and exports print them: sizeText
  // reads a whole-MiB size as an asked one aligned down and would name 2 MiB "3 MB".
  const set = `${f.count} files · ${formatBytes(f.minBytes)} – ${formatBytes(f.maxBytes)} · ${formatBytes(f.totalBytes)} in all${runsNote}`;
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
