// The verify test's two curves: write and read-and-verify MB/s against position on the volume (GB),
// in the app's write and read colours. Only draws: the panel gives it the points.
import { CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from 'recharts';
import type { CurvePoint } from '@model/knee';
import { formatMBpsFigure } from '@model/units';
import { downsampleCurve } from '../../../lib/curve';
import { formatGB } from '../../../lib/figure-format';
import { linearTicks } from '../../../lib/ticks';
import { ChartFrame, linearXAxis, mbpsYAxis } from '../../../components/chart-frame';

const TIP = { background: '#15181d', border: '1px solid #2c313a', borderRadius: 8, color: '#e6e8eb' };

export function VerifyChart({
  write,
  read,
  where = 'volume',
}: {
  write: readonly CurvePoint[];
  read: readonly CurvePoint[];
  where?: 'volume' | 'disk';
}) {
  const lines = [
    { name: 'Write', colour: '#ff6a3d', points: downsampleCurve(write).map((p) => ({ gb: p.bytes / 1e9, mbps: p.mbps })) },
    { name: 'Read and verify', colour: '#2fd4a3', points: downsampleCurve(read).map((p) => ({ gb: p.bytes / 1e9, mbps: p.mbps })) },
  ];
  const all = lines.flatMap((l) => l.points);
  const xTicks = linearTicks(Math.max(0, ...all.map((p) => p.gb)) || 1);
  const yTicks = linearTicks(Math.max(0, ...all.map((p) => p.mbps)) * 1.05 || 1);
  return (
    <ChartFrame height={260}>
      {(size) => (
        <ComposedChart {...size} margin={{ top: 18, right: 16, bottom: 16, left: 4 }}>
          <CartesianGrid stroke="#262a31" vertical={false} />
          <XAxis {...linearXAxis('gb', xTicks, `position on the ${where} (GB)`)} />
          <YAxis {...mbpsYAxis(yTicks)} />
          <Tooltip
            contentStyle={TIP}
            labelFormatter={(gb) => `at ${formatGB(Number(gb) * 1e9)} GB`}
            formatter={(v, name) => [`${formatMBpsFigure(Number(v))} MB/s`, String(name)]}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: '#9aa3af' }} itemSorter={null} />
          {lines.map((l) => (
            <Line
              key={l.name}
              data={l.points}
              dataKey="mbps"
              name={l.name}
              stroke={l.colour}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
              type="stepBefore"
            />
          ))}
        </ComposedChart>
      )}
    </ChartFrame>
  );
}
