// The frame-paced video test's section of a result document: the format it wrote, each run's
// write and read phase with their frame figures and verdicts; the part of it every view relies on
// (checked when a result is read from outside), and its key. The document gets the key by
// declaration merging, so model/result.ts lists no kind's section.
import { z } from 'zod';
import type { CacheMode, PacedFigures } from '../../engine-types.js';

export type VideoLayout = 'stream' | 'frames';

/** One format at one resolution and frame rate, as the paced test writes it. */
export interface PacedFormat {
  id: string;
  formatId: string;
  format: string;
  family: string;
  resolutionId: string;
  /** "UHD (3840×2160)" */
  resolution: string;
  fps: number;
  /** MB/s (10^6 bytes/s) the format's data rate comes to at `fps`. */
  dataRateMBps: number;
  /** Bytes per frame: the data rate over the frame rate, whole bytes. */
  frameBytes: number;
  /** The data rate is scaled or derived, not the maker's own figure at this rate. */
  estimated: boolean;
}

/** One direction of one run of the paced test. */
export interface VideoPhase extends Omit<PacedFigures, 'frameBytes' | 'budgetMs'> {
  /** Sustained MB/s: bytes moved over the phase's time (first due frame to last completion). */
  mbps: number;
  cacheMode: CacheMode;
  ok: boolean;
  /** "✓ 900 frames, none late; worst 21 ms of a 33 ms budget" */
  verdict: string;
}

export interface VideoRun {
  run: number;
  write: VideoPhase;
  read: VideoPhase;
}

/** The frame-paced video test (result document `video`): the format as the table gives it
 *  (`frameBytes`: the size written, rounded up to the direct-I/O alignment) and what happened. */
export interface VideoSection extends PacedFormat {
  /** One frame period, ms. */
  budgetMs: number;
  seconds: number;
  frames: number;
  layout: VideoLayout;
  buffer: number;
  runs: VideoRun[];
  /** Every frame of every run on time, none dropped, both ways. */
  ok: boolean;
  /** One line: "ProRes 422 HQ UHD 29.97 fps: ✓ every frame written and read back on time". */
  verdict: string;
}

declare module '../../result.js' {
  interface KindSections {
    /** The frame-paced video test: per run, write and read, frames late and dropped. */
    video?: VideoSection;
  }
}

const num = z.number().finite();
const str = z.string();
const phase = z.looseObject({ frames: num, late: num, dropped: num, p99Ms: num, mbps: num, verdict: str });

/** Only what screens, exports and the card read; everything else passes through untouched. */
export const videoResult = {
  key: 'video',
  schema: z.looseObject({
    id: str,
    format: str,
    fps: num,
    frames: num,
    budgetMs: num,
    ok: z.boolean(),
    verdict: str,
    runs: z.array(z.looseObject({ run: num, write: phase, read: phase })),
  }),
} as const;
