// One unit system per report: sizes print the way the user asked for them. A test asked as 1 GB
// reads "1 GB" everywhere (never "953 MiB", though the engine aligned it to whole MiB), one asked
// as 512 MiB reads "512 MiB" everywhere. The system is read off the asked sizes, so a saved
// document prints the same later.
import type { ResultDocument } from './result.js';
import { sizeText } from './report/figure-text.js';
import { formatBytes, formatBytesBinary } from './units.js';
import { hashFileBytes } from './trust.js';

export type SizeUnits = 'decimal' | 'binary';

const MiB = 1024 * 1024;

/** Whether `bytes` is a whole number of hundredths of `base`'s largest unit below it. */
function isRound(bytes: number, base: 1000 | 1024): boolean {
  let unit = 1;
  for (let i = 0; i < 5 && unit * base <= bytes; i++) unit *= base;
  return (bytes * 100) % unit === 0;
}

/** Asked in binary: named in MiB/GiB as chosen (sizeText, given the size asked), or below 1 MiB a
 *  round KiB figure that is not a round decimal one. */
function askedBinary(bytes: number): boolean {
  if (bytes >= MiB) return sizeText(bytes).endsWith('iB');
  return isRound(bytes, 1024) && !isRound(bytes, 1000);
}

/** Binary when every asked size was asked in binary; decimal otherwise (the default, as drive
 *  makers and Blackmagic count). */
export function unitsOf(asked: readonly number[]): SizeUnits {
  const sizes = asked.filter((b) => Number.isSafeInteger(b) && b > 0);
  return sizes.length > 0 && sizes.every(askedBinary) ? 'binary' : 'decimal';
}

/** The sizes a document's test was asked for (a hashed file of the user's was not asked); a kind
 *  may say its own (its `cli.askedSizes`, which the CLI's report asks first). */
export function askedSizes(doc: ResultDocument): number[] {
  if (doc.files) return [doc.files.requested.minBytes, doc.files.requested.maxBytes];
  if (doc.hash) return doc.hash.file.generated ? [hashFileBytes(doc)] : [];
  return [doc.settings.size];
}

/** `bytes` in the report's unit system. */
export function sizeInUnits(bytes: number, units: SizeUnits): string {
  return units === 'binary' ? formatBytesBinary(bytes) : formatBytes(bytes);
}

/** The size a test was asked for, as it was asked: "1 GB" for the 953 MiB a 1 GB test runs. */
export function askedSizeText(bytes: number, units: SizeUnits): string {
  const named = sizeText(bytes);
  return named.endsWith('iB') === (units === 'binary') ? named : sizeInUnits(bytes, units);
}
