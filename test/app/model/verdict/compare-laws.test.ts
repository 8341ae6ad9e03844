// The comparison verdict's laws, over generated runs (fast-check, 1,000 cases each): a change of
// 2× or more is never "no difference"; swapping baseline and candidate flips the change and its
// interval, not the outcome; scaling every figure changes nothing; a figure without a direction
// is never better or worse; "no difference" only with the whole interval within ±5 %.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeComparison, type ChangeSense, type Direction } from '../../../../app/src/model/verdict/compare.js';

const RUNS = { numRuns: 1000 };
const run = fc.double({ min: 0.01, max: 1e5, noNaN: true, noDefaultInfinity: true });
const runs = fc.array(run, { minLength: 1, maxLength: 6 });
const direction = fc.constantFrom<Direction>('higher', 'lower', 'none');
/** Runs around `centre`, each within ±`spread`. */
const steady = (spread: number) => fc.array(fc.double({ min: 1 - spread, max: 1 + spread, noNaN: true }), { minLength: 1, maxLength: 6 });
/** Two sides: unrelated runs, or steady runs around two centres — near-equal centres reach "no
 *  difference", far ones real changes, with identical runs (ties) among them. */
const sides = fc.oneof(
  fc.tuple(runs, runs),
  fc
    .record({
      centre: run,
      factor: fc.oneof(fc.double({ min: 0.95, max: 1.05, noNaN: true }), fc.double({ min: 0.05, max: 20, noNaN: true })),
      a: fc.oneof(steady(0.02), steady(0.3), fc.constant<number[]>([1, 1, 1])),
      b: fc.oneof(steady(0.02), steady(0.3)),
    })
    .map(({ centre, factor, a, b }) => [a.map((j) => centre * factor * j), b.map((j) => centre * j)] as const),
);

const FLIP: Record<ChangeSense, ChangeSense> = { better: 'worse', worse: 'better', higher: 'lower', lower: 'higher' };

describe('the laws of the comparison verdict', () => {
  it('a change of 2× or more is never "no difference"', () => {
    const far = fc.record({
      base: runs,
      factor: fc.oneof(fc.double({ min: 2, max: 1000, noNaN: true }), fc.double({ min: 0.001, max: 0.5, noNaN: true })),
      jitter: fc.array(fc.double({ min: 0.5, max: 2, noNaN: true }), { minLength: 1, maxLength: 6 }),
    });
    fc.assert(
      fc.property(far, direction, ({ base, factor, jitter }, dir) => {
        const cand = jitter.map((j, i) => (base[i % base.length] as number) * factor * j);
        const c = judgeComparison(cand, base, dir);
        const ratio = 1 + c.change;
        fc.pre(ratio >= 2 || ratio <= 0.5);
        expect(c.outcome).not.toBe('same');
      }),
      RUNS,
    );
  });

  it('swapping the sides flips the change and its interval, not the outcome', () => {
    fc.assert(
      fc.property(sides, direction, ([x, y], dir) => {
        const a = judgeComparison(x, y, dir);
        const b = judgeComparison(y, x, dir);
        expect(b.outcome).toBe(a.outcome);
        expect(b.sense).toBe(a.sense ? FLIP[a.sense] : undefined);
        expect(b.reasons.filter((r) => r !== 'noisy-baseline' && r !== 'noisy-candidate')).toEqual(
          a.reasons.filter((r) => r !== 'noisy-baseline' && r !== 'noisy-candidate'),
        );
        // On the log scale the change and the interval's ends are negated exactly (+ 0: −0 is 0).
        expect(b.logRatio + 0).toBe(-a.logRatio + 0);
        if (a.logLow !== undefined) {
          expect(b.logLow! + 0).toBe(-a.logHigh! + 0);
          expect(b.logHigh! + 0).toBe(-a.logLow + 0);
        } else expect(b.low).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('multiplying every figure of both sides by a positive constant changes no outcome', () => {
    const k = fc.double({ min: 1e-3, max: 1e3, noNaN: true });
    fc.assert(
      fc.property(sides, direction, k, ([x, y], dir, scale) => {
        const a = judgeComparison(x, y, dir);
        const b = judgeComparison(
          x.map((v) => v * scale),
          y.map((v) => v * scale),
          dir,
        );
        expect([b.outcome, b.sense, b.reasons]).toEqual([a.outcome, a.sense, a.reasons]);
        expect(b.change).toBeCloseTo(a.change, 6);
      }),
      RUNS,
    );
  });

  it('a figure without a direction is never better or worse', () => {
    fc.assert(
      fc.property(sides, ([x, y]) => {
        const c = judgeComparison(x, y, 'none');
        expect(c.sense === 'better' || c.sense === 'worse').toBe(false);
        if (c.outcome === 'change') expect(c.sense).toBe(c.change > 0 ? 'higher' : 'lower');
      }),
      RUNS,
    );
  });

  it('"no difference" only when the whole interval is within ±5 %; a real change only when it excludes 0', () => {
    let same = 0;
    fc.assert(
      fc.property(sides, direction, ([x, y], dir) => {
        const c = judgeComparison(x, y, dir);
        if (c.outcome === 'same') {
          same++;
          expect(c.low!).toBeGreaterThanOrEqual(-0.05);
          expect(c.high!).toBeLessThanOrEqual(0.05);
        }
        if (c.outcome === 'change') expect(c.low! > 0 || c.high! < 0).toBe(true);
      }),
      RUNS,
    );
    // The generator reaches the outcome the law is about.
    expect(same).toBeGreaterThan(10);
  });
});
