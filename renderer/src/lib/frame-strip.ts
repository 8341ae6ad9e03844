// The paced video test's live strip: the engine reports its frames so far (on time, late,
// dropped, counted once each frame's fate is known); each progress event becomes one slice of
// the strip, the frames decided since the one before. After the run the document's timeline (one
// character a frame) is drawn the same way, squeezed to a fixed number of cells.
import type { FrameCounts } from '@model/engine-types';
import { stripCells } from '@model/kinds/video/card';

export type FrameFate = 'ok' | 'late' | 'dropped';

/** The frames of one interval of one step (write or read) of one run. */
export interface FrameSlice {
  run: number;
  testIndex: number;
  /** Seconds into the step at the end of the interval. */
  elapsed: number;
  onTime: number;
  late: number;
  dropped: number;
}

/** Slices kept per step: enough for a 10-minute run at 10 events a second, thinned beyond. */
export const MAX_SLICES = 6000;

/** The slices with one progress event's counts added (nothing when no frame was decided since). */
export function addFrameSlice(
  slices: readonly FrameSlice[],
  e: { run: number; testIndex: number; elapsed: number; frames?: FrameCounts | undefined },
): readonly FrameSlice[] {
  const f = e.frames;
  if (!f) return slices;
  const before = { onTime: 0, late: 0, dropped: 0 };
  for (const s of slices)
    if (s.run === e.run && s.testIndex === e.testIndex) {
      before.onTime += s.onTime;
      before.late += s.late;
      before.dropped += s.dropped;
    }
  const slice: FrameSlice = {
    run: e.run,
    testIndex: e.testIndex,
    elapsed: e.elapsed,
    onTime: Math.max(0, f.onTime - before.onTime),
    late: Math.max(0, f.late - before.late),
    dropped: Math.max(0, f.dropped - before.dropped),
  };
  if (slice.onTime + slice.late + slice.dropped === 0) return slices;
  const out = [...slices, slice];
  return out.length > MAX_SLICES ? out.slice(out.length - MAX_SLICES) : out;
}

/** One cell of a drawn strip: its worst fate and the counts behind it, in words. */
export interface StripCell {
  fate: FrameFate;
  onTime: number;
  late: number;
  dropped: number;
  /** "12.0–12.4 s" (live) or "frames 301–315" (after the run). */
  span: string;
}

const fateOf = (c: { late: number; dropped: number }): FrameFate => (c.dropped > 0 ? 'dropped' : c.late > 0 ? 'late' : 'ok');

/** The live cells of one step, in order. */
export function liveCells(slices: readonly FrameSlice[], run: number, testIndex: number): StripCell[] {
  let from = 0;
  return slices
    .filter((s) => s.run === run && s.testIndex === testIndex)
    .map((s) => {
      const cell = {
        fate: fateOf(s),
        onTime: s.onTime,
        late: s.late,
        dropped: s.dropped,
        span: `${from.toFixed(1)}–${s.elapsed.toFixed(1)} s`,
      };
      from = s.elapsed;
      return cell;
    });
}

/** A finished step's timeline ('.' on time, 'L' late, 'D' dropped) as `cells` cells. */
export function timelineCells(timeline: string, cells = 120): StripCell[] {
  const squeezed = stripCells(timeline, cells);
  const n = timeline.length;
  return [...squeezed].map((_, c) => {
    const lo = squeezed.length === n ? c : Math.floor((c * n) / cells);
    const hi = squeezed.length === n ? c + 1 : Math.floor(((c + 1) * n) / cells);
    const part = timeline.slice(lo, hi);
    const late = [...part].filter((x) => x === 'L').length;
    const dropped = [...part].filter((x) => x === 'D').length;
    const span = hi - lo === 1 ? `frame ${lo + 1}` : `frames ${lo + 1}–${hi}`;
    return { fate: fateOf({ late, dropped }), onTime: part.length - late - dropped, late, dropped, span };
  });
}

/** The counts of a set of cells, for the line under the strip. */
export function cellTotals(cells: readonly StripCell[]): { onTime: number; late: number; dropped: number } {
  return cells.reduce((a, c) => ({ onTime: a.onTime + c.onTime, late: a.late + c.late, dropped: a.dropped + c.dropped }), {
    onTime: 0,
    late: 0,
    dropped: 0,
  });
}
