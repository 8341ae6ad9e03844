// Step 5: the plan running — a bar over the whole plan with time elapsed and left, the format
// being worked on and what is happening to it, the write and read dials of the test running on
// it, and every format's state (✓ done, ▸ running, pending, ✗ failed). Stop asks first: the
// plan stops after unmounting, and the formats already finished stay saved. When the plan ends
// short (stopped, failed) it says so in plain words, with what finished.
import { useState } from 'react';
import type { StepStatus } from '@model/wizard/types';
import { Dial } from '../../components/dial/dial';
import { selectWizardBusy, useWizardStore, type RunFormat } from './store';
import { sizeLabel } from '../../lib/sizes';
import { aboutText, durationText, listText, STAGE_WORDS } from './wizard-model';
import { ProgressBar } from '../../components/progress-bar';
import { formatMBpsFigure } from '@model/units';

const MARK: Record<StepStatus, string> = { done: '✓', running: '▸', pending: '·', failed: '✗' };
const WORDS: Record<StepStatus, string> = { done: 'done, saved', running: 'running', pending: 'pending', failed: 'failed' };

function StepRow({ f, testId }: { f: RunFormat; testId: string }) {
  return (
    <li className={`wizard-run-step wizard-run-step--${f.status}`} data-testid={testId} data-format={f.id} data-status={f.status}>
      <span className="wizard-run-step__mark" aria-hidden="true">
        {MARK[f.status]}
      </span>
      <span className="wizard-run-step__label">{f.label}</span>
      <span className="wizard-run-step__status">{WORDS[f.status]}</span>
    </li>
  );
}

function StopButton() {
  const status = useWizardStore((s) => s.status);
  const stop = useWizardStore((s) => s.stop);
  const [asking, setAsking] = useState(false);
  const stopping = status === 'stopping';
  if (asking && !stopping) {
    return (
      <div className="wizard-stop-ask" role="alertdialog" aria-label="Stop the plan?" aria-describedby="wizard-stop-text">
        <span id="wizard-stop-text">Stop after unmounting? Finished formats stay saved; the disk is left as it is.</span>
        <button
          type="button"
          className="button button--danger"
          autoFocus
          onClick={() => {
            setAsking(false);
            void stop();
          }}
          data-testid="wizard-stop-confirm"
        >
          Stop the plan
        </button>
        <button type="button" className="button" onClick={() => setAsking(false)} data-testid="wizard-stop-cancel">
          Keep running
        </button>
      </div>
    );
  }
  return (
    <button
      type="button"
      className="run-button run-button--stop"
      disabled={stopping}
      onClick={() => setAsking(true)}
      data-testid="wizard-stop"
    >
      {stopping ? 'Stopping…' : 'Stop'}
      <span className="sr-only"> the plan</span>
    </button>
  );
}

export function RunStep() {
  const job = useWizardStore((s) => s.job);
  const busy = useWizardStore(selectWizardBusy);
  const status = useWizardStore((s) => s.status);
  const showReport = useWizardStore((s) => s.showReport);
  const newPlan = useWizardStore((s) => s.newPlan);
  if (!job) return null;

  const p = job.progress;
  const pct = Math.round(job.fraction * 1000) / 10;
  const count = job.formats.length;
  const finalStage = p !== null && p.formatIndex >= p.formatCount;
  const current =
    p && !finalStage
      ? `Format ${Math.min(p.formatIndex + 1, count)} of ${count}: ${p.formatLabel}`
      : finalStage
        ? `Leaving the disk as ${job.final.label}`
        : '';
  const stage =
    status === 'starting'
      ? 'Starting…'
      : status === 'stopping'
        ? 'Stopping after unmounting…'
        : p
          ? p.message || STAGE_WORDS[p.stage]
          : 'Checking the disk…';
  const test = p?.stage === 'testing' ? p.test : undefined;
  const testLine = test
    ? `${test.name}${test.sizeBytes ? ` · ${sizeLabel(test.sizeBytes)}` : ''} · run ${test.run} of ${test.runs}${test.phase !== 'other' ? ` · ${test.phase === 'write' ? 'writing' : 'reading'}` : ''}`
    : p?.stage === 'resting' && p.remaining !== undefined
      ? `Resting so the cache drains · ${durationText(p.remaining)} left`
      : '';
  const done = job.formats.filter((f) => f.status === 'done');
  const left = p?.remainingSeconds !== undefined ? `${aboutText(p.remainingSeconds)} left` : 'time left: after the first format';
  const ended = !busy && job.outcome !== null;

  return (
    <div className="wizard-step-body wizard-run" data-testid="wizard-run">
      <div className="wizard-run__head">
        <div className="wizard-run__what">
          <h3 className="wizard-h3">
            {ended
              ? job.outcome === 'finished'
                ? 'Finished'
                : job.outcome === 'stopped'
                  ? 'Stopped'
                  : 'Failed'
              : current || `Erasing and testing ${job.diskName}`}
          </h3>
          {!ended && (
            <p className="wizard-run__stage" data-testid="wizard-stage" aria-live="polite">
              {stage}
            </p>
          )}
          {!ended && testLine && <p className="wizard-run__test">{testLine}</p>}
        </div>
        {busy && <StopButton />}
      </div>

      <ProgressBar label="Progress of the whole plan" pct={pct} className="wizard-progress" testId="wizard-progress" />
      <p className="wizard-run__times">
        {pct.toFixed(0)} % · {done.length} of {count} format{count === 1 ? '' : 's'} done
        {p ? ` · elapsed ${durationText(p.elapsed)}` : ''}
        {busy ? ` · ${left}` : ''}
      </p>

      {busy && (
        <div className="dials wizard-dials" aria-label="Speed dials">
          {(['write', 'read'] as const).map((rw) => (
            <Dial
              key={rw}
              label={rw.toUpperCase()}
              variant={rw}
              value={job.live[rw]}
              peak={job.peak[rw]}
              max={job.scale}
              active={test?.phase === rw}
              caption={job.peak[rw] > 0 ? `peak ${formatMBpsFigure(job.peak[rw])}` : ' '}
            />
          ))}
        </div>
      )}

      <ol className="wizard-run-steps" aria-label="Formats of the plan">
        {job.formats.map((f) => (
          <StepRow key={f.id} f={f} testId="wizard-step" />
        ))}
        <StepRow
          f={{ id: job.final.id, label: `Leave the disk as ${job.final.label}`, status: job.final.status }}
          testId="wizard-step-final"
        />
      </ol>

      {job.error && (
        <p className="panel-error" role="alert" data-testid="wizard-error">
          {job.outcome === 'failed' ? `The plan failed: ${job.error}` : job.error}
        </p>
      )}
      {ended && job.outcome !== 'finished' && (
        <p className="wizard-ended" data-testid="wizard-ended">
          {job.outcome === 'stopped' ? 'Stopped. ' : ''}
          {done.length > 0
            ? `${listText(done.map((f) => f.label))} finished and ${done.length === 1 ? 'is' : 'are'} saved in History. The plan can be resumed from the banner above.`
            : 'No format finished. The plan can be resumed from the banner above.'}
        </p>
      )}
      {ended && (
        <div className="wizard-nav">
          {job.resultIds.length > 0 && (
            <button
              type="button"
              className="button button--primary"
              onClick={() => showReport(job.resultIds)}
              data-testid="wizard-show-report"
            >
              Show the report
            </button>
          )}
          <button type="button" className="button" onClick={newPlan} data-testid="wizard-new">
            New plan
          </button>
        </div>
      )}
    </div>
  );
}
