// A write curve (a kind's curve runs: the sustained write's): MB/s against GB written (10^9 bytes),
// one line per run, live while writing and the document's curves afterwards. Marks where the fast
// cache ran out (a vertical line per run), the first run's speeds before and after it (dashed), a
// throttling drive's band, and the link's ceiling when the target's interface has one. Only
// draws: curve.ts shapes.
import { CartesianGrid, ComposedChart, Line, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { linearTicks } from '../lib/ticks';
import { ceilingLine, ChartFrame, linearXAxis, mbpsYAxis } from './chart-frame';
import type { CurveLine, VerdictMarks } from '../lib/curve';
import { formatGB } from '../lib/figure-format';
import { formatMBpsFigure } from '@model/units';

/** One colour per run: the write accent first. */
export const RUN_COLOURS = ['#ff6a3d', '#8ab4ff', '#f5b942', '#c792ea', '#2fd4a3'];
const runColour = (run: number): string => RUN_COLOURS[(run - 1) % RUN_COLOURS.length]!;
const LABEL = { fill: '#c9ced6', fontSize: 11 };

export interface WriteCurveChartProps {
  lines: CurveLine[];
  marks: VerdictMarks;
  /** The link's payload ceiling, MB/s. */
  ceilingMBps?: number | undefined;
  /** The x axis runs to at least this many GB (the planned write), so a live line grows into it. */
  xMaxGB?: number | undefined;
}

export function WriteCurveChart({ lines, marks, ceilingMBps, xMaxGB }: WriteCurveChartProps) {
  const dataMax = Math.max(0, ...lines.flatMap((l) => l.points.map((p) => p.gb)));
  const xTicks = linearTicks(Math.max(dataMax, xMaxGB ?? 0) || 1);
  const yPeak = Math.max(0, ...lines.flatMap((l) => l.points.map((p) => p.mbps)), ...marks.levels.map((m) => m.mbps), marks.band?.max ?? 0);
  const yTicks = linearTicks(Math.max(yPeak, ceilingMBps ?? 0) * 1.05 || 1);
  return (
    <ChartFrame height={260}>
      {(size) => (
        <ComposedChart {...size} margin={{ top: 18, right: 16, bottom: 16, left: 4 }}>
          <CartesianGrid stroke="#262a31" vertical={false} />
          <XAxis {...linearXAxis('gb', xTicks, 'written (GB)')} />
          <YAxis {...mbpsYAxis(yTicks)} />
          <Tooltip
            contentStyle={{ background: '#15181d', border: '1px solid #2c313a', borderRadius: 8, color: '#e6e8eb' }}
            labelFormatter={(gb) => `${formatGB(Number(gb) * 1e9)} GB written`}
            formatter={(v, name) => [`${formatMBpsFigure(Number(v))} MB/s`, String(name)]}
          />
          {marks.band && (
            <ReferenceArea
              y1={marks.band.min}
              y2={marks.band.max}
              fill="#f5b942"
              fillOpacity={0.1}
              stroke="none"
              data-testid="sustained-band"
            />
          )}
          {lines.map((l) => (
            <Line
              key={l.run}
              data={l.points}
              dataKey="mbps"
              name={lines.length > 1 ? `Run ${l.run}` : 'Write'}
              stroke={runColour(l.run)}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
              type="linear"
            />
          ))}
          {marks.levels.map((m) => (
            <ReferenceLine
              key={m.label}
              y={m.mbps}
              stroke="#c9ced6"
              strokeDasharray="5 4"
              strokeOpacity={0.7}
              label={{ value: m.label, position: 'insideBottomRight', ...LABEL }}
              data-testid="sustained-level"
            />
          ))}
          {marks.knees.map((k) => (
            <ReferenceLine
              key={k.run}
              x={k.gb}
              stroke={runColour(k.run)}
              strokeWidth={1.5}
              label={{ value: k.label, position: 'insideTopLeft', ...LABEL }}
              data-testid="sustained-knee"
            />
          ))}
          {ceilingMBps && <ReferenceLine {...ceilingLine(ceilingMBps)} data-testid="sustained-ceiling" />}
        </ComposedChart>
      )}
    </ChartFrame>
  );
}
