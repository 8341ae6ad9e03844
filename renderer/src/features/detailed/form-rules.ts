// What every Detailed kind's form checks the same way: runs and the rest between them, whole
// numbers and ranges, and the rest in seconds a Start sends. A kind's own fields are checked in
// its form (kinds/<kind>-form.ts).
import type { FormErrors } from './kind-entry';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export const MAX_RUNS = 10;
export const MAX_REST_MINUTES = 120;

export const whole = (n: number, lo: number, hi: number): boolean => Number.isInteger(n) && n >= lo && n <= hi;
export const within = (n: number, lo: number, hi: number): boolean => Number.isFinite(n) && n >= lo && n <= hi;

/** Runs from 1 to `maxRuns`, and a rest in range when there is more than one run. */
export function repeatErrors(f: { runs: number; restMinutes: number }, maxRuns: number = MAX_RUNS): FormErrors {
  const e: FormErrors = {};
  if (!whole(f.runs, 1, maxRuns)) e.runs = `Runs: a whole number from 1 to ${maxRuns}.`;
  if (f.runs > 1 && !within(f.restMinutes, 0, MAX_REST_MINUTES)) e.restMinutes = `Rest: 0 to ${MAX_REST_MINUTES} minutes.`;
  return e;
}

/** Rest between runs in seconds: only meaningful with more than one run. */
export function restSeconds(f: { runs: number; restMinutes: number }): number {
  return f.runs > 1 ? Math.round(f.restMinutes * 60) : 0;
}
