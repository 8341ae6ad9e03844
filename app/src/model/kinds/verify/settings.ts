// The verify test on the Detailed screen: the folder, the most to verify (absent: the whole free
// space) and the reserve, and what they ask of the runner. One pass only: a second pass with the
// same blocks would find the first pass's data where a drive lost the second's.
import { z } from 'zod';
import { GiB, MiB } from '../plan.js';
import { ReserveBytes, TargetPath } from '../../screen-settings.js';
import { screenRun } from '../types.js';

export const VerifyScreen = z
  .object({
    kind: z.literal('verify'),
    target: TargetPath,
    /** Verify at most this much; absent: the free space less the reserve. */
    maxBytes: z
      .number()
      .int()
      .min(64 * MiB)
      .max(64 * 1024 * GiB)
      .optional(),
    reserveBytes: ReserveBytes,
    runs: z.literal(1),
    restSeconds: z.literal(0),
    /** A whole unmounted disk instead of the folder's free space (target: the disk's path). */
    disk: z
      .object({ confirmName: z.string().min(1).max(200), allowInternal: z.boolean().optional() })
      .strict()
      .optional(),
  })
  .strict();

declare module '../../screen-settings.js' {
  interface KindScreens {
    verify: z.infer<typeof VerifyScreen>;
  }
}

/** The screen's settings as the runner's options: the most to verify is the plan's --size. */
export const verifyFromScreen = screenRun('verify', (s) => ({
  ...(s.maxBytes !== undefined ? { size: s.maxBytes } : {}),
  ...(s.reserveBytes !== undefined ? { reserveBytes: s.reserveBytes } : {}),
  ...(s.disk ? { wholeDisk: { device: s.target, ...s.disk } } : {}),
}));
