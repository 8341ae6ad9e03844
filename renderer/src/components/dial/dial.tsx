// An analog speed dial: 270° scale with round-number ticks, a needle that glides to the live
// MB/s, a coloured arc behind it, a peak mark, and the figure in large type below. The scale
// grows with the peak and never shrinks while a test runs (the parent owns `max`).
import { useCallback, useId, useMemo, useRef } from 'react';
import { labelAngle, polar, START_DEG, SWEEP_DEG, tickLabel, tickValues, valueToAngle } from '../../lib/dial-math';
import { useNeedle } from './use-needle';
import { formatMBpsFigure } from '@model/units';

export interface DialProps {
  label: string;
  /** MB/s the needle points at. */
  value: number;
  /** Highest MB/s seen; 0 hides the mark. */
  peak: number;
  /** Full scale, MB/s. */
  max: number;
  variant: 'write' | 'read';
  /** Small line under the figure, e.g. "peak 1,234" or "average". */
  caption?: string;
  active?: boolean;
  /** The interface ceiling, MB/s: a neutral tick where the link tops out, drawn only within the scale. */
  ceiling?: number;
  /** Hover text for the ceiling tick. */
  ceilingTitle?: string;
}

const C = 120; // centre of the 240×240 viewBox
const R_TRACK = 94;
const NEEDLE = `M ${C - 3.2} ${C + 16} L ${C - 1.1} ${C - 86} L ${C + 1.1} ${C - 86} L ${C + 3.2} ${C + 16} Z`;

function arcPath(r: number): string {
  const a = polar(C, C, r, START_DEG);
  const b = polar(C, C, r, START_DEG + SWEEP_DEG);
  return `M ${a.x.toFixed(2)} ${a.y.toFixed(2)} A ${r} ${r} 0 1 1 ${b.x.toFixed(2)} ${b.y.toFixed(2)}`;
}

