// What the many-file test adds to every export it appears in: Stibium's picture, each file's MB/s
// against its size on a log axis, write and read, with the rate the Theil–Sen fit of time against
// size predicts drawn as a dashed curve (as data: the HTML formats draw it with
// report/size-chart.ts), and that prediction at the set's smallest and largest file in words.
import type { FileFit, FilesRun, ResultDocument } from '../result.js';
import { formatFigure } from '../report/figure-text.js';
import type { ReportSection, SectionBlock } from '../report/section.js';
import type { SizeChart, SizeSeries } from '../report/size-chart.js';
import { OVERHEAD_BELOW_ZERO, shownOverhead } from '../trust.js';
import { sizeFormatterFor } from '../units.js';

const HEADING = 'MB/s against file size';
/** Points along the fitted curve, log-spaced from the smallest file to the largest. */
const MODEL_POINTS = 24;

function firstRun(doc: ResultDocument): FilesRun | undefined {
  const run = doc.files?.runs?.[0];
  return run && Array.isArray(run.items) && run.items.some((i) => i.bytes > 0) ? run : undefined;
}

/** The rate the fit predicts for a file of `bytes`: its size over the time the line gives it. An
 *  intercept below zero is no real overhead (trust.ts shows it as 0), so none is added. */
function modelMBps(fit: FileFit, bytes: number): number {
  return bytes / (Math.max(0, fit.intercept) + fit.slope * bytes) / 1e6;
}

const usable = (fit: FileFit | undefined): fit is FileFit =>
  fit !== undefined && Number.isFinite(fit.slope) && fit.slope > 0 && Number.isFinite(fit.intercept);

/** The chart of a result's first run: a scatter per pass and its Theil–Sen curve. */
function filesChart(doc: ResultDocument, title: string): SizeChart | undefined {
  const run = firstRun(doc);
  if (!run) return undefined;
  const sizes = run.items.map((i) => i.bytes).filter((b) => b > 0);
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  const series = (['write', 'read'] as const).flatMap((dir): SizeSeries[] => {
    const dots: SizeSeries = {
      dir,
      run: 1,
      style: 'dots',
      points: run.items
        .flatMap((i) => {
          const t = i[dir];
          return t && t.seconds > 0 ? [{ bs: i.bytes, mbps: i.bytes / t.seconds / 1e6 }] : [];
        })
        .sort((a, b) => a.bs - b.bs),
    };
    const fit = run[dir].theilSen;
    if (!usable(fit) || hi <= lo) return [dots];
    const points = Array.from({ length: MODEL_POINTS }, (_, k) => lo * (hi / lo) ** (k / (MODEL_POINTS - 1))).map((bs) => ({
      bs,
      mbps: modelMBps(fit, bs),
    }));
    return [dots, { dir, run: 1, style: 'model', points }];
  });
  return { title, sizes: [lo, hi], series, axis: 'file size' };
}

function one(doc: ResultDocument): SectionBlock | null {
  const run = firstRun(doc);
  const chart = filesChart(doc, 'MB/s against file size: each dot a file, the dashed curve the Theil–Sen fit');
  if (!run || !chart) return null;
  const lo = chart.sizes[0]!;
  const hi = chart.sizes.at(-1)!;
  const size = sizeFormatterFor(doc.files!.requested.minBytes, doc.files!.requested.maxBytes);
  const runs = doc.files!.runs.length > 1 ? ' (run 1)' : '';
  const notes = (['write', 'read'] as const).flatMap((dir) => {
    const fit = run[dir].theilSen;
    if (!usable(fit)) return [];
    const at = (b: number, which: string) => `${formatFigure(modelMBps(fit, b), 'MB/s')} MB/s for the ${which} file (${size(b)})`;
    const o = shownOverhead(fit.overheadMs);
    const cost = o.belowZero ? OVERHEAD_BELOW_ZERO : `each file costs ${formatFigure(o.ms, 'ms')} ms more (its intercept)`;
    return [
      `${dir === 'write' ? 'Write' : 'Read'}${runs}: the Theil–Sen fit predicts ${at(lo, 'smallest')} and ${at(hi, 'largest')}, tending to ${formatFigure(fit.rateMBps, 'MB/s')} MB/s (its slope) as files grow; ${cost}.`,
    ];
  });
  return { heading: HEADING, tables: [], notes, charts: [chart] };
}

/** The section the many-file test registers: its scatter and what the fit predicts. */
export const filesReportSection: ReportSection = {
  csvHead: [],
  one,
  // Side by side, each result's figures are the comparison's columns; the scatters stay per result.
  many: () => null,
  // Each file's figures are CSV rows already (the CSV export's per-file rows).
  csvRows: () => [],
  json: () => ({}),
};
