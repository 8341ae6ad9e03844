// The comparison report people post (model/report/format-report.ts): one row per variant (a
// format of a wizard plan, or saved results that share a name), a column per figure and stress
// size, every cell the mean ± spread across runs with its change against the chosen baseline —
// marked by its verdict (a real change, ≈ no difference, ? inconclusive) by the rule printed under
// the table;
// grouped bars per stress size with the interface's ceiling when known; the findings in plain
// words; and the exports (Markdown to the clipboard, CSV/JSON/HTML files, PDF — printed from the
// page in browser mode). The wizard's last step, and History's compare view for any results.
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { buildFormatReport, type FormatReport, type ReportCell, type ReportColumn } from '@model/report/format-report';
import { direction, rowHeader } from '@model/report/report-findings';
import { compareCellText, figure } from '@model/report/export';
import { formatFigure } from '@model/report/metrics';
import type { ResultDocument } from '@model/result';
import type { SectionBlock } from '@model/report/section';
import { DARK_LOOK, sizeChartSvg } from '@model/report/size-chart';
import { getBridge } from '../lib/bridge';
import { BarsChart, columnColour, DIRECTION_COLOURS } from './charts';
import { StatusLine, useStatusAction } from './export-bar';
import { CompareDelta } from './compare-delta';
import type { StatusNote } from '../lib/status';
import { ipcErrorText } from '@model/events';
import { sizeLabel } from '../lib/sizes';
import type { ExportFormat } from '@model/settings';
import { FilterSelect, CompareWarnings } from './filter-select';

type Docs = { state: 'loading' } | { state: 'ok'; docs: ResultDocument[]; failed: string[] } | { state: 'error'; message: string };

/** "1,234 ± 12" (the ± only with more than one run), rounded as every export rounds it. */
export function cellValue(cell: ReportCell, col: Pick<ReportColumn, 'unit'>): string {
  return figure(cell.values, col.unit);
}

/** The cell as the Markdown export writes it: "1,234 ± 12 (−9 %)", "1,234 ± 12 (≈)". */
export function cellExportText(cell: ReportCell | undefined, col: Pick<ReportColumn, 'unit'>): string {
  if (!cell || cell.spread.n === 0) return '—';
  return compareCellText(cell, col.unit).text;
}

