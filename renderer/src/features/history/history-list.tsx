// The list of saved results: a toolbar (Import…, a search box, filters by drive and kind, the
// order, Compare and Delete for the ticked rows, Delete asking first in place), the files that
// could not be read, a chart of the chosen drive over time, and the virtualized table of results
// (history-table.tsx), each with its name (renamed in place), what was run, on which drive, its
// headline figures and badges, and Open and Share.
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { kindName } from '@model/report/metrics';
import { StatusLine } from '../../components/export-bar';
import { plural } from '../../lib/history-format';
import type { HistoryEntry } from '@model/history';
import { RESULT_KINDS } from '@model/kinds/registry';
import { ShareDialog } from '../../components/share-dialog';
import { selectAllCount, SORTS, useHistoryStore, type SortChoice } from './store';
import { HistoryTable } from './history-table';
import { DriveOverTime } from './drive-over-time';
import { CardHeader } from '../../components/card-header';
import { FilterSelect } from '../../components/filter-select';

/** The kinds the filter offers, in the order the screens show them: every kind a screen makes. */
export const KIND_CHOICES: readonly string[] = RESULT_KINDS.filter((k) => !k.cliOnly).map((k) => k.id);

/** A file's text: File.text() where there is one, else a FileReader. */
function readText(file: File): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result ?? ''));
    r.onerror = () => reject(r.error ?? new Error('Could not read the file.'));
    r.readAsText(file);
  });
}

