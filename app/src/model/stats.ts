// Descriptive statistics and line fits for benchmark figures: the centre and spread of
// repeated runs (mean, median, a trimmed mean that ignores the odd stalled run), quantiles,
// and two ways to fit a straight line — ordinary least squares, and the Theil–Sen estimator,
// which takes the median of all pairwise slopes and so shrugs off a few wild points. And what a
// comparison's interval needs: Welch's standard error and degrees of freedom, and Student's t
// (its two-sided p-value and critical value).
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

/** The standard error of mean a − mean b without assuming equal variances, and its
 *  Welch–Satterthwaite degrees of freedom (n a + n b − 2 when neither side has any spread). Needs
 *  at least 2 values on each side (NaN fields otherwise). */
export function welchError(a: readonly number[], b: readonly number[]): { se: number; df: number } {
  const na = a.length;
  const nb = b.length;
  if (na < 2 || nb < 2) return { se: NaN, df: NaN };
  const va = stdev(a) ** 2 / na;
  const vb = stdev(b) ** 2 / nb;
  const se2 = va + vb;
  if (se2 === 0) return { se: 0, df: na + nb - 2 };
  return { se: Math.sqrt(se2), df: (se2 * se2) / ((va * va) / (na - 1) + (vb * vb) / (nb - 1)) };
}

/** Two-sided p-value of Student's t distribution with df degrees of freedom:
 *  P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2). NaN for df ≤ 0 or a NaN t. */
export function studentTwoSidedP(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return NaN;
  if (!Number.isFinite(t)) return 0;
  if (!Number.isFinite(df)) return erfc(Math.abs(t) / Math.SQRT2);
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The two-sided critical value of Student's t: the t > 0 with P(|T| ≥ t) = alpha for df degrees
 *  of freedom (t at 0.975 for alpha = 0.05), found by bisection on studentTwoSidedP, which falls
 *  as t grows. NaN for df ≤ 0 or alpha outside (0, 1). */
export function studentTwoSidedCritical(alpha: number, df: number): number {
  if (!(df > 0) || !(alpha > 0 && alpha < 1)) return NaN;
  let lo = 0;
  let hi = 2;
  while (studentTwoSidedP(hi, df) > alpha) {
    lo = hi;
    hi *= 2;
    if (hi > 1e12) return Infinity;
  }
  // 200 halvings reach the spacing of doubles near t long before the loop ends.
  for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTwoSidedP(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The regularized incomplete beta function I_x(a, b), x in [0, 1], a, b > 0: the continued
 *  fraction of Numerical Recipes (6.4), evaluated with the modified Lentz method, on whichever
 *  side of the mean converges fast. NaN outside the domain. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1) || !(a > 0) || !(b > 0)) return NaN;
  if (x === 0) return 0;
  if (x === 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 significant digits). */
export function lnGamma(x: number): number {
  if (x < 0.5) {
    // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
    return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
  }
  const z = x - 1;
  let sum = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
] as const;

/** The continued fraction for I_x(a, b), modified Lentz. */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    // Even step.
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    // Odd step.
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7):
 *  the normal limit of Student's t for unbounded df. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
