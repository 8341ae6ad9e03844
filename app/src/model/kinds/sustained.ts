// The sustained write: one file, written once from start to end with large blocks, as big as
// asked or as free space less the reserve allows, whichever is smaller. Not time-bounded: the
// point is to write past the drive's fast cache, however long that takes. Its analysis finds the
// knee in the MB/s curve (model/knee.ts).
import { sustainedSection } from '../analysis.js';
import type { EngineSpec } from '../engine-types.js';
import { inputError } from '../errors.js';
import type { Metric } from '../report/figure-text.js';
import { sizeText } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import { formatBytes } from '../units.js';
import { echoSettings, MiB, stepName, usable } from './plan.js';
import { sustainedFigures } from './sustained-card.js';
import type { KindModule } from './types.js';

/** How much to write at most by default, and the least worth a curve. */
export const SUSTAINED_DEFAULT_BYTES = 50e9;
export const SUSTAINED_MIN_BYTES = 64 * 1024 * 1024;

export const sustained = {
  id: 'sustained',
  name: 'Sustained write',
  defaultSize: SUSTAINED_DEFAULT_BYTES,
  sized: true,
  leastBytes: (o) => Math.min(SUSTAINED_MIN_BYTES, o.size ?? SUSTAINED_DEFAULT_BYTES),
  plan: (o, target) => {
    const bs = o.bs ?? MiB;
    const qd = o.qd ?? 8;
    const threads = o.threads ?? 1;
    if (o.seconds !== undefined) throw inputError('the sustained-write test is bounded by bytes, not seconds; use --size');
    const requested = o.size ?? SUSTAINED_DEFAULT_BYTES;
    const { usable: room, reserve } = usable(o, target, 'sustained');
    const limitedBy = room < requested ? 'free-space' : 'size';
    const unit = bs * threads;
    const fileSize = Math.floor(Math.min(requested, room) / unit) * unit;
    if (fileSize < Math.max(unit, Math.min(SUSTAINED_MIN_BYTES, requested))) {
      throw inputError(
        `Not enough free space for a sustained-write test: ${formatBytes(target!.freeBytes)} free, ${formatBytes(reserve)} kept in reserve. Free some space or lower the reserve.`,
        'ENOSPC',
      );
    }
    const spec: Omit<EngineSpec, 'path'> = {
      rw: 'write',
      bs,
      qd,
      threads,
      fileSize,
      pattern: o.pattern ?? 'random',
      cache: o.cache ?? 'auto',
      keepFile: false,
    };
    if (o.warmupSeconds !== undefined) spec.warmupSeconds = o.warmupSeconds;
    const notes =
      limitedBy === 'free-space'
        ? [
            `Writing ${formatBytes(fileSize)}, not ${formatBytes(requested)}: that is what free space allows with ${formatBytes(reserve)} kept free.`,
          ]
        : [];
    const settings = echoSettings(o, fileSize, spec.pattern, spec.cache);
    settings.reserveBytes = reserve;
    return {
      kind: 'sustained',
      fileSize,
      needBytes: fileSize,
      steps: [{ name: stepName('SEQ', bs, qd, threads, 'Sustained Write'), spec }],
      settings,
      notes,
      sustained: { requestedBytes: requested, limitedBy, reserveBytes: reserve },
    };
  },
  analyse: (plan, outcomes) => ({ sustained: sustainedSection(plan, outcomes) }),
  cli: {
    options: ['reserve'],
    refuse: { seconds: '--seconds does not apply to --test sustained: it is bounded by bytes, not time' },
  },
  report: {
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
  },
  card: sustainedFigures,
  fromScreen: (s) =>
    s.kind === 'sustained' ? { size: s.maxBytes, ...(s.reserveBytes !== undefined ? { reserveBytes: s.reserveBytes } : {}) } : {},
  liveCurve: true,
} as const satisfies KindModule<'sustained'>;

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
