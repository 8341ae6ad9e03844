// The folder check (after Dintch): every file under a folder hashed, its manifest written or
// re-checked. The section a result document carries, and its schema: `diskdial check --json`
// prints a result document whose `check` is this shape (docs/check.md describes each field).
import { z } from 'zod';
import type { CheckAlgo } from './check-manifest.js';
import {
  bottleneck,
  BottleneckClaimSchema,
  bottleneckText,
  boundOf,
  claimOf,
  targetCeilings,
  type Bottleneck,
  type BottleneckClaim,
  type TargetAbout,
} from './verdict/bottleneck.js';
import {
  integrity,
  integrityClaim,
  IntegrityClaimSchema,
  integrityText,
  type Integrity,
  type IntegrityClaim,
} from './verdict/integrity.js';

export type CheckMode = 'create' | 'verify' | 'update';
/** disk: older results only (a check has no read-alone figure); balanced: two ceilings within
 *  15 % of the rate; none: no ceiling within 15 %. */
export type CheckBound = 'disk' | 'cpu' | 'cipher' | 'link' | 'balanced' | 'none';

export interface CheckSection {
  /** The folder checked (absolute). */
  folder: string;
  /** The manifest read and/or written (absolute), and in which layout. */
  manifest: string;
  manifestFormat: 'gnu' | 'bsd';
  algo: CheckAlgo;
  /** create: no manifest before, one written; verify: re-checked, nothing written;
   *  update: re-checked, then the manifest rewritten to what is there now. */
  mode: CheckMode;
  manifestWritten: boolean;
  /** Who hashed: the engine (uncached reads, the platform's crypto), or Node's crypto for MD5. */
  provider: string;
  streams: number;
  /** Why that many streams ("1: the drive says it is a spinning disk"). */
  streamsWhy: string;
  /** Files and bytes hashed in this run. */
  files: number;
  bytes: number;
  seconds: number;
  filesPerSecond: number;
  mbps: number;
  /** The in-memory hashing rate on `streams` streams, measured in the same run (MB/s); absent
   *  for MD5 (no engine ceiling). */
  ceilingMBps?: number;
  /** The bottleneck verdict (model/verdict/bottleneck.ts), its claim and its words. */
  bound?: { bound: CheckBound; claim?: BottleneckClaim; text: string };
  /** Per-file lists, names relative to the folder. `added`: files not in the manifest. */
  counts: { unchanged: number; changed: number; missing: number; added: number; unreadable: number; skipped: number };
  changed: string[];
  missing: string[];
  added: string[];
  /** Files that could not be read, with why. */
  unreadable: Array<{ name: string; why: string }>;
  /** What was not hashed and why: symbolic links (never followed), FIFOs, devices, sockets, and
   *  manifest lines naming a place outside the folder. */
  skipped: Array<{ name: string; why: string }>;
  /** Manifest lines that were not digest lines (1-based). */
  badLines?: number[];
  /** True when the integrity verdict is not failed: nothing changed, missing, unreadable or new
   *  (a new manifest: every file could be read). */
  ok: boolean;
  /** The integrity verdict as data (model/verdict/integrity.ts); absent in older results. */
  integrity?: IntegrityClaim;
  /** The integrity verdict in words: "All 1,000 files unchanged." / "Failed: 2 changed, 1 missing; 997 unchanged." */
  summary: string;
}

const named = z.object({ name: z.string(), why: z.string() });

/** The JSON shape of a check section, as `--json` prints it and history keeps it. */
export const CheckSectionSchema = z.object({
  folder: z.string(),
  manifest: z.string(),
  manifestFormat: z.enum(['gnu', 'bsd']),
  algo: z.enum(['sha256', 'sha512', 'md5']),
  mode: z.enum(['create', 'verify', 'update']),
  manifestWritten: z.boolean(),
  provider: z.string(),
  streams: z.number().int().positive(),
  streamsWhy: z.string(),
  files: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  seconds: z.number().nonnegative(),
  filesPerSecond: z.number().nonnegative(),
  mbps: z.number().nonnegative(),
  ceilingMBps: z.number().nonnegative().optional(),
  bound: z
    .object({
      bound: z.enum(['disk', 'cpu', 'cipher', 'link', 'balanced', 'none']),
      claim: BottleneckClaimSchema.optional(),
      text: z.string(),
    })
    .optional(),
  counts: z.object({
    unchanged: z.number().int(),
    changed: z.number().int(),
    missing: z.number().int(),
    added: z.number().int(),
    unreadable: z.number().int(),
    skipped: z.number().int(),
  }),
  changed: z.array(z.string()),
  missing: z.array(z.string()),
  added: z.array(z.string()),
  unreadable: z.array(named),
  skipped: z.array(named),
  badLines: z.array(z.number().int()).optional(),
  ok: z.boolean(),
  integrity: IntegrityClaimSchema.optional(),
  summary: z.string(),
});

const plural = (x: number, one: string, many = `${one}s`): string => `${x.toLocaleString('en-US')} ${x === 1 ? one : many}`;

/** The integrity verdict of a check: its claim, whether it passed, and its words. */
export function checkIntegrity(
  c: CheckSection['counts'],
  mode: CheckMode,
  hashed: number,
): Pick<CheckSection, 'ok' | 'integrity' | 'summary'> {
  const v = integrity(c, mode, hashed);
  return { ok: v.outcome !== 'failed', integrity: integrityClaim(v), summary: integrityText(v) };
}

/** The integrity verdict of a saved check (older results without its claim: from their counts). */
export function checkVerdict(c: Pick<CheckSection, 'counts' | 'mode' | 'files' | 'unreadable'>): Integrity {
  return integrity(c.counts, c.mode, c.files - c.unreadable.length);
}

/** Which known ceiling held the check back: hashing in memory on as many streams, the link, and on
 *  an encrypted folder the cipher (model/verdict/bottleneck.ts). A check has no read-alone
 *  figure, so the disk is never named; a rate no ceiling explains is "no single limit". */
export function checkBottleneck(
  mbps: number,
  ceilingMBps: number | undefined,
  streams: number,
  algoLabel: string,
  about: TargetAbout = {},
): Bottleneck {
  return bottleneck({ mbps, what: 'read + hashed' }, [
    ...(ceilingMBps !== undefined
      ? [{ limit: 'hash-cpu' as const, mbps: ceilingMBps, what: `${algoLabel} in memory on ${plural(streams, 'stream')}` }]
      : []),
    ...targetCeilings(about),
  ]);
}

/** The check section's bound field: the verdict's claim and words. */
export function checkBound(b: Bottleneck): NonNullable<CheckSection['bound']> {
  const settled = boundOf(b);
  return { bound: settled === 'hash-cpu' ? 'cpu' : settled, claim: claimOf(b), text: bottleneckText(b) };
}
