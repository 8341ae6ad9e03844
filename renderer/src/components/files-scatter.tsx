// One pass of the many-file test as a scatter: each file's MB/s against its size on a log axis,
// a point per finished file; after the run, the Theil–Sen model of time against size drawn as
// the rate it predicts (rising with size toward 1/slope). Only draws: files-model.ts shapes.
import { CartesianGrid, ComposedChart, Line, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { DIRECTION_COLOURS } from './charts';
import { linearTicks, logTicks, tickFormatter } from '../lib/ticks';
import { ChartFrame, xAxisLabel, yAxisLabel } from './chart-frame';
import type { FilePoint, Pass } from '../lib/files-model';
import { formatSizeMB } from '../lib/figure-format';
import { formatMBpsFigure } from '@model/units';

const COLOUR: Record<Pass, string> = DIRECTION_COLOURS;
const AXIS = { stroke: '#6b7280', tick: { fill: '#9aa3af', fontSize: 11 }, tickLine: false };

export interface FitLine {
  run: number;
  points: Array<{ mb: number; mbps: number }>;
}

/** "file-0007.dat · 95.4 MB · 1,730 MB/s" for the file under the pointer; nothing elsewhere. */
function FileTip({ active, payload }: { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }> }) {
  const isFile = (x: unknown): x is FilePoint =>
    typeof x === 'object' && x !== null && typeof (x as FilePoint).name === 'string' && typeof (x as FilePoint).mb === 'number';
  const p = payload?.map((e) => e.payload).find(isFile);
  if (!active || !p) return null;
  return (
    <div className="chart-tip">
      <div className="chart-tip__title">{p.name}</div>
      <div>
        {formatSizeMB(p.mb)} · {formatMBpsFigure(p.mbps)} MB/s
      </div>
    </div>
  );
}

export interface FilesScatterProps {
  pass: Pass;
  points: FilePoint[];
  fits: FitLine[];
  /** File sizes the axis spans, MB. */
  domain: [number, number];
}

export function FilesScatter({ pass, points, fits, domain }: FilesScatterProps) {
  const peak = Math.max(0, ...points.map((p) => p.mbps));
  const fitPeak = Math.max(0, ...fits.flatMap((f) => f.points.map((p) => p.mbps)));
  // A fit that runs far above every file (a fit through noisy points) must not flatten them.
  const yTicks = linearTicks(Math.max(peak, Math.min(fitPeak, peak * 1.5)) * 1.05);
  const yMax = yTicks.at(-1)!;
  return (
    <ChartFrame height={240}>
      {(size) => (
        <ComposedChart {...size} margin={{ top: 10, right: 14, bottom: 16, left: 4 }}>
          <CartesianGrid stroke="#262a31" />
          <XAxis
            dataKey="mb"
            type="number"
            scale="log"
            domain={domain}
            allowDataOverflow
            ticks={logTicks(domain)}
            tickFormatter={(mb: number) => formatSizeMB(mb)}
            label={xAxisLabel('file size')}
            {...AXIS}
          />
          <YAxis
            dataKey="mbps"
            type="number"
            width={64}
            domain={[0, yMax]}
            ticks={yTicks}
            allowDataOverflow
            axisLine={false}
            tickFormatter={tickFormatter(yTicks)}
            label={yAxisLabel('MB/s')}
            {...AXIS}
          />
          {/* The tooltip is the files' only: the model line has data of its own (and its own
              index), so a tooltip shared by index would pair a file with an unrelated point. */}
          <Tooltip cursor={{ strokeDasharray: '3 3' }} content={FileTip} />
          <Scatter
            data={points}
            dataKey="mbps"
            fill={COLOUR[pass]}
            fillOpacity={0.85}
            isAnimationActive={false}
            name={pass === 'write' ? 'Write' : 'Read'}
          />
          {fits.map((f) => (
            <Line
              key={f.run}
              data={f.points}
              dataKey="mbps"
              stroke="#e8eaed"
              strokeOpacity={0.8}
              strokeDasharray="6 4"
              strokeWidth={1.5}
              dot={false}
              activeDot={false}
              isAnimationActive={false}
              type="monotone"
              name={fits.length > 1 ? `Theil–Sen, run ${f.run}` : 'Theil–Sen'}
            />
          ))}
        </ComposedChart>
      )}
    </ChartFrame>
  );
}
