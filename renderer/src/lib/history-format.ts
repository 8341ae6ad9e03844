// How History words its figures: dates as the share card writes them (UTC), a row's headline figures and a
// compare cell ("1,234 ± 12 MB/s"). Figures are rounded by model/report/metrics.ts's formatFigure
// (changes by verdict/compare-words.ts's deltaText), as every export and the share card round them.
import type { CompareCell } from '@model/report/compare';
import { dateTimeText, formatFigure, type MetricUnit } from '@model/report/metrics';
import type { HistoryEntry } from '@model/history';

/** "22 Nov 2026 02:39 UTC": the model's one date format, the share card's too. */
export const formatDate = dateTimeText;

/** "Write 1,234 MB/s · Read 1,456 MB/s". */
export function headlineText(headline: HistoryEntry['headline']): string {
  return headline.map((h) => `${h.label} ${formatFigure(h.value, h.unit as MetricUnit)} ${h.unit}`).join(' · ');
}

/** "1,234 ± 12 MB/s"; the ± only when there is more than one run. */
export function cellText(cell: CompareCell, unit: MetricUnit): string {
  const { n, mean, stdev } = cell.spread;
  const pm = n > 1 && Number.isFinite(stdev) ? ` ± ${formatFigure(stdev, unit)}` : '';
  return `${formatFigure(mean, unit)}${pm} ${unit}`;
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
