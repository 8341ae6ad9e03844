// The verify test's two curves: write and read-and-verify MB/s against position on the volume (GB),
// in the app's write and read colours. Only draws: the panel gives it the points.
import type { CurvePoint } from '@model/knee';
import { DIRECTION_COLOURS, LinesChart } from '../../../components/charts';
import { downsampleCurve } from '../../../lib/curve';
import { formatGB } from '../../../lib/figure-format';

const gbPoints = (curve: readonly CurvePoint[]) => downsampleCurve(curve).map((p) => ({ x: p.bytes / 1e9, y: p.mbps }));

export function VerifyChart({
  write,
  read,
  where = 'volume',
}: {
  write: readonly CurvePoint[];
  read: readonly CurvePoint[];
  where?: 'volume' | 'disk';
}) {
  return (
    <LinesChart
      height={260}
      xName={`position on the ${where} (GB)`}
      xLabel={(gb) => `at ${formatGB(gb * 1e9)} GB`}
      lines={[
        { key: 'write', name: 'Write', colour: DIRECTION_COLOURS.write, step: true, points: gbPoints(write) },
        { key: 'read', name: 'Read and verify', colour: DIRECTION_COLOURS.read, step: true, points: gbPoints(read) },
      ]}
    />
  );
}
