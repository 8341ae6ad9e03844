// "Will it work? / How fast?": for one format family and frame rate, every format × resolution
// with a write and a read verdict (✓/✗ in words for screen readers, not colour alone) and the
// highest frame rate each speed sustains. Fed by the sustained speeds of the latest cycle.
import { useId, useMemo, useState } from 'react';
import { formatMBps } from '../../lib/format';
import { useQuickTestStore } from './store';
import { videoData } from './video-data';
import { cellVerdict, DEFAULT_MARGIN, formatFps } from './video-math';

const { families, formats, resolutions, frameRates, sources } = videoData;

function Mark({ ok, side, fps }: { ok: boolean; side: 'write' | 'read'; fps: number | null }) {
  const word = side === 'write' ? 'Write' : 'Read';
  return (
    <span className={`mark mark--${side} ${ok ? 'mark--ok' : 'mark--no'}`}>
      <span className="mark__side" aria-hidden="true">
        {side === 'write' ? 'W' : 'R'}
      </span>
      <span className="mark__icon" aria-hidden="true">
        {ok ? '✓' : '✗'}
      </span>
      <span className="mark__fps" aria-hidden="true">
        {fps === null ? '—' : formatFps(fps)}
      </span>
      <span className="sr-only">
        {word}: {ok ? 'yes' : 'no'}
        {fps === null ? ', not at any listed frame rate' : `, up to ${formatFps(fps)} fps`}.
      </span>
    </span>
  );
}

export function VideoTable() {
  const sustained = useQuickTestStore((s) => s.sustained);
  const [family, setFamily] = useState(families[0]?.id ?? 'prores');
  const [fps, setFps] = useState(29.97);
  const fpsId = useId();
  const rows = useMemo(() => formats.filter((f) => f.family === family), [family]);
  const familySources = useMemo(() => {
    const ids = new Set(rows.map((r) => r.source));
    return sources.filter((s) => ids.has(s.id));
  }, [rows]);
  const notes = useMemo(() => [...new Set(rows.map((r) => r.estimateNote).filter((n): n is string => !!n))], [rows]);

  const onTabKey = (e: React.KeyboardEvent<HTMLButtonElement>, i: number) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const next = (i + (e.key === 'ArrowRight' ? 1 : families.length - 1)) % families.length;
    setFamily(families[next]!.id);
    const tabs = e.currentTarget.parentElement?.querySelectorAll<HTMLButtonElement>('[role="tab"]');
    tabs?.[next]?.focus();
  };

  return (
    <section className="card video-card" aria-labelledby="video-title">
      <header className="card__header card__header--wrap">
        <div>
          <h2 id="video-title" className="card__title">
            Will it work? <span className="card__title-sep">·</span> How fast?
          </h2>
          <p className="card__subtitle">
            From the sustained (average) speed, keeping a {Math.round(DEFAULT_MARGIN * 100)} % safety margin: a format fits when it needs no more than{' '}
            {Math.round((1 - DEFAULT_MARGIN) * 100)} % of it.
            {sustained && (
              <>
                {' '}
                Usable: write <strong className="t-write">{formatMBps(sustained.write * (1 - DEFAULT_MARGIN))} MB/s</strong>, read{' '}
                <strong className="t-read">{formatMBps(sustained.read * (1 - DEFAULT_MARGIN))} MB/s</strong>.
              </>
            )}
          </p>
        </div>
        <label className="fps-select" htmlFor={fpsId}>
          <span className="settings-label">Frame rate</span>
          <select id={fpsId} className="select" value={fps} onChange={(e) => setFps(Number(e.target.value))}>
            {frameRates.map((r) => (
              <option key={r} value={r}>
                {formatFps(r)} fps
              </option>
            ))}
          </select>
        </label>
      </header>

      <div className="tabs" role="tablist" aria-label="Format family">
        {families.map((f, i) => (
          <button
            key={f.id}
            type="button"
            role="tab"
            id={`tab-${f.id}`}
            aria-selected={family === f.id}
            aria-controls="video-panel"
            tabIndex={family === f.id ? 0 : -1}
            className="tab"
            onClick={() => setFamily(f.id)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {f.label}
          </button>
        ))}
      </div>

      <div id="video-panel" role="tabpanel" aria-labelledby={`tab-${family}`} className="video-panel">
        {!sustained ? (
          <p className="empty empty--table">Run a test to see what this drive can record and play.</p>
        ) : (
          <div className="table-scroll">
            <table className="video-table">
              <caption className="sr-only">
                Whether the drive can write (record) and read (play) each format at {formatFps(fps)} fps, and the highest frame rate it sustains.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Format</th>
                  {resolutions.map((r) => (
                    <th key={r.id} scope="col">
                      <span className="res-label">{r.label}</span>
                      <span className="res-detail">{r.detail}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((f) => (
                  <tr key={f.id}>
                    <th scope="row">{f.name}</th>
                    {resolutions.map((r) => {
                      const v = cellVerdict(f, r, fps, sustained, frameRates, resolutions);
                      if (!v) {
                        return (
                          <td key={r.id} className="cell cell--na">
                            <span aria-hidden="true">—</span>
                            <span className="sr-only">Not offered</span>
                          </td>
                        );
                      }
                      const title =
                        `Needs ${v.neededMBps.toFixed(1)} MB/s at ${formatFps(fps)} fps${v.estimated ? ' (estimate)' : ''}. ` +
                        `Sustains ${v.write.exact ?? 0} fps writing, ${v.read.exact ?? 0} fps reading.`;
                      return (
                        <td key={r.id} className="cell" title={title} data-testid={`cell-${f.id}-${r.id}`}>
                          <Mark ok={v.write.ok} side="write" fps={v.write.maxListed} />
                          <Mark ok={v.read.ok} side="read" fps={v.read.maxListed} />
                          <span className="cell__need">
                            {v.neededMBps >= 100 ? Math.round(v.neededMBps) : v.neededMBps.toFixed(1)} MB/s{v.estimated ? '*' : ''}
                          </span>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <footer className="video-sources">
        <p>
          Each cell: ✓/✗ whether writing (W) and reading (R) keep up at the chosen frame rate, the highest listed frame rate each sustains, and the data rate needed
          {notes.length > 0 ? ' (* estimate)' : ''}.
        </p>
        {notes.map((n) => (
          <p key={n}>* {n}</p>
        ))}
        <p>
          Sources:{' '}
          {familySources.map((s, i) => (
            <span key={s.id}>
              {i > 0 && '; '}
              {s.publisher}, “{s.title}” ({s.date})
            </span>
          ))}
          .
        </p>
      </footer>
    </section>
  );
}
