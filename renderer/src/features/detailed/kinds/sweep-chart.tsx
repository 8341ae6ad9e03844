// The transfer-size sweep's curve: MB/s against transfer size on a log x axis (4K, 64K, 1M, 16M,
// 64M…: the exports' ticks, report/size-chart.ts), a write and a read line per run in the app's
// write and read colours, and the link's ceiling when the target's interface has one. Only draws:
// the panel gives it the points.
import { CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { SweepRun } from '@model/kinds/sweep/result';
import { blockLabel, formatMBpsFigure } from '@model/units';
import { sizeTicks } from '@model/report/size-chart';
import { linearTicks } from '../../../lib/ticks';
import { AXIS, ceilingLine, ChartFrame, mbpsYAxis, xAxisLabel } from '../../../components/chart-frame';

const WRITE = '#ff6a3d';
const READ = '#2fd4a3';
const TIP = { background: '#15181d', border: '1px solid #2c313a', borderRadius: 8, color: '#e6e8eb' };

export function SweepChart({
  runs,
  sizes,
  ceilingMBps,
}: {
  runs: readonly SweepRun[];
  sizes: readonly number[];
  ceilingMBps?: number | undefined;
}) {
  const ticks = sizeTicks(sizes);
  const peak = Math.max(0, ...runs.flatMap((r) => r.points.flatMap((p) => [p.writeMBps, p.readMBps])));
  const yTicks = linearTicks(Math.max(peak, ceilingMBps ?? 0) * 1.05 || 1);
  const many = runs.length > 1;
  return (
    <ChartFrame height={280}>
      {(size) => (
        <ComposedChart {...size} margin={{ top: 18, right: 16, bottom: 16, left: 4 }}>
          <CartesianGrid stroke="#262a31" vertical={false} />
          <XAxis
            dataKey="bs"
            type="number"
            scale="log"
            domain={[sizes[0] ?? 1, sizes.at(-1) ?? 2]}
            ticks={ticks}
            allowDuplicatedCategory={false}
            tickFormatter={(v: number) => blockLabel(v)}
            label={xAxisLabel('transfer size')}
            {...AXIS}
          />
          <YAxis {...mbpsYAxis(yTicks)} />
          <Tooltip
            contentStyle={TIP}
            labelFormatter={(bs) => `${blockLabel(Number(bs))} transfers`}
            formatter={(v, name) => [`${formatMBpsFigure(Number(v))} MB/s`, String(name)]}
          />
          {/* Write before read, as every table says them. */}
          <Legend wrapperStyle={{ fontSize: 12, color: '#9aa3af' }} itemSorter={null} />
          {runs.flatMap((r, i) =>
            (
              [
                ['writeMBps', 'Write', WRITE],
                ['readMBps', 'Read', READ],
              ] as const
            ).map(([key, name, colour]) => (
              <Line
                key={`${r.run}-${key}`}
                data={r.points}
                dataKey={key}
                name={many ? `${name} · run ${r.run}` : name}
                stroke={colour}
                strokeOpacity={i === 0 ? 1 : 0.55}
                strokeDasharray={i === 0 ? undefined : '6 4'}
                strokeWidth={2}
                dot={{ r: 2.5, fill: colour, stroke: 'none' }}
                isAnimationActive={false}
                type="linear"
              />
            )),
          )}
          {ceilingMBps && <ReferenceLine {...ceilingLine(ceilingMBps)} data-testid="sweep-ceiling" />}
        </ComposedChart>
      )}
    </ChartFrame>
  );
}
