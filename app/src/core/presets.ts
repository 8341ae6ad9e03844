// Test plans: which engine specs a named test runs, in what order, on one test file. The
// numbers copy the tools people compare against — Blackmagic Disk Speed Test for `quick`,
// CrystalDiskMark's defaults for `cdm`, fio-style single tests for the rest — so a DiskDial
// figure can be held next to theirs.
//
// The detailed tests add two plans whose shape depends on the target: `sustained` writes one file
// as large as asked or as free space allows, and `files` writes and reads a Stibium-style set of
// files (file-set.ts), scaled down when free space is short.
import type { CacheRequest, DataPattern, EngineSpec, Rw } from '../model/engine-types.js';
import { inputError } from '../model/errors.js';
import {
  DEFAULT_FILES_SEED,
  FILES_PRESET_OPTIONS,
  fitFileSet,
  MIN_SCALED_FILES,
  validateFileSetOptions,
  type FileSet,
  type FileSetOptions,
  type FilesPreset,
} from '../model/file-set.js';
import { defaultReserve, fitTest, type Fit, type FitInput } from '../model/fit.js';
import { TEST_KINDS, type CdmMode, type PlanSettings, type TestKind } from '../model/plan.js';
import { blockLabel, formatBytes, formatBytesBinary } from '../model/units.js';

export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

export const MIN_BS = 512;
export const MAX_BS = 64 * MiB;
export const MAX_QD = 64;
export const MAX_THREADS = 64;

/** One step of a plan: the engine spec without a path (the runner owns the file). */
export interface PlanStep {
  /** "SEQ1M Q8T1 Read", "Write" … */
  name: string;
  spec: Omit<EngineSpec, 'path'>;
  /** The file in the workspace this step uses; absent: the plan's one shared test file. */
  file?: string;
  /** files test: which file of the set (FileSet.entries index) and which pass. */
  fileIndex?: number;
  pass?: 'write' | 'read';
}

export interface Plan {
  kind: TestKind;
  /** Size of the one test file every step uses (files test: the set's total). */
  fileSize: number;
  /** Bytes the plan writes to the target at most at one time: checked against free space. */
  needBytes: number;
  steps: PlanStep[];
  /** The settings the plan was built from, echoed into the result document. */
  settings: PlanSettings;
  /** Things the plan changed from what was asked, in plain words (e.g. scaled to free space). */
  notes: string[];
  /** files test: the set of files. */
  fileSet?: FileSet;
  /** files test: set when free space was short and the set was scaled down, in plain words. */
  scaled?: string;
  /** sustained test: how the size was chosen. */
  sustained?: { requestedBytes: number; limitedBy: 'size' | 'free-space'; reserveBytes: number };
}

/** What the plan may need to know about the target (sustained and files size themselves to it). */
export interface PlanTarget {
  freeBytes: number;
  totalBytes: number;
}

export const CDM_PRESETS = ['default', 'nvme', 'peak', 'realworld'] as const;
export type CdmPreset = (typeof CDM_PRESETS)[number];
interface CdmRow {
  seq: boolean;
  bs: number;
  qd: number;
  threads: number;
}
const row = (seq: boolean, bs: number, qd: number, threads = 1): CdmRow => ({ seq, bs, qd, threads });
/** CrystalDiskMark 8's profiles: Default, NVMe SSD, Peak Performance, Real World Performance. */
export const CDM_PRESET_ROWS: Record<CdmPreset, readonly CdmRow[]> = {
  default: [row(true, 1 * 1024 * 1024, 8), row(true, 1024 * 1024, 1), row(false, 4096, 32), row(false, 4096, 1)],
  nvme: [row(true, 1024 * 1024, 8), row(true, 128 * 1024, 32), row(false, 4096, 32, 16), row(false, 4096, 1)],
  peak: [row(true, 1024 * 1024, 8), row(false, 4096, 32)],
  realworld: [row(true, 1024 * 1024, 1), row(false, 4096, 1)],
};
export const CDM_MIN_SIZE = 16 * 1024 * 1024;
export const CDM_MAX_SIZE = 64 * 1024 * 1024 * 1024;

/** Sustained write: how much to write at most by default, and what to leave free. */
export const SUSTAINED_DEFAULT_BYTES = 50e9;
export const SUSTAINED_MIN_BYTES = 64 * 1024 * 1024;
// The reserve a sized plan keeps lives with the fit rule every screen and the runner share.
export { defaultReserve } from '../model/fit.js';

