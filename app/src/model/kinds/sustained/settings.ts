// The sustained write on the Detailed screen: exactly the options a person can choose there, and
// what they ask of the runner.
import { z } from 'zod';
import { GiB, MiB } from '../plan.js';
import { Repeat, ReserveBytes, TargetPath } from '../../screen-settings.js';
import { screenRun } from '../types.js';

export const SustainedScreen = z
  .object({
    kind: z.literal('sustained'),
    target: TargetPath,
    /** Write up to this much (less when free space less the reserve is smaller). */
    maxBytes: z
      .number()
      .int()
      .min(64 * MiB)
      .max(64 * 1024 * GiB),
    reserveBytes: ReserveBytes,
    ...Repeat,
  })
  .strict();

declare module '../../screen-settings.js' {
  interface KindScreens {
    sustained: z.infer<typeof SustainedScreen>;
  }
}

/** The screen's settings as the runner's options: the most to write is the plan's --size. */
export const sustainedFromScreen = screenRun('sustained', (s) => ({
  size: s.maxBytes,
  ...(s.reserveBytes !== undefined ? { reserveBytes: s.reserveBytes } : {}),
}));
