// Pooling latencies across tests: by merged histograms, not by averaging percentiles.
import { describe, expect, it } from 'vitest';
import type { LatencyHistogram, LatencyUs } from '../../../app/src/model/engine-types.js';
import { histogramPercentile, mergeHistograms, poolLatency } from '../../../app/src/model/latency.js';

const h = (buckets: Array<[number, number, number]>, minNs: number, maxNs: number): LatencyHistogram => ({
  lowerNs: buckets.map((b) => b[0]),
  widthNs: buckets.map((b) => b[1]),
  counts: buckets.map((b) => b[2]),
  minNs,
  maxNs,
});
const lat = (over: Partial<LatencyUs>): LatencyUs => ({ min: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, ...over });

describe('histograms', () => {
  it('merge adds counts bucket by bucket and keeps them sorted', () => {
    const a = h(
      [
        [100, 1, 2],
        [1024, 16, 3],
      ],
      100,
      1030,
    );
    const b = h(
      [
        [50, 1, 1],
        [1024, 16, 4],
      ],
      50,
      1039,
    );
    expect(mergeHistograms([a, b])).toEqual(
      h(
        [
          [50, 1, 1],
          [100, 1, 2],
          [1024, 16, 7],
        ],
        50,
        1039,
      ),
    );
    expect(mergeHistograms([])).toEqual(h([], 0, 0));
  });

  it("percentile: the midpoint of the bucket holding the ceil(q·n)-th sample, clamped (the engine's rule)", () => {
    // 10 samples: 9 in [1000, 1016), 1 in [64000, 65024).
    const x = h(
      [
        [1000, 16, 9],
        [64000, 1024, 1],
      ],
      1001,
      64100,
    );
    expect(histogramPercentile(x, 0.5)).toBe(1008); // rank 5 → first bucket, 1000 + 8
    expect(histogramPercentile(x, 0.9)).toBe(1008); // rank 9 → still the first
    expect(histogramPercentile(x, 0.99)).toBe(64100); // rank 10 → 64512, clamped to max 64100
    expect(histogramPercentile(h([[5, 1, 3]], 5, 5), 0)).toBe(5); // rank at least 1
    expect(histogramPercentile(h([], 0, 0), 0.5)).toBe(0);
  });
});

describe('poolLatency', () => {
  it('takes percentiles of all I/Os together: a slow file does not drag the median', () => {
    // 99 fast I/Os in one test, 1 slow in another. Averaging p50s (weighted) would give ~1.6 µs.
    const fast = {
      ios: 99,
      latencyUs: lat({ min: 1, mean: 1, p50: 1, p99: 1, max: 1.01 }),
      latencyHistogram: h([[1000, 16, 99]], 1000, 1010),
    };
    const slow = {
      ios: 1,
      latencyUs: lat({ min: 60, mean: 60, p50: 60, p99: 60, max: 60 }),
      latencyHistogram: h([[59904, 1024, 1]], 60000, 60000),
    };
    const { latencyUs, exact } = poolLatency([fast, slow]);
    expect(exact).toBe(true);
    expect(latencyUs.p50).toBeCloseTo(1.008, 6);
    expect(latencyUs.p99).toBeCloseTo(1.008, 6); // rank 99 of 100 is still a fast one
    expect(latencyUs.p999).toBeCloseTo(60, 6); // rank 100: the slow one, clamped to its max
    expect(latencyUs.mean).toBeCloseTo((99 * 1 + 60) / 100, 9);
    expect(latencyUs.min).toBe(1);
    expect(latencyUs.max).toBe(60);
  });

  it('without histograms it falls back to I/O-weighted percentiles and says it is not exact', () => {
    const { latencyUs, exact } = poolLatency([
      { ios: 3, latencyUs: lat({ p50: 10, p99: 20, mean: 10, min: 5, max: 30 }) },
      { ios: 1, latencyUs: lat({ p50: 50, p99: 60, mean: 50, min: 40, max: 70 }) },
    ]);
    expect(exact).toBe(false);
    expect(latencyUs.p50).toBe(20); // (3·10 + 50) / 4
    expect(latencyUs).toMatchObject({ min: 5, max: 70, mean: 20 });
  });

  it('ignores tests that did no I/O, and an empty pool is all zeros', () => {
    expect(poolLatency([]).latencyUs).toEqual(lat({}));
    const one = { ios: 2, latencyUs: lat({ mean: 3, min: 3, max: 3, p50: 3 }), latencyHistogram: h([[3000, 32, 2]], 3000, 3000) };
    expect(poolLatency([one, { ios: 0, latencyUs: lat({ max: 999 }) }]).latencyUs.max).toBe(3);
  });
});
