// The comparison verdict's statistics against values computed with mpmath (40 digits): Student's t
// critical values, and the 95 % interval of a ratio of geometric means from Welch's t on log
// values — then its three outcomes and the words they are said in.
import { describe, expect, it } from 'vitest';
import { studentTwoSidedCritical, studentTwoSidedP } from '../../../../app/src/model/stats.js';
import { judgeComparison } from '../../../../app/src/model/verdict/compare.js';
import { changeText, deltaText, flagTexts, intervalText, reasonTexts } from '../../../../app/src/model/verdict/compare-words.js';

describe("Student's t critical value (two-sided)", () => {
  it('matches the t table and mpmath, integer and fractional df', () => {
    // mpmath (40 digits, shown to 16): bisection on betainc(df/2, 1/2, 0, df/(df+t²), regularized=True) = alpha.
    const cases: Array<[alpha: number, df: number, t: number]> = [
      [0.05, 1, 12.7062047361747],
      [0.05, 2, 4.302652729749464],
      [0.05, 3, 3.18244630528371],
      [0.05, 10, 2.228138851986275],
      [0.05, 30, 2.042272456301238],
      [0.01, 3, 5.840909309733357],
      [0.05, 1.5, 6.016663104427932],
      [0.05, 2.7, 3.392148383173752],
      [0.05, 1000, 1.962339080826408],
    ];
    for (const [alpha, df, t] of cases) expect(studentTwoSidedCritical(alpha, df)).toBeCloseTo(t, 9);
  });

  it('inverts studentTwoSidedP, and refuses what has no answer', () => {
    for (const df of [1.2, 4, 17.5]) expect(studentTwoSidedP(studentTwoSidedCritical(0.05, df), df)).toBeCloseTo(0.05, 12);
    // The normal limit (erfc's fit is good to about 1e-7): 1.959964.
    expect(studentTwoSidedCritical(0.05, Infinity)).toBeCloseTo(1.959964, 5);
    expect(studentTwoSidedCritical(0.05, 0)).toBeNaN();
    expect(studentTwoSidedCritical(0, 5)).toBeNaN();
    expect(studentTwoSidedCritical(1, 5)).toBeNaN();
  });
});

describe('the interval of a ratio (log scale) against mpmath', () => {
  it("Welch on log values: 3 runs each, the baseline's runs 7× apart", () => {
    const c = judgeComparison([5.02, 5.0, 4.99], [1100, 150, 180], 'higher');
    expect(c.test).toBe('welch');
    expect(c.change).toBeCloseTo(-0.983843798070435, 12);
    expect(c.low).toBeCloseTo(-0.998952807612518, 10);
    expect(c.high).toBeCloseTo(-0.750740299577229, 8);
    expect(c.df).toBeCloseTo(2.00003070127191, 8);
    expect(c).toMatchObject({ outcome: 'change', sense: 'worse', reasons: [] });
    expect(c.baseline).toMatchObject({ n: 3, noisy: true, outlier: 1, outlierHigh: true });
    expect(c.baseline.span).toBeCloseTo(1100 / 150, 12);
    expect(c.candidate.noisy).toBe(false);
    expect(c.figures).toMatchObject({ candidateRuns: 3, baselineRuns: 3 });
    expect(c.rule).toMatch(/Welch's t-test on the runs' log values/);
    // Swapped: the same interval, inverted, and the same outcome.
    const s = judgeComparison([1100, 150, 180], [5.02, 5.0, 4.99], 'higher');
    expect(s.change).toBeCloseTo(60.8957354184859, 9);
    expect(s.low).toBeCloseTo(3.01187997218922, 8);
    expect(s.high).toBeCloseTo(953.934367317237, 4);
    expect(s).toMatchObject({ outcome: 'change', sense: 'better' });
  });

  it('2 runs each (df ≈ 1.04): a 96 % drop is still a real change', () => {
    const c = judgeComparison([40, 42], [1000, 1400], 'higher');
    expect(c.change).toBeCloseTo(-0.965358983848622, 12);
    expect(c.low).toBeCloseTo(-0.99514289962445, 10);
    expect(c.high).toBeCloseTo(-0.752939015623257, 8);
    expect(c.df).toBeCloseTo(1.04203432909961, 8);
    expect(c.outcome).toBe('change');
  });

  it('one run on one side: the other side lends its log variance (df = n − 1)', () => {
    const c = judgeComparison([95, 100, 105], [100], 'higher');
    expect(c.test).toBe('one-run-side');
    expect(c.df).toBe(2);
    expect(c.change).toBeCloseTo(-0.000834028743894414, 12);
    expect(c.low).toBeCloseTo(-0.22079521733396, 10);
    expect(c.high).toBeCloseTo(0.281219854298602, 10);
    expect(c).toMatchObject({ outcome: 'inconclusive', reasons: ['few-runs'] });
    expect(c.rule).toMatch(/lending its spread to the single run/);
  });

  it('2 runs each, halved with a wide spread: inconclusive, never "no difference"', () => {
    const c = judgeComparison([650, 690], [1300, 1600], 'higher');
    expect(c.change).toBeCloseTo(-0.535645609474832, 12);
    expect(c.low).toBeCloseTo(-0.827419280508529, 9);
    expect(c.high).toBeCloseTo(0.24941534972947, 9);
    expect(c).toMatchObject({ outcome: 'inconclusive', reasons: ['few-runs'] });
  });
});

