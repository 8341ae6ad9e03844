// Test plans: which engine specs a named test runs, in what order, on one test file. The
// numbers copy the tools people compare against — Blackmagic Disk Speed Test for `quick`,
// CrystalDiskMark's defaults for `cdm`, fio-style single tests for the rest — so a DiskDial
// figure can be held next to theirs.
import type { CacheRequest, DataPattern, EngineSpec, Rw } from './engine-types.js';
import { inputError } from './errors.js';
import { blockLabel, formatBytesBinary } from './units.js';

export const TEST_KINDS = ['quick', 'cdm', 'seq-write', 'seq-read', 'rand-read', 'rand-write', 'mix'] as const;
export type TestKind = (typeof TEST_KINDS)[number];

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
}

export interface Plan {
  kind: TestKind;
  /** Size of the one test file every step uses. */
  fileSize: number;
  steps: PlanStep[];
  /** The settings the plan was built from, echoed into the result document. */
  settings: PlanSettings;
}

export interface PlanOptions {
  size?: number;
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

export interface PlanSettings {
  size: number;
  bs?: number;
  qd?: number;
  threads?: number;
  pattern: DataPattern;
  seconds?: number;
  warmupSeconds?: number;
  cache: CacheRequest;
  rwmixread?: number;
}

/** Default test-file size per test: Blackmagic's smallest stress size is "1GB" (10^9 bytes);
 *  CrystalDiskMark's default is 1 GiB. */
export const DEFAULT_SIZE: Record<TestKind, number> = {
  quick: 1e9,
  cdm: GiB,
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
}

function stepName(prefix: 'SEQ' | 'RND', bs: number, qd: number, threads: number, what: string): string {
  return `${prefix}${blockLabel(bs)} Q${qd}T${threads} ${what}`;
}

/**
 * Builds the plan for a test. The file size is rounded down to a whole number of blocks (and of
 * blocks per thread for sequential slices) so every I/O is full-sized and aligned.
 */
export function buildPlan(kind: TestKind, o: PlanOptions = {}): Plan {
  validatePlanOptions(o);
  const pattern = o.pattern ?? 'random';
  const cache = o.cache ?? 'auto';
  const requested = o.size ?? DEFAULT_SIZE[kind];

  // Bounds of the measured phase. A time limit, the preset's own (CDM's 5 s) or one the user
  // asks for, is a duration: the engine keeps going over the test file until it ends, so a fast
  // drive is measured for as long as a slow one.
  type Bounds = Pick<EngineSpec, 'pattern' | 'cache' | 'seconds' | 'bytes' | 'warmupSeconds'>;
  const common = (presetSeconds: number | undefined): Bounds => {
    const c: Bounds = { pattern, cache };
    if (o.seconds !== undefined) c.seconds = o.seconds;
    else if (presetSeconds !== undefined) c.seconds = presetSeconds;
    if (o.warmupSeconds !== undefined) c.warmupSeconds = o.warmupSeconds;
    return c;
  };

  const largestBs = kind === 'cdm' ? MiB : (o.bs ?? (kind.startsWith('rand') || kind === 'mix' ? 4 * KiB : MiB));
  const largestThreads = kind === 'cdm' ? 1 : (o.threads ?? 1);
  const unit = largestBs * largestThreads;
  const fileSize = Math.floor(requested / unit) * unit;
  if (fileSize < unit) {
    throw inputError(
      `test size ${formatBytesBinary(requested)} is smaller than one block per thread (${formatBytesBinary(unit)})`,
    );
  }

  const steps: PlanStep[] = [];
  const one = (name: string, rw: Rw, bs: number, qd: number, threads: number, seconds: number | undefined, keepFile: boolean): void => {
    const spec: Omit<EngineSpec, 'path'> = { rw, bs, qd, threads, fileSize, ...common(seconds), keepFile };
    if (rw === 'randrw') spec.rwmixread = o.rwmixread ?? 70;
    steps.push({ name, spec });
  };

  switch (kind) {
    case 'quick': {
      // Blackmagic: write the stress file with large blocks, then read it back.
      const bs = o.bs ?? MiB;
      const qd = o.qd ?? 8;
      const threads = o.threads ?? 1;
      one('Write', 'write', bs, qd, threads, undefined, true);
      one('Read', 'read', bs, qd, threads, undefined, false);
      break;
    }
    case 'cdm': {
      // CrystalDiskMark's default set, each read then write, on one laid-out file. Its block
      // sizes and queue depths are the preset, so --bs/--qd/--threads do not apply here.
      const rows: Array<['SEQ' | 'RND', number, number]> = [
        ['SEQ', MiB, 8],
        ['SEQ', MiB, 1],
        ['RND', 4 * KiB, 32],
        ['RND', 4 * KiB, 1],
      ];
      rows.forEach(([kindPrefix, bs, qd], i) => {
        const seq = kindPrefix === 'SEQ';
        one(stepName(kindPrefix, bs, qd, 1, 'Read'), seq ? 'read' : 'randread', bs, qd, 1, CDM_SECONDS, true);
        one(stepName(kindPrefix, bs, qd, 1, 'Write'), seq ? 'write' : 'randwrite', bs, qd, 1, CDM_SECONDS, i < rows.length - 1);
      });
      break;
    }
    case 'seq-write':
    case 'seq-read': {
      const bs = o.bs ?? MiB;
      const qd = o.qd ?? 8;
      const threads = o.threads ?? 1;
      const write = kind === 'seq-write';
      one(stepName('SEQ', bs, qd, threads, write ? 'Write' : 'Read'), write ? 'write' : 'read', bs, qd, threads, undefined, false);
      break;
    }
    case 'rand-read':
    case 'rand-write': {
      const bs = o.bs ?? 4 * KiB;
      const qd = o.qd ?? 32;
      const threads = o.threads ?? 1;
      const write = kind === 'rand-write';
      one(stepName('RND', bs, qd, threads, write ? 'Write' : 'Read'), write ? 'randwrite' : 'randread', bs, qd, threads, RANDOM_SECONDS, false);
      break;
    }
    case 'mix': {
      const bs = o.bs ?? 4 * KiB;
      const qd = o.qd ?? 32;
      const threads = o.threads ?? 1;
      const mix = o.rwmixread ?? 70;
      one(stepName('RND', bs, qd, threads, `Mix ${mix}/${100 - mix}`), 'randrw', bs, qd, threads, RANDOM_SECONDS, false);
      break;
    }
  }

  const settings: PlanSettings = { size: fileSize, pattern, cache };
  for (const k of ['bs', 'qd', 'threads', 'seconds', 'warmupSeconds', 'rwmixread'] as const) {
    if (o[k] !== undefined) settings[k] = o[k];
  }
  return { kind, fileSize, steps, settings };
}
