// The Hash screen's settings form: where the bytes come from (a file the user names, or a test
// file written on the selected target), the algorithm and an optional digest to verify against;
// what is wrong with the form as typed; why Start cannot be pressed; and the HashSettings a
// Start sends. Pure, so the payload can be checked against exactly what the controls show.
import { fitTest, sizeLimitsText } from '@model/fit';
import { parseTypedSize } from '@model/units';
import type { HashSettings } from '@model/settings';
import type { TargetInfo } from '@model/history';
import { ALGOS, algoLabel, type HashAlgo } from '../../lib/hash-model';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;
/** The contract's bounds for a generated test file. */
export const MIN_TEST_FILE = 16 * MiB;
export const MAX_TEST_FILE = 64 * GiB;
/** Test file sizes, decimal GB as the engine counts. */
export const TEST_FILE_SIZES: readonly number[] = [1e9, 4e9, 16e9];
/** The contract's bound on paths and on the verify text. */
export const MAX_TEXT = 4096;

export type SourceKind = HashSettings['source']['kind'];

export { ALGOS, algoLabel, type HashAlgo };

/** Hex digits in a digest of each algorithm. */
export const DIGEST_HEX: Record<HashAlgo, number> = { sha256: 64, sha512: 128 };

export interface HashForm {
  source: SourceKind;
  /** source 'file': the file's path as typed or chosen. */
  path: string;
  /** The chosen file's size when the picker told us; cleared when the path is edited. */
  pathBytes: number | null;
  /** source 'generate': a preset size in bytes, or 'custom' (then `customSize` as typed). */
  size: number | 'custom';
  customSize: string;
  algo: HashAlgo;
  /** An expected digest, or the path of a checksum file; empty for none. */
  verify: string;
}

export const DEFAULT_FORM: HashForm = { source: 'file', path: '', pathBytes: null, size: 4e9, customSize: '', algo: 'sha256', verify: '' };

/** What is wrong with a field, in plain words; {} when the form can be sent. An empty path is not
 *  an error to mark (nothing was typed yet): startBlock says what is missing. */
export interface FormErrors {
  path?: string;
  customSize?: string;
  verify?: string;
}

/** The test file's size, or null when the custom size does not parse or is out of range. */
export function testFileBytes(f: HashForm): number | null {
  if (f.size !== 'custom') return f.size;
  const b = parseTypedSize(f.customSize);
  return b !== null && b >= MIN_TEST_FILE && b <= MAX_TEST_FILE ? b : null;
}

const HEX = /^[0-9a-f]+$/i;
/** A line of sha256sum's output: the digest, blank, an optional '*' (binary mode), the file name. */
const SUM_LINE = /^([0-9a-f]{64}|[0-9a-f]{128})\s+\*?\S/i;

/** The verify text to send: trimmed, and a pasted sha256sum line ("<digest>  <name>") cut to its
 *  digest. Undefined when empty. */
export function verifyValue(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const line = SUM_LINE.exec(t);
  return line ? line[1] : t;
}

/** The hex of a pasted digest as the core reads one — perhaps labelled ("sha256: …") and
 *  grouped with blanks or colons — or undefined when the text is not a digest (then it is a
 *  checksum file's path). */
export function digestHex(value: string): string | undefined {
  const hex = value
    .trim()
    .replace(/^(sha-?(256|512))\s*[:=]?\s*/i, '')
    .replace(/[\s:]/g, '');
  return hex !== '' && HEX.test(hex) ? hex : undefined;
}

/** Whether the verify text is a digest rather than a checksum file's path. */
export function isDigest(value: string): boolean {
  return digestHex(value) !== undefined;
}

export function formErrors(f: HashForm): FormErrors {
  const e: FormErrors = {};
  if (f.source === 'file' && f.path.trim().length > MAX_TEXT) e.path = `A path of at most ${MAX_TEXT} characters.`;
  if (f.source === 'generate' && f.size === 'custom') {
    const b = parseTypedSize(f.customSize);
    if (f.customSize.trim() === '') e.customSize = 'Type a size, e.g. 10 GB.';
    else if (b === null) e.customSize = 'Type a size like 750 MB or 10 GB.';
    else if (b < MIN_TEST_FILE || b > MAX_TEST_FILE) e.customSize = sizeLimitsText(f.customSize);
  }
  const v = verifyValue(f.verify);
  if (v !== undefined) {
    if (v.length > MAX_TEXT) e.verify = `At most ${MAX_TEXT} characters.`;
    else {
      const hex = digestHex(v);
      if (hex !== undefined && hex.length !== DIGEST_HEX[f.algo]) {
        const other = (Object.keys(DIGEST_HEX) as HashAlgo[]).find((a) => a !== f.algo && DIGEST_HEX[a] === hex.length);
        e.verify = other
          ? `That is a ${algoLabel(other)} digest (${hex.length} hex digits): choose ${algoLabel(other)}, or paste the ${algoLabel(f.algo)} one.`
          : `A ${algoLabel(f.algo)} digest has ${DIGEST_HEX[f.algo]} hex digits; this has ${hex.length}.`;
      }
    }
  }
  return e;
}

export const hasErrors = (e: FormErrors): boolean => Object.keys(e).length > 0;

/** Why Start cannot be pressed now, or null. `locked` comes from outside the screen (another
 *  test is running); `target` is the selected target, where a test file would be written. */
export function startBlock(f: HashForm, o: { locked?: string | undefined; target: TargetInfo | undefined }): string | null {
  if (o.locked) return o.locked;
  if (f.source === 'file') {
    if (f.path.trim() === '') return 'Type the path of the file to hash, or choose one.';
  } else {
    const t = o.target;
    if (!t) return 'Choose a drive or folder to write the test file on.';
    if (!t.startable) return t.reason ?? 'A test file cannot be written here.';
    const bytes = testFileBytes(f);
    // The core's fit rule, as the workspace applies it when the file is written.
    const fit =
      bytes !== null
        ? fitTest({
            needBytes: bytes,
            freeBytes: t.freeBytes,
            totalBytes: t.totalBytes,
            sizing: 'fixed',
            minBytes: MIN_TEST_FILE,
            what: 'the test file',
          })
        : null;
    if (fit && !fit.fits) return fit.reason ?? 'Not enough free space for the test file.';
  }
  if (hasErrors(formErrors(f))) return 'Correct the settings marked above.';
  return null;
}

/** The request a Start sends, exactly as the form shows it; null while startBlock has a reason
 *  the form itself causes (an empty path, no target, a bad size or digest). */
export function toHashSettings(f: HashForm, targetPath: string | undefined): HashSettings | null {
  if (hasErrors(formErrors(f))) return null;
  let source: HashSettings['source'];
  if (f.source === 'file') {
    const path = f.path.trim();
    if (path === '') return null;
    source = { kind: 'file', path };
  } else {
    const sizeBytes = testFileBytes(f);
    if (!targetPath || sizeBytes === null) return null;
    source = { kind: 'generate', target: targetPath, sizeBytes };
  }
  const verify = verifyValue(f.verify);
  return verify === undefined ? { source, algo: f.algo } : { source, algo: f.algo, verify };
}