describe('the three outcomes', () => {
  it('no difference only when the whole interval is within ±5 %', () => {
    const same = judgeComparison([1000, 1002, 998], [1001, 999, 1003], 'higher');
    expect(same.outcome).toBe('same');
    expect(same.low!).toBeGreaterThanOrEqual(-0.05);
    expect(same.high!).toBeLessThanOrEqual(0.05);
    // A tight 8 % drop is real; a tight 3 % drop is no difference (its interval is inside ±5 %,
    // though it excludes 0: an equivalence test, not a significance test).
    expect(judgeComparison([920, 921, 919], [1000, 1001, 999], 'higher')).toMatchObject({ outcome: 'change', sense: 'worse' });
    expect(judgeComparison([970, 971, 969], [1000, 1001, 999], 'higher').outcome).toBe('same');
    // Identical runs: the interval is a point. Exactly a factor 1.05 apart still counts as within.
    expect(judgeComparison([20, 20], [21, 21], 'higher').outcome).toBe('same');
    expect(judgeComparison([20, 20], [22, 22], 'higher').outcome).toBe('change');
  });

  it('one run each: no interval, inconclusive however large the change', () => {
    const c = judgeComparison([100], [500], 'higher');
    expect(c).toMatchObject({ outcome: 'inconclusive', test: 'none', reasons: ['one-run-each'] });
    expect(c.low).toBeUndefined();
    expect(c.change).toBeCloseTo(-0.8, 12);
  });

  it('a figure without a direction is higher or lower, never better or worse', () => {
    expect(judgeComparison([24, 24.5, 23.8], [64, 65, 63], 'none')).toMatchObject({ outcome: 'change', sense: 'lower' });
    expect(judgeComparison([64, 65, 63], [24, 24.5, 23.8], 'none')).toMatchObject({ outcome: 'change', sense: 'higher' });
    // Lower is better for a latency.
    expect(judgeComparison([80, 81, 79], [100, 101, 99], 'lower')).toMatchObject({ outcome: 'change', sense: 'better' });
  });

  it('zeros: identical zeros are the same, any other zero has no ratio', () => {
    expect(judgeComparison([0, 0], [0, 0, 0], 'lower')).toMatchObject({ outcome: 'same', change: 0 });
    expect(judgeComparison([0, 2], [1, 1], 'lower')).toMatchObject({ outcome: 'inconclusive', reasons: ['not-positive'] });
  });
});

describe('the words', () => {
  it('says the change with its interval, and why a comparison is inconclusive', () => {
    const c = judgeComparison([5.02, 5.0, 4.99], [1100, 150, 180], 'higher');
    expect(changeText(c)).toBe('−98 %, CI −99.9 to −75 %');
    expect(flagTexts(c, { candidate: 'Throttled', baseline: 'Free' })).toEqual(['the runs of Free vary 7.3× — run 1 looks cached']);
    const two = judgeComparison([650, 690], [1300, 1600], 'higher');
    expect(reasonTexts(two)).toEqual(['2 runs each']);
    expect(intervalText(two)).toBe('CI −83 to +25 %');
    expect(reasonTexts(judgeComparison([100], [500], 'higher'))).toEqual(['one run each: no interval']);
    // A slow run on a throughput only stands out; 40 % spread is said as a CV.
    const slow = judgeComparison([100, 101, 99], [100, 100, 40], 'higher');
    expect(flagTexts(slow)).toEqual(['the runs of the baseline vary 2.5× — run 3 stands out']);
    expect(flagTexts(judgeComparison([100, 101], [100, 60, 60], 'higher'))).toEqual([
      'the runs of the baseline vary by a CV of 31 % — run 1 looks cached',
    ]);
  });

  it('writes changes as people do, a near-total drop without rounding to −100 %', () => {
    expect(deltaText(-0.0912)).toBe('−9.1 %');
    expect(deltaText(0.123)).toBe('+12 %');
    expect(deltaText(-0.09)).toBe('−9 %');
    expect(deltaText(0.0001)).toBe('0 %');
    expect(deltaText(-0.996)).toBe('−99.6 %');
    expect(deltaText(-0.9996)).toBe('−99.96 %');
    expect(deltaText(59.9)).toBe('+5,990 %');
    expect(deltaText(NaN)).toBe('—');
  });
});
