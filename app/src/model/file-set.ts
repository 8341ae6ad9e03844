// The many-file test's set of files (after Howard Oakley's Stibium): N files whose sizes are drawn
// log-uniformly between a minimum and a maximum — as many 2–20 MB files as 200 MB–2 GB ones —
// from a seeded generator, so the same preset and seed give the same set on every machine.
// Each file is written in a shuffled order, then read in another shuffled order.
import { inputError } from './errors.js';
import { formatBytes, formatBytesBinary } from './units.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export type FilesPreset = 'quick' | 'standard' | 'custom';
export const FILES_PRESETS = ['quick', 'standard', 'custom'] as const;

export interface FileSetOptions {
  count: number;
  /** Smallest and largest file size, bytes (sizes are rounded to whole 4 KiB / 1 MiB units). */
  minBytes: number;
  maxBytes: number;
  seed: number;
}

/** Standard: 160 files from 2 MB to 2 GB, about 53 GB — the set Howard Oakley uses for his
 *  published SSD measurements with Stibium. Quick keeps the range's lower end and the
 *  log-uniform shape at about a tenth of the bytes (40 files, 2–600 MB, about 5 GB). */
export const FILES_PRESET_OPTIONS: Record<Exclude<FilesPreset, 'custom'>, Omit<FileSetOptions, 'seed'>> = {
  quick: { count: 40, minBytes: 2e6, maxBytes: 6e8 },
  standard: { count: 160, minBytes: 2e6, maxBytes: 2e9 },
};
/** Fixed, so a preset is the same set everywhere. Log-uniform 2 MB – 2 GB averages 289 MB a file
 *  (46 GB for 160), and seeds spread the total from about 45 to 57 GB; this one draws a Standard
 *  set of 53.1 GB and a Quick set of 5.0 GB, the sizes the presets promise. */
export const DEFAULT_FILES_SEED = 326;
export const MIN_FILES = 2;
export const MAX_FILES = 10000;
/** Never fewer files than this when shrinking the set to fit: a fit needs points (Stibium's
 *  Quick set has 40). */
export const MIN_SCALED_FILES = 40;
/** The smallest file a scaled set may have (the engine's least file): small files are what a fit's
 *  intercept, the fixed cost per file, is made of. */
export const MIN_SCALED_FILE_BYTES = 4 * KiB;

export interface FileSetEntry {
  /** 0-based position in the drawn sequence. */
  index: number;
  /** file-0001.dat … */
  name: string;
  bytes: number;
  /** Block size for this file's I/O: the largest power of two up to maxBs dividing its size. */
  bs: number;
}

export interface FileSet {
  options: FileSetOptions;
  entries: FileSetEntry[];
  /** Indices into entries, in the order files are written / read. */
  writeOrder: number[];
  readOrder: number[];
  totalBytes: number;
}

