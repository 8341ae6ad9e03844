// Reading a digest as people paste it or as checksum tools write it (core/hash-verify.ts says
// which formats). Pure, so the hash settings schema can check `verify` on either side.
import type { HashAlgo } from './engine-types.js';

/** A checksum file's name as the usual tools write them: file.iso.sha256 (.sha512, .sha256sum),
 *  SHA256SUMS, SHA512SUMS, CHECKSUMS (perhaps .txt). */
const CHECKSUM_FILE_NAME = /^(?:.+\.sha(?:256|512)(?:sums?)?|(?:sha(?:256|512)sums?|checksums?)(?:\.txt)?)$/i;

/** An absolute path, POSIX or Windows (drive letter or UNC): no node:path in the model. */
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;

/** Whether `p` is the full path of a file named as a checksum file (see CHECKSUM_FILE_NAME). */
export function isChecksumFilePath(p: string): boolean {
  const t = p.trim();
  return ABSOLUTE.test(t) && CHECKSUM_FILE_NAME.test(t.split(/[\\/]/).pop() ?? '');
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

export interface ChecksumLine {
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
