// The arithmetic behind "Will it work? / How fast?": the data rate a video format needs at a
// resolution and frame rate, and whether a measured sustained speed carries it with a safety
// margin. Pure functions over the data file's shapes, so the table and the tests share them.
// Units: Mb/s = 10^6 bits per second, MB/s = 10^6 bytes per second (as the engine reports).

export type ResolutionId = string;

export interface Resolution {
  id: ResolutionId;
  label: string;
  detail: string;
  width: number;
  height: number;
}

interface FormatBase {
  id: string;
  family: string;
  name: string;
  source: string;
  /** Resolutions missing from `values` are scaled by pixel count from this one (an estimate). */
  scaleFrom?: ResolutionId;
  /** True when every figure of this format is an estimate, not just the scaled ones. */
  estimate?: boolean;
  estimateNote?: string;
}

export type VideoFormat =
  | (FormatBase & { kind: 'table'; refFps: number; values: Partial<Record<ResolutionId, number>> })
  | (FormatBase & { kind: 'frame'; values: Partial<Record<ResolutionId, number>> })
  | (FormatBase & { kind: 'uncompressed'; bitsPerPixel: number })
  | (FormatBase & { kind: 'raw'; sensorBits: number; ratio: number });

/** The safety margin the table applies by default: only 80 % of the sustained speed is used. */
export const DEFAULT_MARGIN = 0.2;

/** Comparisons tolerate float noise so "exactly enough" counts as enough. */
const EPS = 1e-9;

const pixels = (r: Resolution): number => r.width * r.height;

export interface Need {
  /** Mb/s (10^6 bits/s) */
  mbps: number;
  /** False when the figure is the maker's own; true when scaled or derived. */
  estimated: boolean;
}

/**
 * Mb/s a format needs at a resolution and frame rate, or null when the format does not come in
 * that resolution. `resolutions` is needed to scale from the format's reference resolution.
 */
export function neededMbps(format: VideoFormat, res: Resolution, fps: number, resolutions: readonly Resolution[]): Need | null {
  switch (format.kind) {
    case 'uncompressed':
      return { mbps: (pixels(res) * format.bitsPerPixel * fps) / 1e6, estimated: false };
    case 'raw':
      return { mbps: (pixels(res) * format.sensorBits * fps) / format.ratio / 1e6, estimated: true };
    case 'table':
    case 'frame': {
      const perUnit = (v: number): number => (format.kind === 'table' ? v * (fps / format.refFps) : (v * 8 * fps) / 1e6);
      const own = format.values[res.id];
      if (own !== undefined) return { mbps: perUnit(own), estimated: format.estimate === true };
      if (!format.scaleFrom) return null;
      const refRes = resolutions.find((r) => r.id === format.scaleFrom);
      const refValue = format.values[format.scaleFrom];
      if (!refRes || refValue === undefined) return null;
      return { mbps: perUnit(refValue * (pixels(res) / pixels(refRes))), estimated: true };
    }
  }
}

/** Mb/s → MB/s (both decimal). */
export const mbpsToMBps = (mbps: number): number => mbps / 8;

/** The part of a sustained speed the table is willing to use. */
export const usableMBps = (sustainedMBps: number, margin = DEFAULT_MARGIN): number => sustainedMBps * (1 - margin);

/** "Will it work?": sustained × (1 − margin) ≥ needed. */
export function fits(sustainedMBps: number, neededMBps: number, margin = DEFAULT_MARGIN): boolean {
  return usableMBps(sustainedMBps, margin) + EPS >= neededMBps;
}

/**
 * "How fast?": the exact sustainable frame rate, floor(usable / MB per frame). Every format's
 * need is linear in frame rate, so the need at 1 fps is the size of one frame.
 */
export function exactMaxFps(format: VideoFormat, res: Resolution, sustainedMBps: number, resolutions: readonly Resolution[], margin = DEFAULT_MARGIN): number | null {
  const perFrame = neededMbps(format, res, 1, resolutions);
  if (!perFrame || perFrame.mbps <= 0) return null;
  return Math.floor(usableMBps(sustainedMBps, margin) / mbpsToMBps(perFrame.mbps) + EPS);
}

/** The highest listed frame rate whose need fits, or null when even the lowest does not. */
export function maxListedFps(format: VideoFormat, res: Resolution, sustainedMBps: number, rates: readonly number[], resolutions: readonly Resolution[], margin = DEFAULT_MARGIN): number | null {
  let best: number | null = null;
  for (const fps of rates) {
    const need = neededMbps(format, res, fps, resolutions);
    if (need && fits(sustainedMBps, mbpsToMBps(need.mbps), margin) && (best === null || fps > best)) best = fps;
  }
  return best;
}

export interface CellVerdict {
  /** MB/s needed at the chosen frame rate. */
  neededMBps: number;
  estimated: boolean;
  write: { ok: boolean; maxListed: number | null; exact: number | null };
  read: { ok: boolean; maxListed: number | null; exact: number | null };
}

/** Everything one table cell shows, or null when the format does not come in that resolution. */
export function cellVerdict(
  format: VideoFormat,
  res: Resolution,
  fps: number,
  sustained: { write: number; read: number },
  rates: readonly number[],
  resolutions: readonly Resolution[],
  margin = DEFAULT_MARGIN,
): CellVerdict | null {
  const need = neededMbps(format, res, fps, resolutions);
  if (!need) return null;
  const neededMB = mbpsToMBps(need.mbps);
  const side = (speed: number) => ({
    ok: fits(speed, neededMB, margin),
    maxListed: maxListedFps(format, res, speed, rates, resolutions, margin),
    exact: exactMaxFps(format, res, speed, resolutions, margin),
  });
  return { neededMBps: neededMB, estimated: need.estimated, write: side(sustained.write), read: side(sustained.read) };
}

/** Frame rates as people write them: 23.976 → "23.98", 30 → "30". */
export function formatFps(fps: number): string {
  return Number.isInteger(fps) ? String(fps) : (Math.round(fps * 100) / 100).toFixed(2).replace(/0$/, '');
}
