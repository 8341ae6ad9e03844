// What views of a saved sustained write show: its title, figures (the average, the fast cache and
// the speeds either side of the knee, the slowest slice) and what makes two of them comparable.
import type { Metric } from '../../report/figure-text.js';
import { sizeText } from '../../report/figure-text.js';
import type { ResultDocument } from '../../result.js';
import type { KindModule } from '../types.js';

export const sustainedReport = {
  figureGroup: { group: 'Sustained', present: (doc) => doc.sustained !== undefined },
  testsTitle: 'The write as one test',
  columns: {
    pick: [
      ['Sustained/mbps', 'Sustained write'],
      ['Sustained/cacheGB', 'Fast cache size'],
    ],
  },
  titleParts: (doc) => (doc.sustained ? [`up to ${sizeText(doc.sustained.plannedBytes)}`] : undefined),
  metrics: (doc) => (doc.sustained ? { metrics: sustainedMetrics(doc) } : undefined),
  stepsArePrimary: false,
  comparable: (doc, f) => {
    if (!doc.sustained) return false;
    f.set('amount written', sizeText(doc.sustained.plannedBytes));
    return true;
  },
} as const satisfies KindModule['report'];

function sustainedMetrics(doc: ResultDocument): Metric[] {
  const runs = doc.sustained!.runs;
  const tests = doc.tests;
  const avg = runs.map((r) => tests.find((t) => t.run === r.run)?.mbps ?? NaN);
  const out: Metric[] = [
    {
      key: 'Sustained/mbps',
      label: 'Sustained write · average',
      group: 'Sustained',
      measure: 'mbps',
      unit: 'MB/s',
      direction: 'higher',
      values: avg,
      primary: true,
    },
  ];
  // The knee's figures only when every run found one: a mean over "cache" and "no cache" means nothing.
  const knees = runs.map((r) => (r.verdict.kind === 'knee' ? r.verdict : undefined));
  if (knees.every((k) => k !== undefined)) {
    out.push(
      {
        key: 'Sustained/cacheGB',
        label: 'Fast cache size',
        group: 'Sustained',
        measure: 'cacheGB',
        unit: 'GB',
        direction: 'higher',
        values: knees.map((k) => k.kneeBytes / 1e9),
        primary: true,
      },
      {
        key: 'Sustained/beforeMBps',
        label: 'Write speed before the knee',
        group: 'Sustained',
        measure: 'beforeMBps',
        unit: 'MB/s',
        direction: 'higher',
        values: knees.map((k) => k.beforeMBps),
        primary: true,
      },
      {
        key: 'Sustained/afterMBps',
        label: 'Write speed after the knee',
        group: 'Sustained',
        measure: 'afterMBps',
        unit: 'MB/s',
        direction: 'higher',
        values: knees.map((k) => k.afterMBps),
        primary: true,
      },
    );
  }
  const mins = runs.map((r) => Math.min(...r.curve.map((p) => p.mbps)));
  if (mins.every(Number.isFinite)) {
    out.push({
      key: 'Sustained/minMBps',
      label: 'Slowest slice',
      group: 'Sustained',
      measure: 'minMBps',
      unit: 'MB/s',
      direction: 'higher',
      values: mins,
      primary: false,
    });
  }
  return out;
}
