// One pass's figures per run, under its scatter: the aggregate rate (all bytes over all seconds),
// the mean, median and 20 % trimmed mean of the per-file rates, and the two fits of time against
// size — Theil–Sen (robust) and least squares — each as a rate and a fixed cost per file.
import type { FilesPassStats, FilesRun } from '@model/result';
import { OVERHEAD_BELOW_ZERO, shownOverhead } from '@model/trust';
import type { Pass } from '../lib/files-model';
import { formatMs, formatR2, formatRate } from '../lib/figure-format';

/** A fit's overhead clamped at 0 (model/trust.ts), starred when the fit fell below zero: the note
 *  under the table says why. */
function overheadText(fit: FilesPassStats['theilSen']): string {
  if (!fit) return '—';
  const o = shownOverhead(fit.overheadMs);
  return `${formatMs(o.ms)}${o.belowZero ? ' *' : ''}`;
}

const belowZero = (p: FilesPassStats): boolean =>
  [p.theilSen, p.leastSquares].some((f) => f !== undefined && shownOverhead(f.overheadMs).belowZero);

const ROWS: ReadonlyArray<{ label: string; value(p: FilesPassStats): string }> = [
  { label: 'Aggregate', value: (p) => formatRate(p.mbps) },
  { label: 'Mean per file', value: (p) => formatRate(p.meanMBps) },
  { label: 'Median per file', value: (p) => formatRate(p.medianMBps) },
  { label: '20 % trimmed mean', value: (p) => formatRate(p.trimmedMeanMBps) },
  { label: 'Theil–Sen rate', value: (p) => formatRate(p.theilSen?.rateMBps) },
  { label: 'Theil–Sen overhead per file', value: (p) => overheadText(p.theilSen) },
  { label: 'Least-squares rate', value: (p) => formatRate(p.leastSquares?.rateMBps) },
  { label: 'Least-squares overhead per file', value: (p) => overheadText(p.leastSquares) },
  { label: 'Least-squares R²', value: (p) => (p.leastSquares?.r2 !== undefined ? formatR2(p.leastSquares.r2) : '—') },
];

export function FilesStats({ pass, runs }: { pass: Pass; runs: readonly FilesRun[] }) {
  const name = pass === 'write' ? 'Write' : 'Read';
  const note = runs.some((r) => belowZero(r[pass]));
  return (
    <div className="table-scroll">
      <table className="data-table stats-table" data-testid={`files-stats-${pass}`}>
        <caption className="sr-only">{name} pass figures</caption>
        <thead>
          <tr>
            <th scope="col">{name}</th>
            {runs.map((r) => (
              <th key={r.run} scope="col">
                {runs.length > 1 ? `Run ${r.run}` : 'Value'}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {runs.map((r) => (
                <td key={r.run}>{row.value(r[pass])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {note && (
        <p className="stats-note" role="note" data-testid={`files-overhead-note-${pass}`}>
          * 0 ms: {OVERHEAD_BELOW_ZERO}.
        </p>
      )}
    </div>
  );
}
