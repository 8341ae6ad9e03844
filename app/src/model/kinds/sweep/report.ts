// What views of a saved sweep show: its title, figures (top speed, where full speed is reached,
// MB/s at each size), what makes two sweeps comparable, and its full-speed sentences.
import type { Metric } from '../../report/figure-text.js';
import { blockLabel, formatBytesBinary } from '../../units.js';
import { KiB } from '../plan.js';
import type { KindModule } from '../types.js';
import { FULL_SPEED_SHARE } from './analysis.js';
import { ladderText, transferSizeText } from './plan.js';
import type { SweepSection } from './result.js';

export const sweepReport = {
  titleParts: (doc) => (doc.sweep ? [`${doc.sweep.preset} · ${ladderText(doc.sweep.sizes)}`] : undefined),
  metrics: (doc) => (doc.sweep ? { metrics: sweepMetrics(doc.sweep) } : undefined),
  stepsArePrimary: false,
  comparable: (doc, f) => {
    if (!doc.sweep) return false;
    const s = doc.sweep;
    f.set('ladder', `${s.preset} ${ladderText(s.sizes)} Q${s.qd}`);
    f.set('per step', s.stepSeconds !== undefined ? `${s.stepSeconds} s` : formatBytesBinary(s.stepBytes ?? 0));
    return true;
  },
  figureGroup: { group: 'Sweep', present: (doc) => doc.sweep !== undefined },
  testsTitle: 'Each transfer size',
  testGroup: {
    all: (n, span) => `the sweep's ${n} steps (${span})`,
    some: (n, of, span) => `${n} of the sweep's ${of} steps (${span})`,
  },
} as const satisfies KindModule['report'];

function sweepMetrics(s: SweepSection): Metric[] {
  const out: Metric[] = [];
  for (const dir of ['write', 'read'] as const) {
    const D = dir === 'write' ? 'Write' : 'Read';
    const key = dir === 'write' ? 'fullSpeedWrite' : 'fullSpeedRead';
    if (s.runs.every((r) => r[key])) {
      out.push(
        {
          key: `Sweep/${dir}.topMBps`,
          label: `${D} · top speed`,
          group: 'Sweep',
          measure: `${dir}.topMBps`,
          unit: 'MB/s',
          direction: 'higher',
          values: s.runs.map((r) => r[key]!.topMBps),
          primary: true,
        },
        {
          key: `Sweep/${dir}.fullSpeedKiB`,
          label: `${D} · reaches ${FULL_SPEED_SHARE * 100} % of top at`,
          group: 'Sweep',
          measure: `${dir}.fullSpeedKiB`,
          unit: 'KiB',
          // Where a sweep reaches 90 % of its own top speed describes the curve: a slower link
          // reaches its lower top sooner, so smaller is not better.
          direction: 'none',
          values: s.runs.map((r) => r[key]!.bs / KiB),
          primary: true,
        },
      );
    }
  }
  for (const bs of s.sizes) {
    for (const dir of ['write', 'read'] as const) {
      const D = dir === 'write' ? 'Write' : 'Read';
      out.push({
        key: `Sweep ${blockLabel(bs)}/${dir}.mbps`,
        label: `${transferSizeText(bs)} ${D}`,
        group: `Sweep ${blockLabel(bs)}`,
        measure: `${dir}.mbps`,
        unit: 'MB/s',
        direction: 'higher',
        values: s.runs.map((r) => {
          const p = r.points.find((x) => x.bs === bs);
          return p ? (dir === 'write' ? p.writeMBps : p.readMBps) : 0;
        }),
        primary: false,
      });
    }
  }
  return out;
}

/** "Write reaches 90 % of its top speed (512 MB/s) at 256 KiB": one line a direction. */
export function fullSpeedText(s: SweepSection, run = s.runs[0]): string[] {
  if (!run) return [];
  const lines: string[] = [];
  for (const [dir, f] of [
    ['Write', run.fullSpeedWrite],
    ['Read', run.fullSpeedRead],
  ] as const) {
    if (f)
      lines.push(`${dir} reaches ${FULL_SPEED_SHARE * 100} % of its top speed (${f.topMBps.toFixed(1)} MB/s) at ${transferSizeText(f.bs)}`);
  }
  return lines;
}