function Toolbar() {
  const listing = useHistoryStore((s) => s.listing);
  const all = useHistoryStore(selectAllCount);
  const search = useHistoryStore((s) => s.search);
  const sort = useHistoryStore((s) => s.sort);
  const setSearch = useHistoryStore((s) => s.setSearch);
  const setSort = useHistoryStore((s) => s.setSort);
  const drive = useHistoryStore((s) => s.drive);
  const kind = useHistoryStore((s) => s.kind);
  const selected = useHistoryStore((s) => s.selected);
  const setDrive = useHistoryStore((s) => s.setDrive);
  const setKind = useHistoryStore((s) => s.setKind);
  const compare = useHistoryStore((s) => s.compare);
  const remove = useHistoryStore((s) => s.remove);
  const clearSelection = useHistoryStore((s) => s.clearSelection);
  const importText = useHistoryStore((s) => s.importText);
  const setStatus = useHistoryStore((s) => s.setStatus);
  const [confirming, setConfirming] = useState(false);
  const [importing, setImporting] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const drives = listing?.drives ?? [];
  const shown = listing?.total ?? 0;
  const n = selected.length;

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file may be picked again
    if (!file) return;
    setImporting(true);
    try {
      await importText(await readText(file), file.name);
    } catch {
      setStatus({ text: `Could not read ${file.name}.`, tone: 'error' });
    } finally {
      setImporting(false);
    }
  };

  const askDelete = () => {
    setConfirming(true);
    queueMicrotask(() => confirmRef.current?.focus());
  };
  const cancelDelete = () => {
    setConfirming(false);
    queueMicrotask(() => deleteRef.current?.focus());
  };
  const doDelete = async () => {
    setConfirming(false);
    await remove([...selected]);
  };

  return (
    <div className="history-toolbar">
      <div className="history-toolbar__row">
        <input
          type="search"
          className="history-search"
          placeholder="Search names, drives, tests…"
          aria-label="Search saved results"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="history-search"
        />
        <button type="button" className="button" disabled={importing} onClick={() => fileRef.current?.click()}>
          {importing ? 'Importing…' : 'Import…'}
        </button>
        <input
          ref={fileRef}
          type="file"
          accept=".json,application/json"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="history-import-input"
          onChange={(e) => void onFile(e)}
        />
        <FilterSelect label="Drive" value={drive} onChange={(v) => setDrive(v)} testId="history-filter-drive">
          <option value="">All drives</option>
          {drives.map((d) => (
            <option key={d.key} value={d.key}>
              {d.label}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Test" value={kind} onChange={(v) => setKind(v)} testId="history-filter-kind">
          <option value="">All tests</option>
          {KIND_CHOICES.map((k) => (
            <option key={k} value={k}>
              {kindName(k)}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Order" value={sort} onChange={(v) => setSort(v as SortChoice)} testId="history-sort">
          {Object.entries(SORTS).map(([value, s]) => (
            <option key={value} value={value}>
              {s.label}
            </option>
          ))}
        </FilterSelect>
        <span className="history-toolbar__spacer" />
        <button
          type="button"
          className="button button--primary"
          disabled={n < 2}
          onClick={compare}
          data-testid="history-compare"
          title={n < 2 ? 'Tick two or more results to compare them' : undefined}
        >
          Compare results ({n})
        </button>
        <button
          ref={deleteRef}
          type="button"
          className="button button--danger"
          disabled={n < 1 || confirming}
          onClick={askDelete}
          data-testid="history-delete"
        >
          Delete ({n})
        </button>
        {n > 0 && (
          <button type="button" className="button button--quiet" onClick={clearSelection}>
            Clear selection
          </button>
        )}
      </div>
      {confirming && (
        <div className="history-confirm" role="group" aria-label="Confirm delete">
          <span>Delete {plural(n, 'result')}? They are removed from this computer.</span>
          <button
            ref={confirmRef}
            type="button"
            className="button button--danger"
            onClick={() => void doDelete()}
            data-testid="history-delete-confirm"
          >
            Delete
          </button>
          <button type="button" className="button" onClick={cancelDelete} data-testid="history-delete-cancel">
            Cancel
          </button>
        </div>
      )}
      {listing && shown !== all && (
        <p className="history-count" data-testid="history-count">
          Showing {shown.toLocaleString('en-US')} of {all.toLocaleString('en-US')} result{all === 1 ? '' : 's'}
        </p>
      )}
    </div>
  );
}

function Skipped() {
  const listing = useHistoryStore((s) => s.listing);
  const skipped = listing?.skipped ?? [];
  if (!listing || skipped.length === 0) return null;
  return (
    <details className="history-skipped" data-testid="history-skipped">
      <summary>
        {plural(skipped.length, 'file')} in {listing.dir} could not be read
      </summary>
      <ul>
        {skipped.map((s) => (
          <li key={s.file}>
            <span className="history-skipped__file">{s.file}</span>: {s.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function HistoryList() {
  const listing = useHistoryStore((s) => s.listing);
  const loading = useHistoryStore((s) => s.loading);
  const error = useHistoryStore((s) => s.error);
  const all = useHistoryStore(selectAllCount);
  const drive = useHistoryStore((s) => s.drive);
  const search = useHistoryStore((s) => s.search);
  const status = useHistoryStore((s) => s.status);
  const [sharing, setSharing] = useState<HistoryEntry | null>(null);
  const titleId = useId();
  const total = listing?.total ?? 0;

  return (
    <section className="card history-list" aria-labelledby={titleId} data-testid="history-list">
      <CardHeader
        titleId={titleId}
        title={<>History</>}
        subtitle={<>Every finished test, with how it was measured. Tick results to compare them side by side.</>}
      />
      <div className="history-list__body">
        <Toolbar />
        <StatusLine status={status} testId="history-status" />
        {error && (
          <p className="panel-error" role="alert">
            {error}
          </p>
        )}
        <Skipped />
        {drive && <DriveOverTime driveKey={drive} />}
        {!listing && loading ? (
          <p className="empty empty--table">Loading saved results…</p>
        ) : all === 0 ? (
          listing && (
            <p className="empty empty--table" data-testid="history-empty">
              No saved results yet. Every finished test is saved here.
            </p>
          )
        ) : total === 0 ? (
          <p className="empty empty--table" data-testid="history-no-match">
            {search.trim() ? `No saved results match “${search.trim()}” with these filters.` : 'No saved results match these filters.'}
          </p>
        ) : (
          <HistoryTable total={total} onShare={setSharing} />
        )}
        {listing && (
          <p className="history-dir">
            Saved in <span className="history-dir__path">{listing.dir}</span>
          </p>
        )}
      </div>
      {sharing && <ShareDialog id={sharing.id} name={sharing.name} onClose={() => setSharing(null)} />}
    </section>
  );
}
