// The banner over the wizard when a plan did not finish (the app or the machine went down, the
// disk was pulled, Stop was pressed): how far it got, on which disk, and Resume — which asks
// for the disk's name again, typed, as the first start did — or Discard (its saved results stay
// in History).
import { useId, useMemo, useState } from 'react';
import type { WizardPlanState } from '../../../../app/src/core/wizard/types';
import { selectInterrupted, selectWizardBusy, useWizardStore } from './store';
import { stepsDone } from './wizard-model';

function PlanBanner({ plan, lockedReason }: { plan: WizardPlanState; lockedReason?: string | undefined }) {
  const resume = useWizardStore((s) => s.resume);
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
          <button type="button" className="button button--primary" disabled={!matches || lockedReason !== undefined} onClick={() => void go()} data-testid="wizard-resume-confirm">
            Erase and resume
          </button>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="wizard-banner__actions">
          <button type="button" className="button button--primary" disabled={lockedReason !== undefined} onClick={() => setAsking(true)} data-testid="wizard-resume">
            Resume
          </button>
          <button type="button" className="button" onClick={() => void discard(plan.id)} title="Forget the plan; its saved results stay in History" data-testid="wizard-discard">
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
