// "Will it work? / How fast?", split as Blackmagic does: for one format family and frame rate, a
// grid of ✓/✗ for writing and reading each format × resolution, a grid of the highest frame rate
// each speed sustains, and a grid of what each format needs with the margin kept. One fact per
// cell; ✗ in the error colour, '?' (not proven) in the warning colour, and in words for screen
// readers. Every verdict is model/kinds/video/will-it-work.ts's, judged from the result's one
// aggregate (the mean of its runs): the Quick Test's Done screen and History feed it the same.
import { memo, useDeferredValue, useId, useMemo, useState, type ReactNode } from 'react';
import {
  AVERAGE_METHOD,
  DEFAULT_VIDEO_FPS,
  judgeWork,
  MARGIN_PCT,
  PACED_METHOD,
  type WorkInput,
  type WorkRow,
  type WorkSide,
} from '@model/kinds/video/will-it-work';
import { byPaced, fastText, measuredLine, outcomeWord, sideTitle, workNotes } from '@model/kinds/video/will-it-work-words';
import { videoData } from '@model/kinds/video/data';
import { citesOf, formatFps, neededMbps, mbpsToMBps, withMarginMBps, type Resolution, type VideoFormat } from '@model/kinds/video/math';
import { formatMBpsFigure } from '@model/units';
import { CardHeader } from './card-header';

const { families, formats, resolutions, frameRates, sources } = videoData;
const SIDES = [
  { key: 'write', label: 'Write' },
  { key: 'read', label: 'Read' },
] as const;

function ResHeader({ r, span }: { r: Resolution; span?: number }) {
  return (
    <th scope={span ? 'colgroup' : 'col'} colSpan={span} className="vg-res">
      <span className="vg-res__label">{r.label}</span>
      <span className="vg-res__detail">{r.detail}</span>
    </th>
  );
}

const notOffered = (
  <>
    <span aria-hidden="true">—</span>
    <span className="sr-only">not offered</span>
  </>
);

const CELL_CLASS = { ok: 'vg-cell--ok', fail: 'vg-cell--no', unproven: 'vg-cell--unproven' } as const;
const CELL_MARK = { ok: '✓', fail: '✗', unproven: '?' } as const;

/** One Will-it-work cell: the mark, its words for a screen reader, and why in its title. */
function workCell(row: WorkRow, s: WorkSide): { content: ReactNode; className: string; title: string } {
  const paced = byPaced(s);
  return {
    className: `${CELL_CLASS[s.outcome]}${paced ? ' vg-cell--paced' : ''}`,
    title: sideTitle(row, s),
    content: (
      <>
        <span aria-hidden="true">{CELL_MARK[s.outcome]}</span>
        <span className="sr-only">
          {outcomeWord(s.outcome)}
          {s.reason ? ` (${s.reason})` : ''}
        </span>
      </>
    ),
  };
}

