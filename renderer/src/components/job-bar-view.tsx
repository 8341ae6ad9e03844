// The row under a job's settings, shared by the Detailed panels and the Hash screen: the Start
// button (Stop while its job runs), what the job is doing, a progress bar, why Start is
// unavailable, and, after a failure, the error in plain words. Each screen feeds it its own state.
import { useId } from 'react';
import { ProgressBar } from './progress-bar';

/** The line of a bar whose job is not running: how the last one ended — saying that what finished
 *  is shown below only when something did — or Done, or Ready (never Ready beside an error). */
export function idleLine(outcome: string | null | undefined, runs: number | undefined, finished = 0, hasError = false): string {
  if (outcome === 'stopped')
    return finished > 0 ? 'Stopped. What finished before the stop is shown below.' : 'Stopped before any step finished.';
  if (outcome === 'failed')
    return finished > 0 ? 'Failed. What finished before the error is shown below.' : 'Failed before any step finished.';
  if (hasError) return 'Not started.';
  if (runs !== undefined) return `Done · ${runs} run${runs === 1 ? '' : 's'}`;
  return 'Ready';
}

export interface JobBarViewProps {
  /** data-testid prefix: "<testId>-start", "<testId>-status". */
  testId: string;
  /** How a sentence names the test: "the hash test". */
  phrase: string;
  /** This bar's job is the one running. */
  mine: boolean;
  stopping: boolean;
  blocked: string | null;
  line: string;
  /** What to read out for the current step (announceLine), or null when there is no progress yet. */
  stepAnnounce: string | null;
  /** The job's progress, 0–1 (shown while mine). */
  fraction: number;
  error: string | null | undefined;
  errorTestId?: string;
}

/** The step's announcement and the job's fraction from its latest progress, or none yet. */
export function barProgress<P>(progress: P | null, announce: (p: P) => string, fraction: (p: P) => number) {
  return progress ? { stepAnnounce: announce(progress), fraction: fraction(progress) } : { stepAnnounce: null, fraction: 0 };
}

/** The bar itself, shared by the Detailed panels and the Hash screen: the Start/Stop button, the
 *  status line (or why Start is unavailable), a polite announcement, progress, and the error. */
export function JobBarView(p: JobBarViewProps & { onStart(): void; onStop(): void }) {
  const reasonId = useId();
  // Read out when the step or state changes, not with every tick of a countdown. A reason Start
  // is unavailable is shown as is and read with the button (aria-describedby).
  const announce = p.mine && !p.stopping && p.stepAnnounce !== null ? p.stepAnnounce : !p.mine && p.blocked ? '' : p.line;
  const pct = p.mine ? Math.round(p.fraction * 1000) / 10 : 0;
  return (
    <div className="job-bar">
      <div className="job-bar__row">
        <button
          type="button"
          className={`run-button${p.mine ? ' run-button--stop' : ''}`}
          data-testid={`${p.testId}-start`}
          disabled={p.mine ? p.stopping : p.blocked !== null}
          aria-describedby={!p.mine && p.blocked ? reasonId : undefined}
          onClick={p.mine ? p.onStop : p.onStart}
        >
          {p.stopping ? 'Stopping…' : p.mine ? 'Stop' : 'Start'}
          <span className="sr-only"> {p.phrase}</span>
        </button>
        <div className="job-bar__status" data-testid={`${p.testId}-status`}>
          {!p.mine && p.blocked ? (
            <span id={reasonId} className="reason">
              {p.blocked}
            </span>
          ) : (
            <span aria-hidden="true">{p.line}</span>
          )}
        </div>
        <span className="sr-only" aria-live="polite">
          {announce}
        </span>
      </div>
      {/* The bar's place is kept while idle: Start must not move the page below (a shift re-rasterises it). */}
      {p.mine ? (
        <ProgressBar label={`Progress of ${p.phrase}`} pct={pct} />
      ) : (
        <div className="job-progress job-progress--idle" aria-hidden="true" />
      )}
      {p.error && (
        <p className="panel-error" role="alert" data-testid={p.errorTestId}>
          {p.error}
        </p>
      )}
    </div>
  );
}
