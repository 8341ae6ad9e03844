// The contract between the native engine (native/src/bindings) and the Node side.
// Everything the addon accepts and returns is described here; the C++ side mirrors it in
// native/src/engine/spec.h and native/src/engine/result.h.
import type { TimedProgress } from './progress.js';
import type { SettleOutcome, SettleSpec } from './precision.js';

/** The access pattern of one test. */
/** `rw`: sequential with reads and writes mixed by rwmixread (fio's rw=rw, CrystalDiskMark's SEQ Mix). */
export type Rw = 'read' | 'write' | 'randread' | 'randwrite' | 'randrw' | 'rw';

/** What the caller asks for. `auto`: direct I/O, falling back to buffered-flushed when refused. */
export type CacheRequest = 'auto' | 'buffered-flushed' | 'buffered';

/** What was actually achieved. Every result carries this, never just what was asked. */
export type CacheMode = 'direct' | 'nocache' | 'buffered-flushed' | 'buffered';

/** `verify`: every 4 KiB block names itself (the run's seed, its block number, a checksum; the
 *  rest incompressible), and a read checks each block it reads (EngineResult.verify). */
export type DataPattern = 'random' | 'zeros' | 'verify';

/** One test, as the engine runs it. All sizes in bytes. */
export interface EngineSpec {
  /** Absolute path of the test file; its folder must exist (the workspace). */
  path: string;
  rw: Rw;
  /** Block size, 512 B – 128 MiB. */
  bs: number;
  /** Outstanding I/Os per thread, 1–64. */
  qd: number;
  /** Worker threads, 1–64. Sequential tests give each thread its own slice of the file. */
  threads: number;
  /** Size of the test file (the region I/O is spread over). */
  fileSize: number;
  /** Bytes to transfer in the measured phase. Without `seconds` it defaults to fileSize; with
   *  `seconds` it is an optional cap (absent: the test runs for the whole time, going over the
   *  file again as often as it takes). */
  bytes?: number;
  /** Time bound of the measured phase in seconds (0 or absent: bounded by bytes only). */
  seconds?: number;
  /** Seconds of I/O before measuring starts, excluded from every statistic. */
  warmupSeconds?: number;
  pattern: DataPattern;
  /** randrw and rw only: percentage of reads (0–100), default 70. */
  rwmixread?: number;
  cache: CacheRequest;
  /** Keep the file when the test ends (a following read test reuses it). Default false. */
  keepFile?: boolean;
  /** Seed for offsets and data; default: fixed, so runs are reproducible. */
  seed?: number;
  /** How often progress is reported, ms (default 100, min 20). */
  progressIntervalMs?: number;
  /** Width of one throughput-series bucket, ms (default 100). */
  seriesIntervalMs?: number;
  /** A frame-paced test (the video test): rw is read or write; bs, qd, threads and bytes are
   *  not used (each frame is one whole transfer). */
  paced?: PacedSpec;
  /** The small-file test: rw, bs, qd, threads and bytes are not used (each file is written and
   *  read whole, one at a time); files are <path>.000000, <path>.000001, … */
  smallFiles?: SmallFilesSpec;
  /** Pattern 'verify': this file's first block is block `baseBlock` of the run, so the blocks of
   *  every file of a run are numbered across the whole volume (engine 0.6 and later). */
  verify?: { baseBlock: number };
  /** The path is a whole block device the caller has proven and may overwrite: opened as it is,
   *  never created, resized or removed; fileSize 0 means the device's size. Linux only. */
  device?: boolean;
  /** device only: the test's region starts this many bytes into the device (a multiple of bs), so
   *  a whole device is verified in parts and a stop keeps the parts done (engine 0.7). */
  offset?: number;
  /** The stop rule (model/precision.ts): end the measured phase once its rate has settled. Read
   *  by the Node wrapper (core/engine.ts), which stops the engine; the addon ignores it. */
  settle?: SettleSpec;
}

/** How a block read back under pattern 'verify' went wrong. aliased: it holds another block of
 *  this run (the drive wraps); zeros/ones: all 0x00/0xFF (the write was lost); stale: other data
 *  (an older run, or garbage); corrupted: its own block with bits flipped. */
