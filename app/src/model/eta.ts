// How far a running job is and how long it has left, for the app's bars and the CLI's progress
// line alike: "test 5 of 8 · run 2 of 5 · about 3 min left". The bar is driven by what was
// actually done — bytes or seconds of the step, whichever ends it first, and a finished write's
// flush counts as written (its events carry no bytes, which once dropped the bar to ~5 % while
// the curve was complete). Time left is the time so far scaled by what is left of the job.
// Pure and without Node imports.

export interface JobPoint {
  /** 0-based step within a run, of testCount. */
  testIndex: number;
  testCount: number;
  /** 1-based run, of runs. */
  run: number;
  runs: number;
  stage: string;
  bytesDone: number;
  bytesTotal: number;
  elapsed: number;
  secondsTotal: number;
  /** rest/interval: whole seconds left. */
  remaining?: number;
  /** Seconds of each rest between runs, when the caller knows the job's setting (a rest's own
   *  event gives its length anyway): the rests still to come count in the time left. */
  restSeconds?: number;
}

/** Only jobs longer than this show time left: a short one is over before it is read. */
export const ETA_MIN_SECONDS = 10;

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const isPause = (p: JobPoint): boolean => p.stage === 'rest' || p.stage === 'interval';

/** How far the current step is, 0–1: a step ends at its byte count or its time limit, whichever
 *  comes first; a flush comes after every byte was written; a pause runs down its seconds. */
export function stepFraction(p: JobPoint): number {
  if (isPause(p)) return p.secondsTotal > 0 ? clamp01(1 - (p.remaining ?? p.secondsTotal) / p.secondsTotal) : 0;
  if (p.stage === 'flush') return 1;
  const byBytes = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0;
  const byTime = p.secondsTotal > 0 ? p.elapsed / p.secondsTotal : 0;
  return clamp01(Math.max(byBytes, byTime));
}

/** How far the whole job is, 0–1, counting every step of every run alike: the steps finished
 *  (given, or from the point's run and step) plus the part of the one in progress. */
export function jobFraction(p: JobPoint, finishedSteps?: number): number {
  const perRun = Math.max(1, p.testCount);
  const total = Math.max(1, p.runs) * perRun;
  const finished = finishedSteps ?? (Math.max(1, p.run) - 1) * perRun + Math.max(0, p.testIndex);
  return clamp01((finished + (isPause(p) ? 0 : stepFraction(p))) / total);
}

/** Seconds left from the seconds so far and the fraction done; undefined until 2 % is done. */
export function secondsLeft(fraction: number, elapsedSeconds: number): number | undefined {
  if (!(fraction >= 0.02) || !(elapsedSeconds > 0)) return undefined;
  return Math.max(0, (elapsedSeconds * (1 - fraction)) / fraction);
}

/** "about 3 min left", "about 40 s left", "about 1 h 5 min left". */
export function leftText(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} s left`;
  const min = Math.round(seconds / 60);
  if (min < 60) return `about ${min} min left`;
  return `about ${Math.floor(min / 60)} h ${min % 60} min left`;
}

/** "test 5 of 8 · run 2 of 5" (each part only when there is more than one). */
export function positionText(p: Pick<JobPoint, 'testIndex' | 'testCount' | 'run' | 'runs'>): string {
  const parts: string[] = [];
  if (p.testCount > 1) parts.push(`test ${p.testIndex + 1} of ${p.testCount}`);
  if (p.runs > 1) parts.push(`run ${p.run} of ${p.runs}`);
  return parts.join(' · ');
}

/** "test 5 of 8 · run 2 of 5 · about 3 min left": time left once the job looks to take longer
 *  than ETA_MIN_SECONDS in all. `jobElapsed` is the seconds since the job started. */
export function etaLine(p: JobPoint, jobElapsed: number, finishedSteps?: number): string {
  return [positionText(p), timeLeftText(p, jobElapsed, finishedSteps)].filter((x) => x !== '').join(' · ');
}

/** Seconds left: the I/O still to do, scaled from the I/O time so far, plus the rests still to
 *  come. A rest is not work: scaled like I/O, a 1-minute rest read "about 10 s left". */
export function jobSecondsLeft(p: JobPoint, jobElapsed: number, finishedSteps?: number): number | undefined {
  const inRest = p.stage === 'rest';
  const rest = p.restSeconds ?? (inRest ? p.secondsTotal : 0);
  const restNow = inRest ? Math.max(0, p.remaining ?? p.secondsTotal) : 0;
  // A rest comes before each run after the first; in a rest, `run` is the run it comes before.
  const restsDone = Math.max(0, p.run - (inRest ? 2 : 1));
  const restElapsed = rest * restsDone + (inRest ? Math.max(0, p.secondsTotal - restNow) : 0);
  const io = secondsLeft(jobFraction(p, finishedSteps), Math.max(0, jobElapsed - restElapsed));
  return io === undefined ? undefined : io + restNow + rest * Math.max(0, p.runs - p.run);
}

/** "about 3 min left", or '' for a job too short (or too new) to say. */
export function timeLeftText(p: JobPoint, jobElapsed: number, finishedSteps?: number): string {
  const left = jobSecondsLeft(p, jobElapsed, finishedSteps);
  return left !== undefined && jobElapsed + left > ETA_MIN_SECONDS ? leftText(left) : '';
}
