// Verifying a digest: what the user pasted, or the line for this file in a checksum file as the
// usual tools write them — GNU coreutils (`sha256sum`: "HEX  name" or "HEX *name"), BSD and
// macOS (`shasum --tag`: "SHA256 (name) = HEX"; `openssl dgst`: "SHA2-256(name)= HEX"), or a file holding only the
// digest (a download page's `file.iso.sha256`). The algorithm follows from the digest's length:
// 64 hex digits are SHA-256, 128 are SHA-512.
import { readUserText } from './safe-read.js';
import path from 'node:path';
import type { HashAlgo } from '../model/engine-types.js';
import { DiskDialError, inputError } from '../model/errors.js';
import { parseChecksumFile, parsePastedDigest } from '../model/digest.js';
import type { HashVerification } from '../model/result.js';
import { clip, plainText } from '../model/text.js';

export const ALGO_LABEL: Record<HashAlgo, string> = { sha256: 'SHA-256', sha512: 'SHA-512' };
const HEX_LENGTH: Record<HashAlgo, number> = { sha256: 64, sha512: 128 };
/** A checksum file is small; a larger "checksum file" is a mistake (or not one). */
const MAX_CHECKSUM_FILE = 1024 * 1024;

export interface ExpectedDigest {
  hex: string;
  algo: HashAlgo;
  /** 'pasted', or the checksum file it came from. */
  source: string;
}

/**
 * What `verify` means for `file`: a pasted digest, or the line for the file in a checksum file
 * (by its name, or the only line there is). Throws an input error in plain words when it is
 * neither, or when the checksum file has no line for this file.
 */
export async function resolveExpected(verify: string, file: string): Promise<ExpectedDigest> {
  const pasted = parsePastedDigest(verify);
  if (pasted) return { ...pasted, source: 'pasted' };
  const checksumPath = path.resolve(verify.trim());
  let text: string;
  try {
    text = await readUserText(checksumPath, { what: 'a checksum file', maxBytes: MAX_CHECKSUM_FILE, follow: true });
  } catch (err) {
    if (err instanceof DiskDialError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'EINVAL';
    throw inputError(
      `"${clip(plainText(verify.trim()), 80)}" is neither a SHA-256 or SHA-512 digest (64 or 128 hex digits) nor a checksum file that can be read. Paste the digest itself, or give the path of a readable checksum file.`,
      code === 'ENOENT' ? 'ERR_INVALID_DIGEST' : code,
    );
  }
  const lines = parseChecksumFile(text);
  if (lines.length === 0) throw inputError(`${checksumPath} holds no SHA-256 or SHA-512 digest`, 'ERR_INVALID_DIGEST');
  const base = path.basename(file);
  const named = lines.filter((l) => l.name !== undefined && path.basename(l.name) === base);
  // A bare digest (a download's file.iso.sha256) applies to whatever file it is checked against.
  const pick = named[0] ?? (lines.length === 1 && lines[0]!.name === undefined ? lines[0] : undefined);
  // The other lines are not quoted: what a file holds is never echoed back.
  if (!pick) throw inputError(`${checksumPath} has no line for ${base}`, 'ERR_INVALID_DIGEST');
  return { hex: pick.hex, algo: pick.algo, source: checksumPath };
}

/** The algorithm to use: the one asked for, else the expected digest's, else SHA-256. A digest
 *  of the other algorithm is refused before anything is read. */
export function chooseAlgo(asked: HashAlgo | undefined, expected: ExpectedDigest | undefined): HashAlgo {
  if (asked && expected && expected.algo !== asked) {
    throw inputError(
      `The expected digest is ${ALGO_LABEL[expected.algo]} (${HEX_LENGTH[expected.algo]} hex digits) but ${ALGO_LABEL[asked]} was asked for; choose ${ALGO_LABEL[expected.algo]}.`,
      'ERR_ALGO_MISMATCH',
    );
  }
  return asked ?? expected?.algo ?? 'sha256';
}

/** The verdict of a comparison, in plain words. */
export function verification(expected: ExpectedDigest, actualHex: string, algo: HashAlgo): HashVerification {
  const match = expected.hex === actualHex.toLowerCase();
  const where =
    expected.source === 'pasted' ? `the ${ALGO_LABEL[algo]} you gave` : `the ${ALGO_LABEL[algo]} in ${path.basename(expected.source)}`;
  return {
    expected: expected.hex,
    source: expected.source,
    match,
    text: match ? `Matches ${where}.` : `Does NOT match ${where}: the file differs from the one that digest was made from.`,
  };
}
