// One saved result in full: what was run (title, its name — renamed in place), on which drive,
// how it was measured, on which machine and when; its flags; its figures; and what can be done
// with it — share the card, copy or save it as text, compare it with others, delete it.
import { useId, useMemo, useRef, useState } from 'react';
import type { ResultDocument } from '@model/result';
import { hostLine, methodLine, resultName, resultTitle, targetLine } from '@model/report/metrics';
import { ResultCacheBadge } from '../../components/cache-badge';
import { FlagsList, flagsSummary } from '../../components/flags-list';
import { ExportBar, StatusLine } from '../../components/export-bar';
import { formatDate } from '../../lib/history-format';
import { LabelEditor } from './label-editor';
import { MetricsTable, ResultFigures } from './result-figures';
import { ShareDialog } from '../../components/share-dialog';
import type { StatusNote } from '../../lib/status';
import { useHistoryStore } from './store';
import { usePacedDocs } from './use-paced-docs';
import { BackToHistory } from './back-button';
import { WillItWorkTable } from '../../components/video-table';
import { DEFAULT_VIDEO_FPS, workInput } from '@model/kinds/video/will-it-work';
import { useNavigationStore } from '../../lib/navigation';

function ResultBody({ doc }: { doc: ResultDocument }) {
  const compareWith = useHistoryStore((s) => s.compareWith);
  const remove = useHistoryStore((s) => s.remove);
  const [status, setStatus] = useState<StatusNote | null>(null);
  const [sharing, setSharing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const flagsId = useId();
  const figuresId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const flags = Array.isArray(doc.flags) ? doc.flags : [];
  const notes = Array.isArray(doc.notes) ? doc.notes : [];
  const name = resultName(doc);
  // A Quick Test's mean speeds answer "Will it work?" as on its Done screen (null for other kinds);
  // a frame-paced test launched from this result decides rows, others of the drive are dated lines.
  const [fps, setFps] = useState(DEFAULT_VIDEO_FPS);
  const paced = usePacedDocs(doc.kind === 'quick');
  const willItWork = useMemo(() => workInput(doc, paced), [doc, paced]);
  const checkPaced = useNavigationStore((s) => s.checkPaced);

  return (
    <>
      <div className="result-view__head">
        <p className="result-view__title">{resultTitle(doc)}</p>
        <LabelEditor id={doc.id} name={name} label={doc.label} as="h2" />
        <dl className="result-view__facts">
          <div>
            <dt>Drive</dt>
            <dd>
              {targetLine(doc)} <span className="result-view__path">· {doc.target.path}</span>
            </dd>
          </div>
          <div>
            <dt>Method</dt>
            <dd>{methodLine(doc)}</dd>
          </div>
          <div>
            <dt>Machine</dt>
            <dd>{hostLine(doc)}</dd>
          </div>
          <div>
            <dt>Date</dt>
            <dd>
              <time dateTime={doc.startedAt}>{formatDate(doc.startedAt)}</time>
            </dd>
          </div>
        </dl>
        <div className="result-meta__row">
          <ResultCacheBadge doc={doc} testId="result-cache-badge" />
        </div>
      </div>

      <div className="result-view__actions">
        <ExportBar
          ids={[doc.id]}
          withText
          willItWorkFps={willItWork ? fps : undefined}
          onStatus={setStatus}
          before={
            <>
              <button type="button" className="button button--primary" onClick={() => setSharing(true)} data-testid="result-share">
                Share…
              </button>
              <button type="button" className="button" onClick={() => compareWith(doc.id)} data-testid="result-compare-with">
                Compare with…
              </button>
            </>
          }
        />
        <div className="export-bar__buttons">
          {confirming ? (
            <span className="history-confirm" role="group" aria-label="Confirm delete">
              <span>Delete this result?</span>
              <button
                ref={confirmRef}
                type="button"
                className="button button--danger"
                data-testid="result-delete-confirm"
                onClick={() => {
                  setConfirming(false);
                  void remove([doc.id]);
                }}
              >
                Delete
              </button>
              <button type="button" className="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="button button--danger"
              data-testid="result-delete"
              onClick={() => {
                setConfirming(true);
                queueMicrotask(() => confirmRef.current?.focus());
              }}
            >
              Delete
            </button>
          )}
        </div>
        <StatusLine status={status} testId="result-status" />
      </div>

      {flags.length > 0 && (
        <section className="result-view__section" aria-labelledby={flagsId} data-testid="result-flags">
          <h3 id={flagsId} className="result-view__h3">
            Trust
          </h3>
          <p className="result-meta__summary">{flagsSummary(flags)}</p>
          <FlagsList flags={flags} />
        </section>
      )}
      {notes.length > 0 && (
        <ul className="panel-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}

      <section className="result-view__section" aria-labelledby={figuresId}>
        <h3 id={figuresId} className="result-view__h3">
          Figures
        </h3>
        <ResultFigures doc={doc} />
        <MetricsTable doc={doc} />
      </section>

      {willItWork && (
        <WillItWorkTable
          input={willItWork}
          fps={fps}
          onFps={setFps}
          onCheckFormat={(formatId, at) => checkPaced({ formatId, fps: at, from: doc.id })}
        />
      )}

      {sharing && <ShareDialog id={doc.id} name={name} onClose={() => setSharing(false)} />}
    </>
  );
}

export function ResultView({ id }: { id: string }) {
  const state = useHistoryStore((s) => s.docs[id]);
  const back = useHistoryStore((s) => s.back);
  const fetchDoc = useHistoryStore((s) => s.fetchDoc);
  const titleId = useId();
  return (
    <section className="card result-view" aria-labelledby={titleId} data-testid="result-view">
      <header className="card__header">
        <BackToHistory onBack={back} />
        <h2 id={titleId} className="sr-only">
          Saved result
        </h2>
      </header>
      <div className="result-view__body">
        {!state || state.state === 'loading' ? (
          <p className="empty empty--table">Loading…</p>
        ) : state.state === 'error' ? (
          <div className="panel-error" role="alert">
            {state.message}{' '}
            <button type="button" className="button button--small" onClick={() => void fetchDoc(id)}>
              Try again
            </button>
          </div>
        ) : (
          <ResultBody key={state.doc.id} doc={state.doc} />
        )}
      </div>
    </section>
  );
}
