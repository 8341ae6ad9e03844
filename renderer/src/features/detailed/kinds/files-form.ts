// The many-file panel's form: a preset set of files, or a custom count and size range, with runs
// and rest. The amount shrinks to the free space, as the sustained test's does.
import { fitPlan } from '@model/presets';
import type { DetailedSettings } from '@model/settings';
import { GiB, repeatErrors, restSeconds, whole, within } from '../form-rules';
import type { FormErrors, KindForm } from '../kind-entry';

export type FilesPreset = Extract<DetailedSettings, { kind: 'files' }>['preset'];

export const FILES_PRESETS: ReadonlyArray<{ value: FilesPreset; label: string; detail: string }> = [
  { value: 'quick', label: 'Quick', detail: '40 files, 2–600 MB, ≈ 5 GB' },
  { value: 'standard', label: 'Standard', detail: '160 files, 2 MB – 2 GB, ≈ 53 GB (Stibium’s set)' },
  { value: 'custom', label: 'Custom', detail: 'your count and size range' },
];

export interface FilesForm {
  preset: FilesPreset;
  /** Custom set: how many files, and their smallest and largest size in MB (10^6 bytes). */
  count: number;
  minMB: number;
  maxMB: number;
  runs: number;
  restMinutes: number;
}

export const FILES_MIN_COUNT = 2;
export const FILES_MAX_COUNT = 10000;
/** The contract's bounds for one file: 4096 bytes … 64 GiB. */
export const FILE_MIN_BYTES = 4096;
export const FILE_MAX_BYTES = 64 * GiB;

export function filesErrors(f: FilesForm): FormErrors {
  const e = repeatErrors(f);
  if (f.preset !== 'custom') return e;
  if (!whole(f.count, FILES_MIN_COUNT, FILES_MAX_COUNT))
    e.count = `Files: a whole number from ${FILES_MIN_COUNT} to ${FILES_MAX_COUNT.toLocaleString('en-US')}.`;
  const lo = FILE_MIN_BYTES / 1e6;
  const hi = FILE_MAX_BYTES / 1e6;
  const range = `${lo} MB to ${Math.floor(hi).toLocaleString('en-US')} MB`;
  if (!within(f.minMB, lo, hi)) e.minMB = `Smallest file: ${range}.`;
  if (!within(f.maxMB, lo, hi)) e.maxMB = `Largest file: ${range}.`;
  else if (!e.minMB && f.maxMB < f.minMB) e.maxMB = 'The largest file cannot be smaller than the smallest.';
  return e;
}

/** The custom set in bytes, or undefined for a preset's own set. */
function customFiles(f: FilesForm): { count: number; minBytes: number; maxBytes: number } | undefined {
  if (f.preset !== 'custom') return undefined;
  return { count: f.count, minBytes: Math.round(f.minMB * 1e6), maxBytes: Math.round(f.maxMB * 1e6) };
}

export const filesForm: KindForm<'files', FilesForm> = {
  defaults: { preset: 'quick', count: 160, minMB: 2, maxMB: 2000, runs: 1, restMinutes: 5 },
  errors: filesErrors,
  settings: (kind, f, target) => ({ kind, target, preset: f.preset, runs: f.runs, restSeconds: restSeconds(f), ...customFiles(f) }),
  fit: (kind, f, target) => {
    const files = customFiles(f);
    return fitPlan(kind, { preset: f.preset, ...(files ? { files } : {}) }, target);
  },
  adaptsToFreeSpace: true,
};
