// Checksum manifests as the usual tools read and write them: GNU `sha256sum`/`sha512sum`/`md5sum`
// ("HEX  name", or "HEX *name" in binary mode; a line starting with `\` has its name escaped:
// `\\`, `\n`, `\r`), Perl `shasum -a 256/512` (the same layout) and the BSD tag form
// ("SHA256 (name) = HEX", `shasum --tag`, `md5 -r` aside). Names are taken byte for byte after
// the separator: a name may begin or end with spaces.

import { clip, plainText } from './text.js';

export type CheckAlgo = 'sha256' | 'sha512' | 'md5';

export const CHECK_ALGO_LABEL: Record<CheckAlgo, string> = { sha256: 'SHA-256', sha512: 'SHA-512', md5: 'MD5' };
const HEX_LENGTH: Record<number, CheckAlgo> = { 32: 'md5', 64: 'sha256', 128: 'sha512' };
/** The manifest name each algorithm's tool writes by default (coreutils' convention). */
export const DEFAULT_MANIFEST: Record<CheckAlgo, string> = { sha256: 'SHA256SUMS', sha512: 'SHA512SUMS', md5: 'MD5SUMS' };

export interface ManifestEntry {
  /** The file's path relative to the folder's top, `/`-separated, as the line names it. */
  name: string;
  hex: string;
}

export interface ParsedManifest {
  algo: CheckAlgo;
  format: 'gnu' | 'bsd';
  entries: ManifestEntry[];
  /** 1-based numbers of lines that are not a digest line (sha256sum -c warns about them too). */
  badLines: number[];
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

export function algoOfHexLength(length: number): CheckAlgo | undefined {
  return HEX_LENGTH[length];
}

/** `\\`, `\n` and `\r` as coreutils 9 escapes them (the line then starts with a backslash). */
export function escapeName(name: string): { escaped: boolean; text: string } {
  if (!/[\\\n\r]/.test(name)) return { escaped: false, text: name };
  return { escaped: true, text: name.replace(/[\\\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r')) };
}

function unescapeName(text: string): string | undefined {
  let bad = false;
  const out = text.replace(/\\(.?)/g, (_, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    if (c === 'r') return '\r';
    bad = true;
    return '';
  });
  return bad ? undefined : out;
}

const GNU = /^(\\?)([0-9a-fA-F]+) ([ *])(.+)$/s;
const BSD = /^(\\?)(SHA256|SHA512|SHA-256|SHA-512|SHA2-256|SHA2-512|MD5) ?\((.+)\) ?= ?([0-9a-fA-F]+)$/is;

/** Parses a manifest; throws ManifestError when it has no digest line, or mixes algorithms. */
export function parseManifest(text: string): ParsedManifest {
  const entries: ManifestEntry[] = [];
  const badLines: number[] = [];
  let algo: CheckAlgo | undefined;
  let format: ParsedManifest['format'] = 'gnu';
  const firstLine = new Map<string, { index: number; line: number }>();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((raw, i) => {
    // A manifest written on Windows ends its lines with CR; coreutils escapes a CR in a name.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '' || line.startsWith('#')) return;
    let hex: string | undefined;
    let name: string | undefined;
    let lineAlgo: CheckAlgo | undefined;
    const bsd = BSD.exec(line);
    const gnu = bsd ? null : GNU.exec(line);
    if (bsd) {
      hex = bsd[4]!.toLowerCase();
      lineAlgo = algoOfHexLength(hex.length);
      const tag = bsd[2]!.toUpperCase();
      if (lineAlgo !== (tag === 'MD5' ? 'md5' : `sha${tag.slice(-3)}`)) lineAlgo = undefined;
      name = bsd[1] ? unescapeName(bsd[3]!) : bsd[3]!;
      format = 'bsd';
    } else if (gnu) {
      hex = gnu[2]!.toLowerCase();
      lineAlgo = algoOfHexLength(hex.length);
      name = gnu[1] ? unescapeName(gnu[4]!) : gnu[4]!;
    }
    // "./" alone names the folder itself, not a file in it.
    if (name?.startsWith('./')) name = name.slice(2);
    if (!hex || !lineAlgo || name === undefined || name === '') {
      badLines.push(i + 1);
      return;
    }
    if (algo && lineAlgo !== algo) {
      throw new ManifestError(
        `line ${i + 1} holds a ${CHECK_ALGO_LABEL[lineAlgo]} digest but the lines before it are ${CHECK_ALGO_LABEL[algo]}: one manifest, one algorithm`,
      );
    }
    algo = lineAlgo;
    const entry = { name, hex };
    // One file listed twice: the same digest is said twice; two digests cannot both hold (sha256sum
    // -c fails one of them), so the manifest is refused rather than one line silently used.
    const before = firstLine.get(entry.name);
    if (before !== undefined) {
      if (entries[before.index]!.hex !== hex)
        throw new ManifestError(
          // The name is anyone's text: nothing of it that a terminal acts on goes into the message.
          `lines ${before.line} and ${i + 1} list ${clip(plainText(entry.name), 120)} with different digests: the manifest contradicts itself`,
        );
      return;
    }
    firstLine.set(entry.name, { index: entries.length, line: i + 1 });
    entries.push(entry);
  });
  if (!algo) throw new ManifestError('it holds no SHA-256, SHA-512 or MD5 digest line ("HEX  name")');
  return { algo, format, entries, badLines };
}

/** A manifest `sha256sum -c` (or sha512sum/md5sum) accepts: one "HEX  name" line a file,
 *  sorted by name (code-point order) so that two runs over the same tree write the same bytes. */
export function formatManifest(entries: readonly ManifestEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted
    .map((e) => {
      const n = escapeName(e.name);
      return `${n.escaped ? '\\' : ''}${e.hex}  ${n.text}\n`;
    })
    .join('');
}

/** A name a manifest may hold: relative, inside the folder (no `..` step, not absolute). */
export function isInsideName(name: string): boolean {
  if (name.startsWith('/') || /^[A-Za-z]:[\\/]/.test(name) || name.includes('\0')) return false;
  return !name.split('/').some((part) => part === '..');
}

export interface ManifestDiff {
  unchanged: string[];
  changed: string[];
  missing: string[];
  added: string[];
}

/** What changed between a manifest and the folder now: `current` maps each file found to its
 *  digest (undefined when it was not hashed, e.g. not in the manifest and not being recorded). */
export function diffManifest(old: readonly ManifestEntry[], current: ReadonlyMap<string, string | undefined>): ManifestDiff {
  const diff: ManifestDiff = { unchanged: [], changed: [], missing: [], added: [] };
  const listed = new Set<string>();
  for (const e of old) {
    if (listed.has(e.name)) continue;
    listed.add(e.name);
    if (!current.has(e.name)) diff.missing.push(e.name);
    else if (current.get(e.name) === e.hex) diff.unchanged.push(e.name);
    else diff.changed.push(e.name);
  }
  for (const name of current.keys()) if (!listed.has(name)) diff.added.push(name);
  for (const list of Object.values(diff)) list.sort();
  return diff;
}
