// The transfer-size sweep (ATTO's and QuickBench's question: from what transfer size on does this
// drive or share run at full speed?): for each size of a ladder, a sequential write then a
// sequential read of one shared test file, uncached, each step for a fixed time (--seconds) or a
// fixed volume (--size). The engine's ordinary sequential steps; the analysis gathers them into a
// curve of MB/s against size.
import type { StepOutcome } from '../analysis.js';
import type { EngineSpec } from '../engine-types.js';
import { inputError } from '../errors.js';
import type { Metric } from '../report/figure-text.js';
import type { SweepPoint, SweepSection } from '../result.js';
import { blockLabel, formatBytesBinary } from '../units.js';
import {
  bounds,
  echoSettings,
  KiB,
  MiB,
  stepName,
  SWEEP_PRESETS,
  type Plan,
  type PlanOptions,
  type PlanStep,
  type SweepPreset,
  type SweepRange,
} from './plan.js';
import type { KindModule } from './types.js';

const pow2 = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let s = from; s <= to; s *= 2) out.push(s);
  return out;
};

/** The ladders. ATTO Disk Benchmark's runs 512 B to 64 MiB with its 12, 24 and 48 MiB steps;
 *  QuickBench's spans 4 KB to 100 MB: powers of two, then 100 MiB (whole MiB, so direct I/O
 *  takes it). 512 B is uncached only where the file system's direct-I/O alignment is 512 B. */
export const SWEEP_LADDERS: Record<SweepPreset, readonly number[]> = {
  standard: pow2(4 * KiB, 64 * MiB),
  atto: [...pow2(512, 8 * MiB), 12 * MiB, 16 * MiB, 24 * MiB, 32 * MiB, 48 * MiB, 64 * MiB],
  quickbench: [...pow2(4 * KiB, 64 * MiB), 100 * MiB],
};
/** ATTO's default queue depth is 4; the others stream one I/O at a time, as a file copy does. */
const PRESET_QD: Record<SweepPreset, number> = { standard: 1, atto: 4, quickbench: 1 };

export const SWEEP_STEP_SECONDS = 2;
/** The shared test file of a time-bound sweep: the largest step goes over it at least twice. */
const TIMED_FILE_BYTES = 256 * MiB;
/** A range that ends lower (--to) runs over four of its largest transfer, never less than this:
 *  a look at small transfers on a slow share need not first lay out 256 MiB to read. */
const TIMED_FILE_MIN_BYTES = 64 * MiB;
/** What "full speed" means: the smallest size reaching this share of the top MB/s. */
export const FULL_SPEED_SHARE = 0.9;

/** Reads have a file of their own, laid out whole by the first read step: a time-bound write
 *  covers only part of its file (the engine sizes it sparse first), and reading the rest would
 *  read holes, which no disk is asked for (a throttled loop device "read" 4 KiB at 230 MB/s so). */
const WRITE_FILE = 'sweep-write.dat';
const READ_FILE = 'sweep-read.dat';

const NOT_FOR_SWEEP = 'does not apply to --test sweep: the preset sets the transfer sizes, one at a time';

export const sweep = {
  id: 'sweep',
  name: 'Transfer-size sweep',
  defaultSize: TIMED_FILE_BYTES,
  plan: sweepPlan,
  analyse: (plan, outcomes) => ({ sweep: sweepSection(plan, outcomes) }),
  cli: {
    options: ['preset', 'from', 'to'],
    presets: SWEEP_PRESETS,
    flagHelp: {
      from: "SIZE         the sweep's smallest transfer size, one of its preset's\n(default the first: 4KiB; atto 512B)",
      to: "SIZE           the sweep's largest transfer size (default the last: 64MiB;\nquickbench 100MiB); timed steps then go over a file of 4\ntimes it (64MiB to 256MiB)",
    },
    refuse: { bs: `--bs ${NOT_FOR_SWEEP}`, threads: `--threads ${NOT_FOR_SWEEP}` },
  },
  report: {
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
  },
  fromScreen: (s) =>
    s.kind === 'sweep'
      ? {
          preset: s.preset,
          ...(s.seconds !== undefined ? { seconds: s.seconds } : {}),
          ...(s.stepBytes !== undefined ? { size: s.stepBytes } : {}),
        }
      : {},
} as const satisfies KindModule<'sweep'>;

export function ladderText(sizes: readonly number[]): string {
  if (sizes.length === 0) return '';
  return `${transferSizeText(sizes[0]!)}–${transferSizeText(sizes.at(-1)!)}`;
}

/** 512 B, 4 KiB, 1 MiB, 100 MiB: the ladder's names. */
export function transferSizeText(bytes: number): string {
  const b = blockLabel(bytes);
  return b.endsWith('K') ? `${b.slice(0, -1)} KiB` : b.endsWith('M') ? `${b.slice(0, -1)} MiB` : `${b} B`;
}