export interface PlanOptions {
  /** Test-file size; sustained: the most to write; files: ignored (the set decides). */
  size?: number;
  /** cdm: CrystalDiskMark profile; files: quick, standard or custom. */
  preset?: CdmPreset | FilesPreset;
  /** cdm: which directions to run. */
  mode?: CdmMode;
  /** sustained and files: free space to leave untouched, bytes. */
  reserveBytes?: number;
  /** files: the set (count and sizes override the preset's, making it custom). */
  files?: Partial<FileSetOptions>;
  bs?: number;
  qd?: number;
  threads?: number;
  pattern?: DataPattern;
  seconds?: number;
  warmupSeconds?: number;
  cache?: CacheRequest;
  /** randrw: percentage of reads. */
  rwmixread?: number;
}

/** Default test-file size per test: Blackmagic's smallest stress size is "1GB" (10^9 bytes);
 *  CrystalDiskMark's default is 1 GiB. */
export const DEFAULT_SIZE: Record<TestKind, number> = {
  quick: 1e9,
  cdm: GiB,
  sustained: SUSTAINED_DEFAULT_BYTES,
  files: 0,
  'seq-write': GiB,
  'seq-read': GiB,
  'rand-read': GiB,
  'rand-write': GiB,
  mix: GiB,
};

/** CrystalDiskMark measures each test for 5 s by default. */
export const CDM_SECONDS = 5;
/** Random tests over a whole GiB at QD1 could take an hour on a hard disk: bound them by time. */
export const RANDOM_SECONDS = 5;

export function isPowerOfTwo(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0 && Number.isInteger(Math.log2(n));
}

export function isTestKind(s: string): s is TestKind {
  return (TEST_KINDS as readonly string[]).includes(s);
}

/** Checks options the engine would refuse, with messages a CLI user can act on. */
export function validatePlanOptions(o: PlanOptions): void {
  if (o.bs !== undefined && (!isPowerOfTwo(o.bs) || o.bs < MIN_BS || o.bs > MAX_BS)) {
    throw inputError(`block size ${o.bs} bytes is not allowed; use a power of two from 512 B to 64 MiB (e.g. 4KiB, 1MiB)`);
  }
  if (o.qd !== undefined && (!Number.isInteger(o.qd) || o.qd < 1 || o.qd > MAX_QD)) {
    throw inputError(`queue depth ${o.qd} is not allowed; use a whole number from 1 to ${MAX_QD}`);
  }
  if (o.threads !== undefined && (!Number.isInteger(o.threads) || o.threads < 1 || o.threads > MAX_THREADS)) {
    throw inputError(`thread count ${o.threads} is not allowed; use a whole number from 1 to ${MAX_THREADS}`);
  }
  if (o.size !== undefined && (!Number.isSafeInteger(o.size) || o.size <= 0)) {
    throw inputError(`test size ${o.size} is not allowed; use a size above zero, e.g. 1GiB`);
  }
  if (o.seconds !== undefined && (!Number.isFinite(o.seconds) || o.seconds <= 0)) {
    throw inputError(`seconds must be a number above zero`);
  }
  if (o.warmupSeconds !== undefined && (!Number.isFinite(o.warmupSeconds) || o.warmupSeconds < 0)) {
    throw inputError(`warm-up seconds must be zero or more`);
  }
  if (o.rwmixread !== undefined && (!Number.isInteger(o.rwmixread) || o.rwmixread < 0 || o.rwmixread > 100)) {
    throw inputError(`read percentage must be a whole number from 0 to 100`);
  }
  if (o.reserveBytes !== undefined && (!Number.isSafeInteger(o.reserveBytes) || o.reserveBytes < 0)) {
    throw inputError(`the free-space reserve must be zero or more bytes`);
  }
}

function stepName(prefix: 'SEQ' | 'RND', bs: number, qd: number, threads: number, what: string): string {
  return `${prefix}${blockLabel(bs)} Q${qd}T${threads} ${what}`;
}

/**
 * Builds the plan for a test. The file size is rounded down to a whole number of blocks (and of
 * blocks per thread for sequential slices) so every I/O is full-sized and aligned. `target` is
 * needed by the plans that size themselves to free space (sustained, files).
 */
