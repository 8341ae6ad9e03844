// Will a test fit on the target? One rule for the screens (Start disabled with the reason, the
// largest size that fits offered) and for the runner and workspace (which refuse what does not
// fit), so a screen never offers a test the engine will refuse, nor refuses one it would run.
// Pure and free of Node imports: the renderer imports it as it imports the other core models.
import { formatBytes } from './units.js';

const MiB = 1024 * 1024;

/** Head-room a test of a fixed size keeps free beyond its files: the file system's metadata and
 *  journal grow as the file is written, and other programs may write meanwhile. */
export const FREE_SPACE_RESERVE = 16 * MiB;

/** Tests that size themselves to free space (sustained, many files) leave max(512 MiB, 5 % of the
 *  volume) free unless told otherwise: a full disk slows some file systems and upsets everything
 *  else on it. */
export function defaultReserve(totalBytes: number): number {
  return Math.max(512 * MiB, Math.round(totalBytes * 0.05));
}

/** Why each reserve is kept, in a clause that follows "keeps N free" (which is decimal: the
 *  floor is said in the same unit, never "keeps 537 MB free … at least 512 MiB"). */
export const RESERVE_WHY = {
  fixed: "for the file system's own bookkeeping and other programs writing meanwhile",
  sized: `so the system and other apps keep working (5 % of the volume, at least ${formatBytes(512 * MiB)})`,
} as const;

/** The contract's bounds for a test file: 16 MiB … 64 GiB. */
const MIN_TEST_FILE_BYTES = 16 * MiB;
const MAX_TEST_FILE_BYTES = 64 * 1024 * MiB;

/** A test file's size limits in the unit system the size was typed in, so a page that offers
 *  1 GB or 4 GB never answers in GiB: typed in MiB/GiB, the contract's own round bounds ("Between
 *  16 MiB and 64 GiB."); otherwise whole MB and GB inside them ("Between 17 MB and 68 GB.": every
 *  size in that range is taken), never the odd "16.8 MB and 68.7 GB". */
export function sizeLimitsText(typed = ''): string {
  if (/\d\s*[kmgt]ib\s*$/i.test(typed)) return 'Between 16 MiB and 64 GiB.';
  return `Between ${Math.ceil(MIN_TEST_FILE_BYTES / 1e6)} MB and ${Math.floor(MAX_TEST_FILE_BYTES / 1e9)} GB.`;
}

export interface FitInput {
  /** Bytes the test writes at most at one time; a sized test: the least it can run with. */
  needBytes: number;
  freeBytes: number;
  totalBytes: number;
  /** 'fixed': the test writes what was asked (Quick, CrystalDiskMark, hash's test file).
   *  'sized': it shrinks to free space less its reserve (sustained, many files). */
  sizing: 'fixed' | 'sized';
  /** The reserve the user asked for; default by sizing (FREE_SPACE_RESERVE or defaultReserve). */
  reserveBytes?: number;
  /** The smallest test of this kind: below it, nothing fits. */
  minBytes?: number;
  /** What the reason calls the test (default "this test"). */
  what?: string;
  /** The target's path, named in the reason when given. */
  where?: string;
  /** The sizes the screen offers (CrystalDiskMark's 16 MiB … 64 GiB): the offer is the largest
   *  of them that fits, instead of any size. */
  choices?: readonly number[];
  /** How the screen writes a size (binary for CrystalDiskMark's); default decimal (formatBytes). */
  sizeLabel?: (bytes: number) => string;
}

export interface Fit {
  fits: boolean;
  needBytes: number;
  reserveBytes: number;
  freeBytes: number;
  /** Free space less the reserve: the most a test may write. */
  roomBytes: number;
  /** The largest test size that fits, rounded down to a size people type (whole MB; tenths of
   *  a GB from 1 GB up); 0 when not even minBytes fits. */
  largestBytes: number;
  /** "keeps 16.8 MB free for …": how much is kept and why. */
  reserveText: string;
  /** Set when it does not fit: what it needs, what is free and what fits, in plain words. */
  reason?: string;
}

/** Rounds down to a size a person would type: whole MB below 1 GB, tenths of a GB above. */
export function roundDownSize(bytes: number): number {
  if (bytes <= 0) return 0;
  const step = bytes >= 1e9 ? 1e8 : 1e6;
  return Math.floor(bytes / step) * step;
}

export function reserveFor(sizing: FitInput['sizing'], totalBytes: number, asked?: number): number {
  if (asked !== undefined) return asked;
  return sizing === 'fixed' ? FREE_SPACE_RESERVE : defaultReserve(totalBytes);
}

export function fitTest(i: FitInput): Fit {
  const reserveBytes = reserveFor(i.sizing, i.totalBytes, i.reserveBytes);
  const freeBytes = Math.max(0, i.freeBytes);
  const roomBytes = Math.max(0, freeBytes - reserveBytes);
  const fits = i.needBytes <= roomBytes;
  const min = i.minBytes ?? 0;
  const rounded = i.choices ? Math.max(0, ...i.choices.filter((c) => c <= roomBytes)) : roundDownSize(roomBytes);
  const largestBytes = rounded >= min && rounded > 0 ? rounded : 0;
  const size = i.sizeLabel ?? formatBytes;
  const why = reserveBytes === reserveFor(i.sizing, i.totalBytes) ? RESERVE_WHY[i.sizing] : 'as asked';
  const reserveText = `keeps ${(i.sizeLabel ?? formatBytes)(reserveBytes)} free ${why}`;
  const fit: Fit = { fits, needBytes: i.needBytes, reserveBytes, freeBytes, roomBytes, largestBytes, reserveText };
  if (!fits) {
    const what = i.what ?? 'this test';
    const need = `needs ${i.sizing === 'sized' ? 'at least ' : ''}${size(i.needBytes)}`;
    const offer = largestBytes > 0 ? ` The largest that fits is ${size(largestBytes)}.` : ' Free some space or choose another drive.';
    fit.reason = `Not enough free space${i.where ? ` on ${i.where}` : ''}: ${what} ${need} and ${reserveText}; ${size(freeBytes)} is free.${offer}`;
  }
  return fit;
}

/** Free space a disk is assumed to have once the wizard formats it: about 90 % of its size, as
 *  file systems keep their journal, metadata and (ext4) a 5 % root reserve. Before formatting
 *  nothing better is known; the runner checks the real figure again before each test. */
export const FREE_AFTER_FORMAT = 0.9;

export function freeAfterFormat(diskBytes: number): { freeBytes: number; totalBytes: number } {
  return { freeBytes: Math.floor(diskBytes * FREE_AFTER_FORMAT), totalBytes: diskBytes };
}
