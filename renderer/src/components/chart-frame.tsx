// Gives a recharts chart its size: the width of its box (ResponsiveContainer) in the app, or a
// fixed size where nothing can be measured — jsdom has no layout, so tests wrap the screen in
// <FixedChartSize> and the charts draw at that size.
import { createContext, useContext, useMemo, type ReactElement, type ReactNode } from 'react';
import { ResponsiveContainer } from 'recharts';
import { tickFormatter } from '../lib/ticks';
import { formatMBpsFigure } from '@model/units';

export interface ChartSize {
  width: number;
  height: number;
}

/** The size every chart draws at when one is fixed (tests); read by ChartFrame and LiveChart. */
export const FixedSize = createContext<ChartSize | null>(null);

export function FixedChartSize({ width, height, children }: ChartSize & { children: ReactNode }) {
  const size = useMemo(() => ({ width, height }), [width, height]);
  return <FixedSize.Provider value={size}>{children}</FixedSize.Provider>;
}

/** Renders `children(size)`: a fixed size when one is given, else {} inside a ResponsiveContainer
 *  that fills the box's width at `height` px. */
export function ChartFrame({ height, children }: { height: number; children: (size: Partial<ChartSize>) => ReactElement }) {
  const fixed = useContext(FixedSize);
  if (fixed) return children(fixed);
  return (
    <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 600, height }}>
      {children({})}
    </ResponsiveContainer>
  );
}

const AXIS_LABEL = { fill: '#9aa3af', fontSize: 11 };
export const AXIS = { stroke: '#6b7280', tick: { fill: '#9aa3af', fontSize: 11 }, tickLine: false };

/** The x axis's name with its unit ("time (s)", "written (GB)"), under the ticks. */
export function xAxisLabel(value: string) {
  return { value, position: 'insideBottomRight' as const, offset: 0, dy: 14, className: 'chart-axis-label', ...AXIS_LABEL };
}

/** The y axis's unit ("MB/s", "ms"), written up the axis beside the ticks. */
export function yAxisLabel(value: string) {
  return { value, angle: -90, position: 'insideLeft' as const, offset: 2, className: 'chart-axis-label', ...AXIS_LABEL };
}

/** A linear x axis from 0 to its last tick, as recharts' XAxis props. */
export function linearXAxis(dataKey: string, ticks: number[], name: string) {
  return {
    dataKey,
    type: 'number' as const,
    domain: [0, ticks.at(-1)!],
    ticks,
    allowDuplicatedCategory: false,
    tickFormatter: tickFormatter(ticks),
    label: xAxisLabel(name),
    ...AXIS,
  };
}

/** The MB/s y axis from 0 to its last tick, as recharts' YAxis props. */
export function mbpsYAxis(ticks: number[]) {
  return {
    width: 64,
    axisLine: false,
    domain: [0, ticks.at(-1)!],
    ticks,
    tickFormatter: tickFormatter(ticks),
    label: yAxisLabel('MB/s'),
    ...AXIS,
  };
}

/** The interface ceiling's reference line (y, look and label), as recharts' ReferenceLine props. */
export function ceilingLine(mbps: number) {
  return {
    y: mbps,
    stroke: '#dfe3e8',
    strokeWidth: 1.5,
    ifOverflow: 'extendDomain' as const,
    label: {
      value: `interface ceiling ≈ ${formatMBpsFigure(mbps)} MB/s`,
      position: 'insideTopRight' as const,
      fill: '#c9ced6',
      fontSize: 11,
    },
  };
}
