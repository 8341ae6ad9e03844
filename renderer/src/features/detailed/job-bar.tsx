// The row under a panel's settings: its Start button (Stop while its job runs), what the job is
// doing ("Run 1 of 5 · SEQ1M Q8T1 Read · measuring"), a progress bar, why Start is unavailable,
// and, after a failure, the error in plain words.
import { useId } from 'react';

import { etaLine } from '@model/eta';
import { ProgressBar } from '../../components/progress-bar';
import { announceLine, jobFraction, progressLine } from './job-progress';
import { selectError, selectLiveJob, selectResult, selectRunningKind, useDetailedStore } from './store';
import type { DetailedKind } from '@model/settings';

/** How a sentence names each test: "Wait for the sustained-write test to finish". */
export const KIND_PHRASE: Record<DetailedKind, string> = {
  cdm: 'the CrystalDiskMark test',
  sustained: 'the sustained-write test',
  files: 'the many-file test',
};

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

export interface JobBarProps {
  kind: DetailedKind;
  /** Why Start cannot be pressed now, or null. */
  blocked: string | null;
  onStart(): void;
}

export function JobBar({ kind, blocked, onStart }: JobBarProps) {
  const status = useDetailedStore((s) => s.status);
  const mine = useDetailedStore(selectRunningKind) === kind;
  const progress = useDetailedStore((s) => (s.job?.kind === kind ? s.job.progress : null));
  const finishedSteps = useDetailedStore((s) => (s.job?.kind === kind ? s.job.steps.length : 0));
  const startedAt = useDetailedStore((s) => (s.job?.kind === kind ? (s.job.startedAt ?? 0) : 0));
  const liveJob = useDetailedStore(selectLiveJob(kind));
  const result = useDetailedStore(selectResult(kind));
  const error = useDetailedStore(selectError(kind));
  const stop = useDetailedStore((s) => s.stop);
  const reasonId = useId();

  const stopping = mine && status === 'stopping';
  let line: string;
  if (mine)
    line =
      status === 'starting'
        ? 'Starting…'
        : stopping
          ? 'Stopping and removing the test files…'
          : progress
            ? progressLine(progress, etaLine(progress, startedAt ? (Date.now() - startedAt) / 1000 : 0, finishedSteps))
            : 'Preparing…';
  else line = idleLine(liveJob?.outcome, result?.settings.runs, finishedSteps, error != null);
  // Read out when the step or state changes, not with every tick of a countdown. A reason Start
  // is unavailable is shown as is and read with the button (aria-describedby).
  const announce = mine && !stopping && progress ? announceLine(progress) : !mine && blocked ? '' : line;
  const pct = mine && progress ? Math.round(jobFraction(progress, finishedSteps) * 1000) / 10 : 0;

  return (
    <JobBarView
      testId={kind}
      phrase={KIND_PHRASE[kind]}
      mine={mine}
      stopping={stopping}
      blocked={blocked}
      reasonId={reasonId}
      line={line}
      announce={announce}
      pct={pct}
      error={error}
      onStart={onStart}
      onStop={() => void stop()}
    />
  );
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
  reasonId: string;
  line: string;
  announce: string;
  /** Progress, 0–100 (shown while mine). */
  pct: number;
  error: string | null | undefined;
  errorTestId?: string;
  onStart(): void;
  onStop(): void;
}

/** The bar itself, shared by the Detailed panels and the Hash screen: the Start/Stop button, the
 *  status line (or why Start is unavailable), a polite announcement, progress, and the error. */
export function JobBarView(p: JobBarViewProps) {
  return (
    <div className="job-bar">
      <div className="job-bar__row">
        <button
          type="button"
          className={`run-button${p.mine ? ' run-button--stop' : ''}`}
          data-testid={`${p.testId}-start`}
          disabled={p.mine ? p.stopping : p.blocked !== null}
          aria-describedby={!p.mine && p.blocked ? p.reasonId : undefined}
          onClick={p.mine ? p.onStop : p.onStart}
        >
          {p.stopping ? 'Stopping…' : p.mine ? 'Stop' : 'Start'}
          <span className="sr-only"> {p.phrase}</span>
        </button>
        <div className="job-bar__status" data-testid={`${p.testId}-status`}>
          {!p.mine && p.blocked ? (
            <span id={p.reasonId} className="reason">
              {p.blocked}
            </span>
          ) : (
            <span aria-hidden="true">{p.line}</span>
          )}
        </div>
        <span className="sr-only" aria-live="polite">
          {p.announce}
        </span>
      </div>
      {p.mine && <ProgressBar label={`Progress of ${p.phrase}`} pct={p.pct} />}
      {p.error && (
        <p className="panel-error" role="alert" data-testid={p.errorTestId}>
          {p.error}
        </p>
      )}
    </div>
  );
}
