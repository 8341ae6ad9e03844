// The frame-paced video test on the Detailed screen: exactly the options a person can choose
// there, and what they ask of the runner.
import { z } from 'zod';
import { Repeat, TargetPath } from '../../screen-settings.js';
import { screenRun } from '../types.js';
import { MAX_VIDEO_BUFFER, MAX_VIDEO_SECONDS, pacedFormat } from './paced.js';

export const VideoScreen = z
  .object({
    kind: z.literal('video'),
    target: TargetPath,
    /** A paced format id (format-resolution-rate, e.g. prores-hq-uhd-2997). */
    format: z
      .string()
      .max(100)
      .refine((id) => pacedFormat(id) !== undefined, { message: 'must be a video format id (format-resolution-rate)' }),
    layout: z.enum(['stream', 'frames']),
    /** Frames that may wait for the disk before one is dropped (a capture card's buffer). */
    buffer: z.number().int().min(1).max(MAX_VIDEO_BUFFER),
    /** Seconds of frames written, then read back. */
    seconds: z.number().int().min(1).max(MAX_VIDEO_SECONDS),
    /** The Quick Test result id this check was launched from ("Check this format"). */
    from: z.string().min(1).max(100).optional(),
    ...Repeat,
  })
  .strict();

declare module '../../screen-settings.js' {
  interface KindScreens {
    video: z.infer<typeof VideoScreen>;
  }
}

/** The screen's settings as the runner's options: the format, layout and buffer as --format,
 *  --layout and --buffer would give them. */
export const videoFromScreen = screenRun('video', (s) => ({
  seconds: s.seconds,
  video: { format: s.format, layout: s.layout, buffer: s.buffer, ...(s.from ? { from: s.from } : {}) },
}));
