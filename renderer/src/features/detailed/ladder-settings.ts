// The sweep and small-file panels' forms: the sweep's preset and how long (or how much) each
// step runs; the small-file test's preset, file count and file size. Pure, so the request a
// Start sends is checked against what the controls show.
import {
  SMALL_FILE_MAX_BYTES,
  SMALL_FILE_MIN_BYTES,
  SMALL_FILES_MAX_COUNT,
  SMALL_FILES_PRESET_SETS,
  type SmallFilesPreset,
} from '@model/kinds/small-files/plan';
import type { SweepPreset } from '@model/kinds/sweep/plan';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

export interface SweepForm {
  preset: SweepPreset;
  /** Each step for `seconds`, or over `stepBytes` of data. */
  by: 'time' | 'volume';
  seconds: number;
  stepBytes: number;
  runs: number;
  restMinutes: number;
}

export const SWEEP_DEFAULTS: SweepForm = { preset: 'standard', by: 'time', seconds: 2, stepBytes: GiB, runs: 1, restMinutes: 5 };

export const SWEEP_PRESET_CHOICES: ReadonlyArray<{ value: SweepPreset; label: string; detail: string }> = [
  { value: 'standard', label: 'Standard', detail: '4 KiB to 64 MiB, one I/O at a time' },
  { value: 'atto', label: 'ATTO', detail: 'ATTO Disk Benchmark’s 512 B to 64 MiB at queue depth 4' },
  { value: 'quickbench', label: 'QuickBench', detail: '4 KiB to 100 MiB, one I/O at a time' },
];
export const SWEEP_SECONDS_CHOICES: readonly number[] = [0.5, 1, 2, 5, 10];
export const SWEEP_STEP_BYTES_CHOICES: readonly number[] = [256 * MiB, GiB, 4 * GiB];

export interface SmallFilesForm {
  preset: SmallFilesPreset;
  count: number;
  fileBytes: number;
  runs: number;
  restMinutes: number;
}

export const SMALL_FILES_DEFAULTS: SmallFilesForm = { preset: 'quick', ...SMALL_FILES_PRESET_SETS.quick, runs: 1, restMinutes: 5 };

export const SMALL_FILES_PRESET_CHOICES: ReadonlyArray<{ value: SmallFilesPreset; label: string; detail: string }> = [
  { value: 'quick', label: 'Quick', detail: '1,000 files of 4 KiB' },
  { value: 'nas', label: 'NAS', detail: '25,600 files of 4 KiB (100 MiB), as NAS reviews copy' },
];
/** 4 KiB to 1 MiB, the sizes the engine's small-file mode takes. */
export const SMALL_FILE_SIZE_CHOICES: readonly number[] = [4, 8, 16, 32, 64, 128, 256, 512, 1024].map((k) => k * KiB);
export { SMALL_FILES_MAX_COUNT };

const whole = (n: number, lo: number, hi: number): boolean => Number.isInteger(n) && n >= lo && n <= hi;

/** The sweep's own fields (runs and rest are checked with the other panels'). */
export function sweepFieldErrors(f: SweepForm): Partial<Record<string, string>> {
  const e: Partial<Record<string, string>> = {};
  if (f.by === 'time' && !(Number.isFinite(f.seconds) && f.seconds >= 0.5 && f.seconds <= 60))
    e.seconds = 'Time per step: 0.5 to 60 seconds.';
  return e;
}

export function smallFilesFieldErrors(f: SmallFilesForm): Partial<Record<string, string>> {
  const e: Partial<Record<string, string>> = {};
  if (!whole(f.count, 1, SMALL_FILES_MAX_COUNT))
    e.count = `Files: a whole number from 1 to ${SMALL_FILES_MAX_COUNT.toLocaleString('en-US')}.`;
  if (!whole(f.fileBytes, SMALL_FILE_MIN_BYTES, SMALL_FILE_MAX_BYTES)) e.fileBytes = 'File size: 4 KiB to 1 MiB.';
  return e;
}
