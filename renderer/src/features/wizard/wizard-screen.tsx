// The Format & compare screen: a wizard that erases one external disk, formats it each way the
// user picked, runs the same test on each, saves every format's results the moment they exist,
// leaves the disk in the format chosen, and ends in the comparison report. Steps: Disk →
// Formats → Plan → Confirm → Run → Report, with Back on each. A plan that did not finish is
// offered for resuming each time the screen is shown. One test runs at a time across all
// screens: the app passes in why Start is locked while another screen's test runs.
import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ConfirmStep } from './confirm-step';
import { DiskStep } from './disk-step';
import { FormatsStep } from './formats-step';
import { PlanStep } from './plan-step';
import { ReportView } from '../../components/report-view';
import { ResumeBanner } from './resume-banner';
import { RunStep } from './run-step';
import { selectChosen, selectDisk, selectFinal, selectWizardBusy, STEPS, useWizardStore, type WizardStep } from './store';
import { useWizardEvents } from './use-wizard-events';
import { diskBlock, planError, planFitError } from './wizard-model';
import { CardHeader } from '../../components/card-header';

const STEP_NAMES: Record<WizardStep, string> = {
  disk: 'Disk',
  formats: 'Formats',
  plan: 'Plan',
  confirm: 'Confirm',
  run: 'Run',
  report: 'Report',
};
const PREVIOUS: Partial<Record<WizardStep, WizardStep>> = { formats: 'disk', plan: 'formats', confirm: 'plan' };
const NEXT: Partial<Record<WizardStep, WizardStep>> = { disk: 'formats', formats: 'plan', plan: 'confirm' };

export interface WizardScreenProps {
  /** Why no plan can start now for a reason outside this screen (another test is running). */
  lockedReason?: string | undefined;
  /** True while the screen is the one shown: interrupted plans are looked up again. */
  active?: boolean;
}

/** Why Next is unavailable on `step`, or null. */
function useNextBlock(step: WizardStep): string | null {
  const disk = useWizardStore(selectDisk);
  const includeInternal = useWizardStore((s) => s.includeInternal);
  const chosen = useWizardStore(useShallow(selectChosen));
  const final = useWizardStore(selectFinal);
  const plan = useWizardStore((s) => s.plan);
  if (step === 'disk') return diskBlock(disk, includeInternal);
  if (step === 'formats')
    return chosen.length === 0
      ? 'Tick at least one format.'
      : !final
        ? 'This machine can make no unencrypted format to leave the disk in.'
        : null;
  if (step === 'plan') {
    const error = planError(plan, disk?.sizeBytes);
    // The step itself says what does not fit and what does: Next only points at it (once).
    return error !== null && disk && error === planFitError(plan, disk.sizeBytes)
      ? 'The plan does not fit on this disk: see above.'
      : error;
  }
  return null;
}

function Stepper({ step }: { step: WizardStep }) {
  const at = STEPS.indexOf(step);
  return (
    <ol className="wizard-stepper" aria-label="Wizard steps">
      {STEPS.map((s, i) => (
        <li
          key={s}
          className={`wizard-stepper__item${i < at ? ' wizard-stepper__item--done' : ''}${i === at ? ' wizard-stepper__item--on' : ''}`}
          aria-current={i === at ? 'step' : undefined}
        >
          <span className="wizard-stepper__n" aria-hidden="true">
            {i + 1}
          </span>
          {STEP_NAMES[s]}
        </li>
      ))}
    </ol>
  );
}

export function WizardScreen({ lockedReason, active = true }: WizardScreenProps) {
  useWizardEvents();
  const stored = useWizardStore((s) => s.step);
  const busy = useWizardStore(selectWizardBusy);
  const goTo = useWizardStore((s) => s.goTo);
  const loadDisks = useWizardStore((s) => s.loadDisks);
  const loadFormats = useWizardStore((s) => s.loadFormats);
  const loadPlans = useWizardStore((s) => s.loadPlans);
  const newPlan = useWizardStore((s) => s.newPlan);
  const reportIds = useWizardStore((s) => s.reportIds);
  const hasJob = useWizardStore((s) => s.job !== null);
  const step: WizardStep = busy ? 'run' : stored;
  const block = useNextBlock(step);
  const titleId = useId();
  const reasonId = useId();

  useEffect(() => {
    void loadFormats();
  }, [loadFormats]);

  // Each time the screen is shown: unfinished plans, and (on the first step) the disks — one may
  // have been plugged in or unmounted meanwhile.
  useEffect(() => {
    if (!active) return;
    void loadPlans();
    const s = useWizardStore.getState();
    if (s.step === 'disk' && !selectWizardBusy(s)) void loadDisks();
  }, [active, loadPlans, loadDisks]);

  const prev = PREVIOUS[step];
  const next = NEXT[step];

  return (
    <div className="wizard">
      <ResumeBanner lockedReason={lockedReason} />
      {step === 'report' ? (
        <ReportView
          ids={reportIds}
          onBack={() => goTo(hasJob ? 'run' : 'disk')}
          backLabel="← Back"
          actions={
            <button type="button" className="button" onClick={newPlan} data-testid="wizard-new">
              New plan
            </button>
          }
        />
      ) : (
        <section className="card wizard-card" aria-labelledby={titleId} data-testid="wizard">
          <CardHeader
            titleId={titleId}
            title={<>Format & compare</>}
            subtitle={
              <>
                Erase one external disk, format it each way you pick, run the same test on each, and compare — each change with its 95 %
                interval.
              </>
            }
          />
          <Stepper step={step} />
          <div className="wizard-body" data-step={step}>
            {step === 'disk' && <DiskStep />}
            {step === 'formats' && <FormatsStep />}
            {step === 'plan' && <PlanStep />}
            {step === 'confirm' && <ConfirmStep lockedReason={lockedReason} />}
            {step === 'run' && <RunStep />}
          </div>
          {(prev || next) && (
            <div className="wizard-nav">
              {prev && (
                <button type="button" className="button" onClick={() => goTo(prev)} data-testid="wizard-back">
                  ← Back
                </button>
              )}
              {next && (
                <>
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={block !== null}
                    aria-describedby={block ? reasonId : undefined}
                    onClick={() => goTo(next)}
                    data-testid="wizard-next"
                  >
                    Next →
                  </button>
                  {block && (
                    <span id={reasonId} className="reason" data-testid="wizard-next-reason">
                      {block}
                    </span>
                  )}
                </>
              )}
            </div>
          )}
        </section>
      )}
    </div>
  );
}
