// What views of a saved verify test show: its title, figures (the real capacity, what was proven
// intact, the blocks read back wrong, the write and read rates, the fast cache), its verdict in
// the one renderer's words, and what makes two of them comparable.
import { fx, sizeText, type Metric } from '../../report/figure-text.js';
import type { ResultDocument } from '../../result.js';
import { capacityText } from '../../verdict/capacity.js';
import type { KindModule } from '../types.js';
import type { VerifySection } from './result.js';

/** How much was verified, named as chosen when it was the size asked ("64 GiB", "10 GB"), in GB
 *  when free space or the device set it. */
export function verifiedSizeText(s: Pick<VerifySection, 'limitedBy' | 'requestedBytes' | 'plannedBytes'>): string {
  return s.limitedBy === 'size' && s.requestedBytes !== undefined ? sizeText(s.requestedBytes) : sizeText(s.plannedBytes, true);
}

/** The verdict as every view states it. */
export const verifyVerdictText = (s: VerifySection): string => capacityText(s.verdict);

export const verifyReport = {
  figureGroup: { group: 'Verify', present: (doc) => doc.verify !== undefined },
  testsTitle: 'The write and the read back, over every file',
  columns: {
    pick: [
      ['Verify/capacityGB', 'Real capacity'],
      ['Verify/writeMBps', 'Write'],
      ['Verify/readMBps', 'Read and verify'],
    ],
  },
  titleParts: (doc) => (doc.verify ? [`${verifiedSizeText(doc.verify)} written and read back`] : undefined),
  metrics: (doc) => (doc.verify ? { metrics: verifyMetrics(doc) } : undefined),
  stepsArePrimary: false,
  comparable: (doc, f) => {
    if (!doc.verify) return false;
    f.set('amount verified', verifiedSizeText(doc.verify));
    return true;
  },
  claims: (doc) => (doc.verify ? [{ where: 'verify capacity', claim: doc.verify.verdict }] : []),
  statements: (doc) => {
    const s = doc.verify;
    if (!s) return [];
    const out = [{ label: 'Verdict', text: verifyVerdictText(s) }];
    if (s.runsTruncated)
      out.push({ label: 'Note', text: `More bad runs were found than the ${s.runs.length.toLocaleString('en-US')} kept.` });
    return out;
  },
  testBytes: (doc) => doc.verify?.plannedBytes,
  textBlock: (doc, metrics) => {
    const s = doc.verify;
    if (!s) return undefined;
    const f = s.verdict.figures;
    const gb = (key: string): string => `${fx(metrics.get(key)?.values[0] ?? NaN, 3, 9)} GB`;
    return {
      heading: '[Verify]',
      rows: [
        ['Verdict', verifyVerdictText(s)],
        ['Real capacity', gb('Verify/capacityGB')],
        ['Intact', gb('Verify/intactGB')],
        ['Blocks wrong', `${(f.checkedBlocks - f.intactBlocks).toLocaleString('en-US')} of ${f.checkedBlocks.toLocaleString('en-US')}`],
      ],
    };
  },
} as const satisfies KindModule['report'];

function verifyMetrics(doc: ResultDocument): Metric[] {
  const s = doc.verify!;
  const f = s.verdict.figures;
  const metric = (measure: string, label: string, unit: Metric['unit'], value: number, primary = true): Metric => ({
    key: `Verify/${measure}`,
    label,
    group: 'Verify',
    measure,
    unit,
    direction: measure === 'badBlocks' ? 'lower' : 'higher',
    values: [value],
    primary,
  });
  const rate = (name: string): number => doc.tests.find((t) => t.name === name)?.mbps ?? NaN;
  const out = [
    metric('capacityGB', 'Real capacity', 'GB', f.capacityBytes / 1e9),
    metric('intactGB', 'Read back intact', 'GB', (f.intactBlocks * f.blockBytes) / 1e9),
    metric('writeMBps', 'Write', 'MB/s', rate('Write')),
    metric('readMBps', 'Read and verify', 'MB/s', rate('Read and verify')),
  ];
  if (s.knee.kind === 'knee') out.push(metric('cacheGB', 'Fast cache size', 'GB', s.knee.kneeBytes / 1e9, false));
  return out;
}
