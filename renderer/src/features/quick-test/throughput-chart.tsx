// Throughput over time under the dials: write and read MB/s against seconds since Start.
// Animation off and points capped (series.ts). Memoised: the screen re-renders with the dials,
// the chart only when its series changes, and then at most twice a second (a redraw costs tens of
// ms on a slow machine; the dials carry the live figure).
import { memo, useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { linearTicks, tickFormatter } from '../../lib/ticks';
import { ChartFrame, xAxisLabel, yAxisLabel } from '../../components/chart-frame';
import { useThrottled } from '../../lib/use-throttled';
import { downsample } from './series';
import { useQuickTestStore, type WriteReadPoint } from './store';

/** The chart follows the test at most this often. */
export const REDRAW_MS = 500;

const WRITE = '#ff6a3d';
const READ = '#2fd4a3';

/** The store's series, followed at most every REDRAW_MS; the chart below redraws only when the
 *  followed series changes, not each time the store's does. */
export const ThroughputChart = memo(function ThroughputChart() {
  return (
    <ThroughputChartView
      series={useThrottled(
        useQuickTestStore((s) => s.series),
        REDRAW_MS,
      )}
    />
  );
});

const ThroughputChartView = memo(function ThroughputChartView({ series }: { series: readonly WriteReadPoint[] }) {
  const data = useMemo(() => downsample(series), [series]);
  // Ticks from the domain, so a test of a few tenths of a second still gets distinct labels.
  const xTicks = useMemo(() => linearTicks(data.at(-1)?.t || 1), [data]);
  const yTicks = useMemo(() => linearTicks(Math.max(0, ...data.flatMap((d) => [d.write ?? 0, d.read ?? 0])) * 1.05 || 1), [data]);

  return (
    <section className="card chart-card" aria-labelledby="chart-title">
      <header className="card__header">
        <h2 id="chart-title" className="card__title">
          Throughput over time
        </h2>
        <div className="legend" aria-hidden="true">
          <span className="legend__item legend__item--write">Write</span>
          <span className="legend__item legend__item--read">Read</span>
        </div>
      </header>
      <div className="chart-box">
        {data.length === 0 ? (
          <p className="empty">The write and read speeds will be drawn here while the test runs.</p>
        ) : (
          <ChartFrame height={184}>
            {(size) => (
              <AreaChart {...size} data={data} margin={{ top: 8, right: 12, bottom: 14, left: 4 }}>
                <defs>
                  <linearGradient id="fill-write" x1="0" y1="0" x2="0" y2="1">
                    <stop offset="0%" stopColor={WRITE} stopOpacity={0.35} />
                    <stop offset="100%" stopColor={WRITE} stopOpacity={0} />
                  </linearGradient>
                  <linearGradient id="fill-read" x1="0" y1="0" x2="0" y2="1">
                    <stop offset="0%" stopColor={READ} stopOpacity={0.35} />
                    <stop offset="100%" stopColor={READ} stopOpacity={0} />
                  </linearGradient>
                </defs>
                <CartesianGrid stroke="#262a31" vertical={false} />
                <XAxis
                  dataKey="t"
                  type="number"
                  domain={[0, xTicks.at(-1)!]}
                  ticks={xTicks}
                  tickFormatter={tickFormatter(xTicks)}
                  label={xAxisLabel('time (s)')}
                  stroke="#6b7280"
                  tick={{ fill: '#9aa3af', fontSize: 11 }}
                  tickLine={false}
                />
                <YAxis
                  width={64}
                  domain={[0, yTicks.at(-1)!]}
                  ticks={yTicks}
                  tickFormatter={tickFormatter(yTicks)}
                  label={yAxisLabel('MB/s')}
                  stroke="#6b7280"
                  tick={{ fill: '#9aa3af', fontSize: 11 }}
                  tickLine={false}
                  axisLine={false}
                />
                <Tooltip
                  contentStyle={{ background: '#15181d', border: '1px solid #2c313a', borderRadius: 8, color: '#e6e8eb' }}
                  labelFormatter={(t) => `${Number(t).toFixed(1)} s`}
                  formatter={(v, name) => [`${Math.round(Number(v))} MB/s`, name === 'write' ? 'Write' : 'Read']}
                />
                <Area
                  type="monotone"
                  dataKey="write"
                  stroke={WRITE}
                  strokeWidth={2}
                  fill="url(#fill-write)"
                  isAnimationActive={false}
                  connectNulls={false}
                  dot={false}
                />
                <Area
                  type="monotone"
                  dataKey="read"
                  stroke={READ}
                  strokeWidth={2}
                  fill="url(#fill-read)"
                  isAnimationActive={false}
                  connectNulls={false}
                  dot={false}
                />
              </AreaChart>
            )}
          </ChartFrame>
        )}
      </div>
    </section>
  );
});
