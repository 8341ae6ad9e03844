// The CrystalDiskMark panel's form: CrystalDiskMark's sizes, profiles, modes, runs, measure time
// and interval, with a rest between runs. The size menu is in binary units, and when the test
// does not fit the panel offers the largest of its sizes that does.
import { fitPlan } from '@model/presets';
import type { DetailedSettings } from '@model/settings';
import { formatBinarySize } from '../../../lib/figure-format';
import { GiB, MiB, repeatErrors, restSeconds } from '../form-rules';
import type { KindForm } from '../kind-entry';

type CdmSettings = Extract<DetailedSettings, { kind: 'cdm' }>;
export type CdmPreset = CdmSettings['preset'];
export type CdmMode = CdmSettings['mode'];

/** CrystalDiskMark's test sizes: 16 MiB … 64 GiB. */
export const CDM_SIZES: readonly number[] = [16, 32, 64, 128, 256, 512]
  .map((m) => m * MiB)
  .concat([1, 2, 4, 8, 16, 32, 64].map((g) => g * GiB));
export const CDM_PRESETS: ReadonlyArray<{ value: CdmPreset; label: string }> = [
  { value: 'default', label: 'Default' },
  { value: 'nvme', label: 'NVMe SSD' },
  { value: 'peak', label: 'Peak' },
  { value: 'realworld', label: 'Real World' },
  // Default's tests, each ended once its 95 % interval is within ± 3 % (1 s to the measure time).
  { value: 'fast', label: 'Fast (± 3 %)' },
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

export const cdmForm: KindForm<'cdm', CdmForm> = {
  defaults: { preset: 'default', mode: 'readwrite', sizeBytes: GiB, runs: 5, seconds: 5, intervalSeconds: 5, restMinutes: 0 },
  // CrystalDiskMark's own run menu stops at 9.
  errors: (f) => repeatErrors(f, 9),
  settings: (kind, f, target) => ({
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
  fit: (kind, f, target) =>
    fitPlan(kind, { size: f.sizeBytes, preset: f.preset, mode: f.mode }, target, { choices: CDM_SIZES, sizeLabel: formatBinarySize }),
  offer: (largestBytes) => ({ sizeBytes: largestBytes }),
};
