// The many-file test shaped for drawing: one point per finished file (size in MB on a log axis,
// its MB/s), the axis range and its ticks, and the Theil–Sen model of time against size drawn as
// a rate: a file of s bytes takes intercept + slope·s seconds, so its rate is
// s / (intercept + slope·s) / 10^6 MB/s — small files pay the fixed cost, large ones approach
// 1/slope. Pure functions of step events and the result document.
import type { FileFit, FilesSection } from '@model/result';
import type { DetailedStepEvent } from '@model/events';

export type Pass = 'write' | 'read';

export interface FilePoint {
  run: number;
  name: string;
  /** File size, MB (10^6 bytes). */
  mb: number;
  mbps: number;
}

/** Points of one pass from the steps finished so far. */
export function livePoints(steps: readonly DetailedStepEvent[], pass: Pass): FilePoint[] {
  const out: FilePoint[] = [];
  for (const s of steps) {
    if (!s.file || s.file.pass !== pass || !(s.file.bytes > 0) || !Number.isFinite(s.test.mbps)) continue;
    out.push({ run: s.run, name: s.file.name, mb: s.file.bytes / 1e6, mbps: s.test.mbps });
  }
  return out;
}

/** Points of one pass from a finished document, every run. */
export function resultPoints(files: FilesSection, pass: Pass): FilePoint[] {
  const out: FilePoint[] = [];
  for (const r of files.runs) {
    for (const item of r.items) {
      const m = item[pass];
      if (m && item.bytes > 0 && Number.isFinite(m.mbps)) out.push({ run: r.run, name: item.name, mb: item.bytes / 1e6, mbps: m.mbps });
    }
  }
  return out;
}

/** The rate the model predicts for a file of `bytes`, MB/s; null where the model has no
 *  meaning (a negative or zero time). */
export function modelRate(fit: Pick<FileFit, 'slope' | 'intercept'>, bytes: number): number | null {
  const seconds = fit.intercept + fit.slope * bytes;
  if (!(seconds > 0) || !(bytes > 0)) return null;
  const rate = bytes / seconds / 1e6;
  return Number.isFinite(rate) ? rate : null;
}

/** The model as a line across the axis: `n` sizes spaced evenly on the log scale. */
export function modelLine(
  fit: Pick<FileFit, 'slope' | 'intercept'>,
  domainMB: [number, number],
  n = 48,
): Array<{ mb: number; mbps: number }> {
  const [lo, hi] = domainMB;
  if (!(lo > 0) || !(hi > lo)) return [];
  const out: Array<{ mb: number; mbps: number }> = [];
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  for (let i = 0; i < n; i++) {
    const mb = 10 ** (a + ((b - a) * i) / (n - 1));
    const rate = modelRate(fit, mb * 1e6);
    if (rate !== null) out.push({ mb, mbps: rate });
  }
  return out;
}

/** The x range for a set of file sizes (MB), padded a little on the log scale. */
export function sizeDomain(sizesMB: readonly number[]): [number, number] | null {
  const xs = sizesMB.filter((x) => x > 0 && Number.isFinite(x));
  if (xs.length === 0) return null;
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return [lo / 1.3, hi * 1.3];
}
