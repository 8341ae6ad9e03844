// The folder check: every file under a folder hashed and checked against its manifest. Run by
// core/check-run.ts, not the benchmark runner; here for what History, reports and the card show.
import type { Metric } from '../report/figure-text.js';
import { sizeText } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import { CHECK_ALGO_LABEL } from '../check-manifest.js';
import { checkBottleneck, type CheckSection } from '../check.js';
import { aboutTarget, type Bottleneck } from '../verdict/bottleneck.js';
import type { KindModule } from './types.js';

/** The verdict folder checks carry, from their mean figures (one check: its own), on the ceilings
 *  its target and its own cipher section give: what core/check-run.ts stored, recomputed. */
export function rowCheckBottleneck(docs: readonly ResultDocument[]): Bottleneck | undefined {
  const cs = docs.filter((d): d is ResultDocument & { check: CheckSection } => d.check !== undefined);
  const first = cs[0];
  if (!first) return undefined;
  const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;
  const ceilings = cs.flatMap((d) => (d.check.ceilingMBps !== undefined ? [d.check.ceilingMBps] : []));
  const c = first.check;
  return checkBottleneck(
    mean(cs.map((d) => d.check.mbps)),
    ceilings.length > 0 ? mean(ceilings) : undefined,
    c.streams,
    CHECK_ALGO_LABEL[c.algo],
    aboutTarget(first.target, first.cipher),
  );
}

export const check = {
  id: 'check',
  name: 'Folder check',
  report: {
    titleParts: (doc) =>
      doc.check
        ? [CHECK_ALGO_LABEL[doc.check.algo], `${doc.check.files.toLocaleString('en-US')} files`, sizeText(doc.check.bytes)]
        : undefined,
    metrics: (doc) => (doc.check ? { metrics: checkMetrics(doc), only: true } : undefined),
    comparable: (doc, f) => {
      if (!doc.check) return false;
      f.set('algorithm', CHECK_ALGO_LABEL[doc.check.algo]);
      f.set('streams', String(doc.check.streams));
      return true;
    },
    writes: false,
    figureGroup: { group: 'Check', present: (doc) => Boolean(doc.check) },
    bottleneck: rowCheckBottleneck,
  },
} as const satisfies KindModule<'check'>;

function checkMetrics(doc: ResultDocument): Metric[] {
  const c = doc.check!;
  const m = (measure: string, label: string, unit: Metric['unit'], value: number, primary: boolean): Metric => ({
    key: `Check/${measure}`,
    label,
    group: 'Check',
    measure,
    unit,
    direction: 'higher',
    values: [value],
    primary,
  });
  const out = [
    m('mbps', `Read + ${CHECK_ALGO_LABEL[c.algo]}, ${c.streams} stream${c.streams === 1 ? '' : 's'}`, 'MB/s', c.mbps, true),
    m('filesPerSecond', 'Files per second', 'files/s', c.filesPerSecond, false),
  ];
  if (c.ceilingMBps !== undefined)
    out.push(
      m('ceiling', `${CHECK_ALGO_LABEL[c.algo]} in memory, ${c.streams} stream${c.streams === 1 ? '' : 's'}`, 'MB/s', c.ceilingMBps, false),
    );
  return out;
}
