import { describe, expect, it } from 'vitest';
import { leastSquares, mean, median, quantile, spread, stdev, theilSen, trimmedMean } from '../../../app/src/model/stats.js';

describe('mean and median', () => {
  it('averages', () => {
    // (1 + 2 + 3 + 4) / 4 = 10 / 4 = 2.5
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(mean([7])).toBe(7);
    expect(mean([])).toBeNaN();
  });

  it('takes the middle value, or the mean of the two middle values', () => {
    // sorted [1, 2, 3, 10] → (2 + 3) / 2 = 2.5
    expect(median([3, 1, 2, 10])).toBe(2.5);
    // sorted [1, 2, 5] → 2
    expect(median([5, 1, 2])).toBe(2);
    expect(median([42])).toBe(42);
    expect(median([])).toBeNaN();
  });

  it('does not mutate its input', () => {
    const xs = [3, 1, 2, 10];
    median(xs);
    quantile(xs, 0.9);
    trimmedMean(xs, 0.25);
    spread(xs);
    expect(xs).toEqual([3, 1, 2, 10]);
  });
});

describe('quantile (type 7)', () => {
  it('interpolates linearly between order statistics', () => {
    // h = (n − 1)·q = 3 × 0.99 = 2.97 → x[2] + 0.97·(x[3] − x[2]) = 3 + 0.97 × 1 = 3.97
    expect(quantile([1, 2, 3, 4], 0.99)).toBeCloseTo(3.97, 12);
    // h = 3 × 0.25 = 0.75 → 1 + 0.75 × (2 − 1) = 1.75
    expect(quantile([4, 3, 2, 1], 0.25)).toBe(1.75);
    // h = 4 × 0.1 = 0.4 → 10 + 0.4 × (20 − 10) = 14
    expect(quantile([10, 20, 30, 40, 50], 0.1)).toBeCloseTo(14, 12);
    // the ends are the minimum and maximum
    expect(quantile([5, 9, 1], 0)).toBe(1);
    expect(quantile([5, 9, 1], 1)).toBe(9);
    expect(quantile([5], 0.3)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('rejects q outside [0, 1]', () => {
    expect(() => quantile([1, 2], 1.5)).toThrow(RangeError);
    expect(() => quantile([1, 2], -0.1)).toThrow(RangeError);
    expect(() => quantile([1, 2], NaN)).toThrow(RangeError);
  });
});

describe('stdev', () => {
  it('is the sample standard deviation (n − 1)', () => {
    // mean 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32 / (8 − 1) → sqrt(32/7)
    expect(stdev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    // mean 2; squared deviations 1+0+1 = 2; 2 / 2 = 1
    expect(stdev([1, 2, 3])).toBe(1);
  });
  it('is 0 for fewer than two values', () => {
    expect(stdev([5])).toBe(0);
    expect(stdev([])).toBe(0);
  });
});

describe('trimmedMean', () => {
  it('drops floor(proportion × n) values at each end', () => {
    // n = 10, g = floor(0.2 × 10) = 2: drop 1,2 and 9,10 → mean(3..8) = 33 / 6 = 5.5
    expect(trimmedMean([10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 0.2)).toBe(5.5);
    // default proportion is 0.2
    expect(trimmedMean([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toBe(5.5);
  });

  it('ignores an outlier', () => {
    // n = 5, g = floor(0.2 × 5) = 1: drop 1 and 1000 → mean(2, 3, 4) = 3
    expect(trimmedMean([1, 2, 3, 4, 1000], 0.2)).toBe(3);
    // untrimmed, the outlier dominates: 1010 / 5 = 202
    expect(trimmedMean([1, 2, 3, 4, 1000], 0)).toBe(202);
  });

  it('keeps everything when g rounds down to 0', () => {
    // n = 4, g = floor(0.2 × 4) = 0 → mean(1, 2, 3, 10) = 16 / 4 = 4
    expect(trimmedMean([1, 2, 3, 10], 0.2)).toBe(4);
  });

  it('handles [] and rejects proportions outside [0, 0.5)', () => {
    expect(trimmedMean([])).toBeNaN();
    expect(() => trimmedMean([1, 2, 3], 0.5)).toThrow(RangeError);
    expect(() => trimmedMean([1, 2, 3], -0.1)).toThrow(RangeError);
  });
});

describe('spread', () => {
  it('summarises a small set', () => {
    // sorted [2,4,4,4,5,5,7,9]: mean 40/8 = 5, median (4+5)/2 = 4.5, stdev sqrt(32/7) ≈ 2.138,
    // cv = 2.138 / 5 ≈ 0.4276
    const s = spread([9, 2, 5, 4, 4, 7, 4, 5]);
    expect(s.n).toBe(8);
    expect(s.mean).toBe(5);
    expect(s.median).toBe(4.5);
    expect(s.min).toBe(2);
    expect(s.max).toBe(9);
    expect(s.stdev).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(s.cv).toBeCloseTo(Math.sqrt(32 / 7) / 5, 12);
  });

  it('has cv 0 for a single value or a zero mean', () => {
    expect(spread([7])).toEqual({ n: 1, mean: 7, median: 7, min: 7, max: 7, stdev: 0, cv: 0 });
    // mean (−1 + 1) / 2 = 0 → cv 0 rather than ±Infinity
    expect(spread([-1, 1]).cv).toBe(0);
  });

  it('is all NaN but n for []', () => {
    const s = spread([]);
    expect(s.n).toBe(0);
    for (const k of ['mean', 'median', 'min', 'max', 'stdev', 'cv'] as const) expect(s[k]).toBeNaN();
  });
});

describe('leastSquares', () => {
  it('recovers an exact line', () => {
    // y = 3 + 2x
    const f = leastSquares([0, 1, 2, 5], [3, 5, 7, 13]);
    expect(f.slope).toBeCloseTo(2, 12);
    expect(f.intercept).toBeCloseTo(3, 12);
    expect(f.r2).toBeCloseTo(1, 12);
    expect(f.n).toBe(4);
  });

  it('fits a hand-solved set', () => {
    // x = [1,2,3,4], y = [2,3,5,4]; x̄ = 2.5, ȳ = 3.5
    // dx = [−1.5, −0.5, 0.5, 1.5], dy = [−1.5, −0.5, 1.5, 0.5]
    // Sxx = 2.25+0.25+0.25+2.25 = 5; Sxy = 2.25+0.25+0.75+0.75 = 4; Syy = 2.25+0.25+2.25+0.25 = 5
    // slope = 4/5 = 0.8; intercept = 3.5 − 0.8 × 2.5 = 1.5; r2 = 4² / (5 × 5) = 0.64
    const f = leastSquares([1, 2, 3, 4], [2, 3, 5, 4]);
    expect(f.slope).toBeCloseTo(0.8, 12);
    expect(f.intercept).toBeCloseTo(1.5, 12);
    expect(f.r2).toBeCloseTo(0.64, 12);
  });

  it('gives r2 = 1 for a horizontal line', () => {
    const f = leastSquares([1, 2, 3], [4, 4, 4]);
    expect(f.slope).toBe(0);
    expect(f.intercept).toBe(4);
    expect(f.r2).toBe(1);
  });
});

describe('theilSen', () => {
  it('takes the median pairwise slope and median residual', () => {
    // x = [1,2,3,4], y = [2,3,5,4]; pairwise slopes:
    //   (1,2): 1/1 = 1   (1,3): 3/2 = 1.5   (1,4): 2/3 ≈ 0.667
    //   (2,3): 2/1 = 2   (2,4): 1/2 = 0.5   (3,4): −1/1 = −1
    // sorted −1, 0.5, 0.667, 1, 1.5, 2 → median (2/3 + 1)/2 = 5/6 ≈ 0.8333
    // residuals y − (5/6)x: 2 − 5/6 = 7/6, 3 − 10/6 = 8/6, 5 − 15/6 = 15/6, 4 − 20/6 = 4/6
    // sorted 4/6, 7/6, 8/6, 15/6 → median (7/6 + 8/6)/2 = 15/12 = 1.25
    const f = theilSen([1, 2, 3, 4], [2, 3, 5, 4]);
    expect(f.slope).toBeCloseTo(5 / 6, 12);
    expect(f.intercept).toBeCloseTo(1.25, 12);
    expect(f.n).toBe(4);
    expect(f.r2).toBeUndefined();
  });

  it('ignores a gross outlier that drags least squares', () => {
    // y = 1 + 0.5x for x = 0..9, plus (10, 40) where the line gives 6.
    // 45 of the 55 pairwise slopes are exactly 0.5 → median 0.5; 10 of 11 residuals are 1 → median 1.
    const xs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const ys = xs.map((x) => (x === 10 ? 40 : 1 + 0.5 * x));
    const ts = theilSen(xs, ys);
    expect(Math.abs(ts.slope - 0.5)).toBeLessThan(1e-12);
    expect(Math.abs(ts.intercept - 1)).toBeLessThan(1e-12);
    const ls = leastSquares(xs, ys);
    expect(Math.abs(ls.slope - 0.5)).toBeGreaterThan(0.5);
  });

  it('skips pairs with equal x', () => {
    // x = [1,1,2], y = [0,2,3]: pair (1,1) skipped (it would be ±Infinity);
    // (1→2): 3/1 = 3 and 1/1 = 1 → median 2; residuals 0−2 = −2, 2−2 = 0, 3−4 = −1 → median −1
    const f = theilSen([1, 1, 2], [0, 2, 3]);
    expect(f.slope).toBe(2);
    expect(f.intercept).toBe(-1);
  });
});

describe('fit errors', () => {
  for (const [name, fit] of [
    ['leastSquares', leastSquares],
    ['theilSen', theilSen],
  ] as const) {
    it(`${name} throws RangeError on bad input`, () => {
      expect(() => fit([1], [1])).toThrow(RangeError);
      expect(() => fit([], [])).toThrow(RangeError);
      expect(() => fit([1, 2, 3], [1, 2])).toThrow(RangeError);
      expect(() => fit([2, 2, 2], [1, 2, 3])).toThrow(RangeError);
      expect(() => fit([1, 2, NaN], [1, 2, 3])).toThrow(RangeError);
      expect(() => fit([1, 2, 3], [1, Infinity, 3])).toThrow(RangeError);
    });
  }
});
