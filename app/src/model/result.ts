// The versioned result document (DESIGN.md, "A result document"): its types. Every screen,
// export and share image is a view of these documents, so a field added here is a promise kept
// forever — change the shape only by bumping `schema`. The builder is core/result.ts.
import type { CheckSection } from './check.js';
import type { CacheMode, CacheRequest, DataPattern, EngineSpec, HashAlgo, LatencyUs, Rw, SeriesPoint } from './engine-types.js';
import type { CipherSection, TargetEncryption } from './cipher/types.js';
import type { BottleneckClaim } from './verdict/bottleneck.js';
import type { FilesPreset } from './file-set.js';
import type { HostInfo } from './host.js';
import type { LinkInfo } from './link-types.js';
import type { NetworkPath } from './network.js';
import type { PlanSettings } from './plan.js';
import type { Spread } from './stats.js';
import type { FigureInterval, SettleOutcome } from './precision.js';

export type FlagSeverity = 'warning' | 'info';

export const RESULT_SCHEMA = 1 as const;

export interface ResultFlag {
  code: string;
  /** Plain words, naming the figures that raised it. */
  message: string;
  /** What to do about it. */
  fix: string;
  /** 'warning': the figures are probably not the disk's; 'info': worth knowing. Absent: warning. */
  severity?: FlagSeverity;
}

export interface ResultTest {
  name: string;
  rw: Rw;
  bs: number;
  qd: number;
  threads: number;
  bytes: number;
  seconds: number;
  /** bytes / seconds / 10^6 */
  mbps: number;
  iops: number;
  latencyUs: Omit<LatencyUs, 'min'> & { min?: number };
  series: SeriesPoint[];
  cacheMode: CacheMode;
  cacheNote?: string;
  /** 1-based run number when a plan is repeated. */
  run: number;
  ioEngine?: string;
  alignment?: number;
  prepareSeconds?: number;
  warmupSeconds?: number;
  flushSeconds?: number;
  /** The spec the engine ran, defaults filled in (the test file's path left out). */
  spec: Omit<EngineSpec, 'path'>;
  /** The 95 % interval of mbps from the step's own series (batch means); absent under 1 s of series. */
  interval?: FigureInterval;
  /** Present when the step ran under the stop rule (the Fast profile, --precision). */
  settle?: SettleOutcome;
}

export interface ResultTarget {
  /** The folder the user chose. */
  path: string;
  /** The volume's label, or its mount point when it has none. */
  volume: string;
  mountPoint: string;
  fs: string;
  encrypted?: boolean;
  /** How it is encrypted, when DiskDial could tell (fscrypt folder, dm-crypt volume). */
  encryption?: TargetEncryption;
  mountOptions: string[];
  totalBytes: number;
  /** Free space before the test. */
  freeBytes: number;
  device: {
    model: string;
    serial?: string;
    bus: string;
    /** The link as a user would name it: LinkInfo's label, or sysfs's raw words without one. */
    link?: string;
    /** The link in full: kind, ceiling, typical speeds (absent when detection found none). */
    linkInfo?: LinkInfo;
    firmware?: string;
    /** The block device or mount source, e.g. /dev/sda1. */
    node?: string;
    removable?: boolean;
    rotational?: boolean;
  };
  /** A network share: protocol and version, server and share, the interface and its ceiling. */
  network?: NetworkPath;
}

/** One figure across runs: the spread, and the best run (highest for rates, lowest for latency). */
export interface RunStat extends Spread {
  best: number;
}

/** One test name across the runs of a repeated plan (CrystalDiskMark reports the best; the
 *  wizard's reports use mean and spread). */
export interface StepSummary {
  name: string;
  rw: Rw;
  runs: number;
  mbps: RunStat;
  iops: RunStat;
  /** Mean latency and p99 latency, µs. */
  meanUs: RunStat;
  p99Us: RunStat;
  /** The 95 % interval of the mean MB/s across the runs (Student t). */
  mbpsInterval?: FigureInterval;
}

/** A straight line through (bytes, seconds): the slope is the sustained rate, the intercept the
 *  fixed cost each file pays whatever its size. */
