// Descriptive statistics and line fits for benchmark figures: the centre and spread of
// repeated runs (mean, median, a trimmed mean that ignores the odd stalled run), quantiles,
// and two ways to fit a straight line — ordinary least squares, and the Theil–Sen estimator,
// which takes the median of all pairwise slopes and so shrugs off a few wild points.
//
// Inputs must be finite numbers. The descriptive functions do not check (a NaN in gives NaN
// out); the line fits throw a RangeError on any non-finite value, because a NaN that silently
// poisons a fit is worse than an error. No function mutates its input arrays.

/** Arithmetic mean. NaN for an empty array. */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** Middle value (the mean of the two middle values for an even count). NaN for []. Does not mutate its input. */
export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}

/** Quantile with linear interpolation between order statistics (R type 7 / NumPy default). q in [0,1]. NaN for []. */
export function quantile(xs: readonly number[], q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile: q must be in [0, 1], got ${q}`);
  if (xs.length === 0) return NaN;
  return quantileSorted(sorted(xs), q);
}

/** Sample standard deviation (n − 1); 0 when n < 2. */
export function stdev(xs: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/** Trimmed mean: sorts, removes g = floor(proportion × n) values from EACH end, averages the rest (Wilcox's convention: a "20 % trimmed mean" drops 20 % at each end). proportion in [0, 0.5); default 0.2. NaN for []. */
export function trimmedMean(xs: readonly number[], proportion = 0.2): number {
  if (!(proportion >= 0 && proportion < 0.5)) {
    throw new RangeError(`trimmedMean: proportion must be in [0, 0.5), got ${proportion}`);
  }
  const n = xs.length;
  if (n === 0) return NaN;
  const g = Math.floor(proportion * n);
  // g < n/2, so at least one value always remains.
  return mean(sorted(xs).slice(g, n - g));
}

/** Summary of a set of figures. */
export interface Spread {
  n: number;
  mean: number;
  median: number;
  min: number;
  max: number;
  stdev: number;
  /** stdev / mean; 0 when mean is 0 or n < 2 */
  cv: number;
}

/** Count, centre and spread in one pass over the figures. For [] every field is NaN except n = 0. */
export function spread(xs: readonly number[]): Spread {
  const n = xs.length;
  if (n === 0) return { n: 0, mean: NaN, median: NaN, min: NaN, max: NaN, stdev: NaN, cv: NaN };
  const s = sorted(xs);
  const m = mean(s);
  const sd = stdev(s);
  return {
    n,
    mean: m,
    median: quantileSorted(s, 0.5),
    min: s[0] as number,
    max: s[n - 1] as number,
    stdev: sd,
    cv: n < 2 || m === 0 ? 0 : sd / m,
  };
}

/** A straight line y = intercept + slope·x and how many points it was fitted to. */
export interface LinearFit {
  slope: number;
  intercept: number;
  n: number;
  /** coefficient of determination, least squares only */
  r2?: number;
}

/** Ordinary least squares y = intercept + slope·x. Throws RangeError when n < 2 or all x equal or lengths differ.
 *  r2 is 1 when every y is equal (the horizontal line fits exactly). Inputs must be finite (RangeError otherwise). */
export function leastSquares(xs: readonly number[], ys: readonly number[]): LinearFit {
  checkFitInput('leastSquares', xs, ys);
  const n = xs.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) throw new RangeError('leastSquares: all x values are equal; no line fits');
  const slope = sxy / sxx;
  const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
  return { slope, intercept: my - slope * mx, n, r2 };
}

/** Theil–Sen estimator: slope = median of (yj − yi)/(xj − xi) over all pairs i<j with xi ≠ xj; intercept = median of (yi − slope·xi). Robust to up to ~29 % outliers. Same errors as leastSquares. O(n²) pairs is fine (n ≤ ~2000). */
export function theilSen(xs: readonly number[], ys: readonly number[]): LinearFit {
  checkFitInput('theilSen', xs, ys);
  const n = xs.length;
  const slopes: number[] = [];
  for (let i = 0; i < n; i++) {
    const xi = xs[i] as number;
    const yi = ys[i] as number;
    for (let j = i + 1; j < n; j++) {
      const dx = (xs[j] as number) - xi;
      if (dx !== 0) slopes.push(((ys[j] as number) - yi) / dx);
    }
  }
  if (slopes.length === 0) throw new RangeError('theilSen: all x values are equal; no line fits');
  const slope = median(slopes);
  const residuals = ys.map((y, i) => y - slope * (xs[i] as number));
  return { slope, intercept: median(residuals), n };
}

function checkFitInput(what: string, xs: readonly number[], ys: readonly number[]): void {
  if (xs.length !== ys.length) {
    throw new RangeError(`${what}: ${xs.length} x values but ${ys.length} y values`);
  }
  if (xs.length < 2) throw new RangeError(`${what}: needs at least 2 points, got ${xs.length}`);
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) {
      throw new RangeError(`${what}: point ${i} is not finite (x=${xs[i]}, y=${ys[i]})`);
    }
  }
}

/** A sorted copy, ascending by value. */
function sorted(xs: readonly number[]): number[] {
  return xs.slice().sort((a, b) => a - b);
}

/** Type-7 quantile of an already sorted, non-empty array. */
function quantileSorted(s: readonly number[], q: number): number {
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  const a = s[lo] as number;
  if (h === lo) return a;
  const b = s[Math.min(lo + 1, s.length - 1)] as number;
  return a + (h - lo) * (b - a);
}
