// The Detailed screen's settings, kind by kind, and the parts every kind's settings share (the
// folder, repeats and rests). Below the kinds: a kind's settings.ts draws on these parts, and
// model/settings.ts puts the members and the kinds' own together into one schema.
import { z } from 'zod';
import { GiB, MiB } from './kinds/plan.js';

/** A folder path as the user picked it. Absolute; length-capped so a hostile payload stays small. */
export const TargetPath = z.string().min(1).max(4096);

/** Free space a test leaves untouched; absent: max(512 MiB, 5 % of the volume). */
export const ReserveBytes = z
  .number()
  .int()
  .min(0)
  .max(64 * 1024 * GiB)
  .optional();

/** Shared by every detailed test: repeat N times with a rest between runs (minutes in the UI;
 *  an SSD's cache drains while it rests). */
export const Repeat = {
  runs: z.number().int().min(1).max(100),
  restSeconds: z
    .number()
    .min(0)
    .max(24 * 3600),
};

/** The Detailed screen's settings of the kinds without a folder of their own yet, by kind id. */
export const SCREEN_MEMBERS = {
  cdm: z
    .object({
      kind: z.literal('cdm'),
      target: TargetPath,
      preset: z.enum(['default', 'nvme', 'peak', 'realworld', 'fast']),
      mode: z.enum(['readwrite', 'read', 'write', 'mix', 'all']),
      /** Test file, 16 MiB – 64 GiB (CrystalDiskMark's range). */
      sizeBytes: z
        .number()
        .int()
        .min(16 * MiB)
        .max(64 * GiB),
      /** Measured seconds per test (CrystalDiskMark: 5). */
      seconds: z.number().min(1).max(60),
      /** Pause between tests, seconds (CrystalDiskMark's interval). */
      intervalSeconds: z.number().min(0).max(60),
      /** The stop rule's ± fraction (the Fast profile's default 0.03 when absent). */
      precision: z.number().min(0.001).max(0.5).optional(),
      ...Repeat,
    })
    .strict(),
  files: z
    .object({
      kind: z.literal('files'),
      target: TargetPath,
      preset: z.enum(['quick', 'standard', 'custom']),
      /** custom only (ignored otherwise): the set. */
      count: z.number().int().min(2).max(10000).optional(),
      minBytes: z
        .number()
        .int()
        .min(4096)
        .max(64 * GiB)
        .optional(),
      maxBytes: z
        .number()
        .int()
        .min(4096)
        .max(64 * GiB)
        .optional(),
      seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      reserveBytes: ReserveBytes,
      ...Repeat,
    })
    .strict()
    // A set whose smallest file is larger than its largest cannot be drawn; say so at the door.
    .refine((s) => s.minBytes === undefined || s.maxBytes === undefined || s.minBytes <= s.maxBytes, {
      message: 'must be at least minBytes',
      path: ['maxBytes'],
    }),
};

/** The Detailed screen's settings of the kinds with a folder: each kinds/<kind>/settings.ts
 *  declares its own by merging into this interface (kind id → settings). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KindScreens {}

/** A detailed test (the Detailed screen): the CrystalDiskMark grid, the sustained-write curve,
 *  the many-file test, the frame-paced video test, the transfer-size sweep or the small-file
 *  test. Exactly the options a person can choose there; the CLI has more. The schema that checks
 *  it is model/settings.ts's DetailedSettings. */
export type DetailedSettings = z.infer<(typeof SCREEN_MEMBERS)[keyof typeof SCREEN_MEMBERS]> | KindScreens[keyof KindScreens];
export type DetailedKind = DetailedSettings['kind'];
