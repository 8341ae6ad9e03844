// What a test kind plans: engine steps without a path (the runner owns the files), the settings
// echoed into the result, and the checks and bounds every kind's plan shares.
import type { CacheRequest, DataPattern, EngineSpec } from '../engine-types.js';
import { inputError } from '../errors.js';
import type { FileSet, FileSetOptions, FilesPreset } from '../file-set.js';
import { defaultReserve } from '../fit.js';
import { blockLabel, formatBytesBinary } from '../units.js';
import { SETTLE_MIN_SECONDS } from '../precision.js';

export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

export const MIN_BS = 512;
export const MAX_BS = 128 * MiB;
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
  kind: string;
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
}

/** What the plan may need to know about the target (the sized kinds fit themselves to it). */
export interface PlanTarget {
  freeBytes: number;
  totalBytes: number;
  /** A whole block device proven by the caller (no file system, nothing on it to keep): only a
   *  kind with `wholeDevice` plans for one, and its size is both numbers above. */
  wholeDevice?: true;
}

export const CDM_PRESETS = ['default', 'nvme', 'peak', 'realworld', 'fast'] as const;
export type CdmPreset = (typeof CDM_PRESETS)[number];
/** CrystalDiskMark's test modes: each row read then write (its default), one direction, a 70/30
 *  read/write mix, or all three. */
/** Every kind's --preset words. */
/** A kind's --preset word; each kind's plan checks its own (kinds/<kind>/plan.ts says which). */
export type KindPreset = CdmPreset | FilesPreset | (string & {});

export const CDM_MODES = ['readwrite', 'read', 'write', 'mix', 'all'] as const;
export type CdmMode = (typeof CDM_MODES)[number];

/** The options a kind with a folder adds (kinds/<kind>/plan.ts declares them by merging into this
 *  interface, so the runner and the CLI pass them on without naming the kind). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KindPlanOptions {}

export interface PlanOptions extends KindPlanOptions {
  /** Test-file size; a sized kind: the most to write; files: ignored (the set decides). */
  size?: number;
  /** cdm: CrystalDiskMark profile; files: quick, standard or custom. */
  preset?: KindPreset;
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
  /** The stop rule: end each step once its 95 % interval is within ± this fraction (0.03). */
  precision?: number;
}

/** The settings a kind with a folder echoes into the result (merged in as KindPlanOptions is). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KindPlanSettings {}

export interface PlanSettings extends KindPlanSettings {
  size: number;
  preset?: string;
  mode?: CdmMode;
  reserveBytes?: number;
  files?: FileSetOptions;
  bs?: number;
  qd?: number;
  threads?: number;
  pattern: DataPattern;
  seconds?: number;
  warmupSeconds?: number;
  cache: CacheRequest;
  rwmixread?: number;
  precision?: number;
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0 && Number.isInteger(Math.log2(n));
}

/** Checks options the engine would refuse, with messages a CLI user can act on. */
export function validatePlanOptions(o: PlanOptions): void {
  if (o.bs !== undefined && (!isPowerOfTwo(o.bs) || o.bs < MIN_BS || o.bs > MAX_BS)) {
    throw inputError(`block size ${o.bs} bytes is not allowed; use a power of two from 512 B to 128 MiB (e.g. 4KiB, 1MiB)`);
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
  if (o.precision !== undefined && !(o.precision >= 0.001 && o.precision <= 0.5)) {
    throw inputError(`the precision must be from 0.1 % to 50 %`);
  }
  if (o.reserveBytes !== undefined && (!Number.isSafeInteger(o.reserveBytes) || o.reserveBytes < 0)) {
    throw inputError(`the free-space reserve must be zero or more bytes`);
  }
}

export function stepName(prefix: 'SEQ' | 'RND', bs: number, qd: number, threads: number, what: string): string {
  return `${prefix}${blockLabel(bs)} Q${qd}T${threads} ${what}`;
}

export type Bounds = Pick<EngineSpec, 'pattern' | 'cache' | 'seconds' | 'bytes' | 'warmupSeconds' | 'settle'>;
/** Bounds of a measured phase. A time limit, the preset's own (CDM's 5 s) or one the user asks
 *  for, is a duration: the engine keeps going over the test file until it ends, so a fast drive
 *  is measured for as long as a slow one. */
export function bounds(o: PlanOptions): (presetSeconds: number | undefined) => Bounds {
  return (presetSeconds) => {
    const c: Bounds = { pattern: o.pattern ?? 'random', cache: o.cache ?? 'auto' };
    if (o.seconds !== undefined) c.seconds = o.seconds;
    else if (presetSeconds !== undefined) c.seconds = presetSeconds;
    if (o.warmupSeconds !== undefined) c.warmupSeconds = o.warmupSeconds;
    // The stop rule ends the step early; its time or bytes stay the most it runs.
    if (o.precision !== undefined) c.settle = { precision: o.precision, minSeconds: SETTLE_MIN_SECONDS };
    return c;
  };
}

export function echoSettings(o: PlanOptions, size: number, pattern: DataPattern, cache: CacheRequest): PlanSettings {
  const settings: PlanSettings = { size, pattern, cache };
  for (const k of ['bs', 'qd', 'threads', 'seconds', 'warmupSeconds', 'rwmixread', 'precision'] as const) {
    if (o[k] !== undefined) settings[k] = o[k];
  }
  return settings;
}

/** Usable bytes on the target: free space less the reserve. */
export function usable(o: PlanOptions, target: PlanTarget | undefined, what: string): { usable: number; reserve: number } {
  if (!target) throw new Error(`internal: the ${what} plan needs the target's free space`);
  const reserve = o.reserveBytes ?? defaultReserve(target.totalBytes);
  return { usable: Math.max(0, target.freeBytes - reserve), reserve };
}

/** A plan on one shared test file of `requested` bytes, rounded down to whole `unit`s; `add`
 *  lists the steps. The last step removes the file, every earlier one keeps it for the next. */
export function oneFilePlan(
  kind: string,
  o: PlanOptions,
  requested: number,
  unit: number,
  add: (step: (name: string, rw: EngineSpec['rw'], bs: number, qd: number, threads: number, seconds: number | undefined) => void) => void,
): Plan {
  const fileSize = Math.floor(requested / unit) * unit;
  if (fileSize < unit) {
    throw inputError(`test size ${formatBytesBinary(requested)} is smaller than one block per thread (${formatBytesBinary(unit)})`);
  }
  const common = bounds(o);
  const steps: PlanStep[] = [];
  add((name, rw, bs, qd, threads, seconds) => {
    const spec: Omit<EngineSpec, 'path'> = { rw, bs, qd, threads, fileSize, ...common(seconds), keepFile: true };
    if (rw === 'randrw' || rw === 'rw') spec.rwmixread = o.rwmixread ?? 70;
    steps.push({ name, spec });
  });
  steps.at(-1)!.spec.keepFile = false;
  // The size asked for, as the user chose it (a 256 MB test is "256 MB", not the 244 MiB it runs
  // once aligned): each step's spec carries the file size used.
  const settings = echoSettings(o, requested, o.pattern ?? 'random', o.cache ?? 'auto');
  return { kind, fileSize, needBytes: fileSize, steps, settings, notes: [] };
}
