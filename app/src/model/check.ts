// The folder check (after Dintch): every file under a folder hashed, its manifest written or
// re-checked. The section a result document carries, and its schema: `diskdial check --json`
// prints a result document whose `check` is this shape (docs/check.md describes each field).
import { z } from 'zod';
import type { CheckAlgo } from './check-manifest.js';

export type CheckMode = 'create' | 'verify' | 'update';
export type CheckBound = 'disk' | 'cpu';

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
  bound?: { bound: CheckBound; text: string };
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
  /** True when the folder is as the manifest says: nothing changed, missing, unreadable or new
   *  (a new manifest: every file could be read). */
  ok: boolean;
  /** The outcome in words: "1,000 files unchanged." / "2 changed, 1 missing, 1 new." */
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
  bound: z.object({ bound: z.enum(['disk', 'cpu']), text: z.string() }).optional(),
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
  summary: z.string(),
});

const n = (x: number): string => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = `${one}s`): string => `${n(x)} ${x === 1 ? one : many}`;

/** "1,000 files unchanged." or "1 changed, 1 missing, 1 new; 997 unchanged." */
export function checkSummary(c: CheckSection['counts'], mode: CheckMode, files: number): string {
  if (mode === 'create') {
    const left = c.unreadable ? ` (${plural(c.unreadable, 'unreadable file')} left out)` : '';
    return `${plural(files, 'file')} hashed; manifest written${left}.`;
  }
  const problems = [
    c.changed ? `${n(c.changed)} changed` : '',
    c.missing ? `${n(c.missing)} missing` : '',
    c.unreadable ? `${n(c.unreadable)} unreadable` : '',
    c.added ? `${n(c.added)} new` : '',
  ].filter(Boolean);
  if (problems.length === 0) return `${plural(c.unchanged, 'file')} unchanged.`;
  return `${problems.join(', ')}; ${n(c.unchanged)} unchanged.`;
}

/** Disk- or CPU-bound: the run's rate against the hashing ceiling on as many streams. Hashing at
 *  80 % or more of what the CPU can hash from memory means the CPU was the limit. */
export function checkBound(mbps: number, ceilingMBps: number, streams: number, algoLabel: string): CheckSection['bound'] {
  const mb = (x: number): string => `${n(Math.round(x))} MB/s`;
  const share = ceilingMBps > 0 ? mbps / ceilingMBps : 0;
  const figures = `read + hashed at ${mb(mbps)}; ${algoLabel} in memory on ${plural(streams, 'stream')} runs at ${mb(ceilingMBps)} (${Math.round(share * 100)} %)`;
  if (share >= 0.8) return { bound: 'cpu', text: `CPU-bound: hashing was the limit — ${figures}.` };
  return { bound: 'disk', text: `Disk-bound: reading (and opening files) was the limit, not hashing — ${figures}.` };
}
