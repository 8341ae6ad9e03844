// Throughput over time under the dials: write and read MB/s against seconds since Start.
// Points capped (series.ts), drawn by the light LiveChart; memoised, redrawn only when its
// series changes and then at most twice a second (the dials carry the live figure).
import { memo, useMemo } from 'react';
import { linearTicks, tickFormatter } from '../../lib/ticks';
import { DIRECTION_COLOURS } from '../../components/charts';
import { LiveChart, type LiveLine } from '../../components/live-chart';
import { useThrottled } from '../../lib/use-throttled';
import { downsample } from './series';
import { useQuickTestStore, type WriteReadPoint } from './store';

/** The chart follows the test at most this often. */
export const REDRAW_MS = 500;

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
  const lines = useMemo<LiveLine[]>(
    () => [
      { key: 'write', name: 'Write', colour: DIRECTION_COLOURS.write, fill: true, points: data.map((d) => ({ x: d.t, y: d.write })) },
      { key: 'read', name: 'Read', colour: DIRECTION_COLOURS.read, fill: true, points: data.map((d) => ({ x: d.t, y: d.read })) },
    ],
    [data],
  );

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
          <LiveChart
            label="Write and read MB/s over the test's seconds"
            lines={lines}
            xTicks={xTicks}
            xTickText={tickFormatter(xTicks)}
            xName="time (s)"
            yTicks={yTicks}
            yTickText={tickFormatter(yTicks)}
            xReadout={(t) => `${t.toFixed(1)} s`}
            height={184}
          />
        )}
      </div>
    </section>
  );
});
