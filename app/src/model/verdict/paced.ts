// The frame-paced verdict: what a recorder (or a player) suffers. Frames wait in a buffer of
// `buffer` frames; a frame completed late but while the buffer still had room costs nothing, so it
// is ✓ with a note. ✗ only when frames were dropped (the buffer overflowed) or never completed.
// A failure whose dropped frames were all due in the first second may be a start-up stall (a drive
// waking, a share's first round trips): the verdict says so and asks for a second run. Decided from the figures
// alone, so a result saved under an older rule is judged by this one when it is shown. Late frames
// the engine's pause watch explains (the computer stood still, not the drive) are said to be so.
import type { PacedFigures } from '../engine-types.js';
import type { Claim } from './claim.js';

export type PacedOutcome = 'ok' | 'fail';

/** The figures a phase verdict is decided from (a saved phase, or the engine's). */
export type PhaseFigures = Pick<
  PacedFigures,
  'frames' | 'completed' | 'late' | 'dropped' | 'worstLatenessMs' | 'firstLateSeconds' | 'timeline' | 'hostLate' | 'longestPauseMs'
> & {
  budgetMs: number;
};

export interface PhaseVerdict extends Claim<'paced', PacedOutcome> {
  /** The failure began within the first second: possibly a start-up stall. */
  stall: boolean;
  /** "✓ 300 frames, none dropped; 1 frame late (worst 37.7 ms), absorbed by the 4-frame buffer" */
  text: string;
}

/** A failure whose first trouble is due before this many seconds may be a start-up stall. */
export const STALL_SECONDS = 1;
/** A write that keeps up this long before its trouble starts looks like a cache filling. */
const CACHE_HINT_SECONDS = 2;

export const PACED_RULE =
  'A frame late but absorbed by the buffer is ✓ with a note; ✗ only when frames are dropped (the buffer overflowed) or never completed.';

const count = (n: number): string => Math.round(n).toLocaleString('en-US');
const plural = (n: number, one: string): string => `${count(n)} ${one}${n === 1 ? '' : 's'}`;
const ms = (x: number): string => `${x >= 10 ? Math.round(x) : x.toFixed(1)} ms`;
const secs = (s: number): string => `${s >= 10 ? Math.round(s) : s.toFixed(1)} s`;

/** One direction of one run, judged. `buffer`: frames the recorder may hold (the test's). */
export function judgePhase(p: PhaseFigures, buffer: number, write: boolean): PhaseVerdict {
  // A dropped frame is never submitted, so it is not among the completed ones.
  const missing = Math.max(0, p.frames - p.completed - p.dropped);
  const fail = p.dropped > 0 || missing > 0;
  // Late frames inside a pause of this computer itself (the engine's pause watch) are the computer's.
  const hostLate = Math.min(p.late, p.hostLate ?? 0);
  const paused = `this computer itself paused for up to ${ms(p.longestPauseMs ?? 0)}`;
  const figures = { frames: p.frames, late: p.late, dropped: p.dropped, missing, buffer, worstLatenessMs: p.worstLatenessMs, hostLate };
  const bufferText = `the ${buffer}-frame buffer`;
  if (!fail) {
    const whose =
      hostLate === 0 ? '' : hostLate === p.late ? ` while ${paused}, not the drive` : ` (${count(hostLate)} of them while ${paused})`;
    const text =
      p.late === 0
        ? `✓ ${count(p.frames)} frames, none late; worst ${ms(p.worstLatenessMs)} of a ${ms(p.budgetMs)} budget`
        : `✓ ${count(p.frames)} frames, none dropped; ${plural(p.late, 'frame')} late (worst ${ms(p.worstLatenessMs)})${whose}, absorbed by ${bufferText}`;
    return { family: 'paced', outcome: 'ok', figures, rule: PACED_RULE, stall: false, text };
  }
  const first = p.firstLateSeconds;
  // With a frame-by-frame timeline: every dropped frame was due within the first second. Without
  // one (an older document's was cut short): the trouble began within it.
  const perSecond = 1000 / p.budgetMs;
  const stall =
    first !== undefined &&
    first < STALL_SECONDS &&
    missing === 0 &&
    (p.timeline.length !== p.frames || p.timeline.lastIndexOf('D') < STALL_SECONDS * perSecond);
  const parts = [`✗ ${count(p.dropped)} of ${count(p.frames)} frames dropped (${bufferText} overflowed)`];
  if (missing > 0) parts.push(`${count(missing)} not completed`);
  if (p.late > 0) parts.push(`${count(p.late)} late`);
  if (first !== undefined) parts.push(`first at ${secs(first)}`);
  let text = parts.join(', ');
  if (hostLate > 0) text += `; ${hostLate === p.late ? 'all' : count(hostLate)} of the late while ${paused}: run again with less running`;
  else if (stall) text += ': possibly a start-up stall, run again';
  else if (write && first !== undefined && first >= CACHE_HINT_SECONDS) text += " (on time until then: as when a drive's cache fills)";
  return { family: 'paced', outcome: 'fail', figures, rule: PACED_RULE, stall, text };
}

/** A paced section's runs as the rule judges them, both ways: ✗ when any run failed. */
export interface SectionJudgement {
  outcome: PacedOutcome;
  /** Every failing phase began within the first second. */
  stall: boolean;
}

export function judgeRuns(verdicts: readonly PhaseVerdict[]): SectionJudgement {
  const failed = verdicts.filter((v) => v.outcome === 'fail');
  return failed.length === 0 ? { outcome: 'ok', stall: false } : { outcome: 'fail', stall: failed.every((v) => v.stall) };
}
