// The hash test end to end (after Dintch): for one file — the user's, opened read-only and never
// modified, or a test file written for the purpose and removed afterwards — four rates:
//   1. read      uncached read alone: what the storage delivers;
//   2. read-hash uncached read on one thread, hashing on another, chunks in flight between them:
//                what checking a file's digest actually runs at;
//   3. memory    hashing in memory on one core: the CPU's ceiling for one file (a digest is one
//                sequential stream, so one core is all a single file can use);
//   4. memory-parallel  one stream per core: what the machine could hash of several files at once.
// The verdict (model/verdict/bottleneck.ts) names the ceiling within 15 % of 2: reading alone, one
// core's hashing, the link, and on an encrypted folder the cipher (measured as run measures it,
// with the kernel's decryption seen during 2). A digest can be verified against a pasted one or a
// checksum file (hash-verify.ts).
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AbortError, isAbortError, runHash, runTest, type EngineFn, type HashFn } from './engine.js';
import type { CacheMode, CacheRequest, HashAlgo, HashEngineResult, HashProgress, HashSpec } from '../model/engine-types.js';
import { DiskDialError, inputError, toPlainError } from '../model/errors.js';
import { chooseAlgo, resolveExpected, verification, type ExpectedDigest } from './hash-verify.js';
import { hostInfo } from './host.js';
import { weakestCacheMode, type HashRate, type HashSection, type ResultDocument } from '../model/result.js';
import { hashBottleneck, hashVerdict } from '../model/kinds/hash.js';
import { encryptionView, type EncryptionVerdict } from '../model/cipher/encryption-verdict.js';
import type { CipherSection } from '../model/cipher/types.js';
import { decryptSnapshot, observedDecryption } from './kernel-decrypt.js';
import { aboutTarget } from '../model/verdict/bottleneck.js';
import { smallHashFileNote } from '../model/trust.js';
import { volumeInfo } from './volume.js';
import { lockVolume, openWorkspace } from './workspace.js';
import { buildResult, targetFromVolume } from './result.js';
import { encryptedTargetFlag, readCipher } from './cipher-run.js';
import type { VolumeInfo } from '../model/volume.js';
import { timedOf } from '../model/progress.js';

export type HashStage = 'write' | 'read' | 'read-hash' | 'memory' | 'memory-parallel';

export interface HashRunProgress extends HashProgress {
  stage: HashStage;
  stageIndex: number;
  stageCount: number;
  /** memory stages: the streams hashing. */
  threads?: number;
}

export interface HashStageDone {
  stage: HashStage;
  stageIndex: number;
  stageCount: number;
  mbps: number;
  bytes: number;
  seconds: number;
  threads?: number;
  digest?: string;
}

export interface RunHashBenchmarkOptions {
  /** The user's file (read-only). Exactly one of `file` and `generate`. */
  file?: string;
  /** Or: write a test file of this size in this folder, hash it, remove it. */
  generate?: { target: string; sizeBytes: number };
  /** Default: the expected digest's algorithm, else SHA-256. */
  algo?: HashAlgo;
  /** An expected digest (hex) or a checksum file's path. */
  verify?: string;
  label?: string;
  /** Streams for the parallel in-memory rate; default: the CPUs this process may use. */
  threads?: number;
  /** Seconds of each in-memory measurement (default 2). */
  memorySeconds?: number;
  /** As `run --cache`: auto (uncached where the file system allows, else buffered with the file's
   *  cached pages dropped first), buffered-flushed (always the latter), buffered. */
  cache?: CacheRequest;
  signal?: AbortSignal;
  handleSignals?: boolean;
  /** Another DiskDial test on the drive: wait for it instead of failing (see runBenchmark). */
  wait?: boolean;
  onWait?: (holderPid: number) => void;
  onProgress?: (p: HashRunProgress) => void;
  onStage?: (s: HashStageDone) => void;
  /** The engine's calls (an EngineHost's in the app, so a native crash ends the test, not the app);
   *  default: the in-process engine. */
  engine?: { runHash: HashFn; runTest: EngineFn };
}

const MiB = 1024 * 1024;

const rate = (r: { bytes: number; seconds: number; mbps: number }): HashRate => ({ bytes: r.bytes, seconds: r.seconds, mbps: r.mbps });

