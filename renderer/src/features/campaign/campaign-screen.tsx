// Compare setups: "USB dock vs internal SATA", "GigE vs Wi-Fi". The person names the setups and
// picks the tests; DiskDial runs them setup by setup in the folder chosen at the top, stopping
// before each setup to say what comes next (Continue when changed, or Stop here to resume later),
// and ends in the comparison report with a row per setup. Nothing is erased.
import { useEffect, useId } from 'react';
import { RUN_KINDS } from '@model/kinds/registry';
import { campaignEstimateText, campaignSecondsLeft, durationText, kindTakesSize, testSeconds } from '@model/campaign-plan';
import type { TargetInfo } from '@model/history';
import type { CampaignState } from '@model/campaign';
import { campaignProgress } from '@model/campaign';
import { stepFraction } from '@model/eta';
import { formatMBps } from '@model/units';
import { sizeText } from '@model/report/metrics';
import { RUNS_HINT } from '@model/verdict/compare-words';
import { CardHeader } from '../../components/card-header';
import { NumberField, SelectField } from '../../components/fields';
import { ProgressBar } from '../../components/progress-bar';
import { ReportView } from '../../components/report-view';
import { selectSelectedTarget, useTargetsStore } from '../../lib/targets-store';
import { onShare } from '../../lib/target-link';
import { formProblem, MAX_SETUPS, selectCampaignBusy, SIZE_CHOICES, useCampaignStore, type CampaignForm } from './store';
import { useCampaignEvents } from './use-campaign-events';

/** The kinds a campaign offers: every runnable kind with a screen of its own (the CLI has the rest);
 *  one that measures a network share only while a share is chosen. */
const KINDS = RUN_KINDS.filter((k) => !k.cliOnly);

/** "6 tests (3 on each of 2 setups): about 4 min of testing…", the sum of its tests' estimates
 *  as the service will run them; undefined while no test is picked. */
function formEstimate(form: CampaignForm, target: TargetInfo | undefined): string | undefined {
  if (form.kinds.length === 0) return undefined;
  const perTest = testSeconds(
    form.kinds.map((kind) => {
      const size = form.testSizes[kind] ?? form.sizeBytes;
      return { kind, options: kindTakesSize(kind) ? { size } : {}, runs: form.runs };
    }),
    target && target.freeBytes > 0 ? { freeBytes: target.freeBytes, totalBytes: target.totalBytes } : undefined,
  );
  const setups = Math.max(2, form.setups.length);
  const steps = setups * form.kinds.length;
  return campaignEstimateText(campaignSecondsLeft(perTest, steps, 0), steps, setups);
}

/** A live rate, or "—" before the first measured one. */
const mbps = (x: number | null): string => (x === null ? '—' : formatMBps(x));

function Unfinished({ campaign, lockedReason }: { campaign: CampaignState; lockedReason?: string | undefined }) {
  const resume = useCampaignStore((s) => s.resume);
  const discard = useCampaignStore((s) => s.discard);
  const busy = useCampaignStore(selectCampaignBusy);
  return (
    <div
      className="wizard-banner"
      role="region"
      aria-label="Unfinished setup comparison"
      data-testid="campaign-unfinished"
      data-campaign={campaign.id}
    >
      <p className="wizard-banner__text">
        A setup comparison did not finish ({campaign.setups.map((s) => s.name).join(' vs ')} on {campaign.target}):{' '}
        {campaignProgress(campaign)}.
      </p>
      <div className="wizard-row">
        <button type="button" className="button" disabled={busy || !!lockedReason} onClick={() => void resume(campaign.id)}>
          Resume
        </button>
        <button type="button" className="button button--quiet" disabled={busy} onClick={() => void discard(campaign.id)}>
          Discard (its results stay in History)
        </button>
      </div>
    </div>
  );
}