/** What a kind adds with a column per row (the Quick Test's "Will it work?" grid), as the exports print it. */
function SectionView({ block }: { block: SectionBlock }) {
  return (
    <section className="report-section" data-testid="report-section" aria-label={block.heading}>
      <h3 className="result-view__h3">{block.heading}</h3>
      {/* The exports' drawing of each chart (report/size-chart.ts), as an image: no markup of ours
          reaches the page, and the picture is the one the HTML export prints. */}
      {(block.charts ?? []).map((c) => (
        <figure className="report-section__chart" key={c.title} data-testid="report-section-chart">
          <figcaption>{c.title}</figcaption>
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(sizeChartSvg(c, DARK_LOOK))}`}
            alt={c.title}
            width={760}
            height={300}
          />
        </figure>
      ))}
      {block.tables.map((t) => (
        <div className="report-table-box" key={t.title ?? t.head.join()}>
          <table className="data-table report-table">
            {t.title && <caption>{t.title}</caption>}
            <thead>
              <tr>
                {t.head.map((h, j) => (
                  <th key={h} scope="col" className={j > 0 ? 'num' : undefined}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {t.rows.map((row) => (
                <tr key={row[0]?.text}>
                  {row.map((c, j) =>
                    j === 0 ? (
                      <th key={j} scope="row">
                        {c.text}
                      </th>
                    ) : (
                      <td key={j} className="num">
                        {c.text}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {block.notes.map((n) => (
        <p className="compare-rule" key={n}>
          {n}
        </p>
      ))}
    </section>
  );
}

/** Every result made by one wizard plan: its rows are formats. */
function ReportTable({ report, first }: { report: FormatReport; first: string }) {
  return (
    <div className="table-scroll report-table-box" tabIndex={0} role="region" aria-label="Report table (scrolls sideways)">
      <table className="data-table compare-table report-table" data-testid="report-table">
        <caption className="sr-only">
          {report.title}: {report.variants.length > 1 ? 'each variant’s figures and their change against the baseline' : 'its figures'}
        </caption>
        <thead>
          <tr>
            <th scope="col" className="compare-table__corner" data-text={first}>
              {first}
            </th>
            {report.columns.map((col) => (
              <th key={col.key} scope="col" className="report-col" data-text={`${col.label} (${col.unit})`}>
                {col.label}
                <span className="compare-row__unit">{col.unit}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.variants.map((v, r) => (
            <tr key={v.key} className={r === report.baseline ? 'report-row--baseline' : undefined} data-variant={v.key}>
              <th scope="row" data-text={r === report.baseline && report.variants.length > 1 ? `${v.label} (baseline)` : v.label}>
                <span className="report-row__swatch" style={{ background: columnColour(r) }} aria-hidden="true" />
                {v.label}
                {r === report.baseline && report.variants.length > 1 && <span className="pill compare-col__tag">baseline</span>}
              </th>
              {report.columns.map((col, c) => {
                const cell = report.cells[r]?.[c];
                if (!cell || cell.spread.n === 0) {
                  return (
                    <td key={col.key} className="compare-cell compare-cell--empty" data-text="—">
                      n/a
                    </td>
                  );
                }
                return (
                  <td key={col.key} className={`compare-cell compare-cell--${cell.verdict}`} data-text={cellExportText(cell, col)}>
                    <span className="compare-cell__value">{cellValue(cell, col)}</span>
                    <CompareDelta cell={cell} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One chart per stress size (tests without one share a chart): a group of bars per variant,
 *  one bar per MB/s figure. */
export function reportCharts(report: FormatReport) {
  const groups = new Map<string, number[]>();
  report.columns.forEach((col, c) => {
    if (col.unit !== 'MB/s') return;
    const k = col.sizeBytes === undefined ? '' : String(col.sizeBytes);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  });
  return [...groups].map(([k, cols]) => {
    const data = report.variants.map((v, r) => {
      const d: Record<string, number | string | null> = { label: v.label };
      for (const c of cols) {
        const cell = report.cells[r]?.[c];
        d[`c${c}`] = cell && Number.isFinite(cell.spread.mean) ? cell.spread.mean : null;
      }
      return d;
    });
    // A figure's colour is its direction's on every chart ("Read" and "Read · top speed" alike).
    const series = cols.map((c, i) => {
      const col = report.columns[c]!;
      const dir = direction(col);
      return { key: `c${c}`, name: col.figure, colour: dir ? DIRECTION_COLOURS[dir] : columnColour(i + 2) };
    });
    return { key: k || 'all', title: k ? `Stress size ${sizeLabel(Number(k))}` : 'MB/s', data, series };
  });
}

/** Prints only this report (the print stylesheet hides everything else). */
function printReport(box: HTMLElement | null): void {
  if (!box) return;
  box.setAttribute('data-printing', '');
  document.body.classList.add('printing-report');
  const done = () => {
    box.removeAttribute('data-printing');
    document.body.classList.remove('printing-report');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  try {
    window.print();
  } finally {
    // print() blocks until the dialog closes in Chromium; browsers that return at once fire afterprint.
    setTimeout(done, 1000);
  }
}

function ReportBody({ docs, ids, failed }: { docs: ResultDocument[]; ids: string[]; failed: string[] }) {
  const [baseline, setBaseline] = useState<string | undefined>(undefined);
  const { status, busy, act: run } = useStatusAction();
  const boxRef = useRef<HTMLDivElement>(null);
  const built = useMemo((): { report: FormatReport } | { error: string } => {
    try {
      return { report: buildFormatReport(docs, baseline === undefined ? {} : { baseline }) };
    } catch (err) {
      return { error: `Could not build the report: ${err instanceof Error ? err.message : String(err)}` };
    }
  }, [docs, baseline]);
  const charts = useMemo(() => ('report' in built ? reportCharts(built.report) : []), [built]);

  if ('error' in built) {
    return (
      <p className="panel-error" role="alert" data-testid="report-error">
        {built.error}
      </p>
    );
  }
  const report = built.report;
  const baseKey = report.variants[report.baseline]?.key;

  const exportText = async (format: ExportFormat, copy: boolean): Promise<StatusNote | null> => {
    const bridge = getBridge();
    const file = await bridge.exportReport(ids, format, baseKey);
    if (!file.ok) return { text: ipcErrorText(file.error, 'Could not make the export.'), tone: 'error' };
    if (copy) {
      const r = await bridge.copyText(file.value.text);
      return r.ok
        ? { text: 'Copied Markdown', tone: 'ok' }
        : { text: ipcErrorText(r.error, 'Could not copy to the clipboard.'), tone: 'error' };
    }
    const r = await bridge.saveFile(file.value.filename, file.value.text, 'utf8', file.value.mime);
    if (!r.ok) return { text: ipcErrorText(r.error, 'Could not save the file.'), tone: 'error' };
    return r.value ? { text: `Saved ${r.value.path}`, tone: 'ok' } : null;
  };
  const savePdf = async (): Promise<StatusNote | null> => {
    const r = await getBridge().saveReportPdf(ids, baseKey);
    if (r.ok) return r.value ? { text: `Saved ${r.value.path}`, tone: 'ok' } : null;
    if (r.error.code === 'ERR_UNSUPPORTED') {
      printReport(boxRef.current);
      return { text: 'Printing the report: choose “Save as PDF” as the printer.', tone: 'ok' };
    }
    return { text: ipcErrorText(r.error, 'Could not save the PDF.'), tone: 'error' };
  };

  return (
    <div className="report-body" ref={boxRef}>
      <h3 className="report-title" data-testid="report-title">
        {report.title}
      </h3>
      {failed.map((m, i) => (
        <p key={i} className="panel-error" role="alert">
          {m}
        </p>
      ))}
      {report.variants.length > 1 && (
        <div className="compare-controls no-print">
          <FilterSelect label="Baseline" value={baseKey} onChange={(v) => setBaseline(v)} testId="report-baseline">
            {report.variants.map((v) => (
              <option key={v.key} value={v.key}>
                {v.label}
              </option>
            ))}
          </FilterSelect>
        </div>
      )}

      <CompareWarnings warnings={report.warnings} testId="report-warnings" />

      <ReportTable report={report} first={rowHeader(docs)} />
      <p className="compare-rule" data-testid="report-rule">
        {report.rule}
      </p>

      <div className="compare-findings" data-testid="report-findings">
        <h3 className="result-view__h3">Findings</h3>
        {report.findings.length > 0 ? (
          <ul>
            {report.findings.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        ) : (
          <p>No findings.</p>
        )}
      </div>

      {(report.sections ?? []).map((b) => (
        <SectionView key={b.heading} block={b} />
      ))}

      <div className="export-bar no-print">
        <div className="export-bar__buttons" role="group" aria-label="Export the report">
          <button
            type="button"
            className="button"
            data-testid="report-export-md"
            disabled={busy}
            onClick={() => void run(() => exportText('md', true))}
          >
            Copy Markdown
          </button>
          <button
            type="button"
            className="button"
            data-testid="report-export-csv"
            disabled={busy}
            onClick={() => void run(() => exportText('csv', false))}
          >
            Save CSV
          </button>
          <button
            type="button"
            className="button"
            data-testid="report-export-json"
            disabled={busy}
            onClick={() => void run(() => exportText('json', false))}
          >
            Save JSON
          </button>
          <button
            type="button"
            className="button"
            data-testid="report-export-html"
            disabled={busy}
            onClick={() => void run(() => exportText('html', false))}
          >
            Save HTML
          </button>
          <button type="button" className="button" data-testid="report-export-pdf" disabled={busy} onClick={() => void run(savePdf)}>
            Save PDF
          </button>
        </div>
        <StatusLine status={status} testId="report-status" />
      </div>

      {charts.map((ch) => (
        <figure key={ch.key} className="chart-figure" aria-label={`${ch.title}: MB/s of each variant`} data-testid="report-chart">
          <figcaption className="compare-figcaption">
            {ch.title}
            {report.ceilingMBps ? ` · interface ceiling ≈ ${formatFigure(report.ceilingMBps, 'MB/s')} MB/s` : ''}
          </figcaption>
          <BarsChart data={ch.data} series={ch.series} ceilings={report.ceilingMBps ? [report.ceilingMBps] : []} />
        </figure>
      ))}
    </div>
  );
}

export interface ReportViewProps {
  /** The saved results to report on. */
  ids: string[];
  /** A back button before the title ("← Compare"). */
  onBack?: () => void;
  backLabel?: string;
  /** Buttons after the title (New plan). */
  actions?: ReactNode;
}

export function ReportView({ ids, onBack, backLabel = '← Back', actions }: ReportViewProps) {
  const [docs, setDocs] = useState<Docs>({ state: 'loading' });
  const titleId = useId();
  const key = ids.join('\n');

  useEffect(() => {
    let live = true;
    setDocs({ state: 'loading' });
    const list = key ? key.split('\n') : [];
    void Promise.all(list.map((id) => getBridge().getResult(id))).then((rs) => {
      if (!live) return;
      const ok = rs.flatMap((r) => (r.ok ? [r.value] : []));
      const failed = rs.flatMap((r, i) => (r.ok ? [] : [ipcErrorText(r.error, `Could not read result ${list[i]}.`)]));
      setDocs(ok.length > 0 ? { state: 'ok', docs: ok, failed } : { state: 'error', message: failed[0] ?? 'No results to report on.' });
    });
    return () => {
      live = false;
    };
  }, [key]);

  return (
    <section className="card report-view" aria-labelledby={titleId} data-testid="report-view">
      <header className="card__header card__header--wrap">
        {onBack && (
          <button type="button" className="button no-print" onClick={onBack} data-testid="report-back">
            {backLabel}
          </button>
        )}
        <div className="compare-view__heading">
          <h2 id={titleId} className="card__title">
            Report
          </h2>
          <p className="card__subtitle">
            {ids.length} saved result{ids.length === 1 ? '' : 's'} · mean ± standard deviation across runs, MB/s (1 MB = 10⁶ bytes)
          </p>
        </div>
        {actions && <div className="report-view__actions no-print">{actions}</div>}
      </header>
      <div className="result-view__body">
        {docs.state === 'loading' ? (
          <p className="empty empty--table">Loading…</p>
        ) : docs.state === 'error' ? (
          <p className="panel-error" role="alert">
            {docs.message}
          </p>
        ) : (
          <ReportBody key={key} docs={docs.docs} ids={docs.docs.map((d) => d.id)} failed={docs.failed} />
        )}
      </div>
    </section>
  );
}
