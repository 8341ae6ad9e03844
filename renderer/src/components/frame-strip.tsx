// A strip of frames for the paced video test: one cell per interval (live) or per group of
// frames (after the run), on time in the direction's colour, late hatched in the warning colour,
// dropped hollow in the error colour: told apart by shape as well as colour, each cell titled
// with its counts, and the totals written out under the strip.
import { cellTotals, type StripCell } from '../lib/frame-strip';

const count = (n: number): string => n.toLocaleString('en-US');

/** At most `max` cells: neighbours merged, a merged cell as bad as its worst. */
export function squeeze(cells: readonly StripCell[], max: number): StripCell[] {
  if (cells.length <= max) return [...cells];
  const out: StripCell[] = [];
  for (let c = 0; c < max; c++) {
    const part = cells.slice(Math.floor((c * cells.length) / max), Math.floor(((c + 1) * cells.length) / max));
    const t = cellTotals(part);
    const fate = t.dropped > 0 ? 'dropped' : t.late > 0 ? 'late' : 'ok';
    const span = `${part[0]!.span.split('–')[0]}–${part[part.length - 1]!.span.split('–').pop()}`;
    out.push({ fate, ...t, span });
  }
  return out;
}

export function FrameStrip({
  label,
  side,
  cells,
  testId,
  max = 240,
}: {
  label: string;
  side: 'write' | 'read';
  cells: readonly StripCell[];
  testId: string;
  max?: number;
}) {
  const shown = squeeze(cells, max);
  const t = cellTotals(cells);
  const words = `${count(t.onTime)} on time · ${count(t.late)} late · ${count(t.dropped)} dropped`;
  return (
    <div className={`frame-strip frame-strip--${side}`} data-testid={testId}>
      <span className="frame-strip__label">{label}</span>
      <div className="frame-strip__cells" role="img" aria-label={`${label}: ${words}`}>
        {shown.map((c, i) => (
          <span
            key={i}
            className={`frame-cell frame-cell--${c.fate}`}
            data-fate={c.fate}
            title={`${c.span}: ${count(c.onTime)} on time, ${count(c.late)} late, ${count(c.dropped)} dropped`}
          />
        ))}
      </div>
      <span className="frame-strip__totals" data-testid={`${testId}-totals`}>
        {words}
      </span>
    </div>
  );
}

/** The key to the strip's cells, in words beside each shape. */
export function FrameStripLegend() {
  return (
    <p className="frame-legend" aria-hidden="true">
      <span className="frame-cell frame-cell--ok" /> on time <span className="frame-cell frame-cell--late" /> late (done after its frame
      period) <span className="frame-cell frame-cell--dropped" /> dropped (buffer full)
    </p>
  );
}
