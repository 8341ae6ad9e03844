// A wizard plan as read back from $DISKDIAL_HOME/plans: a file anyone could have edited, cut short
// or planted. Its settings are checked by the same schema as a new plan's, every text it shows is
// plain (no escape reaches a terminal), and every list is bounded, so no caller meets a missing
// field, a steps list that is not a list or a result id that is not one. Browser-safe: only zod.
import { z } from 'zod';
import { RESULT_ID_RE } from '../result-id.js';
import { FormatIdSchema, WizardSettingsSchema } from '../settings.js';
import { LABEL_MAX, messageString, plainString, plainText } from '../text.js';
import type { WizardPlanState } from './types.js';

const status = z.enum(['pending', 'running', 'done', 'failed']);
/** Sizes × runs × the common-mode pass: 4 × 20 × 2 results a format at most. */
const MAX_RESULTS_PER_FORMAT = 160;

/** Every string of the settings (the disk's path, the name typed, the identity shown beside it):
 *  plain, since a resume prints them. */
function plainStrings(v: unknown): boolean {
  if (typeof v === 'string') return plainText(v) === v;
  if (Array.isArray(v)) return v.every(plainStrings);
  if (v && typeof v === 'object') return Object.values(v).every(plainStrings);
  return true;
}

const planStateSchema = z
  .object({
    schema: z.literal(1),
    id: z.string().regex(RESULT_ID_RE),
    createdAt: plainString(40),
    updatedAt: plainString(40),
    settings: WizardSettingsSchema.refine(plainStrings, 'holds control characters'),
    steps: z
      .array(
        z
          .object({
            format: FormatIdSchema,
            label: plainString(LABEL_MAX),
            status,
            resultIds: z.array(z.string().regex(RESULT_ID_RE)).max(MAX_RESULTS_PER_FORMAT),
            startedAt: plainString(40).optional(),
            finishedAt: plainString(40).optional(),
            error: messageString(4000).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(16),
    final: z.object({ format: FormatIdSchema, label: plainString(LABEL_MAX), status, error: messageString(4000).optional() }).strict(),
    status: z.enum(['running', 'done', 'failed', 'stopped']),
    pid: z.number().int().positive().optional(),
    ptuuid: z
      .object({ value: plainString(64).min(1), written: z.boolean(), erasing: z.boolean().optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((p) => p.steps.length === p.settings.formats.length, 'its steps are not the formats it was planned with');

/** A plan state read from disk, or undefined when it is not a sound one (skipped, as an
 *  unreadable file is). */
export function parseWizardPlanState(raw: unknown): WizardPlanState | undefined {
  const r = planStateSchema.safeParse(raw);
  if (!r.success) return undefined;
  const state: WizardPlanState = r.data; // the schema and the type say the same: a compile error otherwise
  return state;
}
