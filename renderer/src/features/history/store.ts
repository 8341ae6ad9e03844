// History's state: the query (search, filters, order), the pages of rows loaded so far (the
// listing's first answer keeps the folder, the total, every drive and the files that could not be
// read), which rows are selected, which view is shown (the list, one result, a comparison), the
// documents loaded so far, and the last thing an action reported. Every change goes through the
// bridge and these actions; components read through narrow selectors.
import { create } from 'zustand';
import type { ResultDocument } from '@model/result';
import { getBridge } from '../../lib/bridge';
import type { HistoryEntry, HistoryListing, HistoryQuery } from '@model/history';
import { RESULT_KINDS } from '@model/kinds/registry';
import { ipcErrorText } from '@model/events';
import { type StatusNote } from '../../lib/status';

export type HistoryView = { kind: 'list' } | { kind: 'result'; id: string } | { kind: 'compare'; ids: string[] };

/** A document being loaded, loaded, or that could not be. */
export type DocState = { state: 'loading' } | { state: 'ok'; doc: ResultDocument } | { state: 'error'; message: string };

/** Rows one request asks for: a screenful or two of the virtualized list. */
export const PAGE_ROWS = 100;

/** The orders the list offers: newest or oldest first, by name, fastest or slowest first. */
export const SORTS = {
  'date-desc': { label: 'Newest first', sort: 'date', order: 'desc' },
  'date-asc': { label: 'Oldest first', sort: 'date', order: 'asc' },
  'name-asc': { label: 'Name A–Z', sort: 'name', order: 'asc' },
  'name-desc': { label: 'Name Z–A', sort: 'name', order: 'desc' },
  'figure-desc': { label: 'Fastest first', sort: 'figure', order: 'desc' },
  'figure-asc': { label: 'Slowest first', sort: 'figure', order: 'asc' },
} as const;
export type SortChoice = keyof typeof SORTS;

interface HistoryState {
  /** The first page's answer: the folder, how many match, every drive, the unreadable files. */
  listing: HistoryListing | null;
  /** Loaded pages by number (rows PAGE_ROWS × n onwards), for the query of the listing. */
  pages: Record<number, HistoryEntry[]>;
  /** Words the rows must hold (any case). */
  search: string;
  sort: SortChoice;
  /** The saved frame-paced results' ids (null until asked for). */
  paced: string[] | null;
  /** Every result of one drive, oldest first ("this drive over time"), once asked for. */
  driveSeries: { key: string; entries: HistoryEntry[] } | null;
  loading: boolean;
  /** Why the list could not be loaded, in plain words. */
  error: string | null;
  /** driveKey to show, or '' for all drives. */
  drive: string;
  /** kind to show, or '' for all tests. */
  kind: string;
  /** Selected ids, in the order they were picked (the first is the comparison's baseline). */
  selected: string[];
  view: HistoryView;
  docs: Record<string, DocState>;
  status: StatusNote | null;

  /** Asks for the first page again (a new query, or the screen shown again). */
  load(): Promise<void>;
  /** Loads the pages holding rows [from, to) that are not loaded yet. */
  loadRows(from: number, to: number): Promise<void>;
  setDrive(drive: string): void;
  setKind(kind: string): void;
  setSearch(search: string): void;
  setSort(sort: SortChoice): void;
  /** Loads every result of one drive for its chart over time. */
  loadDriveSeries(driveKey: string): Promise<void>;
  /** Finds the saved frame-paced results once (a Quick Test's "Will it work?" takes their verdicts). */
  loadPaced(): Promise<void>;
  toggle(id: string): void;
  /** Adds `id` to the selection (if absent) and returns to the list: "Compare with…". */
  compareWith(id: string): void;
  clearSelection(): void;
  open(id: string): void;
  compare(): void;
  back(): void;
  /** Loads a document once (later calls reuse it). */
  fetchDoc(id: string): Promise<void>;
  /** Sets a label; true when the core took it. */
  label(id: string, label: string): Promise<boolean>;
  remove(ids: string[]): Promise<boolean>;
  importText(json: string, name: string): Promise<void>;
  setStatus(status: StatusNote | null): void;
  reset(): void;
}

