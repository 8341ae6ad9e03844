// The sustained-write panel's form: how much to write at most, runs and rest. The amount shrinks
// to the free space, so the panel says what it keeps free rather than refusing.
import { fitPlan } from '@model/presets';
import { repeatErrors, restSeconds } from '../form-rules';
import type { KindForm } from '../kind-entry';

/** Write up to 10, 50, 100, 200 or 500 GB (decimal, as the engine counts). */
export const SUSTAINED_SIZES: readonly number[] = [10e9, 50e9, 100e9, 200e9, 500e9];

export interface SustainedForm {
  maxBytes: number;
  runs: number;
  /** Rest between runs, minutes (only sent when runs > 1). */
  restMinutes: number;
}

export const sustainedForm: KindForm<'sustained', SustainedForm> = {
  defaults: { maxBytes: 50e9, runs: 1, restMinutes: 5 },
  errors: (f) => repeatErrors(f),
  settings: (kind, f, target) => ({ kind, target, maxBytes: f.maxBytes, runs: f.runs, restSeconds: restSeconds(f) }),
  fit: (kind, f, target) => fitPlan(kind, { size: f.maxBytes }, target),
  adaptsToFreeSpace: true,
};