export function buildPlan(kind: TestKind, o: PlanOptions = {}, target?: PlanTarget): Plan {
  validatePlanOptions(o);
  if (kind === 'sustained') return sustainedPlan(o, target);
  if (kind === 'files') return filesPlan(o, target);
  const pattern = o.pattern ?? 'random';
  const cache = o.cache ?? 'auto';
  const requested = o.size ?? DEFAULT_SIZE[kind];
  const common = bounds(o);

  const cdmRows = kind === 'cdm' ? CDM_PRESET_ROWS[cdmPreset(o.preset)] : [];
  if (kind === 'cdm' && (requested < CDM_MIN_SIZE || requested > CDM_MAX_SIZE)) {
    throw inputError(`test size ${formatBytesBinary(requested)} is outside CrystalDiskMark's range; use 16 MiB to 64 GiB`);
  }
  // One file serves every step, so it must hold a whole number of the largest block per thread.
  const unit =
    kind === 'cdm'
      ? Math.max(...cdmRows.map((r) => r.bs * r.threads))
      : (o.bs ?? (kind.startsWith('rand') || kind === 'mix' ? 4 * KiB : MiB)) * (o.threads ?? 1);
  const fileSize = Math.floor(requested / unit) * unit;
  if (fileSize < unit) {
    throw inputError(`test size ${formatBytesBinary(requested)} is smaller than one block per thread (${formatBytesBinary(unit)})`);
  }

  const steps: PlanStep[] = [];
  const one = (name: string, rw: Rw, bs: number, qd: number, threads: number, seconds: number | undefined): void => {
    const spec: Omit<EngineSpec, 'path'> = { rw, bs, qd, threads, fileSize, ...common(seconds), keepFile: true };
    if (rw === 'randrw' || rw === 'rw') spec.rwmixread = o.rwmixread ?? 70;
    steps.push({ name, spec });
  };
  const mix = o.rwmixread ?? 70;

  switch (kind) {
    case 'quick': {
      // Blackmagic: write the stress file with large blocks, then read it back.
      const bs = o.bs ?? MiB;
      const qd = o.qd ?? 8;
      const threads = o.threads ?? 1;
      one('Write', 'write', bs, qd, threads, undefined);
      one('Read', 'read', bs, qd, threads, undefined);
      break;
    }
    case 'cdm': {
      // CrystalDiskMark: the read column top to bottom, then the write column, then the mixes
      // (its "All" order), on one laid-out file. Block sizes, depths and threads are the
      // profile's, so --bs/--qd/--threads do not apply here.
      const mode = o.mode ?? 'readwrite';
      const passes: Array<'Read' | 'Write' | 'Mix'> =
        mode === 'readwrite'
          ? ['Read', 'Write']
          : mode === 'all'
            ? ['Read', 'Write', 'Mix']
            : mode === 'read'
              ? ['Read']
              : mode === 'write'
                ? ['Write']
                : ['Mix'];
      for (const p of passes) {
        for (const r of cdmRows) {
          const prefix = r.seq ? 'SEQ' : 'RND';
          if (p === 'Mix') {
            one(
              stepName(prefix, r.bs, r.qd, r.threads, `Mix ${mix}/${100 - mix}`),
              r.seq ? 'rw' : 'randrw',
              r.bs,
              r.qd,
              r.threads,
              CDM_SECONDS,
            );
          } else {
            const rw: Rw = r.seq ? (p === 'Read' ? 'read' : 'write') : p === 'Read' ? 'randread' : 'randwrite';
            one(stepName(prefix, r.bs, r.qd, r.threads, p), rw, r.bs, r.qd, r.threads, CDM_SECONDS);
          }
        }
      }
      break;
    }
    case 'seq-write':
    case 'seq-read': {
      const bs = o.bs ?? MiB;
      const qd = o.qd ?? 8;
      const threads = o.threads ?? 1;
      const write = kind === 'seq-write';
      one(stepName('SEQ', bs, qd, threads, write ? 'Write' : 'Read'), write ? 'write' : 'read', bs, qd, threads, undefined);
      break;
    }
    case 'rand-read':
    case 'rand-write': {
      const bs = o.bs ?? 4 * KiB;
      const qd = o.qd ?? 32;
      const threads = o.threads ?? 1;
      const write = kind === 'rand-write';
      one(stepName('RND', bs, qd, threads, write ? 'Write' : 'Read'), write ? 'randwrite' : 'randread', bs, qd, threads, RANDOM_SECONDS);
      break;
    }
    case 'mix': {
      const bs = o.bs ?? 4 * KiB;
      const qd = o.qd ?? 32;
      const threads = o.threads ?? 1;
      one(stepName('RND', bs, qd, threads, `Mix ${mix}/${100 - mix}`), 'randrw', bs, qd, threads, RANDOM_SECONDS);
      break;
    }
  }
  // The last step of a pass removes the file; every earlier one keeps it for the next.
  steps.at(-1)!.spec.keepFile = false;

  const settings = echoSettings(o, fileSize, pattern, cache);
  if (kind === 'cdm') {
    settings.preset = cdmPreset(o.preset);
    settings.mode = o.mode ?? 'readwrite';
  }
  return { kind, fileSize, needBytes: fileSize, steps, settings, notes: [] };
}

