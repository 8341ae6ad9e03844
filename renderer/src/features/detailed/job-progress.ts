// A running detailed job in words and as a fraction: "Run 1 of 5 · SEQ1M Q8T1 Read · measuring",
// "Resting 4:12 before run 2", "Pause 5 s"; how far the current step is (bytes or seconds,
// whichever ends it first) and how far the whole job is. Pure functions of progress events.
import type { DetailedProgressEvent } from '../../../../app/src/ipc/contract';
import { formatClock } from './format';

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

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** How far the current step is, 0–1. A step ends at its byte count or its time limit,
 *  whichever comes first; a pause runs down its seconds. */
export function stepFraction(e: DetailedProgressEvent): number {
  if (e.stage === 'rest' || e.stage === 'interval') {
    if (!(e.secondsTotal > 0)) return 0;
    return clamp01(1 - (e.remaining ?? e.secondsTotal) / e.secondsTotal);
  }
  const byBytes = e.bytesTotal > 0 ? e.bytesDone / e.bytesTotal : 0;
  const byTime = e.secondsTotal > 0 ? e.elapsed / e.secondsTotal : 0;
  return clamp01(Math.max(byBytes, byTime));
}

/** How far the whole job is, 0–1, counting steps of every run alike: the steps finished so
 *  far (from step events when given — a pause's event does not say which step comes next —
 *  else from the event's run and step) plus the part of the step being measured. */
export function jobFraction(e: DetailedProgressEvent, finishedSteps?: number): number {
  const perRun = Math.max(1, e.testCount);
  const total = Math.max(1, e.runs) * perRun;
  const pause = e.stage === 'rest' || e.stage === 'interval';
  const finished = finishedSteps ?? (Math.max(1, e.run) - 1) * perRun + Math.max(0, e.testIndex);
  return clamp01((finished + (pause ? 0 : stepFraction(e))) / total);
}

/** The status line of a running job. */
export function progressLine(e: DetailedProgressEvent): string {
  if (e.stage === 'rest') return `Resting ${formatClock(e.remaining ?? e.secondsTotal)} before run ${e.run}`;
  const runPart = e.runs > 1 ? `Run ${e.run} of ${e.runs} · ` : '';
  if (e.stage === 'interval') return `${runPart}pause ${Math.max(0, Math.ceil(e.remaining ?? e.secondsTotal))} s`;
  return `${runPart}${e.testName} · ${stageWords(e.stage)}`;
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
