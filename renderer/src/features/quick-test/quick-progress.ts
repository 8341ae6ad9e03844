// A running Quick Test in words and as a fraction: "run 2 of 5 · writing · about 1 min left",
// "continuous · cycle 3 · reading". Each cycle is two steps (write, then read back the same
// bytes); how far and how long is left is model/eta.ts's rule, the one the Detailed bars and the
// CLI use, driven by the bytes done. Continuous mode has no end, so it gets neither.
import { jobFraction, positionText, timeLeftText, type JobPoint } from '@model/eta';
import type { QuickProgressEvent } from '@model/events';
import { formatMBpsFigure } from '@model/units';
import { aggregateText, type Aggregate } from '@model/verdict/aggregate';
import type { ResultDocument } from '@model/result';
import { figureInterval } from '@model/precision';
import { intervalText, settleText, twoRunsText } from '@model/report/figure-text';

export interface QuickRunState {
  status: string;
  phase: QuickProgressEvent['phase'] | null;
  stage: QuickProgressEvent['stage'] | null;
  cycle: number;
  /** Planned cycles; 0 in continuous mode. */
  cycles: number;
  bytesDone: number;
  bytesTotal: number;
  /** Date.now() at Start. */
  startedAt: number;
}

/** The running cycle as model/eta.ts counts a job: two steps a run, a run a cycle. */
export function quickPoint(s: QuickRunState): JobPoint {
  return {
    testIndex: s.phase === 'read' ? 1 : 0,
    testCount: 2,
    run: Math.max(1, s.cycle),
    runs: Math.max(1, s.cycles),
    stage: s.stage ?? 'prepare',
    bytesDone: s.bytesDone,
    bytesTotal: s.bytesTotal,
    elapsed: 0,
    // A Quick Test step ends at its bytes, never on a clock.
    secondsTotal: 0,
  };
}

/** How far a planned run is, 0–1; null in continuous mode (no end) or before the first event. */
export function quickFraction(s: QuickRunState): number | null {
  if (s.cycles === 0 || !s.phase) return null;
  return jobFraction(quickPoint(s));
}

/** The status line under Start while a test runs; '' when none does. */
export function quickStatusLine(s: QuickRunState, now = Date.now()): string {
  if (s.status === 'stopping') return 'Stopping and removing the test file…';
  if (s.status !== 'running') return '';
  if (!s.phase) return 'Starting…';
  const what = s.stage === 'prepare' ? 'preparing the test file' : s.phase === 'write' ? 'writing' : 'reading';
  if (s.cycles === 0) return `continuous · cycle ${s.cycle} · ${what}`;
  const point = quickPoint(s);
  const position = positionText({ ...point, testCount: 1 });
  const left = s.startedAt > 0 ? timeLeftText(point, Math.max(0, (now - s.startedAt) / 1000)) : '';
  return [position, what, left].filter((x) => x !== '').join(' · ');
}

/** The line once a test has ended: how many cycles completed, and whether Stop ended it (a
 *  cycle cut short by Stop is not counted: it is not in the saved result either). */
export function quickEndLine(stopped: boolean, completed: number): string {
  const cycles = `${completed} cycle${completed === 1 ? '' : 's'}`;
  if (!stopped) return `Done · ${cycles}`;
  return completed === 0 ? 'Stopped before a cycle completed' : `Stopped after ${cycles}`;
}

export type Side = 'write' | 'read';
type PerSide = Readonly<Record<Side, number>>;

export interface ReadoutState {
  status: string;
  phase: QuickProgressEvent['phase'] | null;
  live: PerSide;
  avg: PerSide;
  peak: PerSide;
  settled: PerSide | null;
  /** The result's one aggregate (the mean of its runs): what a finished test shows. */
  aggregate: Readonly<Record<Side, Aggregate>> | null;
  /** How sure each finished figure is ("± 1.8 %"; quickPrecision), shown after its caption. */
  precision?: Readonly<Record<Side, string>> | null;
}

/** Each side's 95 % interval as the dials word it: across the runs from three on, the two
 *  figures for two ("runs 612 and 918": their interval would be ± 254 %), else the one run's
 *  own and, under the stop rule, how it ended ("settled in 1.4 s: ± 2.1 %"). */
export function quickPrecision(doc: ResultDocument): Record<Side, string> {
  const of = (side: Side): string => {
    const runs = doc.tests.filter((t) => t.rw === side).sort((a, b) => a.run - b.run);
    if (runs.length === 1) return settleText(runs[0]!);
    return intervalText(figureInterval(runs)) || twoRunsText(runs.map((t) => t.mbps));
  };
  return { write: of('write'), read: of('read') };
}

/** What one dial shows, figure and caption. The running phase: its instant. The other phase while
 *  a test runs: the average it measured, said as such (its last instant may be a stall's 0 MB/s,
 *  in runs mode as in continuous). A finished test: the result's aggregate, the mean of its runs
 *  ("mean of 2 runs · best 918"), as History, the card and the exports show it. */
export function quickReadout(s: ReadoutState, side: Side): { value: number; caption: string } {
  const peak = s.peak[side] > 0 ? `peak ${formatMBpsFigure(s.peak[side])}` : '';
  const averaged = (value: number) => ({ value, caption: peak ? `average · ${peak}` : 'average' });
  if (s.status === 'done' && s.aggregate) {
    const a = s.aggregate[side];
    const shown = a.runs > 1 ? { value: a.mean, caption: aggregateText(a) } : averaged(a.mean);
    const sure = s.precision?.[side];
    return sure ? { value: shown.value, caption: `${shown.caption} · ${sure}` } : shown;
  }
  if (s.status === 'done' && s.settled) return averaged(s.live[side]);
  const busy = s.status === 'running' || s.status === 'stopping';
  if (busy && s.phase !== null && s.phase !== side && s.avg[side] > 0) return averaged(s.avg[side]);
  return { value: s.live[side], caption: peak || ' ' };
}
