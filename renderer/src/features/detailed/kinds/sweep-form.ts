// The transfer-size sweep's form: its preset ladder and how long (or over how much data) each
// step runs, with runs and rest.
import { fitPlan } from '@model/presets';
import type { SweepPreset } from '@model/kinds/sweep/plan';
import { repeatErrors, restSeconds } from '../form-rules';
import type { FormErrors, KindForm } from '../kind-entry';

export interface SweepForm {
  preset: SweepPreset;
  /** Each step for `seconds`, or over `stepBytes` of data. */
  by: 'time' | 'volume';
  seconds: number;
  stepBytes: number;
  runs: number;
  restMinutes: number;
}

export const SWEEP_PRESET_CHOICES: ReadonlyArray<{ value: SweepPreset; label: string; detail: string }> = [
  { value: 'standard', label: 'Standard', detail: '4 KiB to 64 MiB, one I/O at a time' },
  { value: 'atto', label: 'ATTO', detail: 'ATTO Disk Benchmark’s 512 B to 64 MiB at queue depth 4' },
  {
    value: 'quickbench',
    label: 'QuickBench',
    detail: '4 KiB to 16 MiB, then 20–100 MB in 20 MB steps, one I/O at a time, with its 4 KB and 20–100 MB averages',
  },
];
export const SWEEP_SECONDS_CHOICES: readonly number[] = [0.5, 1, 2, 5, 10];
/** Each step over 1, 4 or 10 GB (decimal, as the Quick Test's sizes): whole transfers come within
 *  1 % of these at every size of every ladder but QuickBench's 100 MiB at 1 GB, which the plan notes. */
export const SWEEP_STEP_BYTES_CHOICES: readonly number[] = [1e9, 4e9, 10e9];

export function sweepErrors(f: SweepForm): FormErrors {
  const e = repeatErrors(f);
  if (f.by === 'time' && !(Number.isFinite(f.seconds) && f.seconds >= 0.5 && f.seconds <= 60))
    e.seconds = 'Time per step: 0.5 to 60 seconds.';
  return e;
}

export const sweepForm: KindForm<'sweep', SweepForm> = {
  defaults: { preset: 'standard', by: 'time', seconds: 2, stepBytes: 1e9, runs: 1, restMinutes: 5 },
  errors: sweepErrors,
  settings: (kind, f, target) => ({
    kind,
    target,
    preset: f.preset,
    ...(f.by === 'time' ? { seconds: f.seconds } : { stepBytes: f.stepBytes }),
    runs: f.runs,
    restSeconds: restSeconds(f),
  }),
  fit: (kind, f, target) =>
    fitPlan(kind, { preset: f.preset, ...(f.by === 'time' ? { seconds: f.seconds } : { size: f.stepBytes }) }, target),
};
