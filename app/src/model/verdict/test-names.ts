// How a flag names the tests it concerns: in groups a reader takes in at once ("all 8
// CrystalDiskMark tests", "the sweep's 32 steps (4 KiB–100 MiB)"), never 32 names in a row.
// A few names are listed as they are; more are counted within their group.
// Browser-safe: no node:* imports.
import { kindOf } from '../kinds/registry.js';
import { formatBytesBinary } from '../units.js';

/** What a test must tell for its name to be grouped. */
export interface NamedTest {
  name: string;
  rw: string;
  bs: number;
}

/** At most this many names are listed one by one. */
export const LISTED_NAMES = 4;

/** Joins names the way a sentence does: "A", "A and B", "A, B and C". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const uniqueNames = (tests: readonly NamedTest[]): string[] => [...new Set(tests.map((t) => t.name))];

/** "4 KiB–100 MiB": the block sizes a group spans. */
function sizeSpan(tests: readonly NamedTest[]): string {
  const sizes = tests.map((t) => t.bs).filter((b) => b > 0);
  if (sizes.length === 0) return '';
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  return lo === hi ? formatBytesBinary(lo) : `${formatBytesBinary(lo)}–${formatBytesBinary(hi)}`;
}

const GENERIC = {
  all: (n: number) => `all ${n} tests`,
  some: (n: number, of: number, span: string) => `${n} of the ${of} tests (${span})`,
};

/**
 * The tests `named` (a subset of the result's `all`), in words: listed when few, else grouped by
 * the result's kind. Names are counted once however many runs repeated them.
 */
export function testGroupText(named: readonly NamedTest[], all: readonly NamedTest[], kind?: string): string {
  const names = uniqueNames(named);
  if (names.length <= LISTED_NAMES) return listWords(names);
  const total = Math.max(uniqueNames(all).length, names.length);
  // The kind's words for its group ("all 8 CrystalDiskMark tests"), else the plain ones.
  const g = (kind !== undefined ? kindOf(kind)?.report?.testGroup : undefined) ?? GENERIC;
  const chosen = named.filter((t, i) => named.findIndex((u) => u.name === t.name) === i);
  const span = sizeSpan(chosen);
  return names.length === total ? g.all(total, span) : g.some(names.length, total, span);
}