export type VerifyBad = 'aliased' | 'zeros' | 'ones' | 'stale' | 'corrupted';

/** Consecutive bad blocks of one kind (and, for aliased, one displacement held − block). */
export interface VerifyRun {
  /** The run's first block, numbered across the run (spec.verify.baseBlock + offset / 4096). */
  block: number;
  blocks: number;
  kind: VerifyBad;
  /** aliased: the block number the run's first block held. */
  held?: number;
  /** corrupted: bits wrong across the run. */
  bits?: number;
}

/** What a read under pattern 'verify' found, block by block (4 KiB blocks). */
export interface VerifyFigures {
  blockBytes: number;
  /** Blocks read and checked. */
  blocks: number;
  intact: number;
  aliased: number;
  zeros: number;
  ones: number;
  stale: number;
  corrupted: number;
  bitErrors: number;
  /** The bad runs in block order; at most 1,024 (runsTruncated: more were found). */
  runs: VerifyRun[];
  runsTruncated: boolean;
}

export interface SmallFilesSpec {
  /** 1 – 1,000,000 files. */
  files: number;
  /** Each file's size, 1 B – 64 MiB. */
  fileBytes: number;
}

/** One operation kind of the small-file test, its times in ms. */
export interface SmallFilesOpFigures {
  op: string;
  count: number;
  totalMs: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** What the small-file test measured: per operation kind, and per file (the sum of its
 *  operations). Payload rates are bytes over the write side (create … close) and the read side
 *  (open, read). */
export interface SmallFilesFigures {
  files: number;
  fileBytes: number;
  /** The sum of every timed operation. */
  seconds: number;
  filesPerSecond: number;
  msPerFile: number;
  fileP50Ms: number;
  fileP99Ms: number;
  writeMBps: number;
  readMBps: number;
  ops: SmallFilesOpFigures[];
}

/** Frame i is due at t0 + i / fps; a frame is dropped when `buffer` frames are outstanding at
 *  its due time, late when it completes more than one frame period after it. */
export interface PacedSpec {
  fps: number;
  /** Bytes per frame (rounded up to the direct-I/O alignment by the engine). */
  frameBytes: number;
  frames: number;
  /** stream: one growing file; frames: one file per frame (<path>.000000, …). */
  layout: 'stream' | 'frames';
  /** Frames that may be outstanding (a capture card's buffer), 1–256, default 4. */
  buffer?: number;
}

/** What a paced test measured. Frame times are completion − submit; `timeline` has one
 *  character a frame: '.' on time, 'L' late, 'D' dropped. */
export interface PacedFigures {
  frames: number;
  completed: number;
  late: number;
  dropped: number;
  /** The frame size used (rounded up to the alignment). */
  frameBytes: number;
  /** One frame period, ms. */
  budgetMs: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  /** Stdev of the intervals between successive frames' completions, ms. */
  jitterMs: number;
  /** The most any frame completed after its due time, ms. */
  worstLatenessMs: number;
  /** Due time of the first late or dropped frame, seconds from the start; absent: none. */
  firstLateSeconds?: number;
  timeline: string;
  /** Late frames this computer's own pauses explain, not the drive (engine 0.7 and later). */
  hostLate?: number;
  /** The longest this computer itself stood still during the run, ms (engine 0.7 and later). */
  longestPauseMs?: number;
}

export type EnginePhase = 'prepare' | 'warmup' | 'run' | 'flush';

export interface EngineProgress extends TimedProgress {
  phase: EnginePhase;
  /** A paced step's frames so far (engine 0.4 and later). */
  frames?: FrameCounts;
}

/** A paced test's frames so far, each counted once its fate is known: what the live strip draws
 *  (the difference between two progress events is that interval's frames). */
export interface FrameCounts {
  /** Frames whose due time has come. */
  due: number;
  onTime: number;
  /** Done more than one frame period after their due time. */
  late: number;
  /** Not submitted: the buffer was full. */
  dropped: number;
}

export interface LatencyUs {
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export interface SeriesPoint {
  /** End of the bucket, seconds since the measured phase started. */
  t: number;
  mbps: number;
}

/** The engine's latency histogram, non-empty buckets only (log-linear: within 1/64 of a value).
 *  Results of several tests pool by adding counts bucket by bucket (model/latency.ts). */
export interface LatencyHistogram {
  lowerNs: number[];
  widthNs: number[];
  counts: number[];
  minNs: number;
  maxNs: number;
}

export interface EngineResult {
  rw: Rw;
  bs: number;
  qd: number;
  threads: number;
  /** Bytes transferred in the measured phase (reads + writes). */
  bytes: number;
  bytesRead: number;
  bytesWritten: number;
  /** Length of the measured phase, including the final flush for writes. */
  seconds: number;
  /** bytes / seconds / 10^6 */
  mbps: number;
  /** Completed I/Os per second. */
  iops: number;
  ios: number;
  latencyUs: LatencyUs;
  /** Absent only from results recorded before engine 0.2 (or from a stand-in engine in tests). */
  latencyHistogram?: LatencyHistogram;
  series: SeriesPoint[];
  cacheMode: CacheMode;
  /** Why the cache mode is not `direct` (or the platform's equivalent), in plain words. */
  cacheNote?: string;
  /** The I/O mechanism used: 'libaio' (Linux kernel AIO), 'sync', 'threads'. */
  ioEngine: string;
  /** Alignment used for offsets, lengths and buffers (bytes). */
  alignment: number;
  dataPattern: DataPattern;
  /** Seconds spent laying out the file before measuring (not part of `seconds`). */
  prepareSeconds: number;
  warmupSeconds: number;
  /** The final flush, seconds (inside `seconds`). */
  flushSeconds: number;
  /** True when the test was stopped by cancel; the figures cover what was done. */
  cancelled: boolean;
  spec: EngineSpec;
  /** A paced spec's figures (engine 0.4 and later). */
  paced?: PacedFigures;
  /** A small-files spec's figures (engine 0.5 and later). */
  smallFiles?: SmallFilesFigures;
  /** A read under pattern 'verify': what it found (engine 0.6 and later). */
  verify?: VerifyFigures;
  engineVersion: string;
  /** A spec with `settle`: whether the stop rule ended the step (core/engine.ts adds it). */
  settle?: SettleOutcome;
}

/** A Node-style error from the engine. */
export interface EngineErrorFields {
  code: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

/** The raw addon module, as loaded. Use app/src/core/engine.ts, not this. */
export interface NativeAddon {
  version: string;
  /** Starts a test on the engine's own threads. `done` is called exactly once. */
  start(
    spec: EngineSpec,
    onProgress: ((p: EngineProgress) => void) | null,
    done: (err: (Error & EngineErrorFields) | null, result: EngineResult | null) => void,
  ): { cancel(): void };
  /** Direct-I/O alignment the file system reports for a folder, and where it came from. */
  ioAlignment(path: string): { offset: number; memory: number; source: string };
  /** Starts a hash measurement on the engine's own threads. `done` is called exactly once. */
  hash(
    spec: HashSpec,
    onProgress: ((p: HashProgress) => void) | null,
    done: (err: (Error & EngineErrorFields) | null, result: HashEngineResult | null) => void,
  ): { cancel(): void };
  /** The platform crypto library the engine hashes with. */
  cryptoProvider: string;
  /** Starts an in-memory encryption measurement (the cipher ceiling). `done` is called exactly once. */
  cipherBench?(
    spec: CipherSpec,
    onProgress: ((p: CipherProgress) => void) | null,
    done: (err: (Error & EngineErrorFields) | null, result: CipherEngineResult | null) => void,
  ): { cancel(): void };
}

// ---- hashing (the Hash test) ----------------------------------------------------------------

export type HashAlgo = 'sha256' | 'sha512';

/**
 * One hash measurement:
 * - `read`: stream the file in, uncached, and do nothing else (the storage's rate);
 * - `read-hash`: stream it in uncached on one thread while another hashes it, `buffers` chunks in
 *   flight between them (the rate a user gets when checking a download or a copied clip);
 * - `memory`: hash an in-memory buffer over and over on `threads` threads, one independent stream
 *   each (the CPU's ceiling: threads 1 for one stream, the core count for all of them).
 */
export type HashMode = 'read' | 'read-hash' | 'memory';

export interface HashSpec {
  mode: HashMode;
  algo: HashAlgo;
  /** read and read-hash: the file. Opened read-only; never modified. Anything but a regular file
   *  (a FIFO, device, socket, folder) is refused without blocking. */
  path?: string;
  /** read modes: false refuses a symbolic link instead of reading what it points to (a folder
   *  check lists links as skipped, so one swapped in after the listing is not read). Default true. */
  followLinks?: boolean;
  /** read modes: bytes per read (rounded up to the direct-I/O alignment), default 1 MiB. */
  chunkBytes?: number;
  /** read-hash: chunks in flight between reader and hasher, 2–64, default 4. */
  buffers?: number;
  /** read modes: 'auto' (uncached where the file system allows, else as 'buffered-flushed'),
   *  'buffered-flushed' (through the cache, the file's cached pages dropped first) or 'buffered'.
   *  Default 'auto'. */
  cache?: CacheRequest;
  /** memory: streams (threads), 1–256, default 1. */
  threads?: number;
  /** memory: how long to hash, seconds (default 2); the figure is bytes hashed / time. */
  seconds?: number;
  /** memory: size of the buffer each stream hashes over and over, default 1 MiB. */
  memoryBytes?: number;
  /** How often progress is reported, ms (default 100, min 20). */
  progressIntervalMs?: number;
}

/** bytesTotal: read modes the file's size, memory 0 (time-bound); secondsTotal: memory's run time. */
export interface HashProgress extends TimedProgress {
  mode: HashMode;
}

export interface HashEngineResult {
  mode: HashMode;
  algo: HashAlgo;
  /** Bytes read and/or hashed (all streams together for memory). */
  bytes: number;
  /** Wall time of the measured work: first read to last digest. */
  seconds: number;
  /** bytes / seconds / 10^6 */
  mbps: number;
  /** read-hash: the file's digest, lowercase hex. Absent otherwise. */
  digest?: string;
  /** read modes: the cache mode achieved, and why when not uncached. */
  cacheMode?: CacheMode;
  cacheNote?: string;
  chunkBytes?: number;
  buffers?: number;
  /** memory: streams used. */
  threads?: number;
  /** read-hash: seconds the reader waited for a free buffer (the hasher was behind: CPU-bound)
   *  and the hasher waited for data (the reader was behind: storage-bound). */
  readerWaitSeconds?: number;
  hasherWaitSeconds?: number;
  /** The crypto library: "OpenSSL 3.0.22 (libcrypto)", "CommonCrypto", "Windows CNG (BCrypt)". */
  provider: string;
  cancelled: boolean;
  engineVersion: string;
}

// ---- the cipher ceiling ----------------------------------------------------------------------

/** aes-256-xts / aes-256-gcm: the platform library's AES (OpenSSL, CommonCrypto, CNG);
 *  kernel-xts: the Linux kernel's own xts(aes) through AF_ALG (fscrypt's and dm-crypt's cipher). */
export type CipherAlgo = 'aes-256-xts' | 'aes-256-gcm' | 'kernel-xts';

/** Encrypt a buffer in memory, in place, over and over on `threads` streams for `seconds`. */
export interface CipherSpec {
  algo: CipherAlgo;
  /** 1–256, default 1; each stream has its own context and buffer. */
  threads?: number;
  seconds?: number;
  /** Bytes per encrypt call, default 16384 (as `openssl speed`'s largest block). */
  blockBytes?: number;
  /** XTS: bytes per tweak (IV), default 4096, as fscrypt's file blocks. */
  dataUnit?: number;
  progressIntervalMs?: number;
}

export interface CipherProgress {
  bytesDone: number;
  elapsed: number;
  secondsTotal: number;
  instMBps: number;
  avgMBps: number;
}

export interface CipherEngineResult {
  algo: CipherAlgo;
  threads: number;
  blockBytes: number;
  dataUnit: number;
  bytes: number;
  seconds: number;
  /** bytes / seconds / 10^6 */
  mbps: number;
  provider: string;
  cancelled: boolean;
}