export interface FileFit {
  /** 1 / slope, MB/s. */
  rateMBps: number;
  /** The intercept, ms. */
  overheadMs: number;
  /** Seconds per byte, and seconds. */
  slope: number;
  intercept: number;
  /** Least squares only. */
  r2?: number;
}

export interface FilesPassStats {
  files: number;
  bytes: number;
  /** Sum of the files' timed seconds. */
  seconds: number;
  /** bytes / seconds: the aggregate rate. */
  mbps: number;
  /** Of the per-file rates: mean, median and 20 % trimmed mean (20 % dropped at each end). */
  meanMBps: number;
  medianMBps: number;
  trimmedMeanMBps: number;
  theilSen?: FileFit;
  leastSquares?: FileFit;
}

export interface FileItem {
  name: string;
  bytes: number;
  /** 1-based positions in the write and read orders. */
  writeOrder: number;
  readOrder: number;
  write?: { seconds: number; mbps: number };
  read?: { seconds: number; mbps: number };
}

/** The many-file (Stibium-style) test. */
export interface FilesSection {
  preset: FilesPreset;
  /** The set actually used; `requested` is what the preset or user asked for. */
  count: number;
  minBytes: number;
  maxBytes: number;
  seed: number;
  totalBytes: number;
  requested: { count: number; minBytes: number; maxBytes: number };
  /** Set when free space was short and the set was scaled down, in plain words. */
  scaled?: string;
  runs: FilesRun[];
}

export interface FilesRun {
  run: number;
  items: FileItem[];
  write: FilesPassStats;
  read: FilesPassStats;
}

export interface HashRate {
  bytes: number;
  seconds: number;
  /** bytes / seconds / 10^6 */
  mbps: number;
}

/** The hash test (Dintch-style): how fast one file streams in, and gets its digest. */
export interface HashSection {
  algo: HashAlgo;
  /** The crypto library: "OpenSSL 3.0.22 … (libcrypto)", "CommonCrypto (macOS)", "Windows CNG (BCrypt)". */
  provider: string;
  file: {
    /** The file hashed (a generated test file's path is where it was, inside the test folder). */
    path: string;
    bytes: number;
    /** True when DiskDial wrote it for the test (and removed it afterwards). */
    generated: boolean;
  };
  /** The file's digest, lowercase hex. */
  digest: string;
  /** Uncached read alone: the storage's rate. */
  read: HashRate & { cacheMode: CacheMode; cacheNote?: string };
  /** Uncached read with hashing on another thread, `buffers` chunks in flight. */
  readHash: HashRate & {
    cacheMode: CacheMode;
    cacheNote?: string;
    chunkBytes: number;
    buffers: number;
    /** The reader waited for the hasher (CPU behind) / the hasher for the reader (disk behind). */
    readerWaitSeconds: number;
    hasherWaitSeconds: number;
  };
  /** Hashing in memory, one stream on one core: the CPU's ceiling for one file. */
  memory: HashRate & { threads: 1 };
  /** Hashing in memory, one stream per core, all together. */
  memoryParallel: HashRate & { threads: number };
  verdict: {
    /** The bottleneck verdict (model/verdict/bottleneck.ts): storage: the disk is the limit; cpu:
     *  hashing; cipher: the encryption; link: the interface; balanced: two ceilings within 15 %
     *  of read + hash; none: no ceiling within 15 %. */
    bound: 'storage' | 'cpu' | 'balanced' | 'cipher' | 'link' | 'none';
    /** The same verdict as data: outcome, figures (MB/s by limit), rule. */
    claim?: BottleneckClaim;
    /** The faster of reading and one-core hashing over the slower (≥ 1). */
    factor: number;
    /** read + hash over the slower of the two: how close the pipeline came to its limit. */
    efficiency: number;
    /** In plain words: "CPU-bound by 2.5×: …". */
    text: string;
  };
  verify?: HashVerification;
}

