// Verifying a digest: what the user pasted, or the line for this file in a checksum file as the
// usual tools write them — GNU coreutils (`sha256sum`: "HEX  name" or "HEX *name"), BSD and
// macOS (`shasum --tag`: "SHA256 (name) = HEX"; `openssl dgst`: "SHA2-256(name)= HEX"), or a file holding only the
// digest (a download page's `file.iso.sha256`). The algorithm follows from the digest's length:
// 64 hex digits are SHA-256, 128 are SHA-512.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { HashAlgo } from './engine-types.js';
import { DiskDialError, inputError } from './errors.js';
import type { HashVerification } from './result.js';

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

/** A checksum file's name as the usual tools write them: file.iso.sha256 (.sha512, .sha256sum),
 *  SHA256SUMS, SHA512SUMS, CHECKSUMS (perhaps .txt). */
const CHECKSUM_FILE_NAME = /^(?:.+\.sha(?:256|512)(?:sums?)?|(?:sha(?:256|512)sums?|checksums?)(?:\.txt)?)$/i;

/** Whether `p` is the full path of a file named as a checksum file (see CHECKSUM_FILE_NAME). */
export function isChecksumFilePath(p: string): boolean {
  const t = p.trim();
  return path.isAbsolute(t) && CHECKSUM_FILE_NAME.test(path.basename(t));
}

/** The algorithm a hex digest of this length belongs to. */
export function algoOfHex(hex: string): HashAlgo | undefined {
  if (hex.length === 64) return 'sha256';
  if (hex.length === 128) return 'sha512';
  return undefined;
}

/** A pasted digest: hex, perhaps with spaces or colons between groups, perhaps labelled
 *  ("sha256:…", "SHA-256: …"); undefined when the text is not one. */
export function parsePastedDigest(text: string): { hex: string; algo: HashAlgo } | undefined {
  // A whole line copied from sha256sum's output, or from a checksum file: its digest.
  const lines = parseChecksumFile(text);
  if (lines.length === 1 && text.trim().split(/\r?\n/).length === 1) return { hex: lines[0]!.hex, algo: lines[0]!.algo };
  const unlabelled = text.trim().replace(/^(sha-?(256|512))\s*[:=]?\s*/i, '');
  const hex = unlabelled.replace(/[\s:]/g, '').toLowerCase();
  if (!/^[0-9a-f]+$/.test(hex)) return undefined;
  const algo = algoOfHex(hex);
  return algo ? { hex, algo } : undefined;
}

interface ChecksumLine {
  hex: string;
  algo: HashAlgo;
  /** The file the line names; absent for a bare digest. */
  name?: string;
}

/** Every digest line of a checksum file, in the formats above; other lines are skipped. */
export function parseChecksumFile(text: string): ChecksumLine[] {
  const out: ChecksumLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    // BSD / macOS (`shasum --tag`): "SHA256 (name) = HEX"; OpenSSL 3's `dgst`: "SHA2-256(name)= HEX".
    const bsd = /^SHA(?:2-|-)?(256|512)\s*\((.*)\)\s*=\s*([0-9a-fA-F]+)$/i.exec(line);
    if (bsd) {
      const hex = bsd[3]!.toLowerCase();
      const algo = algoOfHex(hex);
      if (algo && algo === `sha${bsd[1]}`) out.push({ hex, algo, name: bsd[2]! });
      continue;
    }
    // GNU: "HEX  name" (text mode) or "HEX *name" (binary mode); a leading backslash marks a
    // name with escaped characters.
    const gnu = /^\\?([0-9a-fA-F]{64}|[0-9a-fA-F]{128})(?:\s+\*?(.+))?$/.exec(line);
    if (gnu) {
      const hex = gnu[1]!.toLowerCase();
      const name = gnu[2] === undefined ? undefined : raw.startsWith('\\') ? unescapeGnu(gnu[2]) : gnu[2];
      out.push({ hex, algo: algoOfHex(hex)!, ...(name !== undefined ? { name } : {}) });
    }
  }
  return out;
}

function unescapeGnu(name: string): string {
  return name.replace(/\\(\\|n|r)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
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
    const st = await stat(checksumPath);
    if (!st.isFile()) throw inputError(`${checksumPath} is not a checksum file (it is a folder)`, 'EISDIR');
    if (st.size > MAX_CHECKSUM_FILE) throw inputError(`${checksumPath} is too large to be a checksum file`, 'EFBIG');
    text = await readFile(checksumPath, 'utf8');
  } catch (err) {
    if (err instanceof DiskDialError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'EINVAL';
    throw inputError(
      `"${clip(verify.trim(), 80)}" is neither a SHA-256 or SHA-512 digest (64 or 128 hex digits) nor a checksum file that can be read. Paste the digest itself, or give the path of a readable checksum file.`,
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

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