function SetupForm({ lockedReason }: { lockedReason?: string | undefined }) {
  const form = useCampaignStore((s) => s.form);
  const { setSetup, addSetup, removeSetup, toggleKind, setRuns, setSize, setTestSize, start } = useCampaignStore.getState();
  const target = useTargetsStore(selectSelectedTarget);
  const problem = formProblem(form, target?.path);
  const estimate = formEstimate(form, target);
  const kindsId = useId();
  return (
    <form
      className="wizard-step-body"
      onSubmit={(e) => {
        e.preventDefault();
        void start(target?.path);
      }}
    >
      <fieldset className="wizard-fieldset">
        <legend className="wizard-h3">Setups, in the order you will test them</legend>
        <ol className="campaign-setups">
          {form.setups.map((name, i) => (
            <li key={i} className="campaign-setup">
              <label className="field__label" htmlFor={`campaign-setup-${i}`}>
                Setup {i + 1}
              </label>
              <input
                id={`campaign-setup-${i}`}
                className="text-input"
                value={name}
                maxLength={200}
                placeholder={i === 0 ? 'e.g. Direct to the Mac' : i === 1 ? 'e.g. Through the hub' : 'e.g. Over Wi-Fi'}
                onChange={(e) => setSetup(i, e.target.value)}
                data-testid={`campaign-setup-${i}`}
              />
              {form.setups.length > 2 && (
                <button type="button" className="button button--quiet" onClick={() => removeSetup(i)} aria-label={`Remove setup ${i + 1}`}>
                  Remove
                </button>
              )}
            </li>
          ))}
        </ol>
        {form.setups.length < MAX_SETUPS && (
          <button type="button" className="button button--quiet" onClick={addSetup} data-testid="campaign-add-setup">
            Add a setup
          </button>
        )}
      </fieldset>
      <fieldset className="wizard-fieldset" aria-describedby={kindsId}>
        <legend className="wizard-h3">Tests on each setup</legend>
        <p id={kindsId} className="card__subtitle">
          Each runs with its usual settings, in the folder chosen at the top. Nothing is erased.
        </p>
        <div className="wizard-sizes">
          {KINDS.filter((k) => !k.networkOnly || onShare(target)).map((k) => (
            <span key={k.id} className="campaign-kind">
              <label className="toggle">
                <input
                  type="checkbox"
                  checked={form.kinds.includes(k.id)}
                  onChange={() => toggleKind(k.id)}
                  data-testid={`campaign-kind-${k.id}`}
                />{' '}
                {k.name}
              </label>
              {form.kinds.includes(k.id) && kindTakesSize(k.id) && (
                <select
                  className="select"
                  aria-label={`${k.name}: test size`}
                  value={form.testSizes[k.id] ?? ''}
                  onChange={(e) => setTestSize(k.id, e.target.value === '' ? undefined : Number(e.target.value))}
                  data-testid={`campaign-size-${k.id}`}
                >
                  <option value="">size as below ({sizeText(form.sizeBytes, false)})</option>
                  {SIZE_CHOICES.map((b) => (
                    <option key={b} value={b}>
                      {sizeText(b, false)}
                    </option>
                  ))}
                </select>
              )}
            </span>
          ))}
        </div>
      </fieldset>
      <div className="wizard-row">
        <NumberField label="Runs of each test" value={form.runs} onChange={setRuns} min={1} max={100} testId="campaign-runs" />
        <SelectField
          label="Test size"
          value={form.sizeBytes}
          choices={SIZE_CHOICES.map((b) => ({ value: b, label: sizeText(b, false) }))}
          onChange={setSize}
          testId="campaign-size"
        />
      </div>
      <p className="wizard-estimate">{RUNS_HINT}</p>
      {estimate && (
        <p className="wizard-estimate" data-testid="campaign-estimate">
          {estimate}
        </p>
      )}
      {/* Help until Start was pressed; an error only after an attempt (nothing typed is no mistake). */}
      {problem && (
        <p
          className={form.attempted ? 'field-error' : 'card__subtitle'}
          role={form.attempted ? 'alert' : undefined}
          data-testid="campaign-problem"
          data-error={form.attempted ? '' : undefined}
        >
          {problem}
        </p>
      )}
      <div className="wizard-row">
        <button type="submit" className="button button--primary" disabled={!!lockedReason} data-testid="campaign-start">
          Compare setups
        </button>
        {lockedReason && <span className="reason">{lockedReason}</span>}
      </div>
    </form>
  );
}

