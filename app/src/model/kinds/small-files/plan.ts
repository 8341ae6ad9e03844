// The small-file test's plan: what copying many small files costs, operation by operation. N files
// of one size are each created, written, fsynced and closed, then stat'ed, then opened and read,
// then deleted, every operation timed in the engine (engine/small_files.cc). Unlike the many-file
// test, which times payload I/O, this counts the file system's own work and, on a share, every
// network round trip: a NAS reviewer's "thousands of small files".
import type { EngineSpec } from '../../engine-types.js';
import { inputError } from '../../errors.js';
import { formatBytesBinary } from '../../units.js';
import { KiB, MiB, type Plan, type PlanOptions } from '../plan.js';

/** The sets' names (--preset). */
export const SMALL_FILES_PRESETS = ['quick', 'nas'] as const;
export type SmallFilesPreset = (typeof SMALL_FILES_PRESETS)[number];

/** How many files, and each one's size (--files, --file-size; the screen's). */
export interface SmallFilesSet {
  count?: number;
  fileBytes?: number;
}

declare module '../plan.js' {
  interface KindPlanOptions {
    /** small-files: how many files, and each one's size. */
    smallFiles?: SmallFilesSet;
  }
  interface KindPlanSettings {
    smallFiles?: Required<SmallFilesSet>;
  }
}

export const SMALL_FILE_MIN_BYTES = 4 * KiB;
export const SMALL_FILE_MAX_BYTES = MiB;
export const SMALL_FILES_MAX_COUNT = 100_000;
/** quick: a thousand 4 KiB files; nas: the NAS reviewers' "thousands of small files, 100 MB in
 *  all" (25,600 files of 4 KiB = 100 MiB). */
export const SMALL_FILES_PRESET_SETS: Record<SmallFilesPreset, { count: number; fileBytes: number }> = {
  quick: { count: 1000, fileBytes: 4 * KiB },
  nas: { count: 25_600, fileBytes: 4 * KiB },
};
/** Said in the result, the CLI and the panel: what the figures are of. */
export const SMALL_FILES_SCOPE =
  'This measures the file system and, on a share, every network round trip (a create, an fsync, a stat each cost one or more), not only the disk: it is what copying many small files costs.';

export function smallFilesPlan(o: PlanOptions): Plan {
  const preset = (o.preset ?? 'quick') as SmallFilesPreset;
  if (!SMALL_FILES_PRESETS.includes(preset))
    throw inputError(`the small-file preset must be ${SMALL_FILES_PRESETS.join(' or ')}, not "${preset}"`);
  const base = SMALL_FILES_PRESET_SETS[preset];
  const count = o.smallFiles?.count ?? base.count;
  const fileBytes = o.smallFiles?.fileBytes ?? base.fileBytes;
  if (!Number.isInteger(count) || count < 1 || count > SMALL_FILES_MAX_COUNT)
    throw inputError(`the file count must be a whole number from 1 to ${SMALL_FILES_MAX_COUNT.toLocaleString('en-US')}`);
  if (!Number.isInteger(fileBytes) || fileBytes < SMALL_FILE_MIN_BYTES || fileBytes > SMALL_FILE_MAX_BYTES)
    throw inputError(`the file size must be from 4 KiB to 1 MiB, not ${formatBytesBinary(fileBytes)}`);
  const cache = o.cache ?? 'auto';
  const pattern = o.pattern ?? 'random';
  const totalBytes = count * fileBytes;
  // bs, qd and threads are not used by a small-files spec (each file is one whole transfer).
  const spec: Omit<EngineSpec, 'path'> = {
    rw: 'write',
    bs: 4 * KiB,
    qd: 1,
    threads: 1,
    fileSize: totalBytes,
    pattern,
    cache,
    keepFile: false,
    smallFiles: { files: count, fileBytes },
  };
  return {
    kind: 'small-files',
    fileSize: totalBytes,
    // Each file takes whole blocks: a 4 KiB block a file at the least.
    needBytes: count * Math.ceil(fileBytes / (4 * KiB)) * 4 * KiB,
    steps: [{ name: `${count.toLocaleString('en-US')} files of ${formatBytesBinary(fileBytes)}`, spec, file: 'small-file.dat' }],
    settings: { size: totalBytes, pattern, cache, preset, smallFiles: { count, fileBytes } },
    // In the notes too, so every view and export of the result says it.
    notes: [SMALL_FILES_SCOPE],
  };
}
