// The share test's section of a result document: the figures of each run and the two verdicts
// made from them (model/verdict/share.ts), its zod schema and its key.
import { z } from 'zod';
import type { CacheMode } from '../../engine-types.js';
import type { ShareVerdict, SmallFileVerdict } from '../../verdict/share.js';

/** A small file's operations, the median of each, ms (the small-file engine mode's p50s). */
export interface ShareFileOps {
  statMs: number;
  openMs: number;
  readMs: number;
  closeMs: number;
}

export interface ShareRun {
  run: number;
  cacheMode: CacheMode;
  diskWriteMBps: number;
  diskReadMBps: number;
  cacheFirstMBps: number;
  cacheMBps: number;
  fileOps: ShareFileOps;
  verdict: ShareVerdict;
  fileVerdict: SmallFileVerdict;
}

/** The share test: what limits the share, the link, the server's disk or the protocol. */
export interface ShareSection {
  diskFileBytes: number;
  cacheFileBytes: number;
  files: number;
  /** The round trip the small files were set against, ms (absent: not measured). */
  rttMs?: number;
  runs: ShareRun[];
}

declare module '../../result.js' {
  interface KindSections {
    /** The share test: link, server's disk and protocol told apart. */
    share?: ShareSection;
  }
}

const num = z.number().finite();
const claim = z.looseObject({ family: z.literal('share'), outcome: z.string(), figures: z.record(z.string(), num), rule: z.string() });

/** Only what screens, exports and the card read; everything else passes through untouched. */
export const shareResult = {
  key: 'share',
  schema: z.looseObject({
    diskFileBytes: num,
    cacheFileBytes: num,
    files: num,
    runs: z.array(
      z.looseObject({
        run: num,
        diskWriteMBps: num,
        diskReadMBps: num,
        cacheFirstMBps: num,
        cacheMBps: num,
        verdict: claim,
        fileVerdict: claim,
      }),
    ),
  }),
} as const;
