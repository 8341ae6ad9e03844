// `diskdial run --loop`: Blackmagic's continuous mode on the terminal. The runner repeats the
// plan until `until` fires; each finished cycle prints one line (stdout, or stderr beside
// --json's one document). The first Ctrl-C ends the loop — the cycle under way is dropped and the
// finished ones are saved as the runs of one result; a second one is main's cancel (no save).
import type { RunBenchmarkOptions, StepDoneEvent } from '../core/runner.js';
import { formatMBps } from '../model/units.js';
import { createProgressLine, type ProgressLine } from './progress.js';

export interface Loop {
  /** The runner's options for continuous mode: the stop, the cycle lines, a progress line per cycle. */
  options: Pick<RunBenchmarkOptions, 'until' | 'onStepDone' | 'onProgress'>;
  /** A signal arrived: true when it ended the loop (the first SIGINT), false for main's cancel. */
  stop(sig: NodeJS.Signals): boolean;
}

/** "cycle 3 · Write 1234.5 MB/s · Read 2345.6 MB/s" from one cycle's steps. */
export function cycleLine(run: number, steps: readonly StepDoneEvent[]): string {
  return [`cycle ${run}`, ...steps.map((s) => `${s.step.name} ${formatMBps(s.result.mbps)}`)].join(' · ');
}

export function createLoop(io: { line(text: string): void; note(text: string): void }, stream = process.stderr): Loop {
  const until = new AbortController();
  let cycle: StepDoneEvent[] = [];
  let progress: ProgressLine | undefined;
  let progressRun = 0;
  return {
    options: {
      until: until.signal,
      onProgress: (p) => {
        // A line of its own each cycle: its time left counts from the cycle's start.
        if (p.run !== progressRun) {
          progress?.clear();
          progress = createProgressLine(stream);
          progressRun = p.run;
        }
        progress?.update({ ...p, run: 1, runs: 1 });
      },
      onStepDone: (e) => {
        cycle.push(e);
        if (e.testIndex < e.testCount - 1) return;
        progress?.clear();
        io.line(cycleLine(e.run, cycle));
        cycle = [];
      },
    },
    stop(sig) {
      if (sig !== 'SIGINT' || until.signal.aborted) return false;
      progress?.clear();
      io.note('stopping: the cycle under way is dropped, the finished ones are saved (Ctrl-C again to quit without saving)');
      until.abort(new Error('loop stopped by SIGINT'));
      return true;
    },
  };
}
