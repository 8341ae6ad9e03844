// Number formatting for detailed results (the Detailed screen, Hash, History): latency in µs
// below a millisecond and ms above (as the CLI prints it), decimal GB for bytes written, file
// sizes on the scatter's axis, the CDM grid's figures in each unit, and the m:ss countdown of a
// rest. Pure; 1 MB = 10^6 bytes, and binary units only where the label says MiB/GiB.
import { formatMBpsFigure } from '@model/units';

const grouped = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Decimal gigabytes as a plain number: "12.4", "0.25", "150". */
export function formatGB(bytes: number): string {
  const v = bytes / 1e9;
  if (!Number.isFinite(v) || v <= 0) return '0';
  if (v >= 99.95) return grouped(v);
  if (v >= 1) return trimZero(v.toFixed(1));
  return trimZero(v.toPrecision(2));
}

/** A file size given in MB, for the scatter's log axis: "2 MB", "500 MB", "1 GB", "2.5 GB", "400 kB". */
export function formatSizeMB(mb: number): string {
  if (!Number.isFinite(mb) || mb <= 0) return '0';
  if (mb >= 1000) return `${trimZero((mb / 1000).toPrecision(3))} GB`;
  if (mb >= 1) return `${trimZero(mb.toPrecision(3))} MB`;
  return `${trimZero((mb * 1000).toPrecision(3))} kB`;
}

/** "16 MiB", "512 MiB", "1 GiB", "64 GiB": CrystalDiskMark's test sizes, labelled binary. */
export function formatBinarySize(bytes: number): string {
  const GiB = 1024 ** 3;
  return bytes >= GiB ? `${trimZero((bytes / GiB).toFixed(2))} GiB` : `${trimZero((bytes / 1024 ** 2).toFixed(1))} MiB`;
}

/** Seconds as m:ss for a rest countdown: 252 → "4:12", 5 → "0:05". */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.ceil(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The CrystalDiskMark grid's units: MB/s, GB/s, IOPS, or mean latency in µs. */
export type CdmUnit = 'MBps' | 'GBps' | 'IOPS' | 'us';

export const CDM_UNITS: ReadonlyArray<{ value: CdmUnit; label: string }> = [
  { value: 'MBps', label: 'MB/s' },
  { value: 'GBps', label: 'GB/s' },
  { value: 'IOPS', label: 'IOPS' },
  { value: 'us', label: 'µs' },
];

export function unitLabel(unit: CdmUnit): string {
  return CDM_UNITS.find((u) => u.value === unit)?.label ?? unit;
}

/** A figure in the grid's unit, already converted (GB/s = MB/s ÷ 1000). "1,670", "1.670", "1,592", "4,994". */
export function formatCdmFigure(value: number, unit: CdmUnit): string {
  if (!Number.isFinite(value) || value < 0) return '—';
  switch (unit) {
    case 'MBps':
      return value > 0 ? formatMBpsFigure(value) : '0';
    case 'GBps':
      return value.toFixed(3);
    case 'IOPS':
      return value >= 100 ? grouped(value) : value.toFixed(1);
    case 'us':
      return value >= 100 ? grouped(value) : value.toFixed(1);
  }
}

/** "0.975": a coefficient of determination. */
export function formatR2(r2: number): string {
  return Number.isFinite(r2) ? r2.toFixed(3) : '—';
}

/** "1.80 ms": a per-file overhead (may be negative when the fit says so). */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return `${ms.toFixed(Math.abs(ms) >= 100 ? 0 : 2)} ms`;
}

/** "1,869 MB/s", "48.5 MB/s", "—". */
export function formatRate(mbps: number | undefined): string {
  if (mbps === undefined || !Number.isFinite(mbps)) return '—';
  return `${formatMBpsFigure(mbps)} MB/s`;
}

function trimZero(s: string): string {
  return s.includes('.') && !s.includes('e') ? s.replace(/\.?0+$/, '') : s;
}
