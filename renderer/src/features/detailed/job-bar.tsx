// The row under a panel's settings: its Start button (Stop while its job runs), what the job is
// doing ("Run 1 of 5 · SEQ1M Q8T1 Read · measuring"), a progress bar, why Start is unavailable,
// and, after a failure, the error in plain words.
import { useId } from 'react';
import type { DetailedKind } from '../../../../app/src/ipc/contract';
import { announceLine, jobFraction, progressLine } from './job-progress';
import { selectError, selectLiveJob, selectResult, selectRunningKind, useDetailedStore } from './store';

/** How a sentence names each test: "Wait for the sustained-write test to finish". */
export const KIND_PHRASE: Record<DetailedKind, string> = {
  cdm: 'the CrystalDiskMark test',
  sustained: 'the sustained-write test',
  files: 'the many-file test',
};

function idleLine(outcome: string | null | undefined, runs: number | undefined): string {
  if (outcome === 'stopped') return 'Stopped. What finished before the stop is shown below.';
  if (outcome === 'failed') return 'Failed. What finished before the error is shown below.';
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
  const liveJob = useDetailedStore(selectLiveJob(kind));
  const result = useDetailedStore(selectResult(kind));
  const error = useDetailedStore(selectError(kind));
  const stop = useDetailedStore((s) => s.stop);
  const reasonId = useId();

  const stopping = mine && status === 'stopping';
  let line: string;
  if (mine) line = status === 'starting' ? 'Starting…' : stopping ? 'Stopping and removing the test files…' : progress ? progressLine(progress) : 'Preparing…';
  else line = idleLine(liveJob?.outcome, result?.settings.runs);
  // Read out when the step or state changes, not with every tick of a countdown. A reason Start
  // is unavailable is shown as is and read with the button (aria-describedby).
  const announce = mine && !stopping && progress ? announceLine(progress) : !mine && blocked ? '' : line;
  const pct = mine && progress ? Math.round(jobFraction(progress, finishedSteps) * 1000) / 10 : 0;

  return (
    <div className="job-bar">
      <div className="job-bar__row">
        <button
          type="button"
          className={`run-button${mine ? ' run-button--stop' : ''}`}
          data-testid={`${kind}-start`}
          disabled={mine ? stopping : blocked !== null}
          aria-describedby={!mine && blocked ? reasonId : undefined}
          onClick={mine ? () => void stop() : onStart}
        >
          {stopping ? 'Stopping…' : mine ? 'Stop' : 'Start'}
          <span className="sr-only"> {KIND_PHRASE[kind]}</span>
        </button>
        <div className="job-bar__status" data-testid={`${kind}-status`}>
          {!mine && blocked ? (
            <span id={reasonId} className="reason">
              {blocked}
            </span>
          ) : (
            <span aria-hidden="true">{line}</span>
          )}
        </div>
        <span className="sr-only" aria-live="polite">
          {announce}
        </span>
      </div>
      {mine && (
        <div className="job-progress" role="progressbar" aria-label={`Progress of ${KIND_PHRASE[kind]}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
          <div className="job-progress__fill" style={{ width: `${pct}%` }} />
        </div>
      )}
      {error && (
        <p className="panel-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
