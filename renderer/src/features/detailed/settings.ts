// The Detailed screen's settings forms: their choices (CrystalDiskMark's sizes, profiles and
// modes; the sustained test's sizes; the many-file presets; the video test's formats), their defaults, what is wrong
// with a form as typed, and the DetailedSettings payload a form turns into. Pure, so the
// payload a Start sends can be checked against exactly what the controls show.
import type { Fit } from '@model/fit';
import { fitPlan } from '@model/presets';
import { formatBinarySize } from '../../lib/figure-format';
import type { DetailedKind, DetailedSettings } from '@model/settings';
import { VIDEO_DEFAULTS, videoErrors, videoFormatOf, type VideoForm } from './video-settings';
import {
  SMALL_FILES_DEFAULTS,
  smallFilesFieldErrors,
  SWEEP_DEFAULTS,
  sweepFieldErrors,
  type SmallFilesForm,
  type SweepForm,
} from './ladder-settings';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

type CdmSettings = Extract<DetailedSettings, { kind: 'cdm' }>;
type FilesSettings = Extract<DetailedSettings, { kind: 'files' }>;
export type CdmPreset = CdmSettings['preset'];
export type CdmMode = CdmSettings['mode'];
export type FilesPreset = FilesSettings['preset'];

// ---- CrystalDiskMark ------------------------------------------------------------------------

/** CrystalDiskMark's test sizes: 16 MiB … 64 GiB. */
export const CDM_SIZES: readonly number[] = [16, 32, 64, 128, 256, 512]
  .map((m) => m * MiB)
  .concat([1, 2, 4, 8, 16, 32, 64].map((g) => g * GiB));
export const CDM_PRESETS: ReadonlyArray<{ value: CdmPreset; label: string }> = [
  { value: 'default', label: 'Default' },
  { value: 'nvme', label: 'NVMe SSD' },
  { value: 'peak', label: 'Peak' },
  { value: 'realworld', label: 'Real World' },
];
export const CDM_MODES: ReadonlyArray<{ value: CdmMode; label: string }> = [
  { value: 'readwrite', label: 'Read & Write' },
  { value: 'read', label: 'Read' },
  { value: 'write', label: 'Write' },
  { value: 'mix', label: 'Mix' },
  { value: 'all', label: 'All' },
];
export const CDM_RUN_CHOICES: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
export const CDM_SECONDS_CHOICES: readonly number[] = [1, 2, 3, 5, 10, 20, 30, 60];
export const CDM_INTERVAL_CHOICES: readonly number[] = [0, 1, 2, 3, 5, 10];

export interface CdmForm {
  preset: CdmPreset;
  mode: CdmMode;
  sizeBytes: number;
  runs: number;
  /** Measured seconds per test. */
  seconds: number;
  /** Pause between tests, seconds. */
  intervalSeconds: number;
  /** Rest between runs, minutes. */
  restMinutes: number;
}

export const CDM_DEFAULTS: CdmForm = {
  preset: 'default',
  mode: 'readwrite',
  sizeBytes: GiB,
  runs: 5,
  seconds: 5,
  intervalSeconds: 5,
  restMinutes: 0,
};

// ---- sustained write -------------------------------------------------------------------------

/** Write up to 10, 50, 100, 200 or 500 GB (decimal, as the engine counts). */
export const SUSTAINED_SIZES: readonly number[] = [10e9, 50e9, 100e9, 200e9, 500e9];

export interface SustainedForm {
  maxBytes: number;
  runs: number;
  /** Rest between runs, minutes (only sent when runs > 1). */
  restMinutes: number;
}

export const SUSTAINED_DEFAULTS: SustainedForm = { maxBytes: 50e9, runs: 1, restMinutes: 5 };

// ---- many files ------------------------------------------------------------------------------

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

export const FILES_DEFAULTS: FilesForm = { preset: 'quick', count: 160, minMB: 2, maxMB: 2000, runs: 1, restMinutes: 5 };

// ---- limits and checks -----------------------------------------------------------------------

