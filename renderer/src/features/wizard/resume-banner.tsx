// The banner over the wizard when a plan did not finish (the app or the machine went down, the
// disk was pulled, Stop was pressed): how far it got, on which disk, and Resume — which lists the
// disk at the plan's path again, beside what was confirmed and what proves it is the same (a disk
// without serial, WWN or a table DiskDial wrote says so), and asks for its name again, typed, as
// the first start did — or Discard (its saved results stay in History).
import { useId, useMemo, useState } from 'react';
import { identityBasis, identityStrength } from '@model/wizard/identity';
import type { WizardDisk, WizardPlanState } from '@model/wizard/types';
import { selectInterrupted, selectWizardBusy, useWizardStore } from './store';
import { diskSizeText, stepsDone } from './wizard-model';

/** "Samsung PSSD T7, 1 TB, serial S5SX…" / "loop7, 640 MB, no serial number, image /tmp/disk.img". */
function identityLine(d: Pick<WizardDisk, 'sizeBytes' | 'model' | 'serial' | 'backingFile'> & { name?: string }): string {
  return [
    d.model ?? d.name,
    diskSizeText(d.sizeBytes),
    d.serial ? `serial ${d.serial}` : 'no serial number',
    ...(d.backingFile ? [`image ${d.backingFile}`] : []),
  ]
    .filter(Boolean)
    .join(', ');
}

/** The disk at the plan's path as it is now, beside what was confirmed, and what says it is the same. */
function Relisting({ plan }: { plan: WizardPlanState }) {
  const relisted = useWizardStore((s) => (s.relisted?.planId === plan.id ? s.relisted : null));
  const id = plan.settings.identity;
  const weak = identityStrength(plan) === 'weak';
  return (
    <div className="wizard-banner__relisting" data-testid="wizard-resume-relisting" data-strength={weak ? 'weak' : 'unique'}>
      <p>Confirmed when the plan started: {identityLine({ ...id, name: plan.settings.confirmName })}.</p>
      <p data-testid="wizard-resume-now">
        {relisted === null
          ? `Listing ${plan.settings.device} again…`
          : relisted.disk
            ? `At ${plan.settings.device} now: ${identityLine(relisted.disk)}.`
            : relisted.error
              ? `Could not list the disks: ${relisted.error}`
              : `Nothing is at ${plan.settings.device} now: connect the disk, then press Resume again.`}
      </p>
      <p className={weak ? 'reason' : undefined}>{identityBasis(plan)}</p>
    </div>
  );
}

function PlanBanner({ plan, lockedReason }: { plan: WizardPlanState; lockedReason?: string | undefined }) {
  const resume = useWizardStore((s) => s.resume);
  const relist = useWizardStore((s) => s.relist);
  const discard = useWizardStore((s) => s.discard);
  const error = useWizardStore((s) => (s.resumeError?.planId === plan.id ? s.resumeError.message : null));
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const name = plan.settings.confirmName;
  const total = plan.steps.length;
  const done = stepsDone(plan);
  const matches = typed === name;
  const go = async () => {
    if (!matches || lockedReason) return;
    if (await resume(plan.id, typed)) setAsking(false);
  };

  return (
    <div className="wizard-banner" role="region" aria-label="Interrupted plan" data-testid="wizard-resume-banner" data-plan={plan.id}>
      <p className="wizard-banner__text">
        A plan was interrupted: {done} of {total} format{total === 1 ? '' : 's'} done on <strong>{name}</strong> ({plan.settings.device}).
      </p>
      {asking && <Relisting plan={plan} />}
      {asking ? (
        <div className="wizard-banner__ask">
          <label htmlFor={inputId} className="field__label">
            Type the disk’s name to resume: <span className="wizard-confirm__name">{name}</span>
          </label>
          <input
            id={inputId}
            className="text-input"
            value={typed}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void go();
              if (e.key === 'Escape') setAsking(false);
            }}
            data-testid="wizard-resume-input"
          />
          <button
            type="button"
            className="button button--primary"
            disabled={!matches || lockedReason !== undefined}
            onClick={() => void go()}
            data-testid="wizard-resume-confirm"
          >
            Erase and resume
          </button>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="wizard-banner__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={lockedReason !== undefined}
            onClick={() => {
              setAsking(true);
              void relist(plan.id);
            }}
            data-testid="wizard-resume"
          >
            Resume
          </button>
          <button
            type="button"
            className="button"
            onClick={() => void discard(plan.id)}
            title="Forget the plan; its saved results stay in History"
            data-testid="wizard-discard"
          >
            Discard
          </button>
        </div>
      )}
      {lockedReason && <span className="reason">{lockedReason}</span>}
      {error && (
        <p className="panel-error" role="alert" data-testid="wizard-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function ResumeBanner({ lockedReason }: { lockedReason?: string | undefined }) {
  const all = useWizardStore((s) => s.plans);
  const job = useWizardStore((s) => s.job);
  const status = useWizardStore((s) => s.status);
  const busy = useWizardStore(selectWizardBusy);
  const plans = useMemo(() => selectInterrupted({ plans: all, job, status }), [all, job, status]);
  if (busy || plans.length === 0) return null;
  return (
    <div className="wizard-banners">
      {plans.map((p) => (
        <PlanBanner key={p.id} plan={p} lockedReason={lockedReason} />
      ))}
    </div>
  );
}
