// The trust verdict: whether a result's figures are the disk's alone, decided once from its flags
// (core/flags.ts decides which fire) for every badge, the share card's dot and strip, every
// export and every gated ✓. Data first (level, the flags, the rule), words from trustWords().
// - warn when any warning flag fired, and always when a cache or plausibility flag fired (an
//   imported document that marks one 'info' does not make cached figures the disk's);
// - info flags (a network share, copy-on-write, a busy machine) are said on every surface but
//   never turn the verdict: the figures decide it.
// Browser-safe: no node:* imports.
import type { ResultFlag } from '../result.js';
import type { Claim } from './claim.js';

/** Flags that say the figures may be a cache's, not the disk's. */
export const CACHE_FLAG_CODES: ReadonlySet<string> = new Set([
  'above-interface-ceiling',
  'cache-not-direct',
  'ram-backed',
  'loop-cached',
  'fuse',
]);

/** Flags that say the figures contradict one another (a cache or a bad run answered). */
export const PLAUSIBILITY_FLAG_CODES: ReadonlySet<string> = new Set([
  'reads-implausibly-fast',
  'writes-implausibly-fast',
  'mix-above-pure',
  'empty-test',
]);

export type TrustLevel = 'ok' | 'warn';

export const TRUST_RULE =
  'The figures are trusted (ok) when no warning flag fired; any warning, and always a cache or plausibility flag, makes them warn. Information flags are shown but decide nothing.';

export interface TrustVerdict extends Claim<'trust', TrustLevel> {
  level: TrustLevel;
  /** The flags that turned the verdict, in the document's order. */
  warnings: ResultFlag[];
  /** The flags said beside it that decide nothing. */
  notes: ResultFlag[];
  /** "loop device over the page cache, went through the cache": the warnings named, for a badge. */
  named: string;
  /** A sentence for the badge's title. */
  title: string;
}

/** Whether a flag turns the trust verdict. */
export function isWarning(f: Pick<ResultFlag, 'code' | 'severity'>): boolean {
  return f.severity !== 'info' || CACHE_FLAG_CODES.has(f.code) || PLAUSIBILITY_FLAG_CODES.has(f.code);
}

/** The trust verdict of a result's flags. */
export function trustOf(flags: readonly ResultFlag[] | undefined): TrustVerdict {
  const all = flags ?? [];
  const warnings = all.filter(isWarning);
  const notes = all.filter((f) => !isWarning(f));
  const level: TrustLevel = warnings.length ? 'warn' : 'ok';
  const claim = {
    family: 'trust' as const,
    outcome: level,
    level,
    figures: { warnings: warnings.length, notes: notes.length },
    rule: TRUST_RULE,
    warnings,
    notes,
  };
  return { ...claim, ...trustWords(claim) };
}

/** Flags a reader sees named on a badge: short words rather than codes. */
const FLAG_NAMES: Record<string, string> = {
  'above-interface-ceiling': 'above the interface ceiling',
  'cache-not-direct': 'went through the cache',
  'ram-backed': 'in RAM',
  'loop-cached': 'loop device over the page cache',
  fuse: 'FUSE cache',
  'compressing-fs': 'compressed zeros',
  'reads-implausibly-fast': 'reads implausibly fast',
  'writes-implausibly-fast': 'writes implausibly fast',
  'mix-above-pure': 'mix faster than pure read and write',
  'zeros-pattern': 'zeros written',
  'empty-test': 'a test moved no data',
  'machine-busy': 'the machine was busy',
};

export function flagName(f: Pick<ResultFlag, 'code'>): string {
  return FLAG_NAMES[f.code] ?? f.code;
}

/** The one renderer of the trust verdict's words. */
export function trustWords(v: Pick<TrustVerdict, 'level' | 'warnings'>): Pick<TrustVerdict, 'named' | 'title'> {
  if (v.level === 'ok') return { named: '', title: 'No warning fired: the figures are the disk’s.' };
  return {
    named: v.warnings.map(flagName).join(', '),
    title: `The figures may not be the disk’s alone: ${v.warnings.map((f) => f.message).join(' ')}`,
  };
}

/** Whether the card's cache dot and method may be green: uncached I/O and a trusted result. */
export function cacheDotGreen(cacheMode: string, flags: readonly ResultFlag[] | undefined): boolean {
  return (cacheMode === 'direct' || cacheMode === 'nocache') && trustOf(flags).level === 'ok';
}
