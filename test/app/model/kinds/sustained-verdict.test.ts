// The sustained write's verdict in words (kinds/sustained/verdict.ts): what its result's summary
// and the CLI's report say of each knee-detector verdict, in GB/MB and MB/s as a person reads them.
import { describe, expect, it } from 'vitest';
import type { CurveVerdict } from '../../../../app/src/model/knee.js';
import { describeVerdict } from '../../../../app/src/model/kinds/sustained/verdict.js';

describe('describeVerdict', () => {
  it('describes a knee', () => {
    const v: CurveVerdict = { kind: 'knee', kneeBytes: 12.4e9, beforeMBps: 2200, afterMBps: 480, lowestMBps: 450, change: -0.7818 };
    expect(describeVerdict(v, 60e9)).toBe('Fast cache ≈ 12.4 GB, then 480 MB/s (−78 %)');
    expect(describeVerdict({ ...v, kneeBytes: 123.4e9, afterMBps: 1234.4 }, 500e9)).toBe('Fast cache ≈ 123 GB, then 1,234 MB/s (−78 %)');
  });

  it('describes a steady curve', () => {
    expect(describeVerdict({ kind: 'steady', mbps: 1950.4 }, 50e9)).toBe('No slowdown within 50 GB: 1,950 MB/s throughout');
    expect(describeVerdict({ kind: 'steady', mbps: 45.6 }, 2.5e9)).toBe('No slowdown within 2.5 GB: 45.6 MB/s throughout');
    expect(describeVerdict({ kind: 'steady', mbps: 1234567 }, 1e12)).toBe('No slowdown within 1,000 GB: 1,234,567 MB/s throughout');
  });

  it('describes a varying curve', () => {
    expect(describeVerdict({ kind: 'varies', minMBps: 600, maxMBps: 1900, medianMBps: 1200, drops: 3 }, 60e9)).toBe(
      'Speed falls and recovers (3 drops): 600–1,900 MB/s, median 1,200 MB/s — heat throttling, background work in the drive, or a disk shared with other work',
    );
    expect(describeVerdict({ kind: 'varies', minMBps: 85.04, maxMBps: 240, medianMBps: 180.6, drops: 1 }, 8e9)).toBe(
      'Speed falls and recovers (1 drop): 85–240 MB/s, median 181 MB/s — heat throttling, background work in the drive, or a disk shared with other work',
    );
  });

  it('describes a curve too short to judge', () => {
    expect(describeVerdict({ kind: 'steady', mbps: 1950, tooShort: true }, 0.2e9)).toBe(
      'Too short to judge a slowdown: 1,950 MB/s over 200 MB',
    );
    // Below 1 GB, amounts are said in MB.
    const v: CurveVerdict = { kind: 'knee', kneeBytes: 0, beforeMBps: 2200, afterMBps: 480, lowestMBps: 450, change: -0.7818 };
    expect(describeVerdict({ ...v, kneeBytes: 84.3e6 }, 413e6)).toBe('Fast cache ≈ 84 MB, then 480 MB/s (−78 %)');
    expect(describeVerdict({ ...v, kneeBytes: 8.43e6 }, 413e6)).toBe('Fast cache ≈ 8.4 MB, then 480 MB/s (−78 %)');
    expect(describeVerdict({ kind: 'steady', mbps: 300 }, 413e6)).toBe('No slowdown within 413 MB: 300 MB/s throughout');
  });
});
