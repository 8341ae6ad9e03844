// The sustained write's verdict in plain words (its result's summary and the CLI's report): the
// knee detector (model/knee.ts) judges the curve, this says what a person reads.
import type { CurveVerdict } from '../../knee.js';

/** One plain-words line, GB = 10^9 bytes, MB/s with thousands separators and no decimals above 100:
 *  knee:   "Fast cache ≈ 12.4 GB, then 480 MB/s (−78 %)"
 *  steady: "No slowdown within 50 GB: 1,950 MB/s throughout"   (totalBytes = the bytes written)
 *  varies: "Speed falls and recovers (3 drops): 600–1,900 MB/s, median 1,200 MB/s — heat throttling, background work in the drive, or a disk shared with other work"
 *  tooShort steady: "Too short to judge a slowdown: 1,950 MB/s over 200 MB"
 *  Amounts below 1 GB are said in MB ("Fast cache ≈ 84 MB"); `size` says them in another unit
 *  system (the CLI's report of a test asked in MiB). */
export function describeVerdict(v: CurveVerdict, totalBytes: number, size: (bytes: number) => string = amount): string {
  switch (v.kind) {
    case 'knee':
      return `Fast cache ≈ ${size(v.kneeBytes)}, then ${speed(v.afterMBps)} MB/s (${percent(v.change)})`;
    case 'steady':
      return v.tooShort
        ? `Too short to judge a slowdown: ${speed(v.mbps)} MB/s over ${size(totalBytes)}`
        : `No slowdown within ${size(totalBytes)}: ${speed(v.mbps)} MB/s throughout`;
    case 'varies':
      return (
        `Speed falls and recovers (${v.drops} ${v.drops === 1 ? 'drop' : 'drops'}): ` +
        `${speed(v.minMBps)}–${speed(v.maxMBps)} MB/s, median ${speed(v.medianMBps)} MB/s — heat throttling, background work in the drive, or a disk shared with other work`
      );
  }
}

/** "12.4 GB" from 1 GB up, "840 MB" / "84 MB" / "8.4 MB" below (10^9 and 10^6 bytes). */
function amount(bytes: number): string {
  if (bytes >= 1e9 || bytes === 0) return `${gb(bytes)} GB`;
  const mb = bytes / 1e6;
  return `${mb >= 10 ? groupThousands(Math.round(mb)) : mb.toFixed(1).replace(/\.0$/, '')} MB`;
}

function gb(bytes: number): string {
  const v = bytes / 1e9;
  if (v === 0) return '0';
  if (v >= 99.95) return groupThousands(Math.round(v));
  const text = v >= 1 ? v.toFixed(1) : v.toPrecision(2);
  return text.includes('.') && !text.includes('e') ? text.replace(/\.?0+$/, '') : text;
}

/** MB/s: whole numbers with thousands separators from 100 up ("1,950"), one decimal below ("45.5", "7"). */
function speed(mbps: number): string {
  if (Math.abs(mbps) >= 99.5) return groupThousands(Math.round(mbps));
  const text = mbps.toFixed(1);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

function groupThousands(k: number): string {
  const digits = String(Math.abs(k)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return k < 0 ? `−${digits}` : digits;
}

/** A signed whole percentage with a true minus sign: "−78 %", "+5 %", "0 %". */
function percent(fraction: number): string {
  const p = Math.round(fraction * 100);
  return p < 0 ? `−${-p} %` : p > 0 ? `+${p} %` : '0 %';
}
