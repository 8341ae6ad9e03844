// The sustained write's section of a result document: its types, the part of it every view relies
// on (checked when a result is read from outside), and its key. The document gets the key by
// declaration merging, so model/result.ts lists no kind's section.
import { z } from 'zod';
import type { CurvePoint, CurveVerdict } from '../../knee.js';

/** The sustained-write test: MB/s against bytes written, per run, and what the curve says. */
export interface SustainedSection {
  /** The most the user asked to write, bytes. */
  requestedBytes: number;
  /** What the plan wrote per run: the smaller of the request and free space less the reserve. */
  plannedBytes: number;
  limitedBy: 'size' | 'free-space';
  reserveBytes: number;
  runs: SustainedRun[];
}

export interface SustainedRun {
  run: number;
  bytes: number;
  /** Width of one curve slice, bytes. */
  sliceBytes: number;
  curve: CurvePoint[];
  verdict: CurveVerdict;
  /** The verdict in plain words: "Fast cache ≈ 12.4 GB, then 480 MB/s (−78 %)". */
  summary: string;
}

declare module '../../result.js' {
  interface KindSections {
    /** The sustained write: its curve and verdict per run. */
    sustained?: SustainedSection;
  }
}

const num = z.number().finite();

/** Only what screens, exports and the card read; everything else passes through untouched. */
export const sustainedResult = {
  key: 'sustained',
  schema: z.looseObject({
    plannedBytes: num,
    runs: z.array(
      z.looseObject({
        run: num,
        curve: z.array(z.looseObject({ bytes: num, mbps: num })),
        verdict: z.looseObject({ kind: z.string() }),
        summary: z.string(),
      }),
    ),
  }),
} as const;
