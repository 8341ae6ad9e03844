// The verify panel's form: how much to verify at most (the whole free space by default). One pass
// only: the test writes everything, then reads it all back.
import { fitPlan } from '@model/presets';
import type { KindForm } from '../kind-entry';

/** Verify the whole free space (0), or at most 1, 10, 100 GB (decimal, as the engine counts). */
export const VERIFY_SIZES: readonly number[] = [0, 1e9, 10e9, 100e9];

export interface VerifyForm {
  /** At most this many bytes; 0: the whole free space less the reserve. */
  maxBytes: number;
}

export const verifyForm: KindForm<'verify', VerifyForm> = {
  defaults: { maxBytes: 0 },
  errors: () => ({}),
  settings: (kind, f, target) => ({ kind, target, ...(f.maxBytes > 0 ? { maxBytes: f.maxBytes } : {}), runs: 1, restSeconds: 0 }),
  fit: (kind, f, target) => fitPlan(kind, f.maxBytes > 0 ? { size: f.maxBytes } : {}, target),
  adaptsToFreeSpace: true,
};
