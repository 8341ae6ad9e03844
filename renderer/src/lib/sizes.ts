// Sizes as people type and read them: "750 MB", "1.5 GB", "2 GiB" in the Quick Test, Hash and
// wizard forms, and the label a size keeps in plans and reports.
import { sizeText } from '@model/report/metrics';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Parses "750 MB", "1.5 GB", "2 GiB", "512 MiB" (bare numbers are GB). */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(gib|mib|gb|mb|g|m)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'gb').toLowerCase();
  const mult = unit === 'gib' ? GiB : unit === 'mib' ? MiB : unit === 'mb' || unit === 'm' ? 1e6 : 1e9;
  return Math.round(n * mult);
}

/** How a size reads in the plan, the run and the report: "1 GB", "256 MiB", "1 GiB" — in the
 *  units it was asked in, so a 1 GB test aligned down to 953 MiB is still "1 GB" (core's rule). */
export function sizeLabel(bytes: number): string {
  return Number.isFinite(bytes) && bytes > 0 ? sizeText(bytes) : '—';
}
