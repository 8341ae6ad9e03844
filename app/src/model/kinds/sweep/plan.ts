// The sweep's plan (ATTO's and QuickBench's question: from what transfer size on does this drive
// or share run at full speed?): for each size of a ladder, a sequential write then a sequential
// read of one shared test file, uncached, each step for a fixed time (--seconds) or a fixed volume
// (--size). The engine's ordinary sequential steps.
import type { EngineSpec } from '../../engine-types.js';
import { inputError } from '../../errors.js';
import { sizeText } from '../../report/figure-text.js';
import { blockLabel, formatBytes, formatBytesBinary } from '../../units.js';
import { bounds, echoSettings, KiB, MiB, stepName, type Plan, type PlanOptions, type PlanStep } from '../plan.js';

/** The ladders' names (--preset). */
export const SWEEP_PRESETS = ['standard', 'atto', 'quickbench'] as const;
export type SweepPreset = (typeof SWEEP_PRESETS)[number];

/** The part of the preset's ladder to run, from one transfer size to another (ATTO's start and
 *  end), bytes. */
export interface SweepRange {
  fromBytes?: number;
  toBytes?: number;
}

declare module '../plan.js' {
  interface KindPlanOptions {
    /** sweep: the part of the preset's ladder to run (--from, --to). */
    sweep?: SweepRange;
  }
}

const pow2 = (from: number, to: number): number[] => {
  const out: number[] = [];
  for (let s = from; s <= to; s *= 2) out.push(s);
  return out;
};

/** QuickBench's large-transfer steps, its "20, 40, 60, 80 and 100 MB", as whole MiB (direct I/O
 *  moves whole aligned blocks): 20 MiB is 20.97 MB. The result names the sizes that ran. */
export const QUICKBENCH_LARGE = [20, 40, 60, 80, 100].map((m) => m * MiB);

/** The ladders. ATTO Disk Benchmark's runs 512 B to 64 MiB with its 12, 24 and 48 MiB steps;
 *  QuickBench's spans 4 KB to 100 MB: powers of two to 16 MiB, then its 20–100 MB steps.
 *  512 B is uncached only where the file system's direct-I/O alignment is 512 B. */
export const SWEEP_LADDERS: Record<SweepPreset, readonly number[]> = {
  standard: pow2(4 * KiB, 64 * MiB),
  atto: [...pow2(512, 8 * MiB), 12 * MiB, 16 * MiB, 24 * MiB, 32 * MiB, 48 * MiB, 64 * MiB],
  quickbench: [...pow2(4 * KiB, 16 * MiB), ...QUICKBENCH_LARGE],
};

/** A headline figure a preset reports: the mean MB/s of the ladder's rows it names, per direction. */
export interface SweepAverageRule {
  /** Its key in the figures: "avg4K". */
  id: string;
  /** What its program calls it: "4 KB", "20–100 MB". */
  name: string;
  /** The rows it averages, bytes. */
  sizes: readonly number[];
}

/** QuickBench's two headline figures: the 4 KB average and the 20–100 MB average. Other ladders
 *  report none (their programs print no average). */
export const SWEEP_AVERAGES: Record<SweepPreset, readonly SweepAverageRule[]> = {
  standard: [],
  atto: [],
  quickbench: [
    { id: 'avg4K', name: '4 KB', sizes: [4 * KiB] },
    { id: 'avg20to100M', name: '20–100 MB', sizes: QUICKBENCH_LARGE },
  ],
};
/** ATTO's default queue depth is 4; the others stream one I/O at a time, as a file copy does. */
const PRESET_QD: Record<SweepPreset, number> = { standard: 1, atto: 4, quickbench: 1 };

export const SWEEP_STEP_SECONDS = 2;
/** The shared test file of a time-bound sweep: the largest step goes over it at least twice. */
export const TIMED_FILE_BYTES = 256 * MiB;
/** A range that ends lower (--to) runs over four of its largest transfer, never less than this:
 *  a look at small transfers on a slow share need not first lay out 256 MiB to read. */
const TIMED_FILE_MIN_BYTES = 64 * MiB;

/** Reads have a file of their own, laid out whole by the first read step: a time-bound write
 *  covers only part of its file (the engine sizes it sparse first), and reading the rest would
 *  read holes, which no disk is asked for (a throttled loop device "read" 4 KiB at 230 MB/s so). */
const WRITE_FILE = 'sweep-write.dat';
const READ_FILE = 'sweep-read.dat';

export function ladderText(sizes: readonly number[]): string {
  if (sizes.length === 0) return '';
  return `${transferSizeText(sizes[0]!)}–${transferSizeText(sizes.at(-1)!)}`;
}

/** 512 B, 4 KiB, 1 MiB, 100 MiB: the ladder's names. */
export function transferSizeText(bytes: number): string {
  const b = blockLabel(bytes);
  return b.endsWith('K') ? `${b.slice(0, -1)} KiB` : b.endsWith('M') ? `${b.slice(0, -1)} MiB` : `${b} B`;
}

