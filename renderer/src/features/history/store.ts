// History's state: the listing of saved results (and the files that could not be read), the
// filters, which rows are selected, which view is shown (the list, one result, a comparison),
// the documents loaded so far, and the last thing an action reported. Every change goes through
// the bridge and these actions; components read through narrow selectors.
import { create } from 'zustand';
import type { ResultDocument } from '@model/result';
import { getBridge } from '../../lib/bridge';
import type { HistoryEntry, HistoryListing } from '@model/history';
import { ipcErrorText } from '@model/events';
import { type StatusNote } from '../../lib/status';

export type HistoryView = { kind: 'list' } | { kind: 'result'; id: string } | { kind: 'compare'; ids: string[] };

/** A document being loaded, loaded, or that could not be. */
export type DocState = { state: 'loading' } | { state: 'ok'; doc: ResultDocument } | { state: 'error'; message: string };

interface HistoryState {
  listing: HistoryListing | null;
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

  load(): Promise<void>;
  setDrive(drive: string): void;
  setKind(kind: string): void;
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
    set({ listing: l ? { ...l, entries: l.entries.map((e) => (e.id === entry.id ? entry : e)) } : l, docs });
  };

  return {
    ...initial,

    async load() {
      const mine = ++lastLoad;
      set({ loading: true });
      const r = await getBridge().listHistory();
      if (mine !== lastLoad) return; // a later load answers for both
      if (mine < staleBefore) {
        set({ loading: false });
        return;
      }
      if (!r.ok) {
        set({ loading: false, error: ipcErrorText(r.error, 'Could not read the saved results.') });
        return;
      }
      const ids = new Set(r.value.entries.map((e) => e.id));
      const s = get();
      // Deleted elsewhere (another window, the CLI): drop them from the selection.
      set({ listing: r.value, loading: false, error: null, selected: s.selected.filter((id) => ids.has(id)) });
    },

    setDrive(drive) {
      set({ drive });
    },
    setKind(kind) {
      set({ kind });
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
        listing: s.listing ? { ...s.listing, entries: s.listing.entries.filter((e) => !gone.has(e.id)) } : s.listing,
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

const NO_ENTRIES: HistoryEntry[] = [];

export const selectEntries = (s: S): HistoryEntry[] => s.listing?.entries ?? NO_ENTRIES;

/** The entries the filters let through, newest first (as listed). */
export function filterEntries(entries: readonly HistoryEntry[], drive: string, kind: string): HistoryEntry[] {
  return entries.filter((e) => (!drive || e.driveKey === drive) && (!kind || e.kind === kind));
}

/** Distinct drives, in first-seen order, each with the label its newest result gives it. */
export function driveChoices(entries: readonly HistoryEntry[]): Array<{ value: string; label: string }> {
  const seen = new Map<string, string>();
  for (const e of entries) if (!seen.has(e.driveKey)) seen.set(e.driveKey, e.drive || e.volume || e.driveKey);
  return [...seen].map(([value, label]) => ({ value, label }));
}
