// What views of a saved sustained write show: its title, figures (the average, the fast cache and
// the speeds either side of the knee, the slowest slice) and what makes two of them comparable.
import { fx, sizeText, type Metric } from '../../report/figure-text.js';
import type { ResultDocument, ResultFlag } from '../../result.js';
import type { SustainedSection } from './result.js';
import { kneeWithheld } from '../../trust.js';
import type { KindModule } from '../types.js';

/** How much was written, named as chosen when it was the size asked ("50 GB", "100 GiB"), in GB
 *  when free space set it. */
export function writtenSizeText(s: Pick<SustainedSection, 'limitedBy' | 'requestedBytes' | 'plannedBytes'>): string {
  return s.limitedBy === 'size' ? sizeText(s.requestedBytes) : sizeText(s.plannedBytes, true);
}

export const sustainedReport = {
  figureGroup: { group: 'Sustained', present: (doc) => doc.sustained !== undefined },
  testsTitle: 'The write as one test',
  columns: {
    pick: [
      ['Sustained/mbps', 'Sustained write'],
      ['Sustained/cacheGB', 'Fast cache size'],
    ],
  },
  titleParts: (doc) => (doc.sustained ? [`up to ${writtenSizeText(doc.sustained)}`] : undefined),
  metrics: (doc) => (doc.sustained ? { metrics: sustainedMetrics(doc) } : undefined),
  stepsArePrimary: false,
  comparable: (doc, f) => {
    if (!doc.sustained) return false;
    f.set('amount written', writtenSizeText(doc.sustained));
    return true;
  },
  statements: (doc) => {
    if (!doc.sustained) return [];
    const { runs, limitedBy, plannedBytes, requestedBytes } = doc.sustained;
    const out = runs.map((r) => ({ label: runs.length > 1 ? `Run ${r.run}` : 'Verdict', text: sustainedVerdictText(r, doc.flags) }));
    if (limitedBy === 'free-space')
      out.push({
        label: 'Note',
        text: `Limited by free space to ${sizeText(plannedBytes, true)} (asked for ${sizeText(requestedBytes)}).`,
      });
    return out;
  },
  testBytes: (doc) => doc.sustained?.plannedBytes,
  textBlock: (doc, metrics) => {
    if (!doc.sustained) return undefined;
    const avg = metrics.get('Sustained/mbps')?.values ?? [];
    const rows: Array<[string, string]> = [
      ['Average', `${fx(Math.max(...avg.filter(Number.isFinite)), 3, 9)} MB/s${avg.length > 1 ? ` (best of ${avg.length} runs)` : ''}`],
    ];
    for (const r of doc.sustained.runs)
      rows.push([doc.sustained.runs.length > 1 ? `Run ${r.run}` : 'Verdict', sustainedVerdictText(r, doc.flags)]);
    return { heading: '[Sustained write]', rows };
  },
} as const satisfies KindModule['report'];

/** One sustained run's verdict as every view states it. */
export function sustainedVerdictText(
  run: { verdict: { kind: string }; summary: string },
  flags: readonly ResultFlag[] | undefined,
): string {
  return kneeWithheld(run.verdict, flags) ?? run.summary;
}

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
