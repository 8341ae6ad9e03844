// What the sweep adds to every export a result appears in: its chart of MB/s against transfer size
// (as data; the HTML formats and the app draw it with report/size-chart.ts), the preset's headline
// averages as QuickBench posts them, and where each direction reaches full speed (and falls again).
import type { ResultDocument } from '../../result.js';
import { formatFigure, metricValue } from '../../report/figure-text.js';
import type { ReportSection, SectionBlock, SectionCsvRow, Table } from '../../report/section.js';
import type { SizeChart } from '../../report/size-chart.js';
import { MiB } from '../plan.js';
import { transferSizeText } from './plan.js';
import { fullSpeedText, sweepMetrics } from './report.js';
import type { SweepSection } from './result.js';

const HEADING = 'MB/s against transfer size';

/** The link's ceiling the chart draws: the interface's, or the share's network path's. */
function ceilingOf(doc: ResultDocument): number | undefined {
  const c = doc.target?.device?.linkInfo?.ceilingMBps ?? doc.target?.network?.ceilingMBps;
  return typeof c === 'number' && c > 0 && Number.isFinite(c) ? c : undefined;
}

function sound(doc: ResultDocument): SweepSection | undefined {
  const s = doc.sweep;
  return s && Array.isArray(s.sizes) && s.sizes.length > 0 && Array.isArray(s.runs) && s.runs.length > 0 ? s : undefined;
}

/** The chart of one result: a write and a read line per run. */
export function sweepChart(doc: ResultDocument, title: string): SizeChart | undefined {
  const s = sound(doc);
  if (!s) return undefined;
  const ceiling = ceilingOf(doc);
  return {
    title,
    sizes: s.sizes,
    series: s.runs.flatMap((r) =>
      (['write', 'read'] as const).map((dir) => ({
        dir,
        run: r.run,
        points: r.points.map((p) => ({ bs: p.bs, mbps: dir === 'write' ? p.writeMBps : p.readMBps })),
      })),
    ),
    ...(ceiling !== undefined ? { ceilingMBps: ceiling } : {}),
  };
}

/** "20–100 MB (20, 40, 60, 80, 100 MiB)": QuickBench's name, and the sizes that really ran. */
function averageName(name: string, sizes: readonly number[]): string {
  const ran = sizes.every((b) => b % MiB === 0) ? `${sizes.map((b) => b / MiB).join(', ')} MiB` : sizes.map(transferSizeText).join(', ');
  return `${name} (${ran})`;
}

/** QuickBench's headline table: an average a row, write and read MB/s, the mean across runs as
 *  every figure is (the same metrics the figures table and the card read). */
function averagesTable(s: SweepSection): Table | undefined {
  const metrics = sweepMetrics(s);
  const first = s.runs[0]?.averages ?? [];
  const rows = first.flatMap((a) => {
    const of = (dir: 'write' | 'read') => metrics.find((m) => m.key === `Sweep/${dir}.${a.id}MBps`);
    const w = of('write');
    const r = of('read');
    return w && r
      ? [
          [
            { text: averageName(a.name, a.sizes) },
            { text: formatFigure(metricValue(w), 'MB/s') },
            { text: formatFigure(metricValue(r), 'MB/s') },
          ],
        ]
      : [];
  });
  if (rows.length === 0) return undefined;
  const runs = s.runs.length > 1 ? `, mean of ${s.runs.length} runs` : '';
  return { title: `QuickBench's headline averages${runs}`, head: ['Average', 'Write MB/s', 'Read MB/s'], rows };
}

function one(doc: ResultDocument): SectionBlock | null {
  const s = sound(doc);
  const chart = sweepChart(doc, 'MB/s against transfer size');
  if (!s || !chart) return null;
  const table = averagesTable(s);
  const notes = s.runs.flatMap((r) => fullSpeedText(s, r).map((l) => `${s.runs.length > 1 ? `Run ${r.run}: ` : ''}${l}.`));
  return { heading: HEADING, tables: table ? [table] : [], notes, charts: [chart] };
}

/** Several results side by side (a campaign's setups): a chart each, and each one's full-speed
 *  lines (first run). The headline averages are the comparison's own columns already. */
function many(docs: readonly ResultDocument[], labels: readonly string[]): SectionBlock | null {
  const charts: SizeChart[] = [];
  const notes: string[] = [];
  docs.forEach((d, i) => {
    const s = sound(d);
    const label = labels[i] ?? `Result ${i + 1}`;
    const chart = sweepChart(d, `${label}: MB/s against transfer size`);
    if (!s || !chart) return;
    charts.push(chart);
    notes.push(...fullSpeedText(s).map((l) => `${label}: ${l}.`));
  });
  if (charts.length === 0) return null;
  // One y scale for every setup's chart, so a slower setup's curve looks as much lower as it is.
  const top = Math.max(...charts.flatMap((c) => c.series.flatMap((x) => x.points.map((p) => p.mbps)).filter(Number.isFinite)), 0);
  return { heading: HEADING, tables: [], notes, charts: charts.map((c) => ({ ...c, scaleMBps: top })) };
}

function csvRows(doc: ResultDocument): SectionCsvRow[] {
  const s = sound(doc);
  if (!s) return [];
  return s.runs.flatMap((r) =>
    (r.averages ?? []).flatMap((a) =>
      (['write', 'read'] as const).map((rw) => ({
        test: `average ${a.name}`,
        run: r.run,
        rw,
        mbps: rw === 'write' ? a.writeMBps : a.readMBps,
        averaged_sizes: a.sizes.join(' '),
      })),
    ),
  );
}

/** The section the sweep registers (index.ts): its chart, averages and full-speed lines. */
export const sweepReportSection: ReportSection = {
  csvHead: ['averaged_sizes'],
  one,
  many,
  csvRows,
  // The averages are in the document's own section already: the JSON adds nothing.
  json: () => ({}),
};
