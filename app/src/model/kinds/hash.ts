// The hash test: four rates for one file (uncached read, read + hash, hash in memory on one core
// and on all). Run by core/hash-run.ts, not the benchmark runner; here for what reports show.
import type { Metric } from '../report/figure-text.js';
import { sizeText } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import { hashFigures } from './hash-card.js';
import type { KindModule } from './types.js';

const algoName = (doc: ResultDocument): string => (doc.hash?.algo === 'sha512' ? 'SHA-512' : 'SHA-256');

export const hash = {
  id: 'hash',
  name: 'Hash test',
  report: {
    titleParts: (doc) => (doc.hash ? [algoName(doc), sizeText(doc.hash.file.bytes)] : undefined),
    metrics: (doc) => (doc.hash ? { metrics: hashMetrics(doc), only: true } : undefined),
    comparable: (doc, f) => {
      if (!doc.hash) return false;
      f.set('algorithm', algoName(doc));
      f.set('file size', sizeText(doc.hash.file.bytes));
      return true;
    },
    writes: false,
  },
  card: hashFigures,
} as const satisfies KindModule<'hash'>;

function hashMetrics(doc: ResultDocument): Metric[] {
  const h = doc.hash!;
  const algo = h.algo === 'sha512' ? 'SHA-512' : 'SHA-256';
  const m = (measure: string, label: string, value: number, primary: boolean): Metric => ({
    key: `Hash/${measure}`,
    label,
    group: 'Hash',
    measure,
    unit: 'MB/s',
    direction: 'higher',
    values: [value],
    primary,
  });
  return [
    m('read', 'Read (uncached)', h.read.mbps, true),
    m('readHash', `Read + ${algo}`, h.readHash.mbps, true),
    m('memory', `${algo} in memory, 1 core`, h.memory.mbps, true),
    m('memoryParallel', `${algo} in memory, ${h.memoryParallel.threads} cores`, h.memoryParallel.mbps, false),
  ];
}
