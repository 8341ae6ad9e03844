// How far a running job is and how long it has left, for the app's bars and the CLI's progress
// line alike: "test 5 of 8 · run 2 of 5 · about 3 min left". The bar is driven by what was
// actually done — bytes or seconds of the step, whichever ends it first, and a finished write's
// flush counts as written (its events carry no bytes, which once dropped the bar to ~5 % while
// the curve was complete). Time left is the time so far scaled by what is left of the job.
// Pure and without Node imports. Before a wizard plan runs, planSeconds() says how long it takes
// from the plans the runner will build, at stated rates.
import type { EngineSpec } from './engine-types.js';
import type { Plan } from './kinds/plan.js';

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

// ---- a wizard plan, before it runs -----------------------------------------------------------

/** What the estimate assumes when nothing was measured: a typical external SSD's rates, and the
 *  time to check, erase, format, mount and unmount a disk (per format). */
export const PLAN_RATES = { writeMBps: 500, readMBps: 500, formatSeconds: 30 } as const;

export interface PlanRates {
  writeMBps: number;
  readMBps: number;
  formatSeconds: number;
}

/** Seconds one engine step takes at these rates: its bytes at the rate of its direction, or its
 *  time limit when that comes first, plus its warm-up. */
export function stepSeconds(spec: Pick<EngineSpec, 'rw' | 'bytes' | 'seconds' | 'warmupSeconds' | 'fileSize'>, r: PlanRates): number {
  const mbps =
    spec.rw === 'write' || spec.rw === 'randwrite'
      ? r.writeMBps
      : spec.rw === 'read' || spec.rw === 'randread'
        ? r.readMBps
        : (r.writeMBps + r.readMBps) / 2;
  const bytes = spec.bytes ?? spec.fileSize;
  const byBytes = bytes / (Math.max(1, mbps) * 1e6);
  const limited = spec.seconds !== undefined && spec.seconds > 0 ? Math.min(byBytes, spec.seconds) : byBytes;
  return limited + (spec.warmupSeconds ?? 0);
}

/** Seconds one run of a plan takes: its steps, plus writing the test file a read-first plan
 *  reads (the grid's, the hash test's). */
export function planRunSeconds(plan: Pick<Plan, 'kind' | 'steps' | 'fileSize'>, r: PlanRates): number {
  const steps = plan.steps.reduce((sum, s) => sum + stepSeconds(s.spec, r), 0);
  const first = plan.steps[0]?.spec.rw;
  const prepare = first === 'read' || first === 'randread' ? plan.fileSize / (Math.max(1, r.writeMBps) * 1e6) : 0;
  return steps + prepare;
}

export interface PlanEstimateInput {
  /** Seconds one run of each test of the plan takes (planRunSeconds of each built plan). */
  runSeconds: readonly number[];
  runs: number;
  restSeconds: number;
  formats: number;
  /** Formats that also get the common-mode pass (each of their tests runs twice). */
  commonPasses?: number;
}

/** The whole plan: per format, each test's runs with the rests between them (none before the
 *  first), the common-mode pass where asked, and the per-format erase and format; then the final
 *  format. */
export function planSeconds(p: PlanEstimateInput, r: PlanRates = PLAN_RATES): number {
  const tests = p.runSeconds.length;
  const perPass = p.runSeconds.reduce((sum, s) => sum + s * p.runs, 0);
  const passes = p.formats + Math.min(p.formats, p.commonPasses ?? 0);
  // A rest comes before every run but the plan's very first.
  const rests = Math.max(0, passes * tests * p.runs - 1) * p.restSeconds;
  // Each format is made once, and then once more the one the disk is left in (run-plan.ts).
  return passes * perPass + rests + (p.formats + 1) * r.formatSeconds;
}
