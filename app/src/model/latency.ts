// Pooling latencies of several engine results. Percentiles do not average: the p99 of 160 files
// is not the mean of their 160 p99s. The engine returns its histogram's non-empty buckets with
// every result; adding the counts bucket by bucket gives the histogram of all the I/Os together,
// and its percentiles are taken by the engine's own rule (histogram.cc): the midpoint of the
// bucket holding the ceil(q·n)-th sample, clamped to the observed min and max.
import type { EngineResult, LatencyHistogram, LatencyUs } from './engine-types.js';

/** Adds histograms bucket by bucket (buckets are identified by their lower bound). */
export function mergeHistograms(hs: readonly LatencyHistogram[]): LatencyHistogram {
  const byLower = new Map<number, { width: number; count: number }>();
  let minNs = Infinity;
  let maxNs = 0;
  for (const h of hs) {
    h.lowerNs.forEach((lower, i) => {
      const b = byLower.get(lower);
      const count = h.counts[i] ?? 0;
      if (b) b.count += count;
      else byLower.set(lower, { width: h.widthNs[i] ?? 1, count });
    });
    if (h.counts.length > 0) {
      minNs = Math.min(minNs, h.minNs);
      maxNs = Math.max(maxNs, h.maxNs);
    }
  }
  const lowers = [...byLower.keys()].sort((a, b) => a - b);
  return {
    lowerNs: lowers,
    widthNs: lowers.map((l) => byLower.get(l)!.width),
    counts: lowers.map((l) => byLower.get(l)!.count),
    minNs: Number.isFinite(minNs) ? minNs : 0,
    maxNs,
  };
}

/** The value below which a fraction q of the samples lie, in ns (0 for an empty histogram). */
export function histogramPercentile(h: LatencyHistogram, q: number): number {
  const total = h.counts.reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(Math.min(1, Math.max(0, q)) * total));
  let seen = 0;
  for (let i = 0; i < h.counts.length; i++) {
    seen += h.counts[i] ?? 0;
    if (seen >= rank) {
      const mid = (h.lowerNs[i] ?? 0) + Math.floor((h.widthNs[i] ?? 1) / 2);
      return Math.min(h.maxNs, Math.max(h.minNs, mid));
    }
  }
  return h.maxNs;
}

/**
 * Latency of several results taken together: mean weighted by I/O count, min and max of all,
 * percentiles from the merged histogram. Results without a histogram (an older engine) make the
 * percentiles unknowable: then they are the I/O-weighted means of each result's percentile,
 * and `exact` is false so a caller can say so.
 */
export function poolLatency(results: readonly Pick<EngineResult, 'ios' | 'latencyUs' | 'latencyHistogram'>[]): {
  latencyUs: LatencyUs;
  exact: boolean;
} {
  const withIos = results.filter((r) => r.ios > 0);
  const ios = withIos.reduce((a, r) => a + r.ios, 0);
  if (ios === 0) return { latencyUs: { min: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0 }, exact: true };
  const weighted = (k: keyof LatencyUs): number => withIos.reduce((a, r) => a + r.latencyUs[k] * r.ios, 0) / ios;
  const min = Math.min(...withIos.map((r) => r.latencyUs.min));
  const max = Math.max(...withIos.map((r) => r.latencyUs.max));
  const mean = weighted('mean');
  if (withIos.every((r) => r.latencyHistogram)) {
    const h = mergeHistograms(withIos.map((r) => r.latencyHistogram!));
    const p = (q: number): number => histogramPercentile(h, q) / 1e3;
    return { latencyUs: { min, mean, p50: p(0.5), p90: p(0.9), p99: p(0.99), p999: p(0.999), max }, exact: true };
  }
  return {
    latencyUs: { min, mean, p50: weighted('p50'), p90: weighted('p90'), p99: weighted('p99'), p999: weighted('p999'), max },
    exact: false,
  };
}
