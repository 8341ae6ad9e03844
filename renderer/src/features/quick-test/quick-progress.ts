// A running Quick Test in words and as a fraction: "run 2 of 5 · writing · about 1 min left",
// "continuous · cycle 3 · reading". Each cycle is two steps (write, then read back the same
// bytes); how far and how long is left is model/eta.ts's rule, the one the Detailed bars and the
// CLI use, driven by the bytes done. Continuous mode has no end, so it gets neither.
import { jobFraction, positionText, timeLeftText, type JobPoint } from '@model/eta';
import type { QuickProgressEvent } from '@model/events';

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
