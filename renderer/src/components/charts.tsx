// The charts of saved documents (History, the compare report, a finished verify; never live): a chart of lines that
// each carry their own points (a quick test's throughput over time, sustained-write curves of
// several results) and the compare view's grouped bars. Animation off; data shaped before it gets here.
import { Bar, BarChart, CartesianGrid, ComposedChart, ErrorBar, Legend, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { SeriesPoint } from '@model/engine-types';
import { linearTicks } from '../lib/ticks';
import { AXIS, ceilingLine, ChartFrame, linearXAxis, mbpsYAxis, yAxisLabel } from './chart-frame';
import { formatMBpsFigure } from '@model/units';

/** One colour per result column: neutral series colours, none near the write orange or the read
 *  teal, which mean write and read on every screen (an orange bar under "Read" misleads). */
/** Read and write, one colour each on every chart (the dials' and the sweep's). */
export const DIRECTION_COLOURS = { read: '#2fd4a3', write: '#ff6a3d' } as const;

export const COLUMN_COLOURS = ['#8ab4ff', '#c792ea', '#f5d76e', '#ff8fb1', '#b8c0cc', '#5b8def', '#e6a8ff', '#fff3b0'];
export const columnColour = (i: number): string => COLUMN_COLOURS[i % COLUMN_COLOURS.length]!;

const TIP = { background: '#15181d', border: '1px solid #2c313a', borderRadius: 8, color: '#e6e8eb' };
const LEGEND = { fontSize: 12, color: '#9aa3af' };

/** Points drawn per line at most. */
export const LINE_POINTS = 400;

export interface XYLine {
  key: string;
  name: string;
  colour: string;
  dashed?: boolean;
  /** Mark each point (a line of a few samples reads as points, not a curve). */
  dots?: boolean;
  /** Held flat until the next point (a figure measured over the span that ends at its x). */
  step?: boolean;
  points: Array<{ x: number; y: number }>;
}

/** At most `max` points: consecutive buckets averaged, each placed at its last x. */
export function thinPoints(points: ReadonlyArray<{ x: number; y: number }>, max = LINE_POINTS): Array<{ x: number; y: number }> {
  if (points.length <= max) return points.slice();
  const out: Array<{ x: number; y: number }> = [];
  const size = points.length / max;
  for (let b = 0; b < max; b++) {
    const from = Math.floor(b * size);
    const to = Math.max(from + 1, Math.min(points.length, Math.floor((b + 1) * size)));
    let sum = 0;
    for (let i = from; i < to; i++) sum += points[i]!.y;
    out.push({ x: points[to - 1]!.x, y: sum / (to - from) });
  }
  return out;
}

/** A test's time series as points (seconds, MB/s). */
export function seriesPoints(series: readonly SeriesPoint[] | undefined): Array<{ x: number; y: number }> {
  return thinPoints((series ?? []).filter((p) => Number.isFinite(p.t) && Number.isFinite(p.mbps)).map((p) => ({ x: p.t, y: p.mbps })));
}

export interface LinesChartProps {
  lines: XYLine[];
  /** The x axis's name with its unit: "time (s)", "written (GB)". Ticks are plain numbers. */
  xName: string;
  /** The tooltip's heading for an x. */
  xLabel(x: number): string;
  height?: number;
  ceilingMBps?: number | undefined;
}

export function LinesChart({ lines, xName, xLabel, height = 240, ceilingMBps }: LinesChartProps) {
  const xTicks = linearTicks(Math.max(0, ...lines.flatMap((l) => l.points.map((p) => p.x))) || 1);
  const yTicks = linearTicks(Math.max(0, ceilingMBps ?? 0, ...lines.flatMap((l) => l.points.map((p) => p.y))) * 1.05 || 1);
  return (
    <ChartFrame height={height}>
      {(size) => (
        <ComposedChart {...size} margin={{ top: 14, right: 16, bottom: 16, left: 4 }}>
          <CartesianGrid stroke="#262a31" vertical={false} />
          <XAxis {...linearXAxis('x', xTicks, xName)} />
          <YAxis {...mbpsYAxis(yTicks)} />
          <Tooltip
            contentStyle={TIP}
            labelFormatter={(x) => xLabel(Number(x))}
            formatter={(v, name) => [`${formatMBpsFigure(Number(v))} MB/s`, String(name)]}
          />
          <Legend wrapperStyle={LEGEND} itemSorter={null} />
          {lines.map((l) => (
            <Line
              key={l.key}
              data={l.points}
              dataKey="y"
              name={l.name}
              stroke={l.colour}
              strokeWidth={2}
              strokeDasharray={l.dashed ? '6 4' : undefined}
              dot={l.dots ? { r: 3, fill: l.colour, strokeWidth: 0 } : false}
              isAnimationActive={false}
              type={l.step ? 'stepBefore' : 'linear'}
            />
          ))}
          {ceilingMBps && <ReferenceLine {...ceilingLine(ceilingMBps)} />}
        </ComposedChart>
      )}
    </ChartFrame>
  );
}

export interface BarsChartProps {
  /** One entry per group (a figure): its label and each series' value under the series key. */
  data: Array<Record<string, number | string | null>>;
  /** `errorKey`: the data key of each bar's ± (one standard deviation), drawn as an error bar. */
  series: Array<{ key: string; errorKey?: string; name: string; colour: string }>;
  /** Interface ceilings to draw, MB/s. */
  ceilings: number[];
}

export function BarsChart({ data, series, ceilings }: BarsChartProps) {
  return (
    <ChartFrame height={280}>
      {(size) => (
        <BarChart {...size} data={data} margin={{ top: 18, right: 16, bottom: 4, left: 0 }} barCategoryGap="18%">
          <CartesianGrid stroke="#262a31" vertical={false} />
          <XAxis dataKey="label" interval={0} {...AXIS} tick={{ ...AXIS.tick, fontSize: 10.5 }} />
          <YAxis width={64} axisLine={false} tickFormatter={(v: number) => formatMBpsFigure(v)} label={yAxisLabel('MB/s')} {...AXIS} />
          <Tooltip
            contentStyle={TIP}
            cursor={{ fill: 'rgba(255,255,255,0.04)' }}
            formatter={(v, name) => [`${formatMBpsFigure(Number(v))} MB/s`, String(name)]}
          />
          <Legend wrapperStyle={LEGEND} />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.colour} isAnimationActive={false} radius={[3, 3, 0, 0]}>
              {s.errorKey && <ErrorBar dataKey={s.errorKey} width={6} strokeWidth={1.5} stroke="#e8eaed" direction="y" />}
            </Bar>
          ))}
          {ceilings.map((c) => (
            <ReferenceLine key={c} {...ceilingLine(c)} strokeDasharray="6 4" data-testid="compare-ceiling" />
          ))}
        </BarChart>
      )}
    </ChartFrame>
  );
}
