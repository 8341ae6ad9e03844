// Step 3: what to run on each format — the Quick Test at one or more stress sizes (1 GB and
// 5 GB by default, or a custom size), the CrystalDiskMark grid, or the many-file test — how many
// runs, the rest between runs (an SSD's cache drains while it rests), and roughly how long the
// whole plan takes.
import { useId } from 'react';
import type { WizardPlanKind } from '@model/wizard/types';
import { NumberField } from '../../components/fields';
import { selectChosen, selectDisk, useWizardStore } from './store';
import {
  aboutText,
  customSizeError,
  estimateSeconds,
  MAX_REST_MINUTES,
  MAX_RUNS,
  planFitError,
  planSizes,
  SIZE_PRESETS,
  sizeLabel,
} from './wizard-model';

const PLANS: ReadonlyArray<{ value: WizardPlanKind; label: string; detail: string }> = [
  { value: 'quick', label: 'Quick test', detail: 'Write then read one big file, at each stress size (Blackmagic-style).' },
  {
    value: 'cdm',
    label: 'CDM grid',
    detail: 'Sequential and random reads and writes at several queue depths (CrystalDiskMark Default, 1 GiB).',
  },
  { value: 'files', label: 'Many files', detail: 'Writes and reads a set of files of mixed sizes, like copying a folder.' },
];

export function PlanStep() {
  const plan = useWizardStore((s) => s.plan);
  const formats = useWizardStore((s) => selectChosen(s).length);
  const setPlan = useWizardStore((s) => s.setPlan);
  const name = useId();
  const customId = useId();
  const customErrId = useId();
  const customError = plan.custom ? customSizeError(plan.customText) : null;
  const runsError = !Number.isInteger(plan.runs) || plan.runs < 1 || plan.runs > MAX_RUNS ? `1 to ${MAX_RUNS}` : undefined;
  const restError =
    !Number.isFinite(plan.restMinutes) || plan.restMinutes < 0 || plan.restMinutes > MAX_REST_MINUTES
      ? `0 to ${MAX_REST_MINUTES} minutes`
      : undefined;
  const sizes = planSizes(plan);
  const valid = !customError && !runsError && !restError && sizes.length > 0;
  const disk = useWizardStore(selectDisk);
  // A test that cannot fit on the formatted disk is said here, not found out mid-plan.
  const fitError = valid && disk ? planFitError(plan, disk.sizeBytes) : null;
  const seconds = valid
    ? estimateSeconds({ kind: plan.kind, sizes, runs: plan.runs, restSeconds: Math.round(plan.restMinutes * 60), formats })
    : NaN;

  const togglePreset = (b: number) =>
    setPlan({ presets: plan.presets.includes(b) ? plan.presets.filter((x) => x !== b) : [...plan.presets, b] });

  return (
    <div className="wizard-step-body">
      <fieldset className="wizard-fieldset">
        <legend className="wizard-h3">Test on each format</legend>
        <div className="wizard-plans">
          {PLANS.map((p) => (
            <label key={p.value} className={`wizard-plan${plan.kind === p.value ? ' wizard-plan--on' : ''}`}>
              <input
                type="radio"
                name={name}
                checked={plan.kind === p.value}
                onChange={() => setPlan({ kind: p.value })}
                data-testid={`wizard-plan-${p.value}`}
              />
              <span className="wizard-plan__text">
                <span className="wizard-plan__name">{p.label}</span>
                <span className="wizard-plan__detail">{p.detail}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {plan.kind === 'quick' && (
        <fieldset className="wizard-fieldset">
          <legend className="field__label">Stress sizes</legend>
          <div className="wizard-sizes">
            {SIZE_PRESETS.map((b) => (
              <label key={b} className="toggle">
                <input
                  type="checkbox"
                  checked={plan.presets.includes(b)}
                  onChange={() => togglePreset(b)}
                  data-testid={`wizard-size-${b}`}
                />{' '}
                {sizeLabel(b)}
              </label>
            ))}
            <label className="toggle">
              <input
                type="checkbox"
                checked={plan.custom}
                onChange={(e) => setPlan({ custom: e.target.checked })}
                data-testid="wizard-size-custom"
              />{' '}
              Custom
            </label>
            {plan.custom && (
              <span className="custom-size">
                <label htmlFor={customId} className="sr-only">
                  Custom stress size
                </label>
                <input
                  id={customId}
                  className={`text-input text-input--size${customError ? ' text-input--invalid' : ''}`}
                  placeholder="e.g. 2 GB"
                  value={plan.customText}
                  aria-invalid={customError !== null}
                  aria-describedby={customError ? customErrId : undefined}
                  onChange={(e) => setPlan({ customText: e.target.value })}
                  data-testid="wizard-size-input"
                />
                {customError && (
                  <span id={customErrId} className="field-error" role="alert">
                    {customError}
                  </span>
                )}
              </span>
            )}
          </div>
          {sizes.length === 0 && <p className="field-error">Pick at least one stress size.</p>}
        </fieldset>
      )}

      <div className="wizard-row">
        <NumberField
          label="Runs per format"
          value={plan.runs}
          onChange={(v) => setPlan({ runs: v })}
          min={1}
          max={MAX_RUNS}
          error={runsError}
          testId="wizard-runs"
        />
        <NumberField
          label="Rest between runs"
          value={plan.restMinutes}
          onChange={(v) => setPlan({ restMinutes: v })}
          min={0}
          max={MAX_REST_MINUTES}
          step="any"
          unit="min"
          error={restError}
          testId="wizard-rest"
        />
      </div>
      {fitError && (
        <p className="field-error" role="alert" data-testid="wizard-plan-fit">
          {fitError}
        </p>
      )}
      <p className="wizard-estimate" data-testid="wizard-estimate">
        {valid ? (
          <>
            The whole plan takes <strong>{aboutText(seconds)}</strong>
            {formats > 0 ? ` for ${formats} format${formats === 1 ? '' : 's'}` : ''} (a rough guess at 500 MB/s, with the rests and 30 s per
            format to erase and format).
          </>
        ) : (
          'Fix the fields above to see how long the plan takes.'
        )}
      </p>
    </div>
  );
}