/** A 32-bit seeded generator (mulberry32): small, fast, and the same in every JavaScript engine. */
export function prng(seed: number): () => number {
  let a = (Math.floor(seed) ^ Math.floor(seed / 2 ** 32)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function shuffled(n: number, next: () => number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Rounds a drawn size to whole units the engine can do uncached I/O in: 1 MiB above 1 MiB, 4 KiB below. */
export function roundFileSize(bytes: number): number {
  const unit = bytes >= MiB ? MiB : 4 * KiB;
  return Math.max(unit, Math.round(bytes / unit) * unit);
}

function blockFor(bytes: number, maxBs: number): number {
  let bs = 4 * KiB;
  while (bs * 2 <= maxBs && bytes % (bs * 2) === 0) bs *= 2;
  return bs;
}

export function validateFileSetOptions(o: FileSetOptions): void {
  if (!Number.isInteger(o.count) || o.count < MIN_FILES || o.count > MAX_FILES) {
    throw inputError(`file count must be a whole number from ${MIN_FILES} to ${MAX_FILES}, not ${o.count}`);
  }
  if (!Number.isSafeInteger(o.minBytes) || o.minBytes < 4 * KiB) throw inputError('the smallest file must be at least 4 KiB');
  if (!Number.isSafeInteger(o.maxBytes) || o.maxBytes < o.minBytes) {
    throw inputError('the largest file must be at least as large as the smallest');
  }
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) throw inputError('the seed must be a whole number of 0 or more');
}

/** Draws the set: sizes log-uniform in [min, max], then the two shuffled orders, all from `seed`. */
export function makeFileSet(o: FileSetOptions, maxBs = MiB): FileSet {
  validateFileSetOptions(o);
  const next = prng(o.seed);
  const lo = Math.log(o.minBytes);
  const hi = Math.log(o.maxBytes);
  const entries: FileSetEntry[] = [];
  for (let i = 0; i < o.count; i++) {
    const bytes = roundFileSize(Math.exp(lo + next() * (hi - lo)));
    entries.push({ index: i, name: `file-${String(i + 1).padStart(4, '0')}.dat`, bytes, bs: blockFor(bytes, maxBs) });
  }
  const writeOrder = shuffled(o.count, next);
  const readOrder = shuffled(o.count, next);
  return { options: { ...o }, entries, writeOrder, readOrder, totalBytes: entries.reduce((a, e) => a + e.bytes, 0) };
}

/**
 * The set that fits in `availableBytes`: the full set when it fits; else the first files of the
 * same drawn sequence while at least MIN_SCALED_FILES of them fit (the sizes keep their spread);
 * else MIN_SCALED_FILES files with every size scaled by one factor (the same log-uniform spread,
 * smaller), down to MIN_SCALED_FILE_BYTES for the smallest. `note` says what changed whenever
 * anything did; when even that does not fit it says so and why.
 */
export function fitFileSet(o: FileSetOptions, availableBytes: number, maxBs = MiB): { set: FileSet; note?: string } {
  const full = makeFileSet(o, maxBs);
  if (full.totalBytes <= availableBytes) return { set: full };
  const want = `${o.count} files (${formatBytes(full.totalBytes)})`;
  const have = formatBytes(Math.max(0, availableBytes));
  const least = Math.min(MIN_SCALED_FILES, o.count);
  let n = 0;
  for (let sum = 0; n < full.entries.length && sum + full.entries[n]!.bytes <= availableBytes; n++) sum += full.entries[n]!.bytes;
  if (n >= least) {
    const set = makeFileSet({ ...o, count: n }, maxBs);
    return {
      set,
      note: `Free space (${have} usable) is short of the ${want} this set needs: scaled down to ${n} files (${formatBytes(set.totalBytes)}).`,
    };
  }
  // Fewer files would leave the fits too few points: keep `least` files, each smaller by one factor.
  const first = makeFileSet({ ...o, count: least }, maxBs);
  for (let f = availableBytes / first.totalBytes; ; f *= 0.97) {
    const minBytes = Math.round(o.minBytes * f);
    if (minBytes < MIN_SCALED_FILE_BYTES) {
      throw inputError(
        `Not enough free space for a many-file test: ${have} usable, and ${least} files (the fewest a fit of time against size rests on) of at least ${formatBytesBinary(MIN_SCALED_FILE_BYTES)} each, spread as this set is, need more.`,
        'ENOSPC',
      );
    }
    const set = makeFileSet({ ...o, count: least, minBytes, maxBytes: Math.max(minBytes, Math.round(o.maxBytes * f)) }, maxBs);
    if (set.totalBytes <= availableBytes) {
      const range = `${formatBytes(set.options.minBytes)} – ${formatBytes(set.options.maxBytes)}`;
      return {
        set,
        note: `Free space (${have} usable) is short of the ${want} this set needs: scaled down to ${least} files of ${range} (${formatBytes(set.totalBytes)}), the same spread of sizes, smaller.`,
      };
    }
  }
}
