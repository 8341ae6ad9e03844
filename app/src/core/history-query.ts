// What a History query means, once, in plain code: which rows match (filters and search words),
// in which order, and which page. The index (history-index.ts) answers the same query in SQL; this
// is the fallback where the runtime has no SQLite, and the reference its tests hold it to.
import type { HistoryEntry, HistoryListing, HistoryQuery } from '../model/history.js';

/** The text a search looks in: every words-bearing field of a row, lower-cased. */
export function searchText(e: HistoryEntry): string {
  return [e.name, e.label ?? '', e.title, e.kind, e.drive, e.volume, e.fs, e.id].join('\n').toLowerCase();
}

/** A search as the words that must all appear (any case, any order). */
export function searchWords(search: string | undefined): string[] {
  return (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** The number a "figure" sort orders by: the first headline figure, or -1 for none. */
export function sortFigure(e: HistoryEntry): number {
  return e.headline[0]?.value ?? -1;
}

function matches(e: HistoryEntry, q: HistoryQuery, words: readonly string[]): boolean {
  if (q.kind && e.kind !== q.kind) return false;
  if (q.driveKey && e.driveKey !== q.driveKey) return false;
  if (q.drive && !`${e.drive} ${e.volume}`.toLowerCase().includes(q.drive.toLowerCase())) return false;
  if (q.since && Date.parse(e.startedAt) < Date.parse(q.since)) return false;
  if (words.length === 0) return true;
  const text = searchText(e);
  return words.every((w) => text.includes(w));
}

const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

/** Orders two rows as the query asks; ties by id, so every order is total and pages never overlap. */
export function compareEntries(a: HistoryEntry, b: HistoryEntry, q: Pick<HistoryQuery, 'sort' | 'order'>): number {
  const sort = q.sort ?? 'date';
  const key =
    sort === 'name'
      ? cmp(a.name.toLowerCase(), b.name.toLowerCase())
      : sort === 'figure'
        ? cmp(sortFigure(a), sortFigure(b))
        : cmp(a.startedAt, b.startedAt);
  const sign = q.order === 'asc' ? 1 : -1;
  return sign * (key || cmp(a.id, b.id));
}

/** Every drive among the rows, newest first, labelled by its newest result. */
export function driveFacets(entries: readonly HistoryEntry[]): HistoryListing['drives'] {
  const byKey = new Map<string, { key: string; label: string; count: number; newest: string }>();
  for (const e of entries) {
    const d = byKey.get(e.driveKey);
    const label = e.drive || e.volume || e.driveKey;
    if (!d) byKey.set(e.driveKey, { key: e.driveKey, label, count: 1, newest: e.startedAt });
    else {
      d.count++;
      if (e.startedAt > d.newest) Object.assign(d, { label, newest: e.startedAt });
    }
  }
  return [...byKey.values()].sort((a, b) => cmp(b.newest, a.newest) || cmp(a.key, b.key)).map(({ newest: _n, ...d }) => d);
}

/** The query's page of `entries` (any order in), with the total that matched. */
export function queryEntries(entries: readonly HistoryEntry[], q: HistoryQuery): { entries: HistoryEntry[]; total: number } {
  const words = searchWords(q.search);
  const hits = entries.filter((e) => matches(e, q, words)).sort((a, b) => compareEntries(a, b, q));
  const offset = q.offset ?? 0;
  return { entries: hits.slice(offset, q.limit === undefined ? undefined : offset + q.limit), total: hits.length };
}
