// What views of a saved sweep show: its title, figures (top speed, where full speed is reached,
// MB/s at each size), what makes two sweeps comparable, and its full-speed sentences.
import { formatFigure, metricValue, sizeText, type Metric } from '../../report/figure-text.js';
import { blockLabel, formatMBpsFigure } from '../../units.js';
import { KiB } from '../plan.js';
import type { KindModule } from '../types.js';
import { FULL_SPEED_SHARE, fullSpeed } from './analysis.js';
import { ladderText, transferSizeText } from './plan.js';
import type { SweepSection } from './result.js';

export const sweepReport = {
  titleParts: (doc) => (doc.sweep ? [`${doc.sweep.preset} · ${ladderText(doc.sweep.sizes)}`] : undefined),
  // A timed sweep's file size is internal (each step runs for a time): its name says the time.
  nameSize: (doc) => (doc.sweep?.stepSeconds !== undefined ? `${doc.sweep.stepSeconds} s a step` : undefined),
  metrics: (doc) => (doc.sweep ? { metrics: sweepMetrics(doc.sweep) } : undefined),
  stepsArePrimary: false,
  comparable: (doc, f) => {
    if (!doc.sweep) return false;
    const s = doc.sweep;
    f.set('ladder', `${s.preset} ${ladderText(s.sizes)} Q${s.qd}`);
    f.set('per step', s.stepSeconds !== undefined ? `${s.stepSeconds} s` : sizeText(s.stepBytes ?? 0));
    return true;
  },
  figureGroup: { group: 'Sweep', present: (doc) => doc.sweep !== undefined },
  testsTitle: 'Each transfer size',
  // The text export's block: the headline averages and where each direction reaches full speed.
  textBlock: (doc) => {
    const s = doc.sweep;
    if (!s) return undefined;
    const rows: Array<[string, string]> = [...averageLines(s)];
    for (const r of s.runs)
      for (const line of fullSpeedText(s, r)) rows.push([s.runs.length > 1 ? `Full speed, run ${r.run}` : 'Full speed', line]);
    return { heading: `[Sweep] ${s.preset} ${ladderText(s.sizes)} Q${s.qd}`, rows };
  },
  testGroup: {
    all: (n, span) => `the sweep's ${n} steps (${span})`,
    some: (n, of, span) => `${n} of the sweep's ${of} steps (${span})`,
  },
} as const satisfies KindModule['report'];

/** The sweep's figures: the preset's headline averages (QuickBench's 4 KB and 20–100 MB), each
 *  direction's top speed and where it reaches 90 % of it, then MB/s at each size. */
export function sweepMetrics(s: SweepSection): Metric[] {
  const out: Metric[] = [];
  // A headline average is a figure only when every run has it (a ranged run may lack its rows).
  const ids = [...new Set(s.runs.flatMap((r) => (r.averages ?? []).map((a) => a.id)))];
  for (const id of ids) {
    const each = s.runs.map((r) => r.averages?.find((a) => a.id === id));
    if (each.some((a) => a === undefined)) continue;
    for (const dir of ['write', 'read'] as const) {
      out.push({
        key: `Sweep/${dir}.${id}MBps`,
        label: `${dir === 'write' ? 'Write' : 'Read'} · ${each[0]!.name} average`,
        group: 'Sweep',
        measure: `${dir}.${id}MBps`,
        unit: 'MB/s',
        direction: 'higher',
        values: each.map((a) => (dir === 'write' ? a!.writeMBps : a!.readMBps)),
        primary: true,
      });
    }
  }
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

/** "Write reaches 90 % of its top speed (512 MB/s) at 256 KiB", and where the curve falls back
 *  under it when it does ("…, then falls to 1,612 MB/s (39 % of top) at 8 MiB"): one line a
 *  direction, read off the run's points, so a result saved before the fall was recorded says it too. */
export function fullSpeedText(s: SweepSection, run = s.runs[0]): string[] {
  if (!run) return [];
  const lines: string[] = [];
  for (const [D, dir] of [
    ['Write', 'write'],
    ['Read', 'read'],
  ] as const) {
    const f = Array.isArray(run.points) && run.points.length > 0 ? fullSpeed(run.points, dir) : undefined;
    if (!f) continue;
    const reach = `${D} reaches ${FULL_SPEED_SHARE * 100} % of its top speed (${formatMBpsFigure(f.topMBps)} MB/s) at ${transferSizeText(f.bs)}`;
    lines.push(
      f.falls
        ? `${reach}, then falls to ${formatMBpsFigure(f.falls.mbps)} MB/s (${Math.round((f.falls.mbps / f.topMBps) * 100)} % of top) at ${transferSizeText(f.falls.bs)}`
        : reach,
    );
  }
  return lines;
}

/** "Write · 4 KB average: 61.3 MB/s": the headline averages as the exports' text states them, the
 *  mean across runs as every figure is. */
export function averageLines(s: SweepSection): Array<[string, string]> {
  return sweepMetrics(s)
    .filter((m) => /\.avg/.test(m.measure))
    .map((m) => [m.label, `${formatFigure(metricValue(m), 'MB/s')} MB/s`]);
}
