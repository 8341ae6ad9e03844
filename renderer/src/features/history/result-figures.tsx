// A saved result's figures, drawn the way its own screen draws them: the CrystalDiskMark grid,
// the sustained-write curve, the many-file scatters and tables, the hash test's bars and digest,
// the quick test's throughput over time — from the document alone (the screens' components
// where they take plain props, small adapters where they read a store). Under every kind, the
// same figures as a table of mean, spread and each run (model/report/metrics.ts).
import { useMemo, useState } from 'react';
import type { CurveRun } from '@model/knee';
import { kindOf } from '@model/kinds/registry';
import type { ResultDocument } from '@model/result';
import { formatFigure, metricSpread, resultMetrics, type Metric } from '@model/report/metrics';
import { CdmGrid } from '../../components/cdm-grid';
import { cdmGridView } from '../../lib/cdm-model';
import { resultLines, verdictMarks } from '../../lib/curve';
import { modelLine, resultPoints, sizeDomain, type Pass } from '../../lib/files-model';
import { FilesScatter } from '../../components/files-scatter';
import { FilesStats } from '../../components/files-stats';
import { formatRate } from '../../lib/figure-format';
import { WriteCurveChart } from '../../components/write-curve-chart';
import { barsFromSection, boundLabel, waitLine } from '../../lib/hash-model';
import { algoLabel } from '../../lib/hash-model';
import { LinesChart, seriesPoints, type XYLine } from '../../components/charts';

const WRITE = '#ff6a3d';
const READ = '#2fd4a3';
const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** The quick test's write and read speeds over time, one line per run and direction. */
export function quickLines(doc: ResultDocument, colours?: { write: string; read: string }, prefix = ''): XYLine[] {
  const runs = new Set(doc.tests.map((t) => t.run ?? 1)).size;
  return (
    doc.tests
      .filter((t) => t.rw === 'write' || t.rw === 'read')
      .map((t, i) => {
        const dir = t.rw === 'write' ? 'Write' : 'Read';
        return {
          key: `${prefix}${i}`,
          name: `${prefix}${dir}${runs > 1 ? ` · run ${t.run}` : ''}`,
          colour: t.rw === 'write' ? (colours?.write ?? WRITE) : (colours?.read ?? READ),
          dashed: t.rw === 'read' && !!colours,
          points: seriesPoints(t.series),
        };
      })
      // A line needs a few 100 ms samples; a test shorter than that is a point, not a curve.
      .filter((l) => l.points.length >= MIN_CURVE_POINTS)
  );
}

/** Fewer samples than this and a test is too short to draw over time. */
export const MIN_CURVE_POINTS = 3;

function QuickFigures({ doc }: { doc: ResultDocument }) {
  const lines = useMemo(() => quickLines(doc), [doc]);
  if (lines.length === 0) return null;
  return (
    <figure className="chart-figure" aria-label="Write and read speed over time" data-testid="result-quick-chart">
      <LinesChart
        lines={lines}
        xName="time (s)"
        xLabel={(x) => `${x.toFixed(1)} s`}
        ceilingMBps={doc.target.device.linkInfo?.ceilingMBps}
      />
    </figure>
  );
}

function CdmFigures({ doc }: { doc: ResultDocument }) {
  const view = useMemo(
    () => cdmGridView({ tests: doc.tests, summary: doc.summary, stepNames: [], preset: doc.settings.preset, mode: doc.settings.mode }),
    [doc],
  );
  return <CdmGrid view={view} unit="MBps" />;
}

function CurveFigures({ doc, runs }: { doc: ResultDocument; runs: readonly CurveRun[] }) {
  const lines = useMemo(() => resultLines(runs), [runs]);
  const marks = useMemo(() => verdictMarks(runs), [runs]);
  if (runs.length === 0) return null;
  return (
    <>
      <div className="sustained-verdict">
        {runs.map((r) => (
          <p key={r.run}>{runs.length > 1 ? `Run ${r.run}: ${r.summary}` : r.summary}</p>
        ))}
      </div>
      <figure className="chart-figure" aria-label="Write speed against the amount written">
        <WriteCurveChart lines={lines} marks={marks} ceilingMBps={doc.target.device.linkInfo?.ceilingMBps} />
      </figure>
    </>
  );
}

function FilesFigures({ doc }: { doc: ResultDocument }) {
  const files = doc.files!;
  const view = useMemo(() => {
    const sizes = files.runs[0]?.items.map((i) => i.bytes / 1e6) ?? [];
    const domain = sizeDomain(sizes);
    const pass = (p: Pass) => ({
      points: resultPoints(files, p),
      fits: domain ? files.runs.flatMap((r) => (r[p].theilSen ? [{ run: r.run, points: modelLine(r[p].theilSen!, domain) }] : [])) : [],
    });
    return { domain, write: pass('write'), read: pass('read') };
  }, [files]);
  return (
    <div className="files-passes">
      {(['write', 'read'] as const).map((p) => (
        <div key={p} className="files-pass">
          <h3 className={`files-pass__title files-pass__title--${p}`}>{p === 'write' ? 'Write' : 'Read'}</h3>
          {view.domain && view[p].points.length > 0 && (
            <figure className="chart-figure" aria-label={`${p === 'write' ? 'Write' : 'Read'} speed of each file against its size`}>
              <FilesScatter pass={p} points={view[p].points} fits={view[p].fits} domain={view.domain} />
            </figure>
          )}
          <FilesStats pass={p} runs={files.runs} />
        </div>
      ))}
    </div>
  );
}