/** One grid: formats down, resolutions across (split into Write | Read when `perSide`). */
function Grid(props: {
  id: string;
  title: string;
  caption: string;
  rows: readonly VideoFormat[];
  perSide: boolean;
  cell: (f: VideoFormat, r: Resolution, side: 'write' | 'read' | null) => { content: ReactNode; className?: string; title?: string };
  /** Beside a row's name (the Will-it-work grid's "Check this format"). */
  rowAction?: (f: VideoFormat) => ReactNode;
}) {
  const { id, title, caption, rows, perSide, cell, rowAction } = props;
  return (
    <div className="video-grid" data-testid={`grid-${id}`}>
      <h3 id={`${id}-title`} className="video-grid__title">
        {title}
      </h3>
      <div className="table-scroll">
        <table className="data-table video-grid__table" aria-labelledby={`${id}-title`} aria-describedby={`${id}-caption`}>
          <caption id={`${id}-caption`} className="sr-only">
            {caption}
          </caption>
          <colgroup>
            <col />
          </colgroup>
          {resolutions.map((r) => (
            <colgroup key={r.id} span={perSide ? 2 : 1} />
          ))}
          <thead>
            <tr>
              <th scope="col" rowSpan={perSide ? 2 : 1} className="vg-format">
                Format
              </th>
              {resolutions.map((r) => (
                <ResHeader key={r.id} r={r} span={perSide ? 2 : undefined} />
              ))}
            </tr>
            {perSide && (
              <tr>
                {resolutions.map((r) =>
                  SIDES.map((s) => (
                    <th key={`${r.id}-${s.key}`} scope="col" className={`vg-side vg-side--${s.key}`}>
                      {s.label}
                    </th>
                  )),
                )}
              </tr>
            )}
          </thead>
          <tbody>
            {rows.map((f) => (
              <tr key={f.id}>
                <th scope="row" className="vg-format">
                  {f.name}
                  {rowAction?.(f)}
                </th>
                {resolutions.map((r) =>
                  (perSide ? SIDES.map((s) => s.key) : [null]).map((side) => {
                    const c = cell(f, r, side);
                    return (
                      <td
                        key={`${r.id}-${side}`}
                        className={`vg-cell${side === 'read' ? '' : ' vg-cell--group'}${side ? '' : ' vg-cell--wide'} ${c.className ?? ''}`}
                        title={c.title}
                        data-testid={`${id}-${f.id}-${r.id}${side ? `-${side}` : ''}`}
                      >
                        {c.content}
                      </td>
                    );
                  }),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** `input`: the result's aggregate, flags and paced evidence (workInput), null before a test.
 *  `fps` and `onFps`: the frame rate held by the parent (History's exports follow it); else kept
 *  here. `onCheckFormat`: a "Check this format" button per row, for a frame-paced test of it. */
/** Memoised: the Quick Test screen re-renders with its dials every frame while a test runs, and
 *  this table's grids change only with the result. */
export const WillItWorkTable = memo(function WillItWorkTable(props: {
  input: WorkInput | null;
  fps?: number;
  onFps?: (fps: number) => void;
  onCheckFormat?: (formatId: string, fps: number) => void;
}) {
  // A finished cycle changes the figures the grids judge: re-judging them at React's low priority
  // (a deferred value, rendered in slices) keeps the dials' frames on time while a test runs.
  const input = useDeferredValue(props.input);
  const [family, setFamily] = useState(families[0]?.id ?? 'prores');
  const [ownFps, setOwnFps] = useState(DEFAULT_VIDEO_FPS);
  const fps = props.fps ?? ownFps;
  const setFps = props.onFps ?? setOwnFps;
  const fpsId = useId();
  const uid = useId();
  const fam = families.find((f) => f.id === family);
  const rows = useMemo(() => formats.filter((f) => f.family === family), [family]);
  const familySources = useMemo(() => {
    const ids = new Set(rows.flatMap((r) => citesOf(r).map((c) => c.source)));
    return sources.filter((s) => ids.has(s.id));
  }, [rows]);
  // Every verdict once per render, from the model; the grids read from it.
  const judged = useMemo(() => (input ? judgeWork(input, { fps, families: [family] }) : null), [input, fps, family]);
  const verdicts = useMemo(() => new Map((judged?.rows ?? []).map((r) => [`${r.formatId}/${r.resolutionId}`, r] as const)), [judged]);
  const needs = useMemo(
    () => new Map(rows.flatMap((f) => resolutions.map((r) => [`${f.id}/${r.id}`, neededMbps(f, r, fps, resolutions)] as const))),
    [rows, fps],
  );
  const anyEstimate = [...needs.values()].some((n) => n?.estimated);
  const fpsText = `${formatFps(fps)} fps`;
  const pacedNote = (f: VideoFormat): ReactNode => {
    const dates = [
      ...new Set(
        resolutions.flatMap((r) => {
          const row = verdicts.get(`${f.id}/${r.id}`);
          return row ? [row.write, row.read].filter(byPaced).map((s) => `paced test, ${s.pacedBy!.date}`) : [];
        }),
      ),
    ];
    return dates.length > 0 ? (
      <span className="vg-paced-note" data-testid={`paced-note-${f.id}`}>
        {dates.map((n) => `(${n})`).join(' ')}
      </span>
    ) : null;
  };
  // On the first grid shown: Will it work? once there are speeds, else the needs.
  const onCheck = props.onCheckFormat;
  const checkButton = onCheck
    ? (f: VideoFormat) => (
        <button
          type="button"
          className="link-button vg-check"
          data-testid={`check-format-${f.id}`}
          aria-label={`Check this format: ${f.name} at ${fpsText}, with a frame-paced test`}
          title="Open the Detailed screen's frame-paced video test with this format and frame rate"
          onClick={() => onCheck(f.id, fps)}
        >
          Check this format
        </button>
      )
    : undefined;

  const onTabKey = (e: React.KeyboardEvent<HTMLButtonElement>, i: number) => {
    const n = families.length;
    const next =
      e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i + n - 1) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    setFamily(families[next]!.id);
    e.currentTarget.parentElement?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  };

  return (
    <section className="card video-card" aria-labelledby={`${uid}-title`} data-testid="video-table">
      <CardHeader
        titleId={`${uid}-title`}
        title={
          <>
            Will it work? <span className="card__title-sep">·</span> How fast?
          </>
        }
        subtitle={
          <>
            {AVERAGE_METHOD}
            {judged?.pacedMethod && <span data-testid="video-paced-method"> {PACED_METHOD}</span>}
            {judged && <span data-testid="video-measured"> {measuredLine(judged)}</span>}
            {judged?.caveat && (
              <span className="video-caveat" data-testid="video-caveat">
                {' '}
                ⚠ {judged.caveat}
              </span>
            )}
          </>
        }
      >
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
      </CardHeader>

      <div className="tabs" role="tablist" aria-label="Format family">
        {families.map((f, i) => (
          <button
            key={f.id}
            type="button"
            role="tab"
            id={`${uid}-tab-${f.id}`}
            aria-selected={family === f.id}
            aria-controls={`${uid}-panel`}
            tabIndex={family === f.id ? 0 : -1}
            className="tab"
            onClick={() => setFamily(f.id)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {f.label}
          </button>
        ))}
      </div>

      <div id={`${uid}-panel`} role="tabpanel" aria-labelledby={`${uid}-tab-${family}`} className="video-panel">
        {!judged ? (
          <p className="empty empty--table">Run a test to see what this drive can record and play.</p>
        ) : (
          <>
            <Grid
              id="work"
              title={`Will it work? At ${fpsText}`}
              caption={`Whether the drive can write (record) and read (play) each format at ${fpsText}, keeping a ${MARGIN_PCT} % margin.`}
              rows={rows}
              perSide
              rowAction={(f) => (
                <>
                  {pacedNote(f)}
                  {checkButton?.(f)}
                </>
              )}
              cell={(f, r, side) => {
                const row = verdicts.get(`${f.id}/${r.id}`);
                if (!row || !side) return { content: notOffered, className: 'vg-cell--na' };
                return workCell(row, row[side]);
              }}
            />
            <Grid
              id="fast"
              title="How fast? Frames per second"
              caption={`The highest frame rate the drive sustains writing and reading each format, keeping a ${MARGIN_PCT} % margin.`}
              rows={rows}
              perSide
              cell={(f, r, side) => {
                const row = verdicts.get(`${f.id}/${r.id}`);
                if (!row || !side) return { content: notOffered, className: 'vg-cell--na' };
                return { className: 'vg-num', content: fastText(row[side].maxFps) };
              }}
            />
          </>
        )}
        <Grid
          id="need"
          title={`Needs, with a ${MARGIN_PCT} % margin: MB/s sustained at ${fpsText}`}
          caption={`The sustained speed each format needs at ${fpsText}: its data rate plus a ${MARGIN_PCT} % margin.`}
          rows={rows}
          perSide={false}
          {...(!judged ? { rowAction: checkButton } : {})}
          cell={(f, r) => {
            const n = needs.get(`${f.id}/${r.id}`);
            if (!n) return { content: notOffered, className: 'vg-cell--na' };
            const rate = mbpsToMBps(n.mbps);
            return {
              className: 'vg-num',
              title: `Data rate ${formatMBpsFigure(rate)} MB/s${n.estimated ? ' (estimate)' : ''}; needs ${formatMBpsFigure(withMarginMBps(rate))} MB/s with a ${MARGIN_PCT} % margin`,
              content: (
                <>
                  {formatMBpsFigure(withMarginMBps(rate))}
                  {n.estimated && (
                    <>
                      <span aria-hidden="true">*</span>
                      <span className="sr-only"> (estimate)</span>
                    </>
                  )}
                </>
              ),
            };
          }}
        />
      </div>

      {judged && workNotes(judged).length > 1 && (
        <ul className="video-notes" data-testid="video-notes">
          {workNotes(judged)
            .slice(1)
            .filter((n) => n !== judged.pacedMethod && n !== judged.caveat)
            .map((n) => (
              <li key={n}>{n}</li>
            ))}
        </ul>
      )}
      <footer className="video-sources">
        {anyEstimate && fam?.note && <p data-testid="video-footnote">* Estimate. {fam.note}</p>}
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
});