export function Dial({ label, value, peak, max, variant, caption, active = false, ceiling, ceilingTitle }: DialProps) {
  const uid = useId().replace(/:/g, '');
  const needleRef = useRef<SVGGElement>(null);
  const arcRef = useRef<SVGPathElement>(null);
  const arcHaloRef = useRef<SVGPathElement>(null);
  const ticks = useMemo(() => tickValues(max), [max]);
  const track = useMemo(() => arcPath(R_TRACK), []);

  const apply = useCallback((angle: number) => {
    const n = needleRef.current;
    if (n) {
      n.setAttribute('transform', `rotate(${angle.toFixed(2)} ${C} ${C})`);
      n.setAttribute('data-angle', angle.toFixed(2));
    }
    // pathLength is the sweep in degrees, so the dash length is the needle's travel.
    const dash = `${Math.max(0, angle - START_DEG).toFixed(2)} 400`;
    arcRef.current?.setAttribute('stroke-dasharray', dash);
    arcHaloRef.current?.setAttribute('stroke-dasharray', dash);
  }, []);
  useNeedle(valueToAngle(value, max), apply);

  const peakAngle = valueToAngle(peak, max);
  const showCeiling = ceiling !== undefined && Number.isFinite(ceiling) && ceiling > 0 && ceiling <= max;
  const ceilingAngle = showCeiling ? valueToAngle(ceiling, max) : 0;

  return (
    <figure className={`dial dial--${variant}${active ? ' dial--active' : ''}`} data-testid={`dial-${variant}`}>
      <svg
        className="dial__svg"
        viewBox="0 0 240 240"
        role="img"
        aria-label={`${label}: ${formatMBpsFigure(value)} megabytes per second, scale 0 to ${max}${showCeiling ? `, interface ceiling ${formatMBpsFigure(ceiling)}` : ''}`}
      >
        <defs>
          <radialGradient id={`face-${uid}`} cx="50%" cy="42%" r="60%">
            <stop offset="0%" stopColor="#20242b" />
            <stop offset="100%" stopColor="#0c0e11" />
          </radialGradient>
          <linearGradient id={`bezel-${uid}`} x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="#3a3f48" />
            <stop offset="100%" stopColor="#15171b" />
          </linearGradient>
        </defs>
        <circle cx={C} cy={C} r={118} fill={`url(#bezel-${uid})`} />
        <circle cx={C} cy={C} r={111} fill={`url(#face-${uid})`} stroke="#000" strokeOpacity="0.6" />
        <path d={track} className="dial__track" fill="none" strokeWidth="5" strokeLinecap="round" />
        {/* The glow is a wide faint stroke under the arc and the needle, not a blur filter: a
            filter re-rasterised on every frame of the needle's glide cost the page 10 fps. */}
        {(
          [
            [arcHaloRef, 'dial__arc-halo', 11],
            [arcRef, 'dial__arc', 5],
          ] as const
        ).map(([ref, className, width]) => (
          <path
            key={className}
            ref={ref}
            d={track}
            className={className}
            fill="none"
            strokeWidth={width}
            strokeLinecap="round"
            pathLength={SWEEP_DEG}
            strokeDasharray={`0 400`}
          />
        ))}
        <g className="dial__ticks" aria-hidden="true">
          {ticks.minor.map((v) => {
            const a = valueToAngle(v, max);
            const p1 = polar(C, C, 84, a);
            const p2 = polar(C, C, 89, a);
            return <line key={`m${v}`} x1={p1.x} y1={p1.y} x2={p2.x} y2={p2.y} className="dial__tick-minor" />;
          })}
          {ticks.major.map((v) => {
            const a = valueToAngle(v, max);
            const p1 = polar(C, C, 80, a);
            const p2 = polar(C, C, 89, a);
            const t = polar(C, C, 68, labelAngle(v, max));
            return (
              <g key={`M${v}`}>
                <line x1={p1.x} y1={p1.y} x2={p2.x} y2={p2.y} className="dial__tick-major" />
                <text x={t.x} y={t.y} className="dial__tick-label" textAnchor="middle" dominantBaseline="central">
                  {tickLabel(v)}
                </text>
              </g>
            );
          })}
        </g>
        {showCeiling && (
          <g
            className="dial__ceiling"
            data-testid={`ceiling-${variant}`}
            data-value={ceiling}
            data-angle={ceilingAngle.toFixed(2)}
            transform={`rotate(${ceilingAngle.toFixed(2)} ${C} ${C})`}
          >
            <title>{ceilingTitle ?? `Interface ceiling ≈ ${formatMBpsFigure(ceiling)} MB/s`}</title>
            {/* a wide transparent stroke so the thin tick is easy to hover */}
            <line x1={C} y1={C - 79} x2={C} y2={C - 106} className="dial__ceiling-hit" />
            <line x1={C} y1={C - 80} x2={C} y2={C - 105} className="dial__ceiling-halo" />
            <line x1={C} y1={C - 80} x2={C} y2={C - 105} className="dial__ceiling-line" />
          </g>
        )}
        <text x={C + 2} y={166} className="dial__name" textAnchor="middle">
          {label}
        </text>
        <text x={C} y={182} className="dial__unit" textAnchor="middle">
          MB/s
        </text>
        {peak > 0 && (
          <g
            className="dial__peak"
            data-testid={`peak-${variant}`}
            data-angle={peakAngle.toFixed(2)}
            transform={`rotate(${peakAngle.toFixed(2)} ${C} ${C})`}
          >
            <path d={`M ${C} ${C - 99} l -5 -8 h 10 z`} />
          </g>
        )}
        <g ref={needleRef} className="dial__needle" data-testid={`needle-${variant}`}>
          <path className="dial__needle-halo" d={NEEDLE} />
          <path d={NEEDLE} />
        </g>
        <circle cx={C} cy={C} r={10} className="dial__hub" />
        <circle cx={C} cy={C} r={3.5} className="dial__hub-cap" />
      </svg>
      <figcaption className="dial__readout">
        <span className="dial__value" data-testid={`value-${variant}`}>
          {formatMBpsFigure(value)}
        </span>
        <span className="dial__value-unit">MB/s</span>
        {caption && <span className="dial__caption">{caption}</span>}
      </figcaption>
    </figure>
  );
}
