// Which rows of a report or a compare may be set against each other. A Δ between a row measured
// uncached and one measured through the page cache is the cache's doing, not the format's, and a
// row whose figures tripped a cache flag may be a cache's figures altogether: neither produces a
// finding — the figures are printed, the reason is said in words. The wizard's common-mode pass
// ("as applications see it": every format also through the page cache, flushed) gives each
// format a row in the same mode, and those like rows are compared instead.
//
// Browser-safe: no node:* imports.
import type { CacheMode } from '../engine-types.js';
import type { ResultDocument } from '../result.js';
import { flagName } from '../verdict/trust.js';

/** Modes that measure the same thing: the disk uncached (O_DIRECT or F_NOCACHE), the page cache
 *  dropped before reads and writes flushed, or the page cache as it is. */
export type CacheClass = 'uncached' | 'flushed' | 'cached';

const CLASS_OF: Record<CacheMode, CacheClass> = {
  direct: 'uncached',
  nocache: 'uncached',
  'buffered-flushed': 'flushed',
  buffered: 'cached',
};

/** How each class is said inside a sentence: "… was measured through the page cache, flushed". */
export const CACHE_CLASS_WORDS: Record<CacheClass, string> = {
  uncached: 'uncached',
  flushed: 'through the page cache, flushed',
  cached: 'through the page cache',
};

/** The weakest class of a row's results (one cached run makes the row cached). */
export function cacheClassOf(docs: readonly Pick<ResultDocument, 'cacheMode'>[]): CacheClass {
  const order: CacheClass[] = ['uncached', 'flushed', 'cached'];
  let worst = 0;
  for (const d of docs) worst = Math.max(worst, order.indexOf(CLASS_OF[d.cacheMode] ?? 'cached'));
  return order[worst]!;
}

/** Flags that say the figures may be a cache's, whatever mode was asked for: such a row is never
 *  a finding, nor the reference of one. */
export const CACHE_FLAGS: ReadonlySet<string> = new Set([
  'loop-cached',
  'reads-implausibly-fast',
  'writes-implausibly-fast',
  'above-interface-ceiling',
  'ram-backed',
]);

/** The cache flags a row's results raised, named as the badges name them ("" when none). */
export function cacheFlagText(docs: readonly Pick<ResultDocument, 'flags'>[]): string {
  const names = new Set<string>();
  for (const d of docs) for (const f of Array.isArray(d.flags) ? d.flags : []) if (CACHE_FLAGS.has(f.code)) names.add(flagName(f));
  return [...names].join(', ');
}

/** A common-mode row's label suffix: "ext4 · as applications see it". */
export const COMMON_LABEL = ' · as applications see it';

/** The wizard's common-mode pass marks its results; the rest are the plan's own pass. */
export function isCommonPass(d: Pick<ResultDocument, 'campaign'>): boolean {
  return d.campaign?.pass === 'common';
}

export interface LikeRow {
  label: string;
  cls: CacheClass;
  /** cacheFlagText() of the row. */
  flagged: string;
  /** The wizard format it is a pass of, if any (its common-mode row is the same format). */
  format?: string;
}

export interface Pairing {
  /** Per row: the index of the row it is judged against (itself for a reference), or undefined. */
  reference: Array<number | undefined>;
  /** Per row: why it is not compared, in words (undefined for a compared or reference row). */
  notCompared: Array<string | undefined>;
  /** Whether any row was compared with a reference other than the baseline (the like rows). */
  likeRows: boolean;
}

/** Pairs every row with the row it may be compared with: the baseline when both were measured in
 *  the same mode; else the baseline format's own row in this row's mode (the common-mode pass);
 *  else none, and the reason. A flagged row, or one whose reference is flagged, gets none. */
export function pairRows(rows: readonly LikeRow[], baseline: number): Pairing {
  const base = rows[baseline];
  const reference: Array<number | undefined> = [];
  const notCompared: Array<string | undefined> = [];
  let likeRows = false;
  rows.forEach((row, i) => {
    if (i === baseline || !base) {
      reference.push(i);
      notCompared.push(undefined);
      return;
    }
    if (row.flagged) {
      reference.push(undefined);
      notCompared.push(
        `${row.label}: not compared — its figures tripped a cache flag (${row.flagged}), so they may be a cache's, not the disk's.`,
      );
      return;
    }
    let ref: number | undefined;
    if (row.cls === base.cls) ref = baseline;
    else if (base.format !== undefined) {
      const own = rows.findIndex((r) => r.cls === row.cls && r.format === base.format);
      ref = own >= 0 ? own : undefined;
    }
    if (ref === undefined) {
      const others = rows.filter((r, k) => k !== i && r.cls !== row.cls);
      const who = others.length > 1 ? 'the others' : (others[0]?.label ?? base.label);
      const theirs = [...new Set(others.map((r) => CACHE_CLASS_WORDS[r.cls]))].join(' or ');
      reference.push(undefined);
      notCompared.push(`${row.label} was measured ${CACHE_CLASS_WORDS[row.cls]}; ${who} ${theirs}: not compared.`);
      return;
    }
    const refRow = rows[ref]!;
    if (ref !== i && refRow.flagged) {
      reference.push(undefined);
      notCompared.push(
        `${row.label}: not compared — ${refRow.label}, its reference, tripped a cache flag (${refRow.flagged}), so its figures may be a cache's.`,
      );
      return;
    }
    if (ref !== baseline) likeRows = true;
    reference.push(ref);
    notCompared.push(undefined);
  });
  return { reference, notCompared, likeRows };
}
