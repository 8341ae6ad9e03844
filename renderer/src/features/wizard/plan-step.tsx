// Step 3: what to run on each format, each plan named after the protocol it reproduces —
// Blackmagic's 1 GB + 5 GB × 5, Stibium's many files (Quick, Standard or a custom set), write
// only, the CrystalDiskMark grid, a kind's own plan (the sustained write), the Hash test — how many runs, the rest
// between runs (an SSD's cache drains while it rests), the common-mode pass, and roughly how
// long the whole plan takes.
import { useId } from 'react';
import type { WizardPlanKind } from '@model/wizard/types';
import { useShallow } from 'zustand/react/shallow';
import { PLAN_RATES } from '@model/eta';
import { NO_DIRECT_IO, protocolOf } from '@model/wizard/protocols';
import { WIZARD_KINDS } from '@model/kinds/registry';
import { FieldError, NumberField } from '../../components/fields';
import { selectChosen, selectDisk, useWizardStore } from './store';
import {
  aboutText,
  commonModeOn,
  customFiles,
  customSizeError,
  isSizedPlan,
  estimateSeconds,
  MAX_REST_MINUTES,
  MAX_RUNS,
  planFitError,
  planSizes,
  SIZE_PRESETS,
  type PlanForm,
} from './wizard-model';
import { sizeLabel } from '../../lib/sizes';

/** Each plan under the name of the protocol it reproduces (model/wizard/protocols.ts). */
const PLANS: ReadonlyArray<{ value: WizardPlanKind; label: string; detail: string }> = (
  [
    ['quick', 'blackmagic'],
    ['files', 'stibium-standard'],
    ['write', 'write-only'],
    ['cdm', 'cdm'],
    ...WIZARD_KINDS.map((k) => [k.id, k.id] as const),
    ['hash', 'hash'],
  ] as const
).map(([value, id]) => {
  const p = protocolOf(id)!;
  return value === 'files'
    ? {
        value,
        label: 'Stibium (many files)',
        detail: 'Writes then reads a set of files of 2 MB and up, like copying a folder (Howard Oakley’s Stibium).',
      }
    : { value, label: p.name, detail: p.detail };
});

const FILE_SETS: ReadonlyArray<{ value: PlanForm['filesSet']; label: string }> = [
  { value: 'quick', label: 'Quick: 40 files, 2–600 MB (5 GB)' },
  { value: 'standard', label: 'Standard: 160 files, 2 MB–2 GB (53 GB)' },
  { value: 'custom', label: 'Custom' },
];

export function PlanStep() {
  const plan = useWizardStore((s) => s.plan);
  const formats = useWizardStore((s) => selectChosen(s).length);
  const setsName = useId();
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
  const chosen = useWizardStore(useShallow(selectChosen));
  const common = commonModeOn(plan, chosen) && plan.kind !== 'hash';
  const files = customFiles(plan);
  const filesError = plan.kind === 'files' && plan.filesSet === 'custom' && typeof files === 'string' ? files : null;
  const estimate =
    valid && !filesError
      ? estimateSeconds({
          kind: plan.kind,
          sizes,
          runs: plan.runs,
          restSeconds: Math.round(plan.restMinutes * 60),
          formats,
          filesSet: plan.filesSet,
          ...(typeof files !== 'string' && plan.filesSet === 'custom' ? { files } : {}),
          commonPasses: common ? chosen.filter((f) => !NO_DIRECT_IO.has(f)).length : 0,
          ...(disk ? { diskBytes: disk.sizeBytes } : {}),
        })
      : { seconds: NaN };
  const seconds = estimate.seconds;

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

      {plan.kind === 'files' && (
        <fieldset className="wizard-fieldset">
          <legend className="field__label">File set</legend>
          <div className="wizard-sizes">
            {FILE_SETS.map((f) => (
              <label key={f.value} className="toggle">
                <input
                  type="radio"
                  name={setsName}
                  checked={plan.filesSet === f.value}
                  onChange={() => setPlan({ filesSet: f.value })}
                  data-testid={`wizard-files-${f.value}`}
                />{' '}
                {f.label}
              </label>
            ))}
          </div>
          {plan.filesSet === 'custom' && (
            <div className="wizard-row">
              <NumberField
                label="Files"
                value={plan.filesCount}
                onChange={(v) => setPlan({ filesCount: v })}
                min={2}
                max={10000}
                testId="wizard-files-count"
              />
              <SizeText
                label="Smallest"
                value={plan.filesMinText}
                onChange={(v) => setPlan({ filesMinText: v })}
                testId="wizard-files-min"
              />
              <SizeText
                label="Largest"
                value={plan.filesMaxText}
                onChange={(v) => setPlan({ filesMaxText: v })}
                testId="wizard-files-max"
              />
            </div>
          )}
          {filesError && <p className="field-error">{filesError}</p>}
        </fieldset>
      )}

      {isSizedPlan(plan.kind) && (
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
                <FieldError id={customErrId} error={customError} />
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
      {plan.kind !== 'hash' && (
        <label className="toggle wizard-common">
          <input
            type="checkbox"
            checked={common}
            onChange={(e) => setPlan({ commonMode: e.target.checked })}
            data-testid="wizard-common-mode"
          />{' '}
          Also measure every format as applications see it (through the page cache, flushed), so formats that cannot bypass the cache
          (fscrypt) are compared on like rows
        </label>
      )}
      {fitError && (
        <p className="field-error" role="alert" data-testid="wizard-plan-fit">
          {fitError}
        </p>
      )}
      <p className="wizard-estimate" data-testid="wizard-estimate">
        {valid ? (
          <>
            The whole plan takes <strong>{aboutText(seconds)}</strong>
            {formats > 0 ? ` for ${formats} format${formats === 1 ? '' : 's'}` : ''} (a rough guess at {PLAN_RATES.writeMBps} MB/s, with the
            rests and {PLAN_RATES.formatSeconds} s per format to erase and format, and once more for the one it is left in).
            {estimate.scaled ? ` ${estimate.scaled}` : ''}
          </>
        ) : (
          'Fix the fields above to see how long the plan takes.'
        )}
      </p>
    </div>
  );
}

/** A typed size ("2 MB") with its label: the custom set's smallest and largest file. */
function SizeText(p: { label: string; value: string; onChange: (v: string) => void; testId: string }) {
  return (
    <label className="field">
      <span className="field__label">{p.label}</span>
      <input className="text-input text-input--size" value={p.value} onChange={(e) => p.onChange(e.target.value)} data-testid={p.testId} />
    </label>
  );
}