function HashFiguresOf({ doc }: { doc: ResultDocument }) {
  const h = doc.hash!;
  const bars = useMemo(() => barsFromSection(h), [h]);
  const waits = waitLine(h.readHash);
  return (
    <div className="hash-figures__body result-hash">
      <div className="hash-verdict-row">
        <span className={`badge hash-bound hash-bound--${h.verdict.bound}`}>{boundLabel(h.verdict.bound)}</span>
        <p className="hash-verdict">{h.verdict.text}</p>
      </div>
      <ol className="hash-bars" aria-label="Rates in MB/s, on one scale">
        {bars.map((b) => (
          <li key={b.stage} className={`hash-bar hash-bar--${b.stage} hash-bar--${b.state}`}>
            <span className="hash-bar__label">{b.label}</span>
            <span className="hash-bar__track" aria-hidden="true">
              <span className="hash-bar__fill" style={{ width: pct(b.width) }} />
            </span>
            <span className="hash-bar__value">{b.mbps === null ? '—' : formatRate(b.mbps)}</span>
          </li>
        ))}
      </ol>
      {waits && <p className="result-view__note">{waits}</p>}
      <dl className="hash-facts">
        <div>
          <dt>{algoLabel(h.algo)}</dt>
          <dd>
            <code className="result-view__digest">{h.digest}</code>
          </dd>
        </div>
        <div>
          <dt>File</dt>
          <dd className="hash-facts__path">{h.file.path}</dd>
        </div>
        <div>
          <dt>Hashed with</dt>
          <dd>{h.provider}</dd>
        </div>
        {h.verify && (
          <div>
            <dt>Verified</dt>
            <dd className={h.verify.match ? 'result-view__ok' : 'result-view__bad'}>
              <span aria-hidden="true">{h.verify.match ? '✓ ' : '✗ '}</span>
              {h.verify.text}
            </dd>
          </div>
        )}
      </dl>
    </div>
  );
}

/** One figure's mean across runs, "± stdev" when there are several. */
function metricText(m: Metric): string {
  const s = metricSpread(m);
  const pm = s.n > 1 && Number.isFinite(s.stdev) ? ` ± ${formatFigure(s.stdev, m.unit)}` : '';
  return `${formatFigure(s.mean, m.unit)}${pm} ${m.unit}`;
}

/** Every figure of the result: primary rows, and the rest on demand. */
export function MetricsTable({ doc }: { doc: ResultDocument }) {
  const metrics = useMemo(() => resultMetrics(doc), [doc]);
  const [all, setAll] = useState(false);
  const runs = Math.max(1, ...metrics.map((m) => m.values.length));
  const rows = all ? metrics : metrics.filter((m) => m.primary);
  const hasDetail = metrics.some((m) => !m.primary);
  if (metrics.length === 0) return null;
  return (
    <div className="metrics">
      <div className="table-scroll">
        <table className="data-table stats-table" data-testid="result-metrics">
          <caption className="sr-only">
            Figures of this result{runs > 1 ? ', mean ± standard deviation across runs, and each run' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">{runs > 1 ? 'Mean ± spread' : 'Value'}</th>
              {runs > 1 &&
                Array.from({ length: runs }, (_, i) => (
                  <th key={i} scope="col">
                    Run {i + 1}
                  </th>
                ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.key}>
                <th scope="row">{m.label}</th>
                <td>{metricText(m)}</td>
                {runs > 1 &&
                  Array.from({ length: runs }, (_, i) => (
                    <td key={i}>{m.values[i] === undefined ? '—' : formatFigure(m.values[i]!, m.unit)}</td>
                  ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {hasDetail && (
        <label className="toggle">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Show all figures
        </label>
      )}
    </div>
  );
}

/** The kind's own figures (nothing extra for a kind without a view of its own). */
export function ResultFigures({ doc }: { doc: ResultDocument }) {
  if (doc.kind === 'cdm') return <CdmFigures doc={doc} />;
  const curves = kindOf(doc.kind)?.curveRuns?.(doc);
  if (curves) return <CurveFigures doc={doc} runs={curves} />;
  if (doc.kind === 'files' && doc.files) return <FilesFigures doc={doc} />;
  if (doc.kind === 'hash' && doc.hash) return <HashFiguresOf doc={doc} />;
  if (doc.kind === 'quick') return <QuickFigures doc={doc} />;
  return null;
}
