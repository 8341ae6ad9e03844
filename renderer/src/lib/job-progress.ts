// A running detailed job in words and as a fraction: "SEQ1M Q8T1 Read · measuring · test 1 of 8 ·
// run 1 of 5 · about 3 min left",
// "Resting 4:12 before run 2", "Pause 5 s"; how far the current step is (bytes or seconds,
// whichever ends it first) and how far the whole job is. Pure functions of progress events.
import { formatClock } from './figure-format';
import type { DetailedProgressEvent } from '@model/events';

type Stage = DetailedProgressEvent['stage'];

const STAGE_WORDS: Record<Stage, string> = {
  prepare: 'preparing',
  warmup: 'warming up',
  run: 'measuring',
  flush: 'flushing',
  rest: 'resting',
  interval: 'pause',
};

/** What the stage means, in a word or two. */
export function stageWords(stage: Stage): string {
  return STAGE_WORDS[stage] ?? stage;
}

// The bar's fraction and the time left are the core's (model/eta.ts), shared with the CLI.
export { jobFraction, stepFraction } from '@model/eta';

/** The status line of a running job; with `eta` ("test 5 of 8 · run 2 of 5 · about 3 min
 *  left", model/eta.ts) in place of the bare run number. */
export function progressLine(e: DetailedProgressEvent, eta?: string): string {
  const tail = eta ? ` · ${eta}` : '';
  // A rest already names the run to come: only the time left is added.
  const left = eta ? / · (about .* left)$/.exec(` · ${eta}`)?.[1] : undefined;
  if (e.stage === 'rest') return `Resting ${formatClock(e.remaining ?? e.secondsTotal)} before run ${e.run}${left ? ` · ${left}` : ''}`;
  const runPart = eta ? '' : e.runs > 1 ? `Run ${e.run} of ${e.runs} · ` : '';
  if (e.stage === 'interval') return `${runPart}pause ${Math.max(0, Math.ceil(e.remaining ?? e.secondsTotal))} s${tail}`;
  return `${runPart}${e.testName} · ${stageWords(e.stage)}${tail}`;
}

/** The same, for a screen reader's live region: no ticking countdowns (a rest would be read out
 *  every second) and nothing for CrystalDiskMark's short pauses between tests. */
export function announceLine(e: DetailedProgressEvent): string {
  if (e.stage === 'rest') return `Resting before run ${e.run}`;
  if (e.stage === 'interval') return '';
  return progressLine(e);
}

/** True for the stages in which a step is being measured (not a pause between steps). */
export function isMeasuring(e: DetailedProgressEvent | null): e is DetailedProgressEvent {
  return e !== null && e.stage !== 'rest' && e.stage !== 'interval';
}
