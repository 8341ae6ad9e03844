// A light SVG chart for figures that follow a running test: lines (optionally filled down to the
// axis) against a linear or log x, round ticks, a ceiling line and a hover readout. No chart
// library: a redraw is a few path strings. recharts took 30–200 ms to mount or redraw the Quick
// Test's chart on this 2-core machine, each time a dropped frame (npm run bench:ui).
import { memo, useContext, useId, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { formatMBpsFigure } from '@model/units';
import { FixedSize } from './chart-frame';

export interface LivePoint {
  x: number;
  /** null: no figure here; the line breaks. */
  y: number | null;
}

export interface LiveLine {
  key: string;
  /** In the readout and the legend: "Write", "Read · run 2". */
  name: string;
  colour: string;
  points: readonly LivePoint[];
  /** Filled down to the x axis, fading. */
  fill?: boolean;
  dashed?: boolean;
  /** Drawn lighter (a second run behind the first). */
  faint?: boolean;
  dots?: boolean;
}

export interface LiveChartProps {
  /** What the chart shows, for screen readers. */
  label: string;
  lines: readonly LiveLine[];
  xTicks: readonly number[];
  /** The x axis's ends; the first and last tick when not given. */
  xDomain?: readonly [number, number];
  xLog?: boolean;
  xTickText(x: number): string;
  /** The x axis's name with its unit: "time (s)", "transfer size". */
  xName: string;
  /** From 0 to the last tick, MB/s. */
  yTicks: readonly number[];
  yTickText(y: number): string;
  /** The readout's heading for an x: "2.5 s", "64K transfers". */
  xReadout(x: number): string;
  height: number;
  ceilingMBps?: number | undefined;
  ceilingTestId?: string;
  legend?: boolean;
}

const M = { top: 10, right: 16, bottom: 34, left: 64 };

/** The width of the chart's box: a fixed one in tests (jsdom has no layout), else measured. */
function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const fixed = useContext(FixedSize);
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fixed?.width ?? 600);
  useLayoutEffect(() => {
    const el = ref.current;
    if (fixed || !el || typeof ResizeObserver !== 'function') return;
    const measure = (): void => setWidth(Math.max(200, Math.round(el.getBoundingClientRect().width)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [fixed]);
  return [ref, fixed?.width ?? width];
}

/** Each unbroken run of points as an SVG path (and, filled, closed down to `base`). */
function paths(
  points: readonly LivePoint[],
  sx: (x: number) => number,
  sy: (y: number) => number,
  base: number,
): { line: string; area: string } {
  let line = '';
  let area = '';
  let run: string[] = [];
  let first = 0;
  let last = 0;
  const close = (): void => {
    if (run.length === 0) return;
    line += `M${run.join('L')}`;
    area += `M${first.toFixed(1)},${base}L${run.join('L')}L${last.toFixed(1)},${base}Z`;
    run = [];
  };
  for (const p of points) {
    if (p.y === null || !Number.isFinite(p.y)) {
      close();
      continue;
    }
    const x = sx(p.x);
    if (run.length === 0) first = x;
    last = x;
    run.push(`${x.toFixed(1)},${sy(p.y).toFixed(1)}`);
  }
  close();
  return { line, area };
}

export const LiveChart = memo(function LiveChart(props: LiveChartProps) {
  const {
    label,
    lines,
    xTicks,
    xDomain,
    xLog = false,
    xTickText,
    xName,
    yTicks,
    yTickText,
    xReadout,
    height,
    ceilingMBps,
    ceilingTestId = 'chart-ceiling',
    legend = false,
  } = props;
  const uid = useId().replace(/:/g, '');
  const [box, width] = useWidth();
  const [hover, setHover] = useState<number | null>(null);
  const x0 = M.left;
  const x1 = Math.max(x0 + 10, width - M.right);
  const y0 = M.top;
  const y1 = height - M.bottom;
  const lo = xDomain?.[0] ?? xTicks[0] ?? 0;
  const hi = xDomain?.[1] ?? xTicks.at(-1) ?? 1;
  const top = yTicks.at(-1) || 1;
  const sx = useMemo(() => {
    const f = xLog ? Math.log : (v: number) => v;
    const a = f(lo);
    const span = f(hi) - a || 1;
    return (v: number) => x0 + ((f(Math.max(v, xLog ? lo : -Infinity)) - a) / span) * (x1 - x0);
  }, [xLog, lo, hi, x0, x1]);
  const sy = useMemo(() => (v: number) => y1 - (Math.min(Math.max(v, 0), top * 1.2) / top) * (y1 - y0), [top, y0, y1]);
  const drawn = useMemo(() => lines.map((l) => ({ l, ...paths(l.points, sx, sy, y1) })), [lines, sx, sy, y1]);
  const xs = useMemo(
    () => [...new Set(lines.flatMap((l) => l.points.filter((p) => p.y !== null).map((p) => p.x)))].sort((a, b) => a - b),
    [lines],
  );

  const onMove = (e: MouseEvent<SVGRectElement>): void => {
    const px = e.clientX - e.currentTarget.getBoundingClientRect().left + x0;
    let best: number | null = null;
    for (const x of xs) if (best === null || Math.abs(sx(x) - px) < Math.abs(sx(best) - px)) best = x;
    setHover(best);
  };
  const readout =
    hover === null
      ? []
      : lines.flatMap((l) => {
          const p = l.points.find((q) => q.x === hover && q.y !== null);
          return p ? [{ name: l.name, colour: l.colour, y: p.y! }] : [];
        });

  return (
    <div className="live-chart" ref={box} style={{ height: legend ? height + 24 : height }}>
      <svg className="live-chart__svg" width={width} height={height} role="img" aria-label={label}>
        <defs>
          {lines
            .filter((l) => l.fill)
            .map((l) => (
              <linearGradient key={l.key} id={`${uid}-${l.key}`} x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor={l.colour} stopOpacity={0.35} />
                <stop offset="100%" stopColor={l.colour} stopOpacity={0} />
              </linearGradient>
            ))}
        </defs>
        <g className="live-chart__grid">
          {yTicks.map((v) => (
            <line key={v} x1={x0} x2={x1} y1={sy(v)} y2={sy(v)} stroke="#262a31" />
          ))}
        </g>
        <line x1={x0} x2={x1} y1={y1} y2={y1} stroke="#6b7280" />
        <g className="live-chart__ticks live-chart__ticks--x">
          {xTicks.map((v) => (
            <text key={v} x={sx(v)} y={y1 + 15} textAnchor="middle" className="live-chart__tick">
              {xTickText(v)}
            </text>
          ))}
        </g>
        <g className="live-chart__ticks live-chart__ticks--y">
          {yTicks.map((v) => (
            <text key={v} x={x0 - 8} y={sy(v) + 4} textAnchor="end" className="live-chart__tick">
              {yTickText(v)}
            </text>
          ))}
        </g>
        <text x={x1} y={y1 + 30} textAnchor="end" className="chart-axis-label live-chart__name">
          {xName}
        </text>
        <text
          transform={`translate(${x0 - 50} ${(y0 + y1) / 2}) rotate(-90)`}
          textAnchor="middle"
          className="chart-axis-label live-chart__name"
        >
          MB/s
        </text>
        {drawn.map(({ l, line, area }) => (
          <g key={l.key} className="live-chart__line" data-line={l.key} opacity={l.faint ? 0.55 : 1}>
            {l.fill && area && <path d={area} fill={`url(#${uid}-${l.key})`} stroke="none" />}
            <path
              d={line}
              fill="none"
              stroke={l.colour}
              strokeWidth={2}
              strokeDasharray={l.dashed ? '6 4' : undefined}
              strokeLinejoin="round"
            />
            {l.dots &&
              l.points.map((p) =>
                p.y === null || !Number.isFinite(p.y) ? null : <circle key={p.x} cx={sx(p.x)} cy={sy(p.y)} r={2.5} fill={l.colour} />,
              )}
          </g>
        ))}
        {ceilingMBps !== undefined && ceilingMBps > 0 && (
          <g className="live-chart__ceiling" data-testid={ceilingTestId}>
            <line x1={x0} x2={x1} y1={sy(ceilingMBps)} y2={sy(ceilingMBps)} stroke="#dfe3e8" strokeWidth={1.5} />
            <text x={x1 - 4} y={sy(ceilingMBps) - 5} textAnchor="end" className="live-chart__ceiling-label">
              interface ceiling ≈ {formatMBpsFigure(ceilingMBps)} MB/s
            </text>
          </g>
        )}
        {hover !== null && <line x1={sx(hover)} x2={sx(hover)} y1={y0} y2={y1} stroke="#9aa3af" strokeOpacity={0.5} />}
        <rect x={x0} y={y0} width={x1 - x0} height={y1 - y0} fill="transparent" onMouseMove={onMove} onMouseLeave={() => setHover(null)} />
      </svg>
      {hover !== null && readout.length > 0 && (
        <div className="live-chart__readout" style={{ left: Math.min(sx(hover) + 12, x1 - 150), top: y0 }} aria-hidden="true">
          <div className="live-chart__readout-head">{xReadout(hover)}</div>
          {readout.map((r) => (
            <div key={r.name} style={{ color: r.colour }}>
              {r.name}: {formatMBpsFigure(r.y)} MB/s
            </div>
          ))}
        </div>
      )}
      {legend && (
        <ul className="legend live-chart__legend">
          {lines.map((l) => (
            <li
              key={l.key}
              className="legend__item"
              style={{ color: l.colour, opacity: l.faint ? 0.7 : 1, ['--swatch' as string]: l.colour }}
            >
              {l.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
