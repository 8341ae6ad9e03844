// The arithmetic behind "Will it work? / How fast?": the data rate a video format needs at a
// resolution and frame rate, and whether a measured sustained speed carries it with a safety
// margin. Pure functions over the data file's shapes, so the tables and the tests share them.
// Units: Mb/s = 10^6 bits per second, MB/s = 10^6 bytes per second (as the engine reports).

export type ResolutionId = string;

export interface Resolution {
  id: ResolutionId;
  label: string;
  detail: string;
  width: number;
  height: number;
}

/** Where a figure comes from: the source's id, the table in it and the row, as printed there. */
export interface Cite {
  source: string;
  table: string;
  row: string;
}

interface FigureBase {
  res: ResolutionId;
  /** Set when the source published the figure for another frame size: scaled by pixel count. */
  frame?: { width: number; height: number };
  cite: Cite;
}

/** Mb/s the source gives at `fps`; with `upTo`, a camera mode's fixed rate from `fps` to `upTo`. */
export interface RateFigure extends FigureBase {
  mbps: number;
  fps: number;
  upTo?: number;
}

/** Bytes per frame (Avid publishes DNxHR this way): holds at any frame rate. */
export interface FrameFigure extends FigureBase {
  bytesPerFrame: number;
}

interface FormatBase {
  id: string;
  family: string;
  name: string;
  /** Resolutions without a figure are scaled by pixel count from this one (an estimate). */
  scaleFrom?: ResolutionId;
  /** True when every figure of this format is an estimate, not just the scaled ones. */
  estimate?: boolean;
}

export type VideoFormat =
  | (FormatBase & { kind: 'rate'; figures: RateFigure[] })
  | (FormatBase & { kind: 'frame'; figures: FrameFigure[] })
  | (FormatBase & { kind: 'uncompressed'; bitsPerPixel: number; cite: Cite })
  | (FormatBase & { kind: 'raw'; sensorBits: number; ratio: number; cite: Cite });

/** Every citation behind a format's figures (its formula's, for computed formats). */
export const citesOf = (format: VideoFormat): Cite[] =>
  format.kind === 'rate' || format.kind === 'frame' ? format.figures.map((g) => g.cite) : [format.cite];

/** The safety margin the table applies by default: only 80 % of the sustained speed is used. */
export const DEFAULT_MARGIN = 0.2;

/** Comparisons tolerate float noise so "exactly enough" counts as enough. */
const EPS = 1e-9;

/** 23.976 and 24, 29.97 and 30, 59.94 and 60 share a row in the makers' tables. */
const SAME_RATE = 0.002;

const pixels = (r: { width: number; height: number }): number => r.width * r.height;

export interface Need {
  /** Mb/s (10^6 bits/s) */
  mbps: number;
  /** False when the figure is the maker's own at this frame rate; true when scaled or derived. */
  estimated: boolean;
}

/** How far a frame rate lies from the rates a figure is given for (0 inside a mode's range). */
function distance(f: RateFigure, fps: number): number {
  const hi = f.upTo ?? f.fps;
  return fps < f.fps ? f.fps - fps : fps > hi ? fps - hi : 0;
}

function rateAt(f: RateFigure, fps: number): Need {
  if (f.upTo !== undefined) {
    // A camera mode records its fixed rate at every frame rate it offers; beyond them, scale.
    if (fps <= f.upTo * (1 + SAME_RATE)) return { mbps: f.mbps, estimated: fps < f.fps * (1 - SAME_RATE) };
    return { mbps: (f.mbps * fps) / f.upTo, estimated: true };
  }
  return { mbps: (f.mbps * fps) / f.fps, estimated: Math.abs(fps / f.fps - 1) > SAME_RATE };
}

