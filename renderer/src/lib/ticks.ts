// Axis ticks for every chart, chosen from the domain rather than left to recharts: a short series
// (a test of 0.3 s, a write of 0.2 GB) must still get ticks that print differently, so the
// precision of a tick's text comes from the step between ticks, never from a fixed format.
import { groupedNumber } from '@model/units';

/** Ticks for a linear axis from 0 to at least `top`: about `count` intervals (up to a quarter
 *  more) of a round step (1, 2, 2.5 or 5 × 10^k), ending on a tick. */
export function linearTicks(top: number, count = 4): number[] {
  if (!(top > 0) || !Number.isFinite(top)) return [0, 1];
  const raw = top / count / 1.25;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((x) => x >= raw * (1 - 1e-12)) ?? 10 * p;
  const n = Math.ceil(top / step - 1e-9);
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

/** Ticks for a log axis: 1-2-5 steps per decade, or whole decades when that gives too many. */
export function logTicks([lo, hi]: [number, number], maxTicks = 8): number[] {
  if (!(lo > 0) || !(hi > lo)) return [];
  const ticks: number[] = [];
  const decades: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** k).toPrecision(6));
      if (v >= lo && v <= hi) {
        ticks.push(v);
        if (m === 1) decades.push(v);
      }
    }
  }
  return ticks.length <= maxTicks || decades.length < 2 ? ticks : decades;
}

/** The fewest decimals that print every tick exactly (0.25 needs two, 0.5 one, 500 none). */
export function tickDecimals(ticks: readonly number[]): number {
  for (let d = 0; d < 6; d++) {
    const scale = 10 ** d;
    if (ticks.every((t) => Math.abs(Math.round(t * scale) / scale - t) < 1e-9 * Math.max(1, Math.abs(t)))) return d;
  }
  return 6;
}

/** A formatter for these ticks: grouped thousands, the decimals the ticks need, no unit (the
 *  axis label names it once). */
export function tickFormatter(ticks: readonly number[]): (v: number) => string {
  const d = tickDecimals(ticks);
  return (v: number) => groupedNumber(v, d);
}
