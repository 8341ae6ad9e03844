// The frame-paced video test's plan: frames of one format written at its frame rate for
// --seconds, each due at its time, uncached (one growing stream file, or one file per frame),
// then read back the same way; the engine paces them and counts late and dropped frames
// (engine/paced.cc).
import type { EngineSpec } from '../../engine-types.js';
import { inputError } from '../../errors.js';
import type { Plan, PlanOptions } from '../plan.js';
import { formatFps } from './math.js';
import {
  DEFAULT_VIDEO_BUFFER,
  DEFAULT_VIDEO_FORMAT,
  DEFAULT_VIDEO_SECONDS,
  exampleFormatIds,
  MAX_VIDEO_BUFFER,
  MAX_VIDEO_SECONDS,
  pacedFormat,
} from './paced.js';

/** The paced format's id, the layout and the buffer (frames). */
export interface VideoPlanOptions {
  format: string;
  layout?: 'stream' | 'frames';
  buffer?: number;
  /** The Quick Test result this check was launched from ("Check this format"): its verdicts
   *  are the ones this test decides (will-it-work.ts). */
  from?: string;
}

declare module '../plan.js' {
  interface KindPlanOptions {
    /** video: the paced format's id, the layout and the buffer (frames). */
    video?: VideoPlanOptions;
  }
  interface KindPlanSettings {
    video?: Required<Omit<VideoPlanOptions, 'from'>> & Pick<VideoPlanOptions, 'from'>;
  }
}

/** Direct I/O rounds each frame up to the alignment; the plan budgets for the usual 4 KiB. */
const ALIGN = 4096;

export function videoPlan(o: PlanOptions): Plan {
  const v = o.video ?? { format: DEFAULT_VIDEO_FORMAT };
  const examples = exampleFormatIds().slice(0, 3).join(', ');
  const f = pacedFormat(v.format);
  if (!f)
    throw inputError(
      `"${v.format}" is not a video format id; ids are format-resolution-rate, e.g. ${examples} (diskdial run --help lists them)`,
    );
  const seconds = o.seconds ?? DEFAULT_VIDEO_SECONDS;
  if (seconds > MAX_VIDEO_SECONDS) throw inputError(`--seconds for the video test is at most ${MAX_VIDEO_SECONDS} (an hour)`);
  const buffer = v.buffer ?? DEFAULT_VIDEO_BUFFER;
  if (!Number.isInteger(buffer) || buffer < 1 || buffer > MAX_VIDEO_BUFFER)
    throw inputError(`the frame buffer must be a whole number of frames from 1 to ${MAX_VIDEO_BUFFER}`);
  const layout = v.layout ?? 'stream';
  const frames = Math.max(1, Math.round(seconds * f.fps));
  const fileSize = frames * Math.ceil(f.frameBytes / ALIGN) * ALIGN;
  const cache = o.cache ?? 'auto';
  const paced = { fps: f.fps, frameBytes: f.frameBytes, frames, layout, buffer };
  // bs, qd and threads are not used by a paced spec (each frame is one whole transfer).
  const common = { bs: ALIGN, qd: 1, threads: 1, fileSize, pattern: 'random', cache, paced } as const;
  const file = layout === 'stream' ? 'video-stream.dat' : 'video-frame.dat';
  const step = (rw: 'write' | 'read', what: string): Plan['steps'][number] => ({
    name: `${what} ${frames.toLocaleString('en-US')} frames at ${formatFps(f.fps)} fps`,
    spec: { ...common, rw, keepFile: rw === 'write' } satisfies Omit<EngineSpec, 'path'>,
    file,
  });
  return {
    kind: 'video',
    fileSize,
    needBytes: fileSize,
    steps: [step('write', 'Write'), step('read', 'Read')],
    settings: {
      size: fileSize,
      pattern: 'random',
      cache,
      seconds,
      video: { format: f.id, layout, buffer, ...(v.from ? { from: v.from } : {}) },
    },
    notes: f.estimated ? [`${f.format}'s data rate at ${f.resolution} ${formatFps(f.fps)} fps is an estimate (scaled or derived).`] : [],
  };
}
