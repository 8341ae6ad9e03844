// Sizes and speeds, in and out. Parsing follows the conventions people already type:
//   - "512MiB", "4KiB", "1GiB", "4Ki": binary (powers of 1024), as labelled.
//   - "1GB", "500MB", "4kB": decimal (powers of 1000) — a B after K/M/G/T means SI, as on a
//     drive's box and in Blackmagic's "1GB" stress size.
//   - "1G", "1M", "4k" with no B: binary, the fio/dd convention (`bs=1M` is 1048576 bytes).
//   - a plain number or "4096B": bytes.
// Formatting speaks MB/s with 1 MB = 10^6 bytes everywhere; MiB appears only where labelled.
import { inputError } from './errors.js';

const POWER: Record<string, number> = { '': 0, k: 1, m: 2, g: 3, t: 4, p: 5 };
const SIZE_RE = /^(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?)(b?)$/i;

/** A flag's word from `allowed` ("--layout frames"); throws a plain-words input error. */
export function parseChoice<T extends string>(text: string, flag: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text)) throw inputError(`--${flag} must be one of ${allowed.join(', ')}, not "${text}"`);
  return text as T;
}

/** A flag's whole number from `min` to `max` ("--files 500"); throws a plain-words input error. */
export function parseWholeNumber(text: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw inputError(`--${flag} must be a whole number from ${min} to ${max}, not "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw inputError(`--${flag} must be from ${min} to ${max}, not ${n}`);
  return n;
}

/** Parses a size like "512MiB", "1GB", "4k" or "4096" into bytes; throws a plain-words input error. */
export function parseSize(text: string, what = 'size'): number {
  const trimmed = text.trim();
  const m = SIZE_RE.exec(trimmed);
  if (!m) {
    throw inputError(`${what} "${text}" is not a size; use e.g. 4KiB, 1MiB, 512MiB, 1GiB or 1GB`, 'ERR_INVALID_SIZE');
  }
  const [, num = '', unit = '', binaryI = '', byteB = ''] = m;
  const power = POWER[unit.toLowerCase()] ?? 0;
  if (binaryI && !unit) {
    throw inputError(`${what} "${text}" is not a size; use e.g. 4KiB, 1MiB, 512MiB, 1GiB or 1GB`, 'ERR_INVALID_SIZE');
  }
  // A B right after K/M/G/T without an i is SI; a bare unit letter follows fio/dd (binary).
  const base = unit && byteB && !binaryI ? 1000 : 1024;
  const bytes = Number(num) * base ** power;
  if (!Number.isFinite(bytes) || !Number.isSafeInteger(Math.round(bytes))) {
    throw inputError(`${what} "${text}" is too large`, 'ERR_INVALID_SIZE');
  }
  if (!Number.isInteger(bytes)) {
    throw inputError(`${what} "${text}" is not a whole number of bytes`, 'ERR_INVALID_SIZE');
  }
  return bytes;
}

/** "1.07 GB", "512 MB", "4.1 kB", "900 B" — decimal units, as drive makers and macOS count. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  if (i === 0) return `${bytes} B`;
  return `${trim(v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2))} ${units[i]}`;
}

/** "512 MiB", "4 KiB", "1.5 GiB" — binary units, labelled as such. */
export function formatBytesBinary(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${bytes} B`;
  return `${trim(v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2))} ${units[i]}`;
}

/** Whether sizes were asked in binary units ("4 MiB", "1 GiB"): each a whole number of KiB and
 *  none a whole number of kB, as every decimal size ("16 MB" = 16,000,000) is. */
export function askedInBinary(...sizes: number[]): boolean {
  return sizes.length > 0 && sizes.every((b) => Number.isInteger(b) && b > 0 && b % 1024 === 0 && b % 1000 !== 0);
}

/** A size in the unit system the test was asked in: one system per screen and line. */
export function sizeFormatterFor(...asked: number[]): (bytes: number) => string {
  return askedInBinary(...asked) ? formatBytesBinary : formatBytes;
}

/** CrystalDiskMark's compact block-size label: 1048576 → "1M", 4096 → "4K", 512 → "512". */
export function blockLabel(bytes: number): string {
  const units = ['', 'K', 'M', 'G'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && v % 1024 === 0 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v}${units[i]}`;
}

/** Throughput in MB/s (10^6 bytes per second), with precision that suits its size. */
export function formatMBps(mbps: number): string {
  return `${mbps.toFixed(mbps >= 100 ? 1 : 2)} MB/s`;
}

/** Microseconds, shown as µs below a millisecond and ms above: "658 µs", "12.3 µs", "4.99 ms",
 *  "1.20 s"; "—" when there is no figure. */
export function formatLatencyUs(us: number): string {
  if (!Number.isFinite(us) || us < 0) return '—';
  if (us < 1000) return `${us.toFixed(us >= 100 ? 0 : 1)} µs`;
  if (us < 1e6) return `${(us / 1000).toFixed(2)} ms`;
  return `${(us / 1e6).toFixed(2)} s`;
}

/** A size on screen: at most one decimal ("1.1 GB", "512 MB", "900 B"), "—" when unknown. The
 *  documents and the CLI use formatBytes, which keeps two. */
export function formatBytesShort(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  const digits = v >= 100 || i === 0 ? 0 : 1;
  return `${v.toFixed(digits)} ${units[i]}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/** `v` with grouped thousands (en-US) and between `min` and `max` decimals. The formatters are
 *  kept: `toLocaleString` with options builds one per call (~30 µs), too slow for a live screen. */
export function groupedNumber(v: number, min: number, max = min): string {
  const key = `${min}:${max}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max })));
  return f.format(v);
}

/** A speed's figure alone, for the big readouts next to their "MB/s": no decimals above
 *  100 MB/s ("1,234"), one below ("42.5"), "0" when there is none. */
export function formatMBpsFigure(mbps: number): string {
  if (!Number.isFinite(mbps) || mbps <= 0) return '0';
  return mbps >= 100 ? groupedNumber(Math.round(mbps), 0) : mbps.toFixed(1);
}

/** A size as people type it in a size box: "750 MB", "1.5 GB", "2 GiB", "512 MiB"; a bare number
 *  is GB. null when it is not a size. (parseSize reads the CLI's fio-style sizes.) */
export function parseTypedSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(gib|mib|gb|mb|g|m)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'gb').toLowerCase();
  const mult = unit === 'gib' ? 1024 ** 3 : unit === 'mib' ? 1024 ** 2 : unit === 'mb' || unit === 'm' ? 1e6 : 1e9;
  return Math.round(n * mult);
}

function trim(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}
