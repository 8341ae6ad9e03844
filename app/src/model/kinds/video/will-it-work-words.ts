// "Will it work?" in words: the one renderer of will-it-work.ts's verdicts for every surface (the
// Quick Test and History tables, compare, the card, the exports, the CLI). One margin convention
// everywhere: what a format needs with the margin kept, printed against the measured mean.
import { formatMBpsFigure } from '../../units.js';
import { videoData } from './data.js';
import { formatFps } from './math.js';
import { aggregateText, type Aggregate } from '../../verdict/aggregate.js';
import { MARGIN_PCT, type WillItWork, type WorkOutcome, type WorkRow, type WorkSide } from './will-it-work.js';

const MARKS: Record<WorkOutcome, string> = { ok: '✓', fail: '✗', unproven: '?' };
const WORDS: Record<WorkOutcome, string> = { ok: 'yes', fail: 'no', unproven: 'not proven' };

/** ✓ / ✗ / ? alone. */
export const markOf = (o: WorkOutcome): string => MARKS[o];

/** A screen reader's (and the CSV's) word for an outcome. */
export const outcomeWord = (o: WorkOutcome): string => WORDS[o];

/** Paced tests decided this side (marked †). */
export const byPaced = (s: WorkSide): boolean => s.decidedBy !== 'average' && s.decidedBy !== 'flags' && s.pacedBy !== undefined;

/** The mark with † when a paced test decided it: "✓", "✗†", "?". */
export const sideMark = (s: WorkSide): string => `${markOf(s.outcome)}${byPaced(s) ? '†' : ''}`;

/** MB/s as the tables print them. */
export const mbpsText = formatMBpsFigure;

/** Why a side reads as it does: the figures against each other, then any rule that overrode them. */
export function sideTitle(r: WorkRow, s: WorkSide): string {
  const figures = `needs ${mbpsText(r.needsMBps)} MB/s with a ${MARGIN_PCT} % margin; measured ${mbpsText(s.figures.measuredMBps!)} MB/s`;
  const paced = s.pacedBy && s.decidedBy !== 'flags' ? ` — ${s.pacedBy.verdict}` : '';
  return s.reason ? `${s.reason}${paced} (${figures})` : figures.replace(/^n/, 'N');
}

/** The highest frame rate the table offers: "How fast?" says "> 120" above it. */
export const MAX_OFFERED_FPS = Math.max(...videoData.frameRates);

/** "How fast?" for one side: the frame rate, or "> 120" above what the table offers. */
export function fastText(maxFps: number): string {
  return maxFps > MAX_OFFERED_FPS ? `> ${formatFps(MAX_OFFERED_FPS)}` : maxFps.toLocaleString('en-US');
}

/** "693 MB/s (mean of 2 runs · best 918)" */
export function measuredText(a: Aggregate): string {
  const gloss = aggregateText(a);
  return `${mbpsText(a.mean)} MB/s${gloss ? ` (${gloss})` : ''}`;
}

/** "Measured, mean of 2 runs: write 693 MB/s (best 918), read 5,519 MB/s (best 5,600)." — the
 *  count said once; "Measured: write 693 MB/s, read 1,200 MB/s." for one run. */
export function measuredLine(v: Pick<WillItWork, 'measured'>): string {
  const { write, read } = v.measured;
  if (write.runs !== read.runs) return `Measured: write ${measuredText(write)}, read ${measuredText(read)}.`;
  if (write.runs === 1) return `Measured: write ${mbpsText(write.mean)} MB/s, read ${mbpsText(read.mean)} MB/s.`;
  const side = (a: Aggregate): string => `${mbpsText(a.mean)} MB/s (best ${mbpsText(a.best)})`;
  return `Measured, mean of ${write.runs} runs: write ${side(write)}, read ${side(read)}.`;
}

/** The lines under a table: how it was decided, warnings, estimates, and every row a paced test or
 *  a rule decided, each with its reason, then the paced tests of this drive that decided nothing. */
export function workNotes(v: WillItWork, label = ''): string[] {
  const at = label ? `${label}, ` : '';
  const estimates = v.rows.some((r) => r.estimated) ? ['* Estimate: scaled by pixel count or frame rate from a published figure.'] : [];
  const decided = v.rows.flatMap((r) =>
    (['write', 'read'] as const).flatMap((d) => {
      const s = r[d];
      if (s.decidedBy === 'average' || s.decidedBy === 'flags') return [];
      return [`${sideMark(s)} ${at}${r.format} ${r.resolution} ${d}: ${s.reason}${s.pacedBy ? ` — ${s.pacedBy.verdict}` : ''}`];
    }),
  );
  const lines = v.pacedLines.map(
    (l) => `${at}frame-paced test on this drive, ${l.date}, not launched from this result (decides nothing here): ${l.verdict}`,
  );
  return [v.method, ...(v.pacedMethod ? [v.pacedMethod] : []), ...(v.caveat ? [v.caveat] : []), ...estimates, ...decided, ...lines];
}
