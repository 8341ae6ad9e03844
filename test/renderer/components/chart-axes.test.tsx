// Every chart on a short series: its tick labels are all different (a 0.3 s test once printed
// "0.1 s, 0.1 s") and each axis says its unit. jsdom has no layout, so the charts draw at a fixed
// size (FixedChartSize) and the tests read the charts' SVG text.
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixedChartSize } from '../../../renderer/src/components/chart-frame';
import { FilesScatter } from '../../../renderer/src/components/files-scatter';
import { WriteCurveChart } from '../../../renderer/src/components/write-curve-chart';
import { BarsChart, LinesChart } from '../../../renderer/src/components/charts';
import { useQuickTestStore } from '../../../renderer/src/features/quick-test/store';
import { ThroughputChart } from '../../../renderer/src/features/quick-test/throughput-chart';
import { linearTicks, tickDecimals, tickFormatter } from '../../../renderer/src/lib/ticks';
import { resetStores } from '../helpers/reset-stores';

function draw(chart: ReactNode) {
  return render(
    <FixedChartSize width={640} height={240}>
      {chart}
    </FixedChartSize>,
  ).container;
}

/** The tick texts of each axis ("x", "y"), in order. */
function ticks(root: Element, axis: 'x' | 'y'): string[] {
  // The live chart's ticks; recharts 3 draws its tick texts in a layer of their own.
  const live = root.querySelector(`.live-chart__ticks--${axis}`);
  if (live) return [...live.querySelectorAll('.live-chart__tick')].map((t) => t.textContent ?? '');
  const el = root.querySelector(`.recharts-${axis}Axis-tick-labels`);
  expect(el, `${axis} axis`).not.toBeNull();
  return [...el!.querySelectorAll('.recharts-cartesian-axis-tick-value')].map((t) => t.textContent ?? '');
}

const labels = (root: Element): string[] => [...root.querySelectorAll('.chart-axis-label')].map((t) => t.textContent ?? '');

function expectDistinct(list: string[]) {
  expect(list.length).toBeGreaterThanOrEqual(3);
  expect(new Set(list).size, list.join(', ')).toBe(list.length);
}

describe('tick helpers', () => {
  it('print each tick of a short domain differently', () => {
    const t = linearTicks(0.3);
    expect(t).toEqual([0, 0.1, 0.2, 0.3]);
    expect(tickDecimals(t)).toBe(1);
    expect(linearTicks(0.12).map(tickFormatter(linearTicks(0.12)))).toEqual(['0.000', '0.025', '0.050', '0.075', '0.100', '0.125']);
    expect(linearTicks(0.9).map(tickFormatter(linearTicks(0.9)))).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
    expect(tickDecimals([0, 0.25, 0.5])).toBe(2);
    expect(linearTicks(2100).map(tickFormatter(linearTicks(2100)))).toEqual(['0', '500', '1,000', '1,500', '2,000', '2,500']);
  });
});

describe('chart axes', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Quick Test throughput over a 0.4 s test: distinct time ticks, "time (s)" and "MB/s"', () => {
    const root = draw(<ThroughputChart />);
    act(() =>
      useQuickTestStore.setState({
        series: [
          { t: 0.1, write: 480, read: null },
          { t: 0.2, write: 512, read: null },
          { t: 0.3, write: null, read: 1650 },
          { t: 0.4, write: null, read: 1702 },
        ],
      }),
    );
    expectDistinct(ticks(root, 'x'));
    expectDistinct(ticks(root, 'y'));
    expect(ticks(root, 'x')).toContain('0.4');
    expect(labels(root)).toEqual(['time (s)', 'MB/s']);
  });

  it('sustained write of 0.2 GB: distinct GB ticks, "written (GB)" and "MB/s"', () => {
    const points = [0.05, 0.1, 0.15, 0.2].map((gb, i) => ({ gb, mbps: 900 - i * 10 }));
    const root = draw(<WriteCurveChart lines={[{ run: 1, points }]} marks={{ knees: [], levels: [], band: null }} />);
    expectDistinct(ticks(root, 'x'));
    expectDistinct(ticks(root, 'y'));
    expect(labels(root)).toEqual(['written (GB)', 'MB/s']);
  });

  it('many-file scatter: distinct size and rate ticks, "file size" and "MB/s"', () => {
    const points = [1, 2, 4, 8].map((mb, i) => ({ run: 1, name: `f${i}`, mb, mbps: 3 + i * 0.4 }));
    const root = draw(<FilesScatter pass="write" points={points} fits={[]} domain={[0.8, 10]} />);
    expectDistinct(ticks(root, 'x'));
    expectDistinct(ticks(root, 'y'));
    expect(ticks(root, 'x').every((t) => / (kB|MB|GB)$/.test(t))).toBe(true);
    expect(labels(root)).toEqual(['file size', 'MB/s']);
  });

  it('history lines over 0.5 s: distinct ticks and the axis names the caller gives', () => {
    const line = { key: 'w', name: 'Write', colour: '#8ab4ff', points: [0.1, 0.2, 0.3, 0.5].map((x) => ({ x, y: 40 + x })) };
    const root = draw(<LinesChart lines={[line]} xName="time (s)" xLabel={(x) => `${x} s`} />);
    expectDistinct(ticks(root, 'x'));
    expectDistinct(ticks(root, 'y'));
    expect(labels(root)).toEqual(['time (s)', 'MB/s']);
  });

  it('compare bars name MB/s on the y axis', () => {
    const root = draw(
      <BarsChart
        data={[{ label: 'Write', a: 410, b: 395 }]}
        series={[
          { key: 'a', name: 'A', colour: '#8ab4ff' },
          { key: 'b', name: 'B', colour: '#c792ea' },
        ]}
        ceilings={[]}
      />,
    );
    expectDistinct(ticks(root, 'y'));
    expect(labels(root)).toEqual(['MB/s']);
  });
});
