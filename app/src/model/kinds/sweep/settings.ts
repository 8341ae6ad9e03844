// The sweep on the Detailed screen: exactly the options a person can choose there (the CLI has
// more), and what they ask of the runner.
import { z } from 'zod';
import { GiB, MiB } from '../plan.js';
import { Repeat, TargetPath } from '../../screen-settings.js';
import { screenRun } from '../types.js';
import { SWEEP_PRESETS } from './plan.js';

export const SweepScreen = z
  .object({
    kind: z.literal('sweep'),
    target: TargetPath,
    preset: z.enum(SWEEP_PRESETS),
    /** Each step for this long (the default), or over this much (`stepBytes`): one, not both. */
    seconds: z.number().min(0.2).max(60).optional(),
    stepBytes: z
      .number()
      .int()
      .min(64 * MiB)
      .max(64 * GiB)
      .optional(),
    ...Repeat,
  })
  .strict()
  .refine((s) => s.seconds === undefined || s.stepBytes === undefined, {
    message: 'give each step a time or a volume, not both',
    path: ['stepBytes'],
  });

declare module '../../screen-settings.js' {
  interface KindScreens {
    sweep: z.infer<typeof SweepScreen>;
  }
}

/** The screen's settings as the runner's options: a step's volume is the plan's --size. */
export const sweepFromScreen = screenRun('sweep', (s) => ({
  preset: s.preset,
  ...(s.seconds !== undefined ? { seconds: s.seconds } : {}),
  ...(s.stepBytes !== undefined ? { size: s.stepBytes } : {}),
}));