export const MAX_RUNS = 10;
export const MAX_REST_MINUTES = 120;
export const FILES_MIN_COUNT = 2;
export const FILES_MAX_COUNT = 10000;
/** The contract's bounds for one file: 4096 bytes … 64 GiB. */
export const FILE_MIN_BYTES = 4096;
export const FILE_MAX_BYTES = 64 * GiB;

export interface Forms {
  cdm: CdmForm;
  sustained: SustainedForm;
  files: FilesForm;
  video: VideoForm;
  sweep: SweepForm;
  smallFiles: SmallFilesForm;
}

export const DEFAULT_FORMS: Forms = {
  cdm: CDM_DEFAULTS,
  sustained: SUSTAINED_DEFAULTS,
  files: FILES_DEFAULTS,
  video: VIDEO_DEFAULTS,
  sweep: SWEEP_DEFAULTS,
  smallFiles: SMALL_FILES_DEFAULTS,
};

/** What is wrong with a form, field by field, in plain words; {} when it can be sent. */
export type FormErrors = Partial<Record<string, string>>;

const whole = (n: number, lo: number, hi: number): boolean => Number.isInteger(n) && n >= lo && n <= hi;
const within = (n: number, lo: number, hi: number): boolean => Number.isFinite(n) && n >= lo && n <= hi;

function repeatErrors(f: { runs: number; restMinutes: number }, maxRuns: number): FormErrors {
  const e: FormErrors = {};
  if (!whole(f.runs, 1, maxRuns)) e.runs = `Runs: a whole number from 1 to ${maxRuns}.`;
  if (f.runs > 1 && !within(f.restMinutes, 0, MAX_REST_MINUTES)) e.restMinutes = `Rest: 0 to ${MAX_REST_MINUTES} minutes.`;
  return e;
}

export function cdmErrors(f: CdmForm): FormErrors {
  return repeatErrors(f, 9);
}

export function sustainedErrors(f: SustainedForm): FormErrors {
  return repeatErrors(f, MAX_RUNS);
}

/** The video form's errors, runs and rest included (what its panel marks). */
export function videoFormErrors(f: VideoForm): FormErrors {
  return { ...repeatErrors(f, MAX_RUNS), ...videoErrors(f) };
}

export function sweepErrors(f: SweepForm): FormErrors {
  return { ...repeatErrors(f, MAX_RUNS), ...sweepFieldErrors(f) };
}

export function smallFilesErrors(f: SmallFilesForm): FormErrors {
  return { ...repeatErrors(f, MAX_RUNS), ...smallFilesFieldErrors(f) };
}

