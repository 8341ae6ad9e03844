// The transfer-size sweep's curve: MB/s against transfer size on a log x axis (4K, 64K, 1M, 16M,
// 64M…: the exports' ticks, report/size-chart.ts), a write and a read line per run in the app's
// write and read colours, and the link's ceiling when the target's interface has one. Only draws:
// the panel gives it the points. Drawn by the light LiveChart: it redraws with every step.
import { useMemo } from 'react';
import type { SweepRun } from '@model/kinds/sweep/result';
import { blockLabel } from '@model/units';
import { sizeTicks } from '@model/report/size-chart';
import { linearTicks, tickFormatter } from '../../../lib/ticks';
import { DIRECTION_COLOURS } from '../../../components/charts';
import { LiveChart, type LiveLine } from '../../../components/live-chart';

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
  // A running sweep's last size may lack its read (NaN): not a figure.
  const peak = Math.max(0, ...runs.flatMap((r) => r.points.flatMap((p) => [p.writeMBps, p.readMBps])).filter(Number.isFinite));
  const yTicks = linearTicks(Math.max(peak, ceilingMBps ?? 0) * 1.05 || 1);
  const many = runs.length > 1;
  // Write before read, as every table says them; a later run dashed and lighter behind the first.
  const lines = useMemo<LiveLine[]>(
    () =>
      runs.flatMap((r, i) =>
        (['write', 'read'] as const).map((side) => ({
          key: `${r.run}-${side}`,
          name: `${side === 'write' ? 'Write' : 'Read'}${many ? ` · run ${r.run}` : ''}`,
          colour: DIRECTION_COLOURS[side],
          dots: true,
          ...(i > 0 ? { dashed: true, faint: true } : {}),
          points: r.points.map((p) => ({ x: p.bs, y: side === 'write' ? p.writeMBps : p.readMBps })),
        })),
      ),
    [runs, many],
  );
  return (
    <LiveChart
      label="MB/s against transfer size, writing and reading"
      lines={lines}
      xTicks={ticks}
      xDomain={[sizes[0] ?? 1, sizes.at(-1) ?? 2]}
      xLog
      xTickText={blockLabel}
      xName="transfer size"
      yTicks={yTicks}
      yTickText={peak > 0 ? tickFormatter(yTicks) : () => ''}
      xReadout={(bs) => `${blockLabel(bs)} transfers`}
      height={280}
      ceilingMBps={ceilingMBps}
      ceilingTestId="sweep-ceiling"
      legend
    />
  );
}
