// Results side by side (model/report/compare.ts): a column per result — its name, drive, method
// and date — and a row per figure, each cell the mean ± spread across runs and its change
// against the chosen baseline, marked better, worse, ≈ (no difference) or ? (inconclusive) by the
// rule printed under the table; the warnings a reader must know and the findings in plain words;
// grouped bars of the headline MB/s figures, and the curves the results share (a quick test's
// throughput over time, the sustained-write curve) overlaid. Exports the comparison as text.
// Report opens the same results in the format-and-compare report (features/wizard/report-view),
// the table people post, without formatting anything.
import { useId, useMemo, useState } from 'react';
import { columnLabels, compareResults, naReason, type CompareCell, type CompareRow, type Comparison } from '@model/report/compare';
import { DIRECTION_WORDS } from '@model/verdict/compare-words';
import { kindOf } from '@model/kinds/registry';
import type { ResultDocument } from '@model/result';
import { downsampleCurve } from '../../lib/curve';
import { formatGB } from '../../lib/figure-format';
import { BarsChart, columnColour, LinesChart, type XYLine } from '../../components/charts';
import { ExportBar } from '../../components/export-bar';
import { cellText, formatDate } from '../../lib/history-format';
import { CompareDelta } from '../../components/compare-delta';
import { MIN_CURVE_POINTS } from './result-figures';
import { useHistoryStore, type DocState } from './store';
import { ReportView } from '../../components/report-view';
import { FilterSelect, CompareWarnings } from '../../components/filter-select';
import { BackToHistory } from './back-button';
import { hasWillItWork, WillItWorkCompare } from './video-compare';
import { DEFAULT_VIDEO_FPS } from '@model/kinds/video/will-it-work';

/** A ceiling is drawn only when it is near the bars: far above them it would flatten them. */
const CEILING_SPAN = 3;

/** A figure and its change; an "n/a" says why beside it (not only in a finding far below). */
function Cell({ row, cell, why }: { row: CompareRow; cell: CompareCell | undefined; why: string | undefined }) {
  const reason = why && (
    <span className="compare-cell__why" data-testid="compare-na-reason">
      {why}
    </span>
  );
  if (!cell || cell.spread.n === 0)
    return (
      <td className="compare-cell compare-cell--empty">
        n/a
        {reason}
      </td>
    );
  return (
    <td className={`compare-cell compare-cell--${cell.verdict}`}>
      <span className="compare-cell__value">{cellText(cell, row.unit)}</span>
      <CompareDelta cell={cell} showBaseline />
      {reason}
    </td>
  );
}

