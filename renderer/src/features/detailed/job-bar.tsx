// A Detailed panel's job bar: the running job's state in words ("Run 1 of 5 · SEQ1M Q8T1 Read ·
// measuring") and as a fraction, fed to the shared components/job-bar-view.
import { etaLine } from '@model/eta';

import { announceLine, jobFraction, progressLine } from '../../lib/job-progress';
import type { DetailedKind } from '@model/settings';
import { barProgress, idleLine, JobBarView, type JobBarViewProps } from '../../components/job-bar-view';
import { DETAILED_KINDS } from './kinds/index';
import { selectError, selectLiveJob, selectResult, selectRunningKind, useDetailedStore } from './store';

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
  const restSeconds = useDetailedStore((s) => (s.job?.kind === kind ? s.job.settings.restSeconds : 0));
  const liveJob = useDetailedStore(selectLiveJob(kind));
  const result = useDetailedStore(selectResult(kind));
  const error = useDetailedStore(selectError(kind));
  const stop = useDetailedStore((s) => s.stop);

  const stopping = mine && status === 'stopping';
  let line: string;
  if (mine)
    line =
      status === 'starting'
        ? 'Starting…'
        : stopping
          ? 'Stopping and removing the test files…'
          : progress
            ? progressLine(progress, etaLine({ ...progress, restSeconds }, startedAt ? (Date.now() - startedAt) / 1000 : 0, finishedSteps))
            : 'Preparing…';
  else line = idleLine(liveJob?.outcome, result?.settings.runs, finishedSteps, error != null);
  const stepped = barProgress(progress, announceLine, (p) => jobFraction(p, finishedSteps));
  const bar: JobBarViewProps = { testId: kind, phrase: DETAILED_KINDS[kind].phrase, mine, stopping, blocked, line, error, ...stepped };
  return <JobBarView {...bar} onStart={onStart} onStop={() => void stop()} />;
}