type Bounds = Pick<EngineSpec, 'pattern' | 'cache' | 'seconds' | 'bytes' | 'warmupSeconds'>;
/** Bounds of a measured phase. A time limit, the preset's own (CDM's 5 s) or one the user asks
 *  for, is a duration: the engine keeps going over the test file until it ends, so a fast drive
 *  is measured for as long as a slow one. */
function bounds(o: PlanOptions): (presetSeconds: number | undefined) => Bounds {
  return (presetSeconds) => {
    const c: Bounds = { pattern: o.pattern ?? 'random', cache: o.cache ?? 'auto' };
    if (o.seconds !== undefined) c.seconds = o.seconds;
    else if (presetSeconds !== undefined) c.seconds = presetSeconds;
    if (o.warmupSeconds !== undefined) c.warmupSeconds = o.warmupSeconds;
    return c;
  };
}

function echoSettings(o: PlanOptions, size: number, pattern: DataPattern, cache: CacheRequest): PlanSettings {
  const settings: PlanSettings = { size, pattern, cache };
  for (const k of ['bs', 'qd', 'threads', 'seconds', 'warmupSeconds', 'rwmixread'] as const) {
    if (o[k] !== undefined) settings[k] = o[k];
  }
  return settings;
}

function cdmPreset(p: PlanOptions['preset']): CdmPreset {
  if (p === undefined) return 'default';
  if (!(CDM_PRESETS as readonly string[]).includes(p)) {
    throw inputError(`the CrystalDiskMark preset must be one of ${CDM_PRESETS.join(', ')}, not "${p}"`);
  }
  return p as CdmPreset;
}

/** Usable bytes on the target: free space less the reserve. */
function usable(o: PlanOptions, target: PlanTarget | undefined, what: string): { usable: number; reserve: number } {
  if (!target) throw new Error(`internal: the ${what} plan needs the target's free space`);
  const reserve = o.reserveBytes ?? defaultReserve(target.totalBytes);
  return { usable: Math.max(0, target.freeBytes - reserve), reserve };
}

/**
 * Sustained write: one file, written once from start to end with large blocks, as big as asked
 * or as free space less the reserve allows, whichever is smaller. Not time-bounded: the point is
 * to write past the drive's fast cache, however long that takes.
 */
function sustainedPlan(o: PlanOptions, target: PlanTarget | undefined): Plan {
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
}

/**
 * Many-file test: every file of the set written (in the set's shuffled write order), then every
 * file read (in its read order), one engine step per file and pass, uncached, large blocks.
 */
