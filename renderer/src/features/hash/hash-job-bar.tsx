// The row under the Hash screen's settings: Start (Stop while the test runs), what the test is
// doing ("Step 2 of 5 · reading (storage only) · 3.2 GB of 16.8 GB"), a progress bar, why Start
// is unavailable, and, after a failure, the error in plain words. Same look and behaviour as a
// Detailed panel's job bar.
import { useId } from 'react';
import { timeLeftText } from '@model/eta';
import { idleLine, JobBarView } from '../../components/job-bar-view';
import { selectSelectedTarget, useTargetsStore } from '../../lib/targets-store';
import { announceLine, jobFraction, progressLine } from '../../lib/hash-model';
import { algoLabel, startBlock } from './settings';
import { selectHashBusy, selectLiveJob, useHashStore } from './store';
import { formatBytesShort } from '@model/units';

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
  const reasonId = useId();

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
    line = `Done · ${formatBytesShort(result.hash.file.bytes)} hashed with ${algoLabel(result.hash.algo)}`;
  } else {
    line = idleLine(null, undefined, 0, error !== null);
  }
  const announce = mine && !stopping && progress ? announceLine(progress) : !mine && blocked ? '' : line;
  const pct = mine && progress ? Math.round(jobFraction(progress) * 1000) / 10 : 0;

  return (
    <JobBarView
      testId="hash"
      phrase="the hash test"
      mine={mine}
      stopping={stopping}
      blocked={blocked}
      reasonId={reasonId}
      line={line}
      announce={announce}
      pct={pct}
      error={error}
      errorTestId="hash-error"
      onStart={() => void start(target?.path)}
      onStop={() => void stop()}
    />
  );
}