const initial = {
  listing: null as HistoryListing | null,
  pages: {} as Record<number, HistoryEntry[]>,
  search: '',
  sort: 'date-desc' as SortChoice,
  paced: null as string[] | null,
  driveSeries: null as { key: string; entries: HistoryEntry[] } | null,
  loading: false,
  error: null as string | null,
  drive: '',
  kind: '',
  selected: [] as string[],
  view: { kind: 'list' } as HistoryView,
  docs: {} as Record<string, DocState>,
  status: null as StatusNote | null,
};

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

export const useHistoryStore = create<HistoryState>()((set, get) => {
  // Listings can answer out of order (the screen shown again, an import, a delete): only the
  // latest asked for is shown, and none asked for before a rename here, which it would undo.
  let lastLoad = 0;
  let staleBefore = 0;

  /** Puts a changed entry in the listing and drops its cached document (its label changed). */
  const replaceEntry = (entry: HistoryEntry): void => {
    staleBefore = lastLoad + 1;
    const l = get().listing;
    const docs = { ...get().docs };
    const cached = docs[entry.id];
    if (cached?.state === 'ok') {
      const doc = { ...cached.doc };
      if (entry.label) doc.label = entry.label;
      else delete doc.label;
      docs[entry.id] = { state: 'ok', doc };
    }
    const swap = (list: HistoryEntry[]): HistoryEntry[] => list.map((e) => (e.id === entry.id ? entry : e));
    const pages = Object.fromEntries(Object.entries(get().pages).map(([n, rows]) => [n, swap(rows)]));
    set({ listing: l ? { ...l, entries: swap(l.entries) } : l, pages, docs });
  };

  /** The query the list shows, for a page starting at `offset`. */
  const queryOf = (offset: number): HistoryQuery => {
    const s = get();
    const { sort, order } = SORTS[s.sort];
    return {
      offset,
      limit: PAGE_ROWS,
      sort,
      order,
      ...(s.search.trim() ? { search: s.search.trim() } : {}),
      ...(s.drive ? { driveKey: s.drive } : {}),
      ...(s.kind ? { kind: s.kind } : {}),
    };
  };
  /** Pages asked for under the current listing (by number), so each is asked once. */
  let asked = new Set<number>();

  return {
    ...initial,

    async load() {
      const mine = ++lastLoad;
      set({ loading: true });
      const r = await getBridge().listHistory(queryOf(0));
      if (mine !== lastLoad) return; // a later load answers for both
      if (mine < staleBefore) {
        set({ loading: false });
        return;
      }
      if (!r.ok) {
        set({ loading: false, error: ipcErrorText(r.error, 'Could not read the saved results.') });
        return;
      }
      asked = new Set([0]);
      // A new listing may hold new frame-paced results: they are asked for again when shown.
      set({ listing: r.value, pages: { 0: r.value.entries }, loading: false, error: null, paced: null });
    },

    async loadRows(from, to) {
      const mine = lastLoad;
      const total = get().listing?.total ?? 0;
      const wanted: number[] = [];
      for (let n = Math.floor(from / PAGE_ROWS); n * PAGE_ROWS < Math.min(to, total); n++) if (!asked.has(n)) wanted.push(n);
      for (const n of wanted) asked.add(n);
      await Promise.all(
        wanted.map(async (n) => {
          const r = await getBridge().listHistory(queryOf(n * PAGE_ROWS));
          if (mine !== lastLoad) return; // the query changed meanwhile: the new listing asks again
          if (!r.ok) {
            asked.delete(n);
            set({ error: ipcErrorText(r.error, 'Could not read the saved results.') });
            return;
          }
          set({ pages: { ...get().pages, [n]: r.value.entries } });
        }),
      );
    },

    setDrive(drive) {
      set({ drive });
      void get().load();
    },
    setKind(kind) {
      set({ kind });
      void get().load();
    },
    setSearch(search) {
      set({ search });
      void get().load();
    },
    setSort(sort) {
      set({ sort });
      void get().load();
    },

    async loadDriveSeries(driveKey) {
      const r = await getBridge().driveHistory(driveKey);
      if (get().drive !== driveKey) return; // another drive was picked meanwhile
      if (!r.ok) set({ error: ipcErrorText(r.error, 'Could not read this drive’s results.') });
      else set({ driveSeries: { key: driveKey, entries: r.value } });
    },

    async loadPaced() {
      if (get().paced) return;
      const kinds = RESULT_KINDS.filter((k) => k.paced).map((k) => k.id);
      const answers = await Promise.all(kinds.map((kind) => getBridge().listHistory({ kind })));
      set({ paced: answers.flatMap((r) => (r.ok ? r.value.entries.map((e) => e.id) : [])) });
    },

    toggle(id) {
      const sel = get().selected;
      set({ selected: sel.includes(id) ? sel.filter((x) => x !== id) : [...sel, id] });
    },

    compareWith(id) {
      const sel = get().selected;
      set({
        selected: sel.includes(id) ? sel : [...sel, id],
        view: { kind: 'list' },
        status: { text: 'Tick one or more results to compare with it, then press Compare.', tone: 'ok' },
      });
    },

    clearSelection() {
      set({ selected: [] });
    },

    open(id) {
      set({ view: { kind: 'result', id }, status: null });
      void get().fetchDoc(id);
    },

    compare() {
      const ids = get().selected;
      if (ids.length < 2) return;
      set({ view: { kind: 'compare', ids: [...ids] }, status: null });
      for (const id of ids) void get().fetchDoc(id);
    },

    back() {
      set({ view: { kind: 'list' } });
    },

    async fetchDoc(id) {
      const cached = get().docs[id];
      if (cached && cached.state !== 'error') return;
      set({ docs: { ...get().docs, [id]: { state: 'loading' } } });
      const r = await getBridge().getResult(id);
      set({
        docs: {
          ...get().docs,
          [id]: r.ok ? { state: 'ok', doc: r.value } : { state: 'error', message: ipcErrorText(r.error, 'Could not read this result.') },
        },
      });
    },

    async label(id, label) {
      const r = await getBridge().labelResult(id, label.trim());
      if (!r.ok) {
        set({ status: { text: ipcErrorText(r.error, 'Could not rename the result.'), tone: 'error' } });
        return false;
      }
      replaceEntry(r.value);
      return true;
    },

    async remove(ids) {
      if (ids.length === 0) return false;
      const r = await getBridge().deleteResults(ids);
      if (!r.ok) {
        set({ status: { text: ipcErrorText(r.error, 'Could not delete.'), tone: 'error' } });
        return false;
      }
      const gone = new Set(ids);
      const s = get();
      const docs = Object.fromEntries(Object.entries(s.docs).filter(([id]) => !gone.has(id)));
      set({
        selected: s.selected.filter((id) => !gone.has(id)),
        docs,
        view: { kind: 'list' },
        status: { text: `Deleted ${plural(r.value.deleted, 'result')}`, tone: 'ok' },
      });
      await get().load();
      return true;
    },

    async importText(json, name) {
      const r = await getBridge().importResult(json, name);
      if (!r.ok) {
        set({ status: { text: ipcErrorText(r.error, `Could not import ${name}.`), tone: 'error' } });
        return;
      }
      set({
        status: r.value.duplicate ? { text: 'Already in history', tone: 'ok' } : { text: `Imported ${r.value.entry.name}`, tone: 'ok' },
      });
      await get().load();
    },

    setStatus(status) {
      set({ status });
    },

    reset() {
      set({ ...initial });
    },
  };
});

// ---- selectors --------------------------------------------------------------------------------

type S = HistoryState;

/** The row at `i` of the list, or undefined while its page is loading. */
export const rowAt = (pages: S['pages'], i: number): HistoryEntry | undefined => pages[Math.floor(i / PAGE_ROWS)]?.[i % PAGE_ROWS];

/** How many results History holds in all (every drive's count), whatever the filters. */
export const selectAllCount = (s: S): number => (s.listing?.drives ?? []).reduce((n, d) => n + d.count, 0);
