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
  /** A larger size back under 90 % of the top: the lowest such (write at 1,612 MB/s at 8 MiB). */
  falls?: { bs: number; mbps: number };
}

/** A headline figure of the preset (QuickBench's "4 KB" and "20–100 MB" averages): the mean MB/s
 *  of the rows it names, per direction. */
export interface SweepAverage {
  /** Its key in the figures: "avg4K", "avg20to100M". */
  id: string;
  /** What QuickBench calls it: "4 KB", "20–100 MB". */
  name: string;
  /** The transfer sizes averaged, bytes: what really ran (QuickBench's "20 MB" is 20 MiB here). */
  sizes: number[];
  writeMBps: number;
  readMBps: number;
}

export interface SweepRun {
  run: number;
  points: SweepPoint[];
  fullSpeedWrite?: SweepFullSpeed;
  fullSpeedRead?: SweepFullSpeed;
  /** The preset's headline averages (QuickBench's), when every row they name ran. */
  averages?: SweepAverage[];
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
        averages: z
          .array(z.looseObject({ id: z.string(), name: z.string(), sizes: z.array(num), writeMBps: num, readMBps: num }))
          .optional(),
      }),
    ),
  }),
} as const;
