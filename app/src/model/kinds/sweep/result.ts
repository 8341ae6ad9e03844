// The sweep's section of a result document: its types, the part of it every view relies on (checked
// when a result is read from outside), and its key. The document gets the key by declaration
// merging, so model/result.ts lists no kind's section.
import { z } from 'zod';
import type { CacheMode } from '../../engine-types.js';
import type { SweepPreset } from './plan.js';

/** One transfer size of the sweep: sequential write then read, MB/s and IOPS. */
export interface SweepPoint {
  bs: number;
  writeMBps: number;
  readMBps: number;
  writeIops: number;
  readIops: number;
  /** Set when a step of this size did not run uncached (512 B where direct I/O needs 4 KiB). */
  cacheMode?: CacheMode;
  cacheNote?: string;
}

/** Where one direction reaches full speed: the smallest size at 90 % of the top MB/s. */
export interface SweepFullSpeed {
  bs: number;
  topMBps: number;
}

export interface SweepRun {
  run: number;
  points: SweepPoint[];
  fullSpeedWrite?: SweepFullSpeed;
  fullSpeedRead?: SweepFullSpeed;
}

/** The transfer-size sweep (ATTO, QuickBench): MB/s against transfer size. */
export interface SweepSection {
  preset: SweepPreset;
  /** The ladder, bytes, smallest first. */
  sizes: number[];
  qd: number;
  /** Each step ran for this long, or moved this much data. */
  stepSeconds?: number;
  stepBytes?: number;
  runs: SweepRun[];
}

declare module '../../result.js' {
  interface KindSections {
    /** The transfer-size sweep: MB/s against transfer size, per run. */
    sweep?: SweepSection;
  }
}

const num = z.number().finite();

/** Only what screens, exports and the card read; everything else passes through untouched. */
export const sweepResult = {
  key: 'sweep',
  schema: z.looseObject({
    preset: z.string(),
    sizes: z.array(num),
    qd: num,
    runs: z.array(
      z.looseObject({
        run: num,
        points: z.array(z.looseObject({ bs: num, writeMBps: num, readMBps: num, writeIops: num, readIops: num })),
      }),
    ),
  }),
} as const;
