// Geometry and scale of the analog dials, as pure functions: which full-scale a dial shows,
// where its needle points for a value, and where its ticks go. Kept out of the component so
// the arithmetic is tested without a DOM.

/** Full-scale values a dial may take, MB/s: round numbers, about three times apart above 1000, so
 *  a figure rising from nothing moves the scale at most twice (1000 → 3000 → 8000 for a 7 GB/s
 *  drive), never at every step (1000 → 2000 → 3000 → 5000 → 8000). */
export const SCALE_LADDER = [100, 250, 500, 1000, 3000, 8000, 16000] as const;

/** The needle sweeps 270°: from −135° (zero, lower left) to +135° (full scale, lower right),
 *  measured clockwise from straight up. */
export const SWEEP_DEG = 270;
export const START_DEG = -SWEEP_DEG / 2;

/** The peak may use at most this share of the sweep, so a needle never sits pinned at the end. */
export const PEAK_HEADROOM = 1.1;

/**
 * The smallest ladder step that holds `peak` with 10 % headroom, never below `current` (a scale
 * that shrank mid-test would make the needle leap). Beyond the ladder, the next 8000 up.
 */
export function chooseScale(peak: number, current: number = SCALE_LADDER[0]): number {
  const p = Number.isFinite(peak) && peak > 0 ? peak * PEAK_HEADROOM : 0;
  let scale: number = SCALE_LADDER.find((s) => s >= p) ?? Math.ceil(p / 8000) * 8000;
  if (current > scale) scale = current;
  return scale;
}

/** Before any figure, a dial shows a typical SSD's range. */
export const DEFAULT_SCALE = 1000;

/**
 * The scale a test starts on, from what is known before it runs (the link's ceiling, the last
 * result on this target, MB/s; 0 when nothing is): that figure with headroom, else the default.
 * A test only grows it (chooseScale), so the needle never rescales under the user's eyes.
 */
export function initialScale(known: number): number {
  return Number.isFinite(known) && known > 0 ? chooseScale(known) : DEFAULT_SCALE;
}

/** Needle angle in degrees for a value on a dial of full-scale `max`; clamped to the sweep. */
export function valueToAngle(value: number, max: number): number {
  if (!Number.isFinite(value) || !(max > 0)) return START_DEG;
  const f = Math.min(1, Math.max(0, value / max));
  return START_DEG + f * SWEEP_DEG;
}

const NICE_STEPS = [10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000];

/** Labelled (major) ticks at a round step giving at most 6 intervals, and 5 minor intervals each. */
export function tickValues(max: number): { major: number[]; minor: number[] } {
  const step = NICE_STEPS.find((s) => max / s <= 6 && Number.isInteger(max / s)) ?? max / 5;
  const major: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) major.push(Math.round(v * 1000) / 1000);
  const minorStep = step / 5;
  const minor: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += minorStep) {
    const r = Math.round(v * 1000) / 1000;
    if (!major.some((m) => Math.abs(m - r) < 1e-6)) minor.push(r);
  }
  return { major, minor };
}

/** How far the "0" label sits before the sweep's start, degrees: the needle at rest lies along
 *  the start, and a label there would be hidden under it. */
export const ZERO_LABEL_SHIFT_DEG = 14;

/** The angle a tick's label is drawn at: its tick's, except 0, moved clear of the resting needle. */
export function labelAngle(value: number, max: number): number {
  const a = valueToAngle(value, max);
  return value === 0 ? a - ZERO_LABEL_SHIFT_DEG : a;
}

/** A tick label: the plain MB/s figure on every scale, so one test never shows two styles
 *  ("3000" then "8k"). */
export function tickLabel(value: number): string {
  return String(value);
}

/** A point on a circle of radius r around (cx, cy) at `angle` degrees clockwise from up. */
export function polar(cx: number, cy: number, r: number, angle: number): { x: number; y: number } {
  const rad = (angle * Math.PI) / 180;
  return { x: cx + r * Math.sin(rad), y: cy - r * Math.cos(rad) };
}

/**
 * One step of a critically damped spring toward `target` (exact solution, so it is stable at
 * any frame time): the needle accelerates and settles without overshoot or jumps.
 */
export function springStep(x: number, v: number, target: number, omega: number, dt: number): { x: number; v: number } {
  const delta = x - target;
  const e = Math.exp(-omega * dt);
  const k = v + omega * delta;
  return { x: target + (delta + k * dt) * e, v: (v - omega * k * dt) * e };
}