function sweepPlan(o: PlanOptions): Plan {
  const preset = (o.preset ?? 'standard') as SweepPreset;
  if (!SWEEP_PRESETS.includes(preset)) throw inputError(`the sweep preset must be ${SWEEP_PRESETS.join(', ')}, not "${preset}"`);
  if (o.size !== undefined && o.seconds !== undefined)
    throw inputError('give each step of the sweep a time (--seconds) or a volume (--size), not both');
  const sizes = ladderPart(preset, o.sweep);
  const top = sizes.at(-1)!;
  const qd = o.qd ?? PRESET_QD[preset];
  const byVolume = o.size !== undefined;
  const stepSeconds = byVolume ? undefined : (o.seconds ?? SWEEP_STEP_SECONDS);
  // By volume the file is the volume (each step writes or reads it once); by time, one file the
  // steps go over as often as their time takes.
  const fileSize = byVolume ? Math.floor(o.size! / top) * top : Math.min(TIMED_FILE_BYTES, Math.max(TIMED_FILE_MIN_BYTES, 4 * top));
  if (fileSize < top)
    throw inputError(
      `--size ${formatBytesBinary(o.size!)} is smaller than the sweep's largest transfer (${transferSizeText(top)}); use at least ${transferSizeText(top)}`,
    );
  const common = bounds(o)(stepSeconds);
  const steps: PlanStep[] = [];
  for (const bs of sizes) {
    for (const [rw, what] of [
      ['write', 'Write'],
      ['read', 'Read'],
    ] as const) {
      // Kept for the next size; the runner removes both files when the run ends.
      const spec: Omit<EngineSpec, 'path'> = { rw, bs, qd, threads: 1, fileSize, ...common, keepFile: true };
      steps.push({ name: stepName('SEQ', bs, qd, 1, what), spec, file: rw === 'write' ? WRITE_FILE : READ_FILE });
    }
  }
  const settings = echoSettings({ ...o, qd }, fileSize, o.pattern ?? 'random', o.cache ?? 'auto');
  settings.preset = preset;
  if (stepSeconds !== undefined) settings.seconds = stepSeconds;
  const notes =
    sizes[0]! < 4 * KiB
      ? [
          '512 B to 2 KiB run uncached only where the file system takes direct I/O of that size; elsewhere those steps run buffered with the cache flushed, and say so.',
        ]
      : [];
  return { kind: 'sweep', fileSize, needBytes: 2 * fileSize, steps, settings, notes };
}

/** The preset's ladder from --from to --to (ATTO's start and end transfer size): each end must be
 *  one of its sizes, so a ranged sweep is a part of the full one and compares with it size by size. */
function ladderPart(preset: SweepPreset, range: SweepRange | undefined): number[] {
  const ladder = SWEEP_LADDERS[preset];
  const at = (bytes: number | undefined, flag: string, fallback: number): number => {
    if (bytes === undefined) return fallback;
    const i = ladder.indexOf(bytes);
    if (i < 0)
      throw inputError(
        `${flag} ${formatBytesBinary(bytes)} is not a transfer size of the ${preset} sweep; use one of ${ladder.map(transferSizeText).join(', ')}`,
      );
    return i;
  };
  const from = at(range?.fromBytes, '--from', 0);
  const to = at(range?.toBytes, '--to', ladder.length - 1);
  if (from > to)
    throw inputError(
      `--from ${transferSizeText(ladder[from]!)} is larger than --to ${transferSizeText(ladder[to]!)}: the sweep goes from the smaller transfer size up to the larger`,
    );
  return ladder.slice(from, to + 1);
}

function point(bs: number, of: (rw: 'read' | 'write') => StepOutcome | undefined): SweepPoint {
  const w = of('write')?.result;
  const r = of('read')?.result;
  const p: SweepPoint = { bs, writeMBps: w?.mbps ?? 0, readMBps: r?.mbps ?? 0, writeIops: w?.iops ?? 0, readIops: r?.iops ?? 0 };
  const buffered = [w, r].filter((x) => x && x.cacheMode.startsWith('buffered'));
  if (buffered.length) {
    p.cacheMode = buffered[0]!.cacheMode;
    const note = buffered.find((x) => x!.cacheNote)?.cacheNote;
    if (note) p.cacheNote = note;
  }
  return p;
}

/** The smallest size reaching FULL_SPEED_SHARE of the top MB/s in one direction, and the top. */
export function fullSpeed(points: readonly SweepPoint[], dir: 'read' | 'write'): { bs: number; topMBps: number } | undefined {
  const pick = (p: SweepPoint): number => (dir === 'read' ? p.readMBps : p.writeMBps);
  const top = Math.max(0, ...points.map(pick));
  if (!(top > 0)) return undefined;
  const first = points.find((p) => pick(p) >= FULL_SPEED_SHARE * top)!;
  return { bs: first.bs, topMBps: top };
}

export function sweepSection(plan: Plan, outcomes: readonly StepOutcome[]): SweepSection {
  const sizes = [...new Set(plan.steps.map((s) => s.spec.bs))];
  const runNumbers = [...new Set(outcomes.map((o) => o.run))];
  const runs = runNumbers.map((run) => {
    const points = sizes.map((bs) =>
      point(bs, (rw) => outcomes.find((o) => o.run === run && o.step.spec.bs === bs && o.step.spec.rw === rw)),
    );
    const read = fullSpeed(points, 'read');
    const write = fullSpeed(points, 'write');
    return { run, points, ...(read ? { fullSpeedRead: read } : {}), ...(write ? { fullSpeedWrite: write } : {}) };
  });
  const s = plan.settings;
  return {
    preset: (s.preset ?? 'standard') as SweepPreset,
    sizes,
    qd: plan.steps[0]!.spec.qd,
    ...(s.seconds !== undefined ? { stepSeconds: s.seconds } : { stepBytes: plan.fileSize }),
    runs,
  };
}

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
