// The verify test's section of a result document: its types, the part of it every view relies on
// (checked when a result is read from outside), and its key. The document gets the key by
// declaration merging, so model/result.ts lists no kind's section.
import { z } from 'zod';
import type { VerifyRun } from '../../engine-types.js';
import type { CurvePoint, CurveVerdict } from '../../knee.js';
import { CapacityVerdictSchema, type CapacityVerdict } from '../../verdict/capacity.js';

/** What a verify run proved: its layout, the blocks read back, the two curves and the verdict. */
export interface VerifySection {
  /** --size: the most asked to verify; absent: the free space less the reserve. */
  requestedBytes?: number;
  /** What the plan wrote: the smaller of the request and free space less the reserve. */
  plannedBytes: number;
  limitedBy: 'size' | 'free-space' | 'device';
  reserveBytes: number;
  /** Files written (a whole device: regions of it). */
  files: number;
  /** A whole unmounted device, written from its first byte (`diskdial verify --device`). */
  device?: true;
  seed: number;
  /** Bytes written and bytes read back and checked. */
  writtenBytes: number;
  checkedBytes: number;
  /** The bad runs in block order (numbered from the run's start), as the engine found them. */
  runs: VerifyRun[];
  /** More bad runs were found than are kept. */
  runsTruncated: boolean;
  /** MB/s against position on the volume (bytes at the end of each slice, from startBytes). */
  writeCurve: CurvePoint[];
  readCurve: CurvePoint[];
  sliceBytes: number;
  /** Where the write curve's fast cache runs out (model/knee.ts). */
  knee: CurveVerdict;
  /** The capacity verdict (model/verdict/capacity.ts): its outcome and the figures behind it. */
  verdict: CapacityVerdict;
  /** The verdict in plain words. */
  summary: string;
}

declare module '../../result.js' {
  interface KindSections {
    /** The verify test: what it proved of the drive's capacity, and its two curves. */
    verify?: VerifySection;
  }
}

const num = z.number().finite();
const curve = z.array(z.looseObject({ bytes: num, mbps: num }));

/** Only what screens, exports and the card read; everything else passes through untouched. */
export const verifyResult = {
  key: 'verify',
  schema: z.looseObject({
    plannedBytes: num,
    writtenBytes: num,
    checkedBytes: num,
    writeCurve: curve,
    readCurve: curve,
    knee: z.looseObject({ kind: z.string() }),
    verdict: CapacityVerdictSchema,
    summary: z.string(),
  }),
} as const;
