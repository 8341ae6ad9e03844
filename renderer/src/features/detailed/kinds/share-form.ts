// The share panel's form: the large file (more than the server keeps in memory, so its read comes
// from the server's disk), how many small files time the protocol, runs and rest.
import { fitPlan } from '@model/presets';
import { SHARE_DISK_BYTES, SHARE_FILES, SHARE_MAX_FILES } from '@model/kinds/share/plan';
import { repeatErrors, restSeconds, whole } from '../form-rules';
import type { FormErrors, KindForm } from '../kind-entry';

/** The large file: 1 GB (a small NAS), or more for a server with more memory; decimal, as the
 *  Quick Test's sizes. */
export const SHARE_SIZES: readonly number[] = [SHARE_DISK_BYTES, 4e9, 16e9];
export { SHARE_MAX_FILES };

export interface ShareForm {
  sizeBytes: number;
  files: number;
  runs: number;
  restMinutes: number;
}

export function shareErrors(f: ShareForm): FormErrors {
  const e = repeatErrors(f);
  if (!whole(f.files, 1, SHARE_MAX_FILES)) e.files = `Small files: a whole number from 1 to ${SHARE_MAX_FILES.toLocaleString('en-US')}.`;
  return e;
}

export const shareForm: KindForm<'share', ShareForm> = {
  defaults: { sizeBytes: SHARE_DISK_BYTES, files: SHARE_FILES, runs: 1, restMinutes: 5 },
  errors: shareErrors,
  settings: (kind, f, target) => ({ kind, target, sizeBytes: f.sizeBytes, files: f.files, runs: f.runs, restSeconds: restSeconds(f) }),
  fit: (kind, f, target) => fitPlan(kind, { size: f.sizeBytes, share: { files: f.files } }, target),
};