function filesPlan(o: PlanOptions, target: PlanTarget | undefined): Plan {
  const preset = (o.preset ?? (o.files && Object.keys(o.files).length ? 'custom' : 'quick')) as FilesPreset;
  if (!['quick', 'standard', 'custom'].includes(preset)) {
    throw inputError(`the many-file preset must be quick, standard or custom, not "${preset}"`);
  }
  if (o.seconds !== undefined) throw inputError('the many-file test writes and reads whole files; --seconds does not apply');
  const base = preset === 'custom' ? FILES_PRESET_OPTIONS.standard : FILES_PRESET_OPTIONS[preset];
  const requested: FileSetOptions = {
    count: o.files?.count ?? base.count,
    minBytes: o.files?.minBytes ?? base.minBytes,
    maxBytes: o.files?.maxBytes ?? base.maxBytes,
    seed: o.files?.seed ?? DEFAULT_FILES_SEED,
  };
  validateFileSetOptions(requested);
  const maxBs = o.bs ?? MiB;
  const qd = o.qd ?? 8;
  const { usable: room, reserve } = usable(o, target, 'many-file');
  const { set, note } = fitFileSet(requested, room, maxBs);
  const pattern = o.pattern ?? 'random';
  const cache = o.cache ?? 'auto';
  const steps: PlanStep[] = [];
  const n = set.entries.length;
  const add = (pass: 'write' | 'read', order: number[]): void => {
    order.forEach((index, k) => {
      const e = set.entries[index]!;
      const spec: Omit<EngineSpec, 'path'> = {
        rw: pass,
        bs: e.bs,
        qd,
        threads: 1,
        fileSize: e.bytes,
        pattern,
        cache,
        // Written files stay for the read pass; the runner removes them all when the run ends.
        keepFile: true,
        seed: requested.seed + index,
      };
      steps.push({
        name: `${pass === 'write' ? 'Write' : 'Read'} file ${k + 1}/${n} (${formatBytes(e.bytes)})`,
        spec,
        file: e.name,
        fileIndex: index,
        pass,
      });
    });
  };
  add('write', set.writeOrder);
  add('read', set.readOrder);
  const settings = echoSettings(o, set.totalBytes, pattern, cache);
  settings.preset = preset;
  settings.reserveBytes = reserve;
  settings.files = { ...requested };
  return {
    kind: 'files',
    fileSize: set.totalBytes,
    needBytes: set.totalBytes,
    steps,
    settings,
    notes: note ? [note] : [],
    fileSet: set,
    ...(note ? { scaled: note } : {}),
  };
}

/** The smallest file set a many-file test runs with: MIN_SCALED_FILES files below 2 × minBytes
 *  (what fitFileSet halves the sizes down to). */
function leastFilesBytes(o: PlanOptions): number {
  const preset = (o.preset ?? 'quick') as FilesPreset;
  const base = FILES_PRESET_OPTIONS[preset === 'custom' ? 'standard' : preset] ?? FILES_PRESET_OPTIONS.quick;
  const count = o.files?.count ?? base.count;
  const minBytes = o.files?.minBytes ?? base.minBytes;
  return Math.min(MIN_SCALED_FILES, count) * 2 * minBytes;
}

/**
 * Whether a test with these options fits on the target, by the one rule in fit.ts, for every
 * screen's Start and the wizard's plan. A fixed-size test needs its file plus a small head-room
 * and is offered the largest size that fits; a sized one (sustained, many files) shrinks to free
 * space less its reserve and needs only its least. Invalid options throw as buildPlan does.
 */
export function fitPlan(
  kind: TestKind,
  o: PlanOptions,
  target: PlanTarget,
  show: Pick<FitInput, 'what' | 'choices' | 'sizeLabel'> = {},
): Fit {
  const common = { freeBytes: target.freeBytes, totalBytes: target.totalBytes, ...show };
  if (kind !== 'sustained' && kind !== 'files') {
    // The size asked is what the user sees; the plan may round it down to whole blocks.
    const plan = buildPlan(kind, o);
    return fitTest({
      ...common,
      needBytes: Math.max(plan.needBytes, o.size ?? 0),
      sizing: 'fixed',
      minBytes: kind === 'cdm' ? CDM_MIN_SIZE : 16 * MiB,
    });
  }
  const reserve = o.reserveBytes !== undefined ? { reserveBytes: o.reserveBytes } : {};
  try {
    const plan = buildPlan(kind, o, target);
    return fitTest({ ...common, ...reserve, needBytes: plan.needBytes, sizing: 'sized' });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err;
    const least = kind === 'sustained' ? Math.min(SUSTAINED_MIN_BYTES, o.size ?? SUSTAINED_DEFAULT_BYTES) : leastFilesBytes(o);
    // Sized tests take whatever room there is: no smaller size to offer.
    const f = fitTest({ ...common, ...reserve, needBytes: Math.max(least, 1), sizing: 'sized' });
    return { ...f, fits: false, largestBytes: 0, reason: f.reason ?? (err as Error).message };
  }
}