function Running() {
  const job = useCampaignStore((s) => s.job);
  const status = useCampaignStore((s) => s.status);
  const { answer, stop } = useCampaignStore.getState();
  if (!job) return null;
  const w = job.waiting;
  const p = job.progress;
  return (
    <div className="wizard-step-body" data-testid="campaign-running">
      {w ? (
        <div className="campaign-waiting" role="alert" data-testid="campaign-waiting">
          <p className="wizard-h3">
            Setup {w.setup + 1} of {w.setupCount}: <strong>{w.setupName}</strong>
          </p>
          <p>Change to it now (the cable, the port, the network…), then press Continue.</p>
          <p className="card__subtitle">
            {w.progress}
            {w.secondsLeft !== undefined && ` · ${durationText(w.secondsLeft)} of testing left`}
          </p>
          <div className="wizard-row">
            <button
              type="button"
              className="button button--primary"
              onClick={() => void answer(true)}
              data-testid="campaign-continue"
              autoFocus
            >
              Continue
            </button>
            <button type="button" className="button" onClick={() => void answer(false)} data-testid="campaign-stop-here">
              Stop here (resume later)
            </button>
          </div>
        </div>
      ) : p ? (
        <div data-testid="campaign-testing">
          <p className="wizard-h3">
            Testing <strong>{p.setupName}</strong> · test {p.step + 1} of {p.stepCount}
          </p>
          <p aria-live="polite" data-testid="campaign-progress-line">
            {p.testName} · run {p.run} of {p.runs} · now {mbps(job.live.instMBps)} · average {mbps(job.live.avgMBps)}
          </p>
          {p.secondsLeft !== undefined && <p data-testid="campaign-left">{durationText(p.secondsLeft)} of testing left</p>}
          <ProgressBar
            label="Progress of this test"
            pct={Math.round(stepFraction({ ...p, stage: 'run', testIndex: 0, testCount: 1 }) * 100)}
          />
        </div>
      ) : (
        <p aria-live="polite">{status === 'starting' ? 'Starting…' : 'Preparing the next test…'}</p>
      )}
      <div className="wizard-row">
        <button type="button" className="button" disabled={status !== 'running'} onClick={() => void stop()} data-testid="campaign-stop">
          {status === 'stopping' ? 'Stopping…' : 'Stop'}
        </button>
      </div>
    </div>
  );
}

export function CampaignScreen({ lockedReason, active }: { lockedReason?: string | undefined; active?: boolean }) {
  useCampaignEvents();
  const titleId = useId();
  const busy = useCampaignStore(selectCampaignBusy);
  const job = useCampaignStore((s) => s.job);
  const reportIds = useCampaignStore((s) => s.reportIds);
  const error = useCampaignStore((s) => s.error);
  const unfinished = useCampaignStore((s) => s.unfinished);
  const { loadUnfinished, newCampaign } = useCampaignStore.getState();
  useEffect(() => {
    if (active) void loadUnfinished();
  }, [active, loadUnfinished]);

  if (reportIds && reportIds.length > 0) {
    return (
      <section className="card" aria-labelledby={titleId} data-testid="campaign-screen">
        <h2 id={titleId} className="sr-only">
          Compare setups: report
        </h2>
        <ReportView
          ids={reportIds}
          actions={
            <button type="button" className="button" onClick={newCampaign} data-testid="campaign-new">
              Compare other setups
            </button>
          }
        />
      </section>
    );
  }
  const stopped = job?.done && job.done.outcome === 'stopped';
  return (
    <section className="card" aria-labelledby={titleId} data-testid="campaign-screen">
      <CardHeader
        titleId={titleId}
        title="Compare setups"
        subtitle="The same tests on each setup you name, in turns: DiskDial waits while you change the cable, port or network, then reports them side by side."
      />
      <div className="campaign-body">
        {!busy && unfinished.map((c) => <Unfinished key={c.id} campaign={c} lockedReason={lockedReason} />)}
        {error && (
          <p className="field-error" role="alert" data-testid="campaign-error">
            {error}
          </p>
        )}
        {stopped && (
          <p role="status" data-testid="campaign-stopped">
            {job.done?.reason ?? 'Stopped.'} Finished setups are saved; resume it from the banner above.
          </p>
        )}
        {busy ? <Running /> : <SetupForm lockedReason={lockedReason} />}
      </div>
    </section>
  );
}
