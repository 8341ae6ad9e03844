// The small-file test's form: its preset, file count and file size, with runs and rest.
import { fitPlan } from '@model/presets';
import {
  SMALL_FILE_MAX_BYTES,
  SMALL_FILE_MIN_BYTES,
  SMALL_FILES_MAX_COUNT,
  SMALL_FILES_PRESET_SETS,
  type SmallFilesPreset,
} from '@model/kinds/small-files/plan';
import { repeatErrors, restSeconds, whole } from '../form-rules';
import type { FormErrors, KindForm } from '../kind-entry';

const KiB = 1024;

export interface SmallFilesForm {
  preset: SmallFilesPreset;
  count: number;
  fileBytes: number;
  runs: number;
  restMinutes: number;
}

export const SMALL_FILES_PRESET_CHOICES: ReadonlyArray<{ value: SmallFilesPreset; label: string; detail: string }> = [
  { value: 'quick', label: 'Quick', detail: '1,000 files of 4 KiB' },
  { value: 'nas', label: 'NAS', detail: '25,600 files of 4 KiB (105 MB), as NAS reviews copy' },
];
/** 4 KiB to 1 MiB, the sizes the engine's small-file mode takes. */
export const SMALL_FILE_SIZE_CHOICES: readonly number[] = [4, 8, 16, 32, 64, 128, 256, 512, 1024].map((k) => k * KiB);
export { SMALL_FILES_MAX_COUNT };

export function smallFilesErrors(f: SmallFilesForm): FormErrors {
  const e = repeatErrors(f);
  if (!whole(f.count, 1, SMALL_FILES_MAX_COUNT))
    e.count = `Files: a whole number from 1 to ${SMALL_FILES_MAX_COUNT.toLocaleString('en-US')}.`;
  if (!whole(f.fileBytes, SMALL_FILE_MIN_BYTES, SMALL_FILE_MAX_BYTES)) e.fileBytes = 'File size: 4 KiB to 1 MiB.';
  return e;
}

export const smallFilesForm: KindForm<'small-files', SmallFilesForm> = {
  defaults: { preset: 'quick', ...SMALL_FILES_PRESET_SETS.quick, runs: 1, restMinutes: 5 },
  errors: smallFilesErrors,
  settings: (kind, f, target) => ({
    kind,
    target,
    preset: f.preset,
    count: f.count,
    fileBytes: f.fileBytes,
    runs: f.runs,
    restSeconds: restSeconds(f),
  }),
  fit: (kind, f, target) => fitPlan(kind, { preset: f.preset, smallFiles: { count: f.count, fileBytes: f.fileBytes } }, target),
};
