// The row under the Hash screen's settings: Start (Stop while the test runs), what the test is
// doing ("Step 2 of 5 · reading (storage only) · 3.2 GB of 16.8 GB"), a progress bar, why Start
// is unavailable, and, after a failure, the error in plain words. Same look and behaviour as a
// Detailed panel's job bar.
import { timeLeftText } from '@model/eta';
import { barProgress, idleLine, JobBarView, type JobBarViewProps } from '../../components/job-bar-view';
import { selectSelectedTarget, useTargetsStore } from '../../lib/targets-store';
import { announceLine, jobFraction, progressLine } from '../../lib/hash-model';
import { algoLabel, startBlock } from './settings';
import { selectHashBusy, selectLiveJob, useHashStore } from './store';
import { hashFileBytes, hashFileSize } from '@model/trust';

export function HashJobBar({ lockedReason }: { lockedReason?: string | undefined }) {
  const status = useHashStore((s) => s.status);
  const mine = useHashStore(selectHashBusy);
  const form = useHashStore((s) => s.form);
  const progress = useHashStore((s) => (selectHashBusy(s) ? (s.job?.progress ?? null) : null));
  const generated = useHashStore((s) => s.job?.settings.source.kind === 'generate');
  const startedAt = useHashStore((s) => s.job?.startedAt);
  const live = useHashStore(selectLiveJob);
  const result = useHashStore((s) => s.result);
  const error = useHashStore((s) => s.error);
  const start = useHashStore((s) => s.start);
  const stop = useHashStore((s) => s.stop);
  const target = useTargetsStore(selectSelectedTarget);

  const blocked = startBlock(form, { locked: lockedReason, target });
  const stopping = mine && status === 'stopping';
  let line: string;
  if (mine) {
    line =
      status === 'starting'
        ? 'Starting…'
        : stopping
          ? generated
            ? 'Stopping and removing the test file…'
            : 'Stopping…'
          : progress
            ? progressLine(progress)
            : 'Preparing…';
    // Time left as every long test says it (model/eta.ts); the stages count alike.
    const left =
      progress && startedAt
        ? timeLeftText(
            { ...progress, testIndex: progress.stageIndex, testCount: progress.stageCount, run: 1, runs: 1 },
            (Date.now() - startedAt) / 1000,
          )
        : '';
    if (left && !stopping) line += ` · ${left}`;
  } else if (live?.outcome === 'stopped' || live?.outcome === 'failed') {
    line = idleLine(live.outcome, undefined, live.stages.length, true);
    if (live.outcome === 'stopped' && live.settings.source.kind === 'generate') line += ' The test file was removed.';
  } else if (result?.hash) {
    line = `Done · ${hashFileSize(hashFileBytes(result))} hashed with ${algoLabel(result.hash.algo)}`;
  } else {
    line = idleLine(null, undefined, 0, error !== null);
  }
  const stepped = barProgress(progress, announceLine, (p) => jobFraction(p));
  const bar: JobBarViewProps = {
    testId: 'hash',
    phrase: 'the hash test',
    errorTestId: 'hash-error',
    mine,
    stopping,
    blocked,
    line,
    error,
    ...stepped,
  };
  return <JobBarView {...bar} onStart={() => void start(target?.path)} onStop={() => void stop()} />;
}
