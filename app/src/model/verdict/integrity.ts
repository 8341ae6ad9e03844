// The integrity verdict of a folder check: intact only when every file the manifest lists was read
// and is unchanged; failed when anything changed, went missing, could not be read or is new;
// recorded when a manifest was made (nothing to compare yet). Data first (outcome, counts, rule),
// words from integrityText only; the CLI's exit code and the Check screen's banner follow it.
// Browser-safe: imports only the model.
import { z } from 'zod';
import type { Claim } from './claim.js';

export type IntegrityOutcome = 'intact' | 'failed' | 'recorded';

/** The counts a check ends with (model/check.ts keeps them per result). */
export interface IntegrityCounts {
  unchanged: number;
  changed: number;
  missing: number;
  added: number;
  unreadable: number;
}

export interface Integrity extends Claim<'integrity', IntegrityOutcome> {
  counts: IntegrityCounts;
  /** create: a manifest made now; verify/update: the folder checked against one. */
  mode: 'create' | 'verify' | 'update';
  /** Files read and hashed in this run. */
  hashed: number;
}

export const INTEGRITY_RULE =
  'Intact only when every file the manifest lists was read and is unchanged and no file is new; any changed, missing, unreadable or new file fails the check. A first run records a manifest.';

/** `diskdial check` exits with this: 0 intact or recorded, 1 failed (2 is bad input, before any read). */
export const INTEGRITY_EXIT: Readonly<Record<IntegrityOutcome, number>> = { intact: 0, recorded: 0, failed: 1 };

export function integrity(counts: IntegrityCounts, mode: Integrity['mode'], hashed: number): Integrity {
  const problems = counts.changed + counts.missing + counts.unreadable + (mode === 'create' ? 0 : counts.added);
  const outcome: IntegrityOutcome = problems > 0 ? 'failed' : mode === 'create' ? 'recorded' : 'intact';
  return {
    family: 'integrity',
    outcome,
    figures: { ...counts, hashed },
    rule: INTEGRITY_RULE,
    counts: { ...counts },
    mode,
    hashed,
  };
}

const n = (x: number): string => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = `${one}s`): string => `${n(x)} ${x === 1 ? one : many}`;

/** The problems in a line: "1 changed, 1 missing, 1 new". */
export function problemsText(c: IntegrityCounts, mode: Integrity['mode']): string {
  return [
    c.changed ? `${n(c.changed)} changed` : '',
    c.missing ? `${n(c.missing)} missing` : '',
    c.unreadable ? `${n(c.unreadable)} unreadable` : '',
    c.added && mode !== 'create' ? `${n(c.added)} new` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** "All 1,000 files unchanged." / "Failed: 1 changed, 1 missing; 997 unchanged." / "40 files hashed; manifest written." */
export function integrityText(v: Integrity): string {
  const c = v.counts;
  if (v.outcome === 'recorded') return `${plural(v.hashed, 'file')} hashed; manifest written.`;
  if (v.outcome === 'intact') return `All ${plural(c.unchanged, 'file')} unchanged.`;
  if (v.mode === 'create')
    return `Failed: ${plural(c.unreadable, 'file')} could not be read; the manifest leaves ${c.unreadable === 1 ? 'it' : 'them'} out.`;
  return `Failed: ${problemsText(c, v.mode)}; ${n(c.unchanged)} unchanged.`;
}

/** The stored claim (the section keeps the counts already). */
export const IntegrityClaimSchema = z.object({
  family: z.literal('integrity'),
  outcome: z.enum(['intact', 'failed', 'recorded']),
  figures: z.record(z.string(), z.number()),
  rule: z.string(),
});
export type IntegrityClaim = Claim<'integrity', IntegrityOutcome>;

export const integrityClaim = (v: Integrity): IntegrityClaim => ({
  family: v.family,
  outcome: v.outcome,
  figures: v.figures,
  rule: v.rule,
});