export function filesErrors(f: FilesForm): FormErrors {
  const e = repeatErrors(f, MAX_RUNS);
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

/** Rest between runs in seconds: only meaningful with more than one run. */
function restSeconds(f: { runs: number; restMinutes: number }): number {
  return f.runs > 1 ? Math.round(f.restMinutes * 60) : 0;
}

type KindSettings<K extends DetailedKind> = Extract<DetailedSettings, { kind: K }>;
type Target = { freeBytes: number; totalBytes: number };

/** Each Detailed panel's form: its errors, the request a Start sends, and whether it fits. */
interface PanelForm<K extends DetailedKind> {
  errors: (forms: Forms) => FormErrors;
  settings: (kind: K, forms: Forms, target: string) => KindSettings<K>;
  fit: (kind: K, forms: Forms, target: Target) => Fit;
}

const PANEL_FORMS: { [K in DetailedKind]: PanelForm<K> } = {
  cdm: {
    errors: (forms) => cdmErrors(forms.cdm),
    settings: (kind, { cdm: f }, target) => ({
      kind,
      target,
      preset: f.preset,
      mode: f.mode,
      sizeBytes: f.sizeBytes,
      seconds: f.seconds,
      intervalSeconds: f.intervalSeconds,
      runs: f.runs,
      restSeconds: restSeconds(f),
    }),
    // The size menu is in binary units; the offer is one of its sizes.
    fit: (kind, { cdm: f }, target) =>
      fitPlan(kind, { size: f.sizeBytes, preset: f.preset, mode: f.mode }, target, { choices: CDM_SIZES, sizeLabel: formatBinarySize }),
  },
  sustained: {
    errors: (forms) => sustainedErrors(forms.sustained),
    settings: (kind, { sustained: f }, target) => ({ kind, target, maxBytes: f.maxBytes, runs: f.runs, restSeconds: restSeconds(f) }),
    fit: (kind, forms, target) => fitPlan(kind, { size: forms.sustained.maxBytes }, target),
  },
  files: {
    errors: (forms) => filesErrors(forms.files),
    settings: (kind, { files: f }, target) => {
      const base = { kind, target, preset: f.preset, runs: f.runs, restSeconds: restSeconds(f) };
      if (f.preset !== 'custom') return base;
      return { ...base, count: f.count, minBytes: Math.round(f.minMB * 1e6), maxBytes: Math.round(f.maxMB * 1e6) };
    },
    fit: (kind, { files: f }, target) => {
      const files =
        f.preset === 'custom' ? { count: f.count, minBytes: Math.round(f.minMB * 1e6), maxBytes: Math.round(f.maxMB * 1e6) } : undefined;
      return fitPlan(kind, { preset: f.preset, ...(files ? { files } : {}) }, target);
    },
  },
  video: {
    errors: (forms) => videoFormErrors(forms.video),
    settings: (kind, { video: f }, target) => ({
      kind,
      target,
      format: videoFormatOf(f)?.id ?? '',
      layout: f.layout,
      buffer: f.buffer,
      seconds: f.seconds,
      runs: f.runs,
      restSeconds: restSeconds(f),
      ...(f.from ? { from: f.from } : {}),
    }),
    fit: (kind, { video: f }, target) =>
      fitPlan(kind, { seconds: f.seconds, video: { format: videoFormatOf(f)?.id ?? '', layout: f.layout, buffer: f.buffer } }, target),
  },
  sweep: {
    errors: (forms) => sweepErrors(forms.sweep),
    settings: (kind, { sweep: f }, target) => ({
      kind,
      target,
      preset: f.preset,
      ...(f.by === 'time' ? { seconds: f.seconds } : { stepBytes: f.stepBytes }),
      runs: f.runs,
      restSeconds: restSeconds(f),
    }),
    fit: (kind, { sweep: f }, target) =>
      fitPlan(kind, { preset: f.preset, ...(f.by === 'time' ? { seconds: f.seconds } : { size: f.stepBytes }) }, target),
  },
  'small-files': {
    errors: (forms) => smallFilesErrors(forms.smallFiles),
    settings: (kind, { smallFiles: f }, target) => ({
      kind,
      target,
      preset: f.preset,
      count: f.count,
      fileBytes: f.fileBytes,
      runs: f.runs,
      restSeconds: restSeconds(f),
    }),
    fit: (kind, { smallFiles: f }, target) =>
      fitPlan(kind, { preset: f.preset, smallFiles: { count: f.count, fileBytes: f.fileBytes } }, target),
  },
};

/** The errors of `kind`'s form. */
export function formErrors(kind: DetailedKind, forms: Forms): FormErrors {
  return PANEL_FORMS[kind].errors(forms);
}

/** The request a Start sends for `kind` on `target`, exactly as the form shows it. Check
 *  formErrors first: an invalid form gives a payload the core refuses. */
export function toDetailedSettings<K extends DetailedKind>(kind: K, forms: Forms, target: string): DetailedSettings {
  return (PANEL_FORMS[kind] as PanelForm<K>).settings(kind, forms, target);
}

/** Whether `kind`'s test, as its form stands, fits on the target: the core's one fit rule, so
 *  Start is disabled exactly when the runner would refuse. Null while the form is invalid. */
export function formFit<K extends DetailedKind>(kind: K, forms: Forms, target: Target): Fit | null {
  if (Object.keys(formErrors(kind, forms)).length > 0) return null;
  return (PANEL_FORMS[kind] as PanelForm<K>).fit(kind, forms, target);
}
