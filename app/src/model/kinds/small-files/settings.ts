// The small-file test on the Detailed screen: exactly the options a person can choose there, and
// what they ask of the runner.
import { z } from 'zod';
import { MiB } from '../plan.js';
import { Repeat, TargetPath } from '../../screen-settings.js';
import { screenRun } from '../types.js';
import { SMALL_FILES_PRESETS } from './plan.js';

export const SmallFilesScreen = z
  .object({
    kind: z.literal('small-files'),
    target: TargetPath,
    preset: z.enum(SMALL_FILES_PRESETS),
    /** How many files, and each one's size (4 KiB – 1 MiB); absent: the preset's. */
    count: z.number().int().min(1).max(100_000).optional(),
    fileBytes: z.number().int().min(4096).max(MiB).optional(),
    ...Repeat,
  })
  .strict();

declare module '../../screen-settings.js' {
  interface KindScreens {
    'small-files': z.infer<typeof SmallFilesScreen>;
  }
}

/** The screen's settings as the runner's options: the preset, and the set where it was changed. */
export const smallFilesFromScreen = screenRun('small-files', (s) => ({
  preset: s.preset,
  smallFiles: {
    ...(s.count !== undefined ? { count: s.count } : {}),
    ...(s.fileBytes !== undefined ? { fileBytes: s.fileBytes } : {}),
  },
}));
