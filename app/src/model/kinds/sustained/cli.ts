// The sustained write on the command line: its --reserve flag, the --seconds it refuses, its line
// under `run --help`, the size it was asked (the report's unit system), and its lines under the
// CLI's table (what was written, the verdict and a sparkline of the curve per run).
import { describeVerdict } from './verdict.js';
import { mbText as mb } from '../../report/text-table.js';
import type { ResultDocument } from '../../result.js';
import { askedSizeText, sizeInUnits, type SizeUnits } from '../../size-units.js';
import type { KindModule } from '../types.js';
import { sustainedVerdictText } from './report.js';

export const sustainedCli = {
  flags: { reserve: 'string' },
  refuse: { seconds: '--seconds does not apply to --test sustained: it is bounded by bytes, not time' },
  summary: `write one file of up to --size (default 50GB), or free space less
--reserve, and find where the drive's fast cache runs out`,
  askedSizes: (doc) => (doc.sustained ? [doc.sustained.requestedBytes] : undefined),
  tableLines: (doc, units) => sustainedLines(doc, units),
} as const satisfies KindModule['cli'];

function sustainedLines(doc: ResultDocument, units: SizeUnits): string[] {
  const s = doc.sustained;
  if (!s) return [];
  const out = [
    '',
    `Sustained write: up to ${askedSizeText(s.requestedBytes, units)} asked, ${sizeInUnits(s.plannedBytes, units)} written per run (${s.limitedBy === 'free-space' ? `limited by free space, ${sizeInUnits(s.reserveBytes, units)} kept free` : 'the size asked'})`,
  ];
  for (const r of s.runs) {
    const peak = Math.max(...r.curve.map((p) => p.mbps));
    out.push(
      `${doc.settings.runs > 1 ? `Run ${r.run}: ` : ''}${sustainedVerdictText(units === 'binary' ? { ...r, summary: describeVerdict(r.verdict, r.bytes, (b) => sizeInUnits(b, units)) } : r, doc.flags)}`,
      `  ${sparkline(r.curve.map((p) => p.mbps))}  (0 – ${sizeInUnits(r.bytes, units)}, peak ${mb(peak)} MB/s, ${r.curve.length} slices of ${sizeInUnits(r.sliceBytes, units)})`,
    );
  }
  return out;
}

/** A text sparkline of the sustained curve: one character per group of slices, scaled to its peak. */
export function sparkline(values: readonly number[], width = 60): string {
  if (values.length === 0) return '';
  const bars = '▁▂▃▄▅▆▇█';
  const groups = Math.min(width, values.length);
  const peak = Math.max(...values);
  let out = '';
  for (let g = 0; g < groups; g++) {
    const from = Math.floor((g * values.length) / groups);
    const to = Math.max(from + 1, Math.floor(((g + 1) * values.length) / groups));
    const slice = values.slice(from, to);
    const v = slice.reduce((a, b) => a + b, 0) / slice.length;
    out += bars[Math.min(bars.length - 1, Math.max(0, Math.round((v / (peak || 1)) * (bars.length - 1))))];
  }
  return out;
}
