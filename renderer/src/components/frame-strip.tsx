// A strip of frames for the paced video test: one cell per interval (live) or per group of
// frames (after the run), coloured by status as AJA users expect — on time green, late amber
// (hatched), dropped filled red — told apart by height and hatching as well as colour, each cell
// titled with its counts, and the totals written out beside the strip.
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
  hostNote,
}: {
  label: string;
  side: 'write' | 'read';
  cells: readonly StripCell[];
  testId: string;
  max?: number;
  /** Late frames this computer's own pauses explain, in words (the totals' tooltip). */
  hostNote?: string | undefined;
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
      <span className="frame-strip__totals" data-testid={`${testId}-totals`} title={hostNote}>
        {words}
      </span>
    </div>
  );
}

/** How many late frames this computer's own pauses explain, in words; undefined when none.
 *  `both`: the count is of writing and reading together (the legend under both strips), so it is
 *  not read as one direction's beside a verdict that names each direction's own. */
export function hostLateText(hostLate: number, longestPauseMs: number | undefined, both = false): string | undefined {
  if (hostLate <= 0) return undefined;
  const pause = longestPauseMs ? ` (up to ${Math.round(longestPauseMs)} ms)` : '';
  return `${count(hostLate)} of the late frames${both ? ', writing and reading,' : ''} came while this computer itself paused${pause}, not the drive`;
}

/** The key to the strip's cells, in words beside each shape; `hostNote` adds which late frames
 *  were the computer's own. */
export function FrameStripLegend({ hostNote }: { hostNote?: string | undefined } = {}) {
  return (
    <p className="frame-legend" data-testid="frame-legend">
      <span className="frame-cell frame-cell--ok" aria-hidden="true" /> on time{' '}
      <span className="frame-cell frame-cell--late" aria-hidden="true" /> late (done after its frame period){' '}
      <span className="frame-cell frame-cell--dropped" aria-hidden="true" /> dropped (buffer full)
      {hostNote && <span className="frame-legend__host"> · {hostNote}</span>}
    </p>
  );
}