export interface HashVerification {
  /** The expected digest, lowercase hex. */
  expected: string;
  /** 'pasted', or the checksum file it came from. */
  source: string;
  match: boolean;
  /** "Matches the SHA-256 in SHA256SUMS." / "Does NOT match …". */
  text: string;
}

/** The sections of the kinds that have a folder: each kinds/<kind>/result.ts declares its own by
 *  merging into this interface, so this file names none of them. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface KindSections {}

export interface ResultDocument extends KindSections {
  schema: typeof RESULT_SCHEMA;
  id: string;
  /** The kind's id (model/kinds/registry.ts), or one a newer version knows. */
  kind: string;
  label?: string;
  startedAt: string;
  finishedAt: string;
  app: { version: string; engine: string };
  host: HostInfo;
  target: ResultTarget;
  settings: PlanSettings & { runs: number; cache: CacheRequest; restSeconds?: number; intervalSeconds?: number };
  /** The weakest cache mode any test achieved: one buffered test taints the set. */
  cacheMode: CacheMode;
  dataPattern: DataPattern;
  flags: ResultFlag[];
  tests: ResultTest[];
  /** Per test name across runs (present when a plan ran more than once). */
  summary?: StepSummary[];
  files?: FilesSection;
  hash?: HashSection;
  /** The folder check: its manifest, what changed, how fast. */
  check?: CheckSection;
  /** The cipher ceiling: the `cipher` kind's result, and measured once per wizard plan for its
   *  encrypted formats (model/cipher/types.ts). */
  cipher?: CipherSection;
  /** What the plan changed from what was asked, in plain words (e.g. scaled to free space). */
  notes?: string[];
  /** Readings around the test, where the OS exposes them. */
  context?: ResultContext;
  /** Made by the format-and-compare wizard: its plan and the format tested. */
  campaign?: ResultCampaign;
}

/** A result document made by the wizard says which plan and format it belongs to; one made by a
 *  setup campaign (model/campaign.ts), which campaign and setup (`format` is the setup's key). */
export interface ResultCampaign {
  planId: string;
  format: string;
  formatLabel: string;
  /** 'setups': the rows are setups a person named, not file systems (absent: formats). */
  of?: 'setups';
  /** 'common': the plan's common-mode pass (through the page cache, flushed: as applications
   *  see it), made so every format has a row in one mode; absent: the plan's own pass. */
  pass?: 'common';
}

export interface ResultContext {
  /** The drive's temperature before the first test and after the last, °C. */
  temperatureC?: { before?: number; after?: number };
  /** What else the machine did while the tests ran (model/verdict/busy.ts judges it). */
  machine?: MachineLoad;
}

/** The machine's load over the timed tests: the CPU time the test's own processes used against
 *  what other programs used, and the load average. Seconds are summed over the tests' own time. */
export interface MachineLoad {
  /** Logical CPUs. */
  cores: number;
  /** Wall-clock seconds the tests ran (pauses between them left out). */
  wallSeconds: number;
  /** CPU seconds of DiskDial's processes: this one and its children (the engine host). */
  ownCpuSeconds: number;
  /** CPU seconds of every other program (kernel threads doing the test's I/O left out on Linux). */
  othersCpuSeconds: number;
  /** CPU seconds the whole machine was busy, all cores together (kernel threads included). */
  machineCpuSeconds: number;
  /** The highest 1-minute load average seen at a test's start or end (0 where the OS has none). */
  loadMax: number;
  /** Threads the test itself runs (the engine's I/O threads and this process's one). */
  ownThreads: number;
  /** 'proc': per process from /proc (Linux); 'node': the machine's CPU times minus this process's
   *  (elsewhere: an engine host child counts as another program there). */
  source: 'proc' | 'node';
}

// Strongest first: direct I/O and macOS F_NOCACHE both bypass the cache.
const CACHE_ORDER: readonly CacheMode[] = ['direct', 'nocache', 'buffered-flushed', 'buffered'];

export function weakestCacheMode(modes: readonly CacheMode[]): CacheMode {
  let worst = 0;
  for (const m of modes) worst = Math.max(worst, CACHE_ORDER.indexOf(m));
  return CACHE_ORDER[worst] ?? 'buffered';
}
