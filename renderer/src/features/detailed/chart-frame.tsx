// Gives a recharts chart its size: the width of its box (ResponsiveContainer) in the app, or a
// fixed size where nothing can be measured — jsdom has no layout, so tests wrap the screen in
// <FixedChartSize> and the charts draw at that size.
import { createContext, useContext, useMemo, type ReactElement, type ReactNode } from 'react';
import { ResponsiveContainer } from 'recharts';

export interface ChartSize {
  width: number;
  height: number;
}

const FixedSize = createContext<ChartSize | null>(null);

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
