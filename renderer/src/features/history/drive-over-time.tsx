// "This drive over time": every saved result of the drive the filter picked, as lines of its
// headline figures by date (one line per test and figure), served whole from the index so a drive
// tested a thousand times draws in one request. Lines are thinned to the chart's point cap.
import { useEffect, useMemo } from 'react';
import type { HistoryEntry } from '@model/history';
import { kindName } from '@model/report/metrics';
import { columnColour, LinesChart, thinPoints, type XYLine } from '../../components/charts';
import { formatDate, plural } from '../../lib/history-format';
import { useHistoryStore } from './store';

const DAY_MS = 86_400_000;
/** Lines drawn at most: the figures with the most results. */
const MAX_LINES = 6;

/** One line per test kind and headline figure, x in days since the drive's first result. */
export function driveLines(entries: readonly HistoryEntry[]): XYLine[] {
  const t0 = entries.length ? Date.parse(entries[0]!.startedAt) : 0;
  const byName = new Map<string, Array<{ x: number; y: number }>>();
  for (const e of entries) {
    for (const h of e.headline) {
      const name = `${kindName(e.kind)} · ${h.label}`;
      if (!byName.has(name)) byName.set(name, []);
      byName.get(name)!.push({ x: (Date.parse(e.startedAt) - t0) / DAY_MS, y: h.value });
    }
  }
  return [...byName]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, MAX_LINES)
    .map(([name, points], i) => ({ key: `l${i}`, name, colour: columnColour(i), points: thinPoints(points) }));
}

export function DriveOverTime({ driveKey }: { driveKey: string }) {
  const series = useHistoryStore((s) => s.driveSeries);
  const listing = useHistoryStore((s) => s.listing);
  const load = useHistoryStore((s) => s.loadDriveSeries);
  useEffect(() => {
    void load(driveKey);
  }, [driveKey, listing, load]);
  const entries = series?.key === driveKey ? series.entries : null;
  const lines = useMemo(() => (entries ? driveLines(entries) : []), [entries]);
  if (!entries) return null;
  const t0 = entries.length ? Date.parse(entries[0]!.startedAt) : 0;
  return (
    <section className="history-drive-time" aria-label="This drive over time" data-testid="drive-over-time">
      <h3 className="history-drive-time__title">This drive over time</h3>
      <p className="history-drive-time__span">
        {plural(entries.length, 'result')}
        {entries.length > 0 && (
          <>
            , {formatDate(entries[0]!.startedAt)} to {formatDate(entries.at(-1)!.startedAt)}
          </>
        )}
      </p>
      {lines.length > 0 && (
        <LinesChart
          lines={lines}
          xName="days since the first result"
          xLabel={(x) => formatDate(new Date(t0 + x * DAY_MS).toISOString())}
          height={200}
        />
      )}
    </section>
  );
}
