// The list of saved results: a toolbar (Import…, filters by drive and kind, Compare and Delete
// for the ticked rows, Delete asking first in place), the files that could not be read, and a
// table of results — newest first — each with its name (renamed in place), what was run, on
// which drive, its headline figures and badges, and Open and Share.
import { useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { kindName } from '@model/report/metrics';
import { cacheLabel } from '../../components/cache-badge';
import { StatusLine } from '../../components/export-bar';
import { formatDate, headlineText, plural } from '../../lib/history-format';
import type { HistoryEntry } from '@model/history';
import { RESULT_KINDS } from '@model/kinds/registry';
import { LabelEditor } from './label-editor';
import { ShareDialog } from '../../components/share-dialog';
import { driveChoices, filterEntries, selectEntries, useHistoryStore } from './store';
import { CardHeader } from '../../components/card-header';
import { FilterSelect } from '../../components/filter-select';

/** The kinds the filter offers, in the order the screens show them: every kind a screen makes. */
export const KIND_CHOICES: readonly string[] = RESULT_KINDS.filter((k) => !k.cliOnly).map((k) => k.id);

const UNCACHED = new Set(['direct', 'nocache']);

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

function Toolbar({ shown }: { shown: HistoryEntry[] }) {
  const entries = useHistoryStore(selectEntries);
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
  const drives = useMemo(() => driveChoices(entries), [entries]);
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
            <option key={d.value} value={d.value}>
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
        <span className="history-toolbar__spacer" />
        <button
          type="button"
          className="button button--primary"
          disabled={n < 2}
          onClick={compare}
          data-testid="history-compare"
          title={n < 2 ? 'Tick two or more results to compare them' : undefined}
        >
          Compare ({n})
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
      {shown.length !== entries.length && (
        <p className="history-count">
          Showing {shown.length} of {plural(entries.length, 'result')}
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

function Row({ entry, onShare }: { entry: HistoryEntry; onShare(e: HistoryEntry): void }) {
  const checked = useHistoryStore((s) => s.selected.includes(entry.id));
  const toggle = useHistoryStore((s) => s.toggle);
  const open = useHistoryStore((s) => s.open);
  const cached = !UNCACHED.has(entry.cacheMode);
  return (
    <tr className={`history-row${checked ? ' history-row--selected' : ''}`} data-testid="history-row" data-id={entry.id}>
      <td className="history-row__check">
        <input
          type="checkbox"
          checked={checked}
          onChange={() => toggle(entry.id)}
          aria-label={`Select ${entry.name}`}
          data-testid="history-select"
        />
      </td>
      <td className="history-row__date">
        <time dateTime={entry.startedAt}>{formatDate(entry.startedAt)}</time>
      </td>
      <td className="history-row__name">
        <LabelEditor id={entry.id} name={entry.name} label={entry.label} />
        <span className="history-row__title">{entry.title}</span>
      </td>
      <td className="history-row__drive">{entry.drive}</td>
      <td className="history-row__figures">
        <span className="history-row__headline">{headlineText(entry.headline) || '—'}</span>
        {(cached || entry.warnings > 0 || entry.origin === 'imported') && (
          <span className="history-badges">
            {cached && (
              <span
                className="pill pill--warn"
                title="Measured through the operating system cache: the figures may show the cache, not the disk."
              >
                {cacheLabel(entry.cacheMode)}
              </span>
            )}
            {entry.warnings > 0 && (
              <span className="pill pill--warn" title="Things that may make these figures not the disk’s alone">
                ⚠ {plural(entry.warnings, 'warning')}
              </span>
            )}
            {entry.origin === 'imported' && (
              <span className="pill" title={`Imported (made with DiskDial ${entry.appVersion})`}>
                imported
              </span>
            )}
          </span>
        )}
      </td>
      <td className="history-row__actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => open(entry.id)}
          data-testid="history-open"
          aria-label={`Open ${entry.name}`}
        >
          Open
        </button>
        <button
          type="button"
          className="button button--small"
          onClick={() => onShare(entry)}
          data-testid="history-share"
          aria-label={`Share ${entry.name}`}
        >
          Share
        </button>
      </td>
    </tr>
  );
}

export function HistoryList() {
  const listing = useHistoryStore((s) => s.listing);
  const loading = useHistoryStore((s) => s.loading);
  const error = useHistoryStore((s) => s.error);
  const entries = useHistoryStore(selectEntries);
  const drive = useHistoryStore((s) => s.drive);
  const kind = useHistoryStore((s) => s.kind);
  const status = useHistoryStore((s) => s.status);
  const [sharing, setSharing] = useState<HistoryEntry | null>(null);
  const shown = useMemo(() => filterEntries(entries, drive, kind), [entries, drive, kind]);
  const titleId = useId();

  return (
    <section className="card history-list" aria-labelledby={titleId} data-testid="history-list">
      <CardHeader
        titleId={titleId}
        title={<>History</>}
        subtitle={<>Every finished test, with how it was measured. Tick results to compare them side by side.</>}
      />
      <div className="history-list__body">
        <Toolbar shown={shown} />
        <StatusLine status={status} testId="history-status" />
        {error && (
          <p className="panel-error" role="alert">
            {error}
          </p>
        )}
        <Skipped />
        {!listing && loading ? (
          <p className="empty empty--table">Loading saved results…</p>
        ) : entries.length === 0 ? (
          listing && (
            <p className="empty empty--table" data-testid="history-empty">
              No saved results yet. Every finished test is saved here.
            </p>
          )
        ) : shown.length === 0 ? (
          <p className="empty empty--table">No saved results match these filters.</p>
        ) : (
          <div className="table-scroll history-table-box">
            <table className="data-table history-table" data-testid="history-table">
              <caption className="sr-only">Saved results, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="sr-only">Selected</span>
                  </th>
                  <th scope="col">Date</th>
                  <th scope="col">Name</th>
                  <th scope="col">Drive</th>
                  <th scope="col">Figures</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((e) => (
                  <Row key={e.id} entry={e} onShare={setSharing} />
                ))}
              </tbody>
            </table>
          </div>
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