function CompareTable({ c, labels, all }: { c: Comparison; labels: string[]; all: boolean }) {
  const rows = all ? c.rows : c.rows.filter((r) => r.primary);
  return (
    <div className="table-scroll compare-table-box">
      <table className="data-table compare-table" data-testid="compare-table">
        <caption className="sr-only">Figures of each result and their change against the baseline</caption>
        <thead>
          <tr>
            <th scope="col" className="compare-table__corner">
              Figure
            </th>
            {c.columns.map((col, i) => (
              <th key={col.id} scope="col" className={`compare-col${i === c.baseline ? ' compare-col--baseline' : ''}`}>
                <span className="compare-col__swatch" style={{ background: columnColour(i) }} aria-hidden="true" />
                <span className="compare-col__name">{labels[i]}</span>
                {i === c.baseline && <span className="pill compare-col__tag">baseline</span>}
                <span className="compare-col__line">{col.title}</span>
                <span className="compare-col__line">{col.drive}</span>
                <span className="compare-col__line">{col.method}</span>
                <span className="compare-col__line">{formatDate(col.startedAt)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className={row.primary ? 'compare-row--primary' : 'compare-row--detail'}>
              <th scope="row">
                {row.label}
                <span className="compare-row__unit">
                  {row.unit} · {DIRECTION_WORDS[row.direction]}
                </span>
              </th>
              {row.cells.map((cell, i) => (
                <Cell key={c.columns[i]!.id} row={row} cell={cell} why={naReason(c, row, i)} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The headline MB/s figures as grouped bars, one series per result. */
function barsOf(c: Comparison, labels: string[]) {
  const rows = c.rows.filter((r) => r.primary && r.unit === 'MB/s');
  const data = rows.map((r) => {
    const d: Record<string, number | string | null> = { label: r.label };
    r.cells.forEach((cell, i) => {
      d[`c${i}`] = cell && Number.isFinite(cell.spread.mean) ? cell.spread.mean : null;
      // ± one standard deviation across runs, as the table's "mean ± SD" (none for one run).
      d[`e${i}`] = cell && cell.spread.n > 1 && Number.isFinite(cell.spread.stdev) ? cell.spread.stdev : null;
    });
    return d;
  });
  const series = c.columns.map((col, i) => ({ key: `c${i}`, errorKey: `e${i}`, name: labels[i]!, colour: columnColour(i) }));
  const top = Math.max(
    0,
    ...rows.flatMap((r) => r.cells.map((cell) => (cell && Number.isFinite(cell.spread.mean) ? cell.spread.mean : 0))),
  );
  const ceilings = [
    ...new Set(c.columns.map((col) => col.ceilingMBps).filter((x): x is number => !!x && x > 0 && top > 0 && x <= top * CEILING_SPAN)),
  ];
  return { data, series, ceilings };
}

function overlayLines(docs: ResultDocument[], labels: string[]): { quick: XYLine[]; written: XYLine[] } {
  const quick: XYLine[] = [];
  const written: XYLine[] = [];
  docs.forEach((doc, i) => {
    const colour = columnColour(i);
    if (doc.kind === 'quick') {
      for (const rw of ['write', 'read'] as const) {
        // The first run of each direction: several runs of several results would be a tangle.
        const t = doc.tests.filter((x) => x.rw === rw).sort((a, b) => (a.run ?? 1) - (b.run ?? 1))[0];
        const points = (t?.series ?? []).filter((p) => Number.isFinite(p.t) && Number.isFinite(p.mbps)).map((p) => ({ x: p.t, y: p.mbps }));
        // Every result's write and read, however short: a test of a few samples (a 256 MB test
        // on a fast drive) is drawn with its points marked rather than left out.
        if (points.length > 0)
          quick.push({
            key: `${doc.id}-${rw}`,
            name: `${labels[i]} · ${rw === 'write' ? 'Write' : 'Read'}`,
            colour,
            dashed: rw === 'read',
            ...(points.length < MIN_CURVE_POINTS ? { dots: true } : {}),
            points,
          });
      }
    }
    const run = kindOf(doc.kind)?.curveRuns?.(doc)?.[0];
    if (run && run.curve.length > 0) {
      written.push({
        key: doc.id,
        name: labels[i]!,
        colour,
        points: downsampleCurve(run.curve).map((p) => ({ x: p.bytes / 1e9, y: p.mbps })),
      });
    }
  });
  return { quick, written };
}

function CompareBody({ docs }: { docs: ResultDocument[] }) {
  const [baseline, setBaseline] = useState(docs[0]!.id);
  const [all, setAll] = useState(false);
  const c = useMemo(() => compareResults(docs, { baseline }), [docs, baseline]);
  const labels = useMemo(() => columnLabels(c), [c]);
  const bars = useMemo(() => barsOf(c, labels), [c, labels]);
  const overlays = useMemo(() => overlayLines(docs, labels), [docs, labels]);
  const ids = docs.map((d) => d.id);
  const hasDetail = c.rows.some((r) => !r.primary);
  const [fps, setFps] = useState(DEFAULT_VIDEO_FPS);
  const willItWork = useMemo(() => hasWillItWork(docs), [docs]);

  return (
    <>
      <div className="compare-controls">
        <FilterSelect label="Baseline" value={baseline} onChange={(v) => setBaseline(v)} testId="compare-baseline">
          {c.columns.map((col, i) => (
            <option key={col.id} value={col.id}>
              {labels[i]}
            </option>
          ))}
        </FilterSelect>
        {hasDetail && (
          <label className="toggle">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} data-testid="compare-all" /> Show all figures
          </label>
        )}
      </div>

      <CompareWarnings warnings={c.warnings} testId="compare-warnings" />

      <CompareTable c={c} labels={labels} all={all} />
      <p className="compare-rule" data-testid="compare-rule">
        {c.rule}
      </p>

      {c.findings.length > 0 && (
        <div className="compare-findings" data-testid="compare-findings">
          <h3 className="result-view__h3">Findings</h3>
          {c.findings.map((f) => (
            <p key={f}>{f}</p>
          ))}
        </div>
      )}

      <WillItWorkCompare docs={docs} labels={labels} fps={fps} onFps={setFps} />

      <ExportBar ids={ids} baseline={baseline} willItWorkFps={willItWork ? fps : undefined} />

      {bars.data.length > 0 && (
        <figure className="chart-figure" aria-label="Headline speeds of each result, MB/s" data-testid="compare-bars">
          <BarsChart data={bars.data} series={bars.series} ceilings={bars.ceilings} />
        </figure>
      )}
      <CurveFigure
        label="Write and read speed over time, first run of each result"
        testId="compare-quick-chart"
        caption="Throughput over time (first run; reads dashed)"
        lines={overlays.quick}
        xName="time (s)"
        xLabel={(x) => `${x.toFixed(1)} s`}
      />
      <CurveFigure
        label="Sustained write speed against the amount written"
        testId="compare-sustained-chart"
        caption="Sustained write (first run)"
        lines={overlays.written}
        xName="written (GB)"
        xLabel={(gb) => `${formatGB(gb * 1e9)} GB written`}
      />
    </>
  );
}

/** One overlaid curve chart with its caption; nothing when no result has the curve. */
function CurveFigure(p: { label: string; testId: string; caption: string; lines: XYLine[]; xName: string; xLabel: (x: number) => string }) {
  if (p.lines.length === 0) return null;
  return (
    <figure className="chart-figure" aria-label={p.label} data-testid={p.testId}>
      <figcaption className="compare-figcaption">{p.caption}</figcaption>
      <LinesChart lines={p.lines} xName={p.xName} xLabel={p.xLabel} />
    </figure>
  );
}

export function CompareView({ ids }: { ids: string[] }) {
  const states = useHistoryStore((s) => s.docs);
  const back = useHistoryStore((s) => s.back);
  const titleId = useId();
  const list: Array<DocState | undefined> = ids.map((id) => states[id]);
  const failed = list.filter((s): s is Extract<DocState, { state: 'error' }> => s?.state === 'error');
  const docs = useMemo(
    () => ids.flatMap((id) => (states[id]?.state === 'ok' ? [(states[id] as Extract<DocState, { state: 'ok' }>).doc] : [])),
    [ids, states],
  );
  const loading = list.some((s) => !s || s.state === 'loading');
  const [report, setReport] = useState(false);

  if (report) return <ReportView ids={ids} onBack={() => setReport(false)} backLabel="← Compare" />;

  return (
    <section className="card compare-view" aria-labelledby={titleId} data-testid="compare-view">
      <header className="card__header card__header--wrap">
        <BackToHistory onBack={back} />
        <div className="compare-view__heading">
          <h2 id={titleId} className="card__title">
            Compare {ids.length} results
          </h2>
        </div>
        <button
          type="button"
          className="button"
          onClick={() => setReport(true)}
          data-testid="compare-report"
          title="The comparison as a report: a row per result, a column per figure and size"
        >
          Report
        </button>
      </header>
      <div className="result-view__body">
        {failed.map((f, i) => (
          <p key={i} className="panel-error" role="alert">
            {f.message}
          </p>
        ))}
        {loading ? <p className="empty empty--table">Loading…</p> : docs.length > 0 && <CompareBody docs={docs} />}
      </div>
    </section>
  );
}
