// Throughput over time under the dials: write and read MB/s against seconds since Start.
// Animation off and points capped (series.ts). Memoised: the screen re-renders with the dials,
// the chart only when its series changes (at most once a frame, see use-quick-events.ts).
import { memo, useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { downsample } from './series';
import { useQuickTestStore } from './store';

const WRITE = '#ff6a3d';
const READ = '#2fd4a3';

export const ThroughputChart = memo(function ThroughputChart() {
  const series = useQuickTestStore((s) => s.series);
  const data = useMemo(() => downsample(series), [series]);

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
          <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 800, height: 184 }}>
            <AreaChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
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
                domain={[0, 'dataMax']}
                tickFormatter={(t: number) => formatSeconds(t, data.at(-1)?.t ?? 0)}
                stroke="#6b7280"
                tick={{ fill: '#9aa3af', fontSize: 11 }}
                tickLine={false}
              />
              <YAxis width={56} stroke="#6b7280" tick={{ fill: '#9aa3af', fontSize: 11 }} tickLine={false} axisLine={false} unit="" />
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
          </ResponsiveContainer>
        )}
      </div>
    </section>
  );
});

/** Whole seconds for a long test; tenths for one that lasts only a few seconds. */
export function formatSeconds(t: number, span: number): string {
  return span < 10 ? `${t.toFixed(1)} s` : `${Math.round(t)} s`;
}
