// The CrystalDiskMark grid: one row per test of the profile ("SEQ1M Q8T1"), a column per
// direction the mode runs. Each cell shows the best run big in the chosen unit, the median
// across runs small, the best run's 95 % interval, and its IOPS and latency (mean, p50, p99, p99.9). A step not yet
// run shows "—"; the cell being measured is highlighted with a thin progress bar.
import type { CdmCell, CdmCol, CdmGridView } from '../lib/cdm-model';
import { cellFigure, cellKey, COL_LABEL, rowKey } from '../lib/cdm-model';
import { formatCdmFigure, unitLabel, type CdmUnit } from '../lib/figure-format';
import { formatLatencyUs } from '@model/units';
import { formatMBpsFigure } from '@model/units';
import { settleText } from '@model/report/figure-text';

function CellFigures({ cell, unit }: { cell: CdmCell; unit: CdmUnit }) {
  const fig = cellFigure(cell, unit);
  const lat = cell.bestRun.latencyUs;
  // The best run's 95 % interval (and, under the stop rule, how it ended) beside its figure.
  const precision = unit === 'us' ? '' : settleText(cell.bestRun);
  return (
    <>
      <div className="cdm-cell__big">{formatCdmFigure(fig.best, unit)}</div>
      {precision && <div className="cdm-cell__precision">{precision}</div>}
      {fig.median !== null && <div className="cdm-cell__median">median {formatCdmFigure(fig.median, unit)}</div>}
      <dl className="cdm-cell__figures">
        {unit === 'IOPS' ? (
          <div>
            <dt>MB/s</dt>
            <dd>{formatMBpsFigure(cell.bestRun.mbps)}</dd>
          </div>
        ) : (
          <div>
            <dt>IOPS</dt>
            <dd>{formatCdmFigure(cell.bestRun.iops, 'IOPS')}</dd>
          </div>
        )}
        <div>
          <dt>mean</dt>
          <dd>{formatLatencyUs(lat.mean)}</dd>
        </div>
        <div>
          <dt>p50</dt>
          <dd>{formatLatencyUs(lat.p50)}</dd>
        </div>
        <div>
          <dt>p99</dt>
          <dd>{formatLatencyUs(lat.p99)}</dd>
        </div>
        <div>
          <dt>p99.9</dt>
          <dd>{formatLatencyUs(lat.p999)}</dd>
        </div>
      </dl>
    </>
  );
}

/** An empty cell keeps a filled cell's lines, unseen and without text (their height comes from
 *  the stylesheet): a row does not grow, and move the page below it, when its first figure lands. */
function CellGhost({ unit }: { unit: CdmUnit }) {
  return (
    <div className="cdm-cell__ghost" aria-hidden="true">
      {unit !== 'us' && <div className="cdm-cell__precision" />}
      <div className="cdm-cell__figures">
        {[0, 1, 2, 3, 4].map((k) => (
          <div key={k} />
        ))}
      </div>
    </div>
  );
}

function Cell({ row, col, view, unit }: { row: string; col: CdmCol; view: CdmGridView; unit: CdmUnit }) {
  const cell = view.cells.get(cellKey(row, col));
  const active = view.active && view.active.row === row && view.active.col === col ? view.active : null;
  return (
    <td
      className={`cdm-cell cdm-cell--${col}${active ? ' cdm-cell--active' : ''}`}
      data-testid={`cdm-cell-${rowKey(row)}-${col}`}
      aria-busy={active ? true : undefined}
    >
      {cell ? (
        <CellFigures cell={cell} unit={unit} />
      ) : (
        <>
          <div className="cdm-cell__big cdm-cell__big--empty">—</div>
          <CellGhost unit={unit} />
        </>
      )}
      {active && (
        <>
          <span className="sr-only">measuring now</span>
          <div className="cdm-cell__bar" aria-hidden="true" style={{ transform: `scaleX(${Math.round(active.fraction * 100) / 100})` }} />
        </>
      )}
    </td>
  );
}

export function CdmGrid({ view, unit }: { view: CdmGridView; unit: CdmUnit }) {
  const u = unitLabel(unit);
  return (
    <div className="cdm-grid-box">
      <table className="cdm-grid" data-testid="cdm-grid">
        <caption className="sr-only">CrystalDiskMark results in {u}: best run, median across runs, IOPS and latency</caption>
        <thead>
          <tr>
            <th scope="col" className="cdm-grid__corner">
              <span className="sr-only">Test</span>
            </th>
            {view.cols.map((c) => (
              <th key={c} scope="col" className={`cdm-grid__col cdm-grid__col--${c}`}>
                {COL_LABEL[c]} <span className="cdm-grid__unit">({u})</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {view.rows.map((row) => {
            const [kind, depth] = row.split(' ');
            return (
              <tr key={row}>
                <th scope="row" className="cdm-grid__row">
                  <span className="cdm-grid__row-kind">{kind}</span> <span className="cdm-grid__row-depth">{depth}</span>
                </th>
                {view.cols.map((c) => (
                  <Cell key={c} row={row} col={c} view={view} unit={unit} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
