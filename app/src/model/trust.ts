// Verdicts the figures themselves contradict are withheld, with the reason in their place: read +
// hash faster than a plain read (it cannot be: the read is part of it), and a sustained-write
// "fast cache" found on a target whose figures may be a cache's. (The trust level of a result's
// flags is model/verdict/trust.ts.)
// Pure and without Node imports: the renderer reaches it as it reaches the other core models.
import { sizeText } from './report/figure-text.js';
import type { ResultDocument, ResultFlag } from './result.js';
import { CACHE_FLAG_CODES, flagName } from './verdict/trust.js';

/** Read + hash may exceed the plain read by timing noise only: 10 %. */
export const READ_HASH_SLACK = 1.1;

/** Why the hash verdict is withheld, or undefined when the figures allow it. */
export function hashVerdictWithheld(h: {
  read: { mbps: number };
  readHash: { mbps: number };
  memory?: { mbps: number };
}): string | undefined {
  const mb = (x: number): string => `${Math.round(x).toLocaleString('en-US')} MB/s`;
  if (h.read.mbps > 0 && h.readHash.mbps > READ_HASH_SLACK * h.read.mbps)
    return `No verdict: read + hash (${mb(h.readHash.mbps)}) was faster than reading alone (${mb(h.read.mbps)}), which cannot be when the read is part of it — a cache answered one of them. Run again with a file larger than the computer’s free RAM.`;
  // The hasher is part of read + hash too: beating one core's in-memory rate means the CPU was busier during that pass.
  if (h.memory && h.memory.mbps > 0 && h.readHash.mbps > READ_HASH_SLACK * h.memory.mbps)
    return `No verdict: read + hash (${mb(h.readHash.mbps)}) was faster than hashing in memory on one core (${mb(h.memory.mbps)}), which cannot be when hashing is part of it — other programs took the CPU during one of them. Run again with the computer otherwise idle.`;
  return undefined;
}

/** Why a sustained-write verdict is withheld, or undefined. Only a knee is judged: a steady or
 *  varying curve claims no cache. */
export function kneeWithheld(verdict: { kind: string }, flags: readonly ResultFlag[] | undefined): string | undefined {
  if (verdict.kind !== 'knee') return undefined;
  const cached = (flags ?? []).filter((f) => CACHE_FLAG_CODES.has(f.code));
  if (cached.length === 0) return undefined;
  return `No fast-cache verdict: the target is flagged (${cached.map(flagName).join(', ')}), so the drop can be the host’s cache filling, not the drive’s.`;
}

/** The hash verdict as every view states it: its text, or why it is withheld. */
export function hashVerdictText(doc: Pick<ResultDocument, 'hash'>): string | undefined {
  const h = doc.hash;
  if (!h) return undefined;
  return hashVerdictWithheld(h) ?? h.verdict.text;
}

/** Below this a hash test's read rates carry its start-up costs. */
export const SMALL_HASH_FILE = 256 * 1024 ** 2;

/** The hash file's size as every hash view writes it: as it was asked ("64 MiB", "4 GB"), so the
 *  note, the file line and the title agree in one unit system. */
export function hashFileSize(bytes: number): string {
  return sizeText(bytes);
}

/** The bytes a hash result's file is named by: a generated file by the size asked (settings.size:
 *  a "100 MB" file is written as 95 whole MiB), the user's own file by its bytes. */
export function hashFileBytes(doc: {
  settings: { size: number };
  hash?: { file: { bytes: number; generated: boolean } } | undefined;
}): number {
  const f = doc.hash?.file;
  if (!f) return doc.settings.size;
  return f.generated && doc.settings.size > 0 ? doc.settings.size : f.bytes;
}

/** The note on a file too small for steady read rates, in the units its size is written in
 *  (`named`: the size asked for a generated file). */
export function smallHashFileNote(bytes: number, named = bytes): string | undefined {
  if (!(bytes < SMALL_HASH_FILE)) return undefined;
  const size = hashFileSize(named);
  const steady = size.endsWith('iB') ? '1 GiB' : '1 GB';
  return `The file is small (${size}): start-up costs weigh on its read rates; a file of ${steady} or more gives steadier figures.`;
}

/** Why a per-file overhead is shown as 0: a fit of time against size whose intercept falls below
 *  zero says the fixed cost per file is lost in the noise of the per-file times, not that files
 *  take negative time. */
export const OVERHEAD_BELOW_ZERO = "the fit's intercept is below zero: per-file overhead too small to measure here";

/** A fit's per-file overhead as every view prints it: clamped at 0, with the note when it was
 *  below (the document keeps the fit's own intercept). */
export function shownOverhead(overheadMs: number): { ms: number; belowZero: boolean } {
  return overheadMs < 0 ? { ms: 0, belowZero: true } : { ms: overheadMs, belowZero: false };
}
