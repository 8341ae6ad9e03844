// The test kinds and the settings a plan echoes into its result (core/presets.ts builds plans).
import type { CacheRequest, DataPattern } from './engine-types.js';
import type { FileSetOptions } from './file-set.js';

export const TEST_KINDS = ['quick', 'cdm', 'sustained', 'files', 'seq-write', 'seq-read', 'rand-read', 'rand-write', 'mix'] as const;
export type TestKind = (typeof TEST_KINDS)[number];

/** CrystalDiskMark's test modes: each row read then write (its default), one direction, a 70/30
 *  read/write mix, or all three. */
export const CDM_MODES = ['readwrite', 'read', 'write', 'mix', 'all'] as const;
export type CdmMode = (typeof CDM_MODES)[number];

export interface PlanSettings {
  size: number;
  preset?: string;
  mode?: CdmMode;
  reserveBytes?: number;
  files?: FileSetOptions;
  bs?: number;
  qd?: number;
  threads?: number;
  pattern: DataPattern;
  seconds?: number;
  warmupSeconds?: number;
  cache: CacheRequest;
  rwmixread?: number;
}
