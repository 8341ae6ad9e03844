// The light chart that follows a running test: its lines break where a figure is missing, its x
// axis may be logarithmic, the ceiling is drawn where it lies, and hovering reads each line's
// figure at the nearest x.
import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FixedChartSize } from '../../../renderer/src/components/chart-frame';
import { LiveChart, type LiveChartProps } from '../../../renderer/src/components/live-chart';

const base: Omit<LiveChartProps, 'lines'> = {
  label: 'test chart',
  xTicks: [0, 1, 2, 3, 4],
  xTickText: String,
  xName: 'time (s)',
  yTicks: [0, 500, 1000],
  yTickText: String,
  xReadout: (x) => `${x} s`,
  height: 200,
};

function draw(props: LiveChartProps) {
  return render(
    <FixedChartSize width={600} height={200}>
      <LiveChart {...props} />
    </FixedChartSize>,
  ).container;
}

/** The x of each vertex of a path, in order. */
const xsOf = (d: string): number[] => [...d.matchAll(/[ML]([\d.]+),/g)].map((m) => Number(m[1]));

describe('LiveChart', () => {
  it('breaks a line where its figure is missing, and fills only the lines asked', () => {
    const root = draw({
      ...base,
      lines: [
        {
          key: 'w',
          name: 'Write',
          colour: '#f00',
          fill: true,
          points: [
            { x: 0, y: 100 },
            { x: 1, y: 200 },
            { x: 2, y: null },
            { x: 3, y: 300 },
            { x: 4, y: 400 },
          ],
        },
        {
          key: 'r',
          name: 'Read',
          colour: '#0f0',
          points: [
            { x: 0, y: 900 },
            { x: 4, y: 950 },
          ],
        },
      ],
    });
    const write = root.querySelector('[data-line="w"]')!;
    const [area, line] = [...write.querySelectorAll('path')];
    expect(line!.getAttribute('d')!.match(/M/g)).toHaveLength(2); // two unbroken runs
    expect(area!.getAttribute('fill')).toMatch(/^url\(#/);
    expect(root.querySelector('[data-line="r"]')!.querySelectorAll('path')).toHaveLength(1);
    // x = 0 at the plot's left edge (64 px), x = 4 at its right (600 − 16).
    expect(xsOf(line!.getAttribute('d')!)).toEqual([64, 194, 454, 584]);
    expect([...root.querySelectorAll('.live-chart__ticks--y .live-chart__tick')].map((t) => t.textContent)).toEqual(['0', '500', '1000']);
  });

  it('spaces a log axis by ratio and draws the ceiling at its figure', () => {
    const root = draw({
      ...base,
      xTicks: [4096, 65536, 1048576],
      xLog: true,
      ceilingMBps: 500,
      lines: [{ key: 'r', name: 'Read', colour: '#0f0', points: [4096, 16384, 65536, 1048576].map((x) => ({ x, y: 400 })) }],
    });
    const xs = xsOf(root.querySelector('[data-line="r"] path')!.getAttribute('d')!);
    // 4K → 64K is half of 4K → 1M on a log axis (16× and 256×).
    expect(xs[0]).toBe(64);
    expect(xs[2]).toBeCloseTo(64 + (584 - 64) / 2, 0);
    expect(xs[1]).toBeCloseTo(64 + (584 - 64) / 4, 0);
    const ceiling = root.querySelector('[data-testid="chart-ceiling"] line')!;
    // y: 0 MB/s at 166 (200 − 34), 1000 at 10; 500 half way.
    expect(Number(ceiling.getAttribute('y1'))).toBeCloseTo(88, 0);
    expect(root.querySelector('[data-testid="chart-ceiling"]')!.textContent).toContain('interface ceiling ≈ 500 MB/s');
  });

  it('reads each line at the nearest x on hover, and forgets it on leave', () => {
    const root = draw({
      ...base,
      lines: [
        {
          key: 'w',
          name: 'Write',
          colour: '#f00',
          points: [
            { x: 1, y: 480 },
            { x: 3, y: null },
          ],
        },
        {
          key: 'r',
          name: 'Read',
          colour: '#0f0',
          points: [
            { x: 1, y: null },
            { x: 3, y: 1650 },
          ],
        },
      ],
    });
    const rect = root.querySelector('rect')!;
    // jsdom has no layout: the rect's box is at 0, so clientX is the offset into the plot.
    fireEvent.mouseMove(rect, { clientX: (584 - 64) * 0.7 });
    const readout = root.querySelector('.live-chart__readout')!;
    expect(readout.textContent).toBe('3 sRead: 1,650 MB/s');
    fireEvent.mouseLeave(rect);
    expect(root.querySelector('.live-chart__readout')).toBeNull();
  });
});
