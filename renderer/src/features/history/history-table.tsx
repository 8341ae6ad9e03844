// The list of saved results as a virtualized table: a scroll box as tall as every row would be,
// holding only the rows in view and a screenful either side (~50 in the DOM whatever the count),
// each page of rows asked for as it scrolls near. Rows are of one height, so a position is a row.
import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { cacheLabel } from '../../components/cache-badge';
import { formatDate, headlineText, plural } from '../../lib/history-format';
import type { HistoryEntry } from '@model/history';
import { nameWithoutWhen } from '@model/report/metrics';
import { LabelEditor } from './label-editor';
import { rowAt, useHistoryStore } from './store';

const UNCACHED = new Set(['direct', 'nocache']);
/** A row's height in px (history.css sets the same); the spacers stand in for rows out of view. */
export const ROW_PX = 64;
/** Rows kept either side of the view. */
const OVERSCAN = 15;
/** The view's height before it is measured (a test DOM has no layout). */
const FALLBACK_VIEW_PX = 640;

/** "22 Nov 2026" and "02:39 UTC", each kept whole, so a narrow column breaks between them. */
function DateCell({ iso }: { iso: string }) {
  const text = formatDate(iso);
  const parts = /^(.* \d{4}) (.*)$/.exec(text);
  return (
    <time dateTime={iso}>
      {parts ? (
        <>
          <span className="nowrap">{parts[1]}</span> <span className="nowrap">{parts[2]}</span>
        </>
      ) : (
        text
      )}
    </time>
  );
}

function Row({ entry, index, onShare }: { entry: HistoryEntry; index: number; onShare(e: HistoryEntry): void }) {
  const checked = useHistoryStore((s) => s.selected.includes(entry.id));
  const toggle = useHistoryStore((s) => s.toggle);
  const open = useHistoryStore((s) => s.open);
  const cached = !UNCACHED.has(entry.cacheMode);
  return (
    <tr
      className={`history-row${checked ? ' history-row--selected' : ''}`}
      data-testid="history-row"
      data-id={entry.id}
      aria-rowindex={index + 2}
    >
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
        <DateCell iso={entry.startedAt} />
      </td>
      <td className="history-row__name">
        {/* The date has its own column: the name here leaves out the time an unlabelled one carries. */}
        <LabelEditor id={entry.id} name={nameWithoutWhen(entry.name, entry.startedAt, !!entry.label)} label={entry.label} />
        <span className="history-row__title">{entry.title}</span>
      </td>
      <td className="history-row__drive">
        {/* Each part whole ("271 GB", "virtio (virtual disk)"): the cell wraps between parts. */}
        {entry.drive.split(' · ').map((part, i) => (
          <Fragment key={i}>
            {i > 0 && ' · '}
            <span className="nowrap">{part}</span>
          </Fragment>
        ))}
      </td>
      <td className="history-row__figures">
        <span className="history-row__headline">
          {entry.headline.length === 0
            ? '—'
            : entry.headline.map((h, i) => (
                // Each figure whole on its line: the row wraps between figures, never inside one.
                <Fragment key={i}>
                  {i > 0 && ' · '}
                  <span className="nowrap">{headlineText([h])}</span>
                </Fragment>
              ))}
        </span>
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

export function HistoryTable({ total, onShare }: { total: number; onShare(e: HistoryEntry): void }) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [view, setView] = useState(FALLBACK_VIEW_PX);
  const listing = useHistoryStore((s) => s.listing);
  const loadRows = useHistoryStore((s) => s.loadRows);
  const first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const last = Math.min(total, Math.ceil((top + view) / ROW_PX) + OVERSCAN);
  const pages = useHistoryStore((s) => s.pages);
  const rows = Array.from({ length: Math.max(0, last - first) }, (_, i) => rowAt(pages, first + i));

  useLayoutEffect(() => {
    const el = box.current;
    if (el && el.clientHeight > 0) setView(el.clientHeight);
  }, [total]);
  // A new listing (another search, filter or order) starts at its top.
  useEffect(() => {
    if (box.current) box.current.scrollTop = 0;
    setTop(0);
  }, [listing]);
  useEffect(() => {
    void loadRows(first, last);
  }, [first, last, listing, loadRows]);

  return (
    <div
      ref={box}
      className="table-scroll history-table-box"
      data-testid="history-scroll"
      onScroll={(e) => setTop((e.target as HTMLDivElement).scrollTop)}
    >
      <table className="data-table history-table" data-testid="history-table" aria-rowcount={total + 1}>
        <caption className="sr-only">Saved results</caption>
        <thead>
          <tr aria-rowindex={1}>
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
          {first > 0 && <tr aria-hidden="true" className="history-spacer" style={{ height: first * ROW_PX }} />}
          {rows.map((e, i) =>
            e ? (
              <Row key={e.id} entry={e} index={first + i} onShare={onShare} />
            ) : (
              <tr key={`pending-${first + i}`} className="history-row history-row--pending" aria-rowindex={first + i + 2}>
                <td colSpan={6}>Loading…</td>
              </tr>
            ),
          )}
          {last < total && <tr aria-hidden="true" className="history-spacer" style={{ height: (total - last) * ROW_PX }} />}
        </tbody>
      </table>
    </div>
  );
}