export function sweepPlan(o: PlanOptions): Plan {
  const preset = (o.preset ?? 'standard') as SweepPreset;
  if (!SWEEP_PRESETS.includes(preset)) throw inputError(`the sweep preset must be ${SWEEP_PRESETS.join(', ')}, not "${preset}"`);
  if (o.size !== undefined && o.seconds !== undefined)
    throw inputError('give each step of the sweep a time (--seconds) or a volume (--size), not both');
  const sizes = ladderPart(preset, o.sweep);
  const top = sizes.at(-1)!;
  const qd = o.qd ?? PRESET_QD[preset];
  const byVolume = o.size !== undefined;
  const stepSeconds = byVolume ? undefined : (o.seconds ?? SWEEP_STEP_SECONDS);
  if (byVolume && !(Number.isSafeInteger(o.size) && o.size! >= top))
    throw inputError(
      `--size ${sizeText(o.size!)} is smaller than the sweep's largest transfer (${transferSizeText(top)}); use at least ${transferSizeText(top)}`,
    );
  // By volume each step moves the size asked, in the whole transfers nearest it (the engine
  // aligns the file to each step's transfer and goes over it again for the rest): "1 GB" moves
  // 1.000 GB at 4 KiB and 1.007 GB at 64 MiB, not the 896 MiB one file of whole 64 MiB would hold.
  // By time, one file the steps go over as often as their time takes.
  const fileSize = byVolume ? o.size! : Math.min(TIMED_FILE_BYTES, Math.max(TIMED_FILE_MIN_BYTES, 4 * top));
  const common = bounds(o)(stepSeconds);
  const steps: PlanStep[] = [];
  for (const bs of sizes) {
    for (const [rw, what] of [
      ['write', 'Write'],
      ['read', 'Read'],
    ] as const) {
      // Kept for the next size; the runner removes both files when the run ends.
      const spec: Omit<EngineSpec, 'path'> = { rw, bs, qd, threads: 1, fileSize, ...common, keepFile: true };
      if (byVolume) spec.bytes = stepVolume(fileSize, bs);
      steps.push({ name: stepName('SEQ', bs, qd, 1, what), spec, file: rw === 'write' ? WRITE_FILE : READ_FILE });
    }
  }
  // The size asked, as chosen: a step's volume is named "1 GB" (each step's spec has what it moves).
  const settings = echoSettings({ ...o, qd }, fileSize, o.pattern ?? 'random', o.cache ?? 'auto');
  settings.preset = preset;
  if (stepSeconds !== undefined) settings.seconds = stepSeconds;
  const notes: string[] = [];
  if (sizes[0]! < 4 * KiB)
    notes.push(
      '512 B to 2 KiB run uncached only where the file system takes direct I/O of that size; elsewhere those steps run buffered with the cache flushed, and say so.',
    );
  const large = QUICKBENCH_LARGE.filter((b) => sizes.includes(b));
  if (preset === 'quickbench' && large.length > 0) notes.push(largeStepsNote(large));
  if (byVolume) {
    const off = sizes.filter((bs) => Math.abs(stepVolume(fileSize, bs) - fileSize) > STEP_VOLUME_TOLERANCE * fileSize);
    if (off.length > 0) notes.push(stepVolumeNote(fileSize, off));
  }
  return { kind: 'sweep', fileSize, needBytes: 2 * fileSize, steps, settings, notes };
}

/** A step by volume moves within 1 % of the size asked, or its plan says what it moved. */
const STEP_VOLUME_TOLERANCE = 0.01;

/** What a step by volume moves: the whole transfers nearest the size asked, at least one. */
export function stepVolume(asked: number, bs: number): number {
  return Math.max(1, Math.round(asked / bs)) * bs;
}

/** "Each step moves whole transfers, the nearest to 1 GB: 1.05 GB at 100 MiB." */
export function stepVolumeNote(asked: number, off: readonly number[]): string {
  const each = off.map((bs) => `${formatBytes(stepVolume(asked, bs))} at ${transferSizeText(bs)}`);
  return `Each step moves whole transfers, the nearest to ${sizeText(asked)}: ${each.join(', ')}.`;
}

/** "QuickBench's 20–100 MB steps ran as 20, 40, 60, 80 and 100 MiB (20.97–104.86 MB)…": the
 *  sizes that really ran, said wherever the result is. */
export function largeStepsNote(large: readonly number[]): string {
  const mib = large.map((b) => b / MiB);
  const list = mib.length > 1 ? `${mib.slice(0, -1).join(', ')} and ${mib.at(-1)} MiB` : `${mib[0]} MiB`;
  const mb = (b: number): string => (b / 1e6).toFixed(2);
  const span = large.length > 1 ? `${mb(large[0]!)}–${mb(large.at(-1)!)} MB` : `${mb(large[0]!)} MB`;
  return `QuickBench's 20–100 MB steps ran as ${list} (${span}): whole MiB, so direct I/O takes them.`;
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