/** The need from a resolution's own figures (the one given nearest this frame rate), or null. */
function fromFigures(format: VideoFormat, resId: ResolutionId, res: Resolution, fps: number): Need | null {
  if (format.kind !== 'rate' && format.kind !== 'frame') return null;
  let best: Need | null = null;
  let bestDistance = Infinity;
  for (const fig of format.figures as (RateFigure | FrameFigure)[]) {
    if (fig.res !== resId) continue;
    const d = 'bytesPerFrame' in fig ? 0 : distance(fig, fps);
    const need: Need = 'bytesPerFrame' in fig ? { mbps: (fig.bytesPerFrame * 8 * fps) / 1e6, estimated: false } : rateAt(fig, fps);
    if (fig.frame) {
      need.mbps *= pixels(res) / pixels(fig.frame);
      need.estimated = true;
    }
    // Ties (a rate halfway between two rows) take the higher need: the safe side.
    if (d < bestDistance - EPS || (Math.abs(d - bestDistance) <= EPS && best && need.mbps > best.mbps)) {
      best = need;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Mb/s a format needs at a resolution and frame rate, or null when the format does not come in
 * that resolution. `resolutions` is needed to scale from the format's reference resolution.
 */
export function neededMbps(format: VideoFormat, res: Resolution, fps: number, resolutions: readonly Resolution[]): Need | null {
  const need = ((): Need | null => {
    switch (format.kind) {
      case 'uncompressed':
        return { mbps: (pixels(res) * format.bitsPerPixel * fps) / 1e6, estimated: false };
      case 'raw':
        return { mbps: (pixels(res) * format.sensorBits * fps) / format.ratio / 1e6, estimated: true };
      case 'rate':
      case 'frame': {
        const own = fromFigures(format, res.id, res, fps);
        if (own) return own;
        const refRes = format.scaleFrom ? resolutions.find((r) => r.id === format.scaleFrom) : undefined;
        const ref = refRes ? fromFigures(format, refRes.id, refRes, fps) : null;
        return refRes && ref ? { mbps: ref.mbps * (pixels(res) / pixels(refRes)), estimated: true } : null;
      }
    }
  })();
  return need && format.estimate ? { ...need, estimated: true } : need;
}

/** Mb/s → MB/s (both decimal). */
export const mbpsToMBps = (mbps: number): number => mbps / 8;

/** The part of a sustained speed the table is willing to use. */
export const usableMBps = (measuredMBps: number, margin = DEFAULT_MARGIN): number => measuredMBps * (1 - margin);

/** The sustained speed a need calls for once the margin is kept: need / (1 − margin). */
export const withMarginMBps = (neededMBps: number, margin = DEFAULT_MARGIN): number => neededMBps / (1 - margin);

/** "Will it work?": sustained × (1 − margin) ≥ needed. */
export function fits(measuredMBps: number, neededMBps: number, margin = DEFAULT_MARGIN): boolean {
  return usableMBps(measuredMBps, margin) + EPS >= neededMBps;
}

/**
 * "How fast?": the highest whole frame rate whose need fits. Needs grow with frame rate but not
 * always in proportion (a camera mode's rate is fixed across its frame rates), so search for it.
 * Null when the format does not come in that resolution.
 */
export function maxFps(
  format: VideoFormat,
  res: Resolution,
  measuredMBps: number,
  resolutions: readonly Resolution[],
  margin = DEFAULT_MARGIN,
): number | null {
  const needAt = (fps: number): number | null => {
    const n = neededMbps(format, res, fps, resolutions);
    return n ? mbpsToMBps(n.mbps) : null;
  };
  if (needAt(1) === null) return null;
  const ok = (fps: number): boolean => fits(measuredMBps, needAt(fps)!, margin);
  if (!ok(1)) return 0;
  let lo = 1;
  let hi = 2;
  while (ok(hi) && hi < 1e6) [lo, hi] = [hi, hi * 2];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

export interface CellVerdict {
  /** MB/s needed at the chosen frame rate. */
  neededMBps: number;
  estimated: boolean;
  write: { ok: boolean; maxFps: number };
  read: { ok: boolean; maxFps: number };
}

/** Everything the three grids show for one format × resolution, or null when it is not offered. */
export function cellVerdict(
  format: VideoFormat,
  res: Resolution,
  fps: number,
  measured: { write: number; read: number },
  resolutions: readonly Resolution[],
  margin = DEFAULT_MARGIN,
): CellVerdict | null {
  const need = neededMbps(format, res, fps, resolutions);
  if (!need) return null;
  const neededMB = mbpsToMBps(need.mbps);
  const side = (speed: number) => ({ ok: fits(speed, neededMB, margin), maxFps: maxFps(format, res, speed, resolutions, margin) ?? 0 });
  return { neededMBps: neededMB, estimated: need.estimated, write: side(measured.write), read: side(measured.read) };
}

/** Frame rates as people write them: 23.976 → "23.98", 30 → "30". */
export function formatFps(fps: number): string {
  return Number.isInteger(fps) ? String(fps) : (Math.round(fps * 100) / 100).toFixed(2).replace(/0$/, '');
}
