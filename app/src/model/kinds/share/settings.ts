// The share test on the Detailed screen: the large file (more than the server keeps in memory),
// how many small files, runs and rest, and what they ask of the runner.
import { z } from 'zod';
import { GiB } from '../plan.js';
import { Repeat, TargetPath } from '../../screen-settings.js';
import { screenRun } from '../types.js';
import { SHARE_CACHE_BYTES, SHARE_MAX_FILES } from './plan.js';

export const ShareScreen = z
  .object({
    kind: z.literal('share'),
    target: TargetPath,
    /** The large file, written and read cold: at least twice the file read from the server's memory. */
    sizeBytes: z
      .number()
      .int()
      .min(2 * SHARE_CACHE_BYTES)
      .max(64 * GiB),
    /** How many 4 KiB files time the protocol's operations. */
    files: z.number().int().min(1).max(SHARE_MAX_FILES),
    ...Repeat,
  })
  .strict();

declare module '../../screen-settings.js' {
  interface KindScreens {
    share: z.infer<typeof ShareScreen>;
  }
}

/** The screen's settings as the runner's options: the large file is the plan's --size. */
export const shareFromScreen = screenRun('share', (s) => ({ size: s.sizeBytes, share: { files: s.files } }));