export async function runHashBenchmark(opts: RunHashBenchmarkOptions): Promise<ResultDocument> {
  if ((opts.file === undefined) === (opts.generate === undefined))
    throw inputError('give a file to hash, or a folder and a size for a test file');
  const signal = opts.signal;
  const hashFn: HashFn = opts.engine?.runHash ?? runHash;
  const testFn: EngineFn = opts.engine?.runTest ?? runTest;
  const threads = opts.threads ?? (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
  const memorySeconds = opts.memorySeconds ?? 2;
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) throw inputError('threads must be a whole number from 1 to 256');

  // Everything that can be wrong with the request is found before any I/O.
  let file: string;
  let fileBytes: number;
  if (opts.file !== undefined) {
    file = path.resolve(opts.file);
    const st = await stat(file).catch((err: unknown) => {
      throw toPlainError(err, { path: file, doing: 'opening the file to hash', subject: 'file', access: 'read' });
    });
    if (st.isDirectory()) {
      throw new DiskDialError(
        `${file} is a folder, not a file: pick a file to hash, or give a size to have DiskDial write a test file there`,
        {
          code: 'EISDIR',
          path: file,
          category: 'input',
        },
      );
    }
    if (!st.isFile()) throw inputError(`${file} is not a regular file`, 'EINVAL');
    fileBytes = st.size;
  } else {
    const g = opts.generate!;
    if (!Number.isSafeInteger(g.sizeBytes) || g.sizeBytes < MiB) throw inputError('the test file must be at least 1 MiB');
    fileBytes = Math.floor(g.sizeBytes / MiB) * MiB;
    file = '';
  }
  const expected: ExpectedDigest | undefined = opts.verify ? await resolveExpected(opts.verify, opts.file ?? 'hash-test.dat') : undefined;
  const algo = chooseAlgo(opts.algo, expected);
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });

  const stages: HashStage[] = [...(opts.generate ? (['write'] as const) : []), 'read', 'read-hash', 'memory', 'memory-parallel'];
  const stageCount = stages.length;
  const stageIndex = (s: HashStage): number => stages.indexOf(s);
  const streams = (stage: HashStage): { threads?: number } =>
    stage === 'memory' ? { threads: 1 } : stage === 'memory-parallel' ? { threads } : {};
  const progressOf = (stage: HashStage) =>
    opts.onProgress
      ? (p: HashProgress) => opts.onProgress!({ ...p, stage, stageIndex: stageIndex(stage), stageCount, ...streams(stage) })
      : undefined;
  const done = (s: Omit<HashStageDone, 'stageIndex' | 'stageCount'>): void =>
    opts.onStage?.({ ...s, stageIndex: stageIndex(s.stage), stageCount });
  const cache: CacheRequest = opts.cache ?? 'auto';
  const hash = (stage: HashStage, spec: HashSpec): Promise<HashEngineResult> => {
    const onProgress = progressOf(stage);
    return hashFn(spec, { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) });
  };

  let engine: string;
  const startedAt = new Date();
  // Reading the user's file measures the drive too: it holds the drive's lock as a workspace does.
  const lockOpts = { ...(opts.wait ? { wait: true } : {}), ...(opts.onWait ? { onWait: opts.onWait } : {}), ...(signal ? { signal } : {}) };
  const workspace = opts.generate
    ? await openWorkspace(opts.generate.target, { needBytes: fileBytes, handleSignals: opts.handleSignals ?? true, ...lockOpts })
    : undefined;
  const lock = workspace ? undefined : await lockVolume(file, lockOpts);
  let volume: VolumeInfo | undefined;
  let section: HashSection;
  let target: ResultDocument['target'];
  let cipher: CipherSection | undefined;
  let encryption: EncryptionVerdict | undefined;
  const notes: string[] = [];
  try {
    if (workspace) {
      file = workspace.filePath('hash-test.dat');
      const onProgress = progressOf('write');
      const w = await testFn(
        { path: file, rw: 'write', bs: MiB, qd: 8, threads: 1, fileSize: fileBytes, pattern: 'random', cache, keepFile: true },
        {
          ...(signal ? { signal } : {}),
          ...(onProgress
            ? {
                onProgress: (p) =>
                  onProgress({
                    mode: 'read',
                    ...timedOf(p),
                  }),
              }
            : {}),
        },
      );
      done({ stage: 'write', mbps: w.mbps, bytes: w.bytes, seconds: w.seconds });
    }
    volume = await volumeInfo(path.dirname(file)).catch(() => undefined);
    const read = await hash('read', { mode: 'read', algo, path: file, cache });
    engine = read.engineVersion;
    done({ stage: 'read', mbps: read.mbps, bytes: read.bytes, seconds: read.seconds });
    // On an fscrypt folder the kernel decrypts in its own workers: their CPU time is watched.
    const fscrypt = volume?.encryption?.kind === 'fscrypt';
    const before = fscrypt ? await decryptSnapshot() : undefined;
    const readHash = await hash('read-hash', { mode: 'read-hash', algo, path: file, cache });
    const observed = observedDecryption(before, fscrypt ? await decryptSnapshot() : undefined, readHash.bytes, readHash.seconds);
    done({ stage: 'read-hash', mbps: readHash.mbps, bytes: readHash.bytes, seconds: readHash.seconds, digest: readHash.digest ?? '' });
    const memory = await hash('memory', { mode: 'memory', algo, threads: 1, seconds: memorySeconds });
    done({ stage: 'memory', mbps: memory.mbps, bytes: memory.bytes, seconds: memory.seconds, threads: 1 });
    const parallel = await hash('memory-parallel', { mode: 'memory', algo, threads, seconds: memorySeconds });
    done({
      stage: 'memory-parallel',
      mbps: parallel.mbps,
      bytes: parallel.bytes,
      seconds: parallel.seconds,
      threads: parallel.threads ?? threads,
    });

    target = targetFromVolume(path.dirname(file), volume);
    if (target.encrypted) cipher = await readCipher(observed, signal);
    const about = aboutTarget(target, cipher);
    const cacheOf = (r: HashEngineResult): { cacheMode: CacheMode; cacheNote?: string } => ({
      cacheMode: r.cacheMode ?? 'buffered',
      ...(r.cacheNote ? { cacheNote: r.cacheNote } : {}),
    });
    section = {
      algo,
      provider: readHash.provider,
      file: { path: file, bytes: readHash.bytes, generated: Boolean(workspace) },
      digest: readHash.digest ?? '',
      read: { ...rate(read), ...cacheOf(read) },
      readHash: {
        ...rate(readHash),
        ...cacheOf(readHash),
        chunkBytes: readHash.chunkBytes ?? MiB,
        buffers: readHash.buffers ?? 4,
        readerWaitSeconds: readHash.readerWaitSeconds ?? 0,
        hasherWaitSeconds: readHash.hasherWaitSeconds ?? 0,
      },
      memory: { ...rate(memory), threads: 1 },
      memoryParallel: { ...rate(parallel), threads: parallel.threads ?? threads },
      verdict: hashVerdict(read, readHash, memory, algo, about),
    };
    if (cipher) encryption = encryptionView(hashBottleneck(read, readHash, memory, algo, about), cipher);
    if (expected) section.verify = verification(expected, section.digest, algo);
    const small = smallHashFileNote(readHash.bytes, opts.generate?.sizeBytes);
    if (small) notes.push(small);
  } catch (err) {
    if (isAbortError(err)) throw err;
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
    // The user's file is only ever read; a generated one is written in a folder first.
    const own = opts.file !== undefined ? ({ subject: 'file', access: 'read' } as const) : {};
    throw toPlainError(err, {
      path: file || (opts.generate?.target ?? ''),
      doing: workspace && !file ? 'writing the test file' : 'reading the file',
      ...own,
    });
  } finally {
    await workspace?.close();
    lock?.release();
  }

  const cacheMode = weakestCacheMode([section.read.cacheMode, section.readHash.cacheMode]);
  const doc = buildResult({
    kind: 'hash',
    ...(opts.label !== undefined ? { label: opts.label } : {}),
    startedAt,
    finishedAt: new Date(),
    engineVersion: engine,
    host: hostInfo(),
    target,
    // The size asked for a generated file (it is written in whole MiB), as every kind's settings.size.
    settings: { size: opts.generate?.sizeBytes ?? section.file.bytes, pattern: 'random', cache, runs: 1 },
    tests: [],
    ...(volume ? { volume } : {}),
    hash: section,
    notes,
  });
  // No test rows: the document's cache mode is the read stages'.
  doc.cacheMode = cacheMode;
  if (cipher) doc.cipher = cipher;
  if (encryption) doc.flags.push(encryptedTargetFlag(encryption));
  return doc;
}
