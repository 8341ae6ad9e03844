// The folder check end to end (after Dintch and `sha256sum -c`): every regular file under a folder
// hashed with N parallel streams — uncached reads and the platform's SHA-256/512 through the
// engine's read-hash path, one engine call a file; MD5 (for md5sum manifests) through Node's
// crypto, read through the page cache — then the manifest written (atomically: a temp file
// renamed over it, so Ctrl-C leaves the old one byte for byte) or re-checked against it.
// The files checked are only ever opened read-only; nothing is written inside the folder but
// the manifest (and its temp file, a moment before the rename).
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { lstat, open, opendir, rename, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AbortError, isAbortError, runHash } from './engine.js';
import type { CacheMode, CacheRequest, HashAlgo } from '../model/engine-types.js';
import type { CheckProgressEvent } from '../model/events.js';
import { DiskDialError, inputError, toPlainError } from '../model/errors.js';
import { readUserText } from './safe-read.js';
import {
  CHECK_ALGO_LABEL,
  DEFAULT_MANIFEST,
  ManifestError,
  diffManifest,
  formatManifest,
  isInsideName,
  parseManifest,
  type CheckAlgo,
  type ParsedManifest,
} from '../model/check-manifest.js';
import { checkBottleneck, checkBound, checkIntegrity, type CheckMode, type CheckSection } from '../model/check.js';
import { encryptionView } from '../model/cipher/encryption-verdict.js';
import { encryptedTargetFlag, readCipher } from './cipher-run.js';
import { decryptSnapshot, observedDecryption } from './kernel-decrypt.js';
import { aboutTarget } from '../model/verdict/bottleneck.js';
import { weakestCacheMode, type ResultDocument } from '../model/result.js';
import { hostInfo } from './host.js';
import { volumeInfo } from './volume.js';
import { lockVolume } from './workspace.js';
import { buildResult, targetFromVolume } from './result.js';
import type { HashFn } from './engine.js';
import type { VolumeInfo } from '../model/volume.js';

/** The check's progress: files and bytes done of those to hash, the file last started. */
export type CheckProgress = Omit<CheckProgressEvent, 'jobId'>;

export interface RunCheckOptions {
  folder: string;
  /** The manifest's path; default the folder's SHA256SUMS (SHA512SUMS, MD5SUMS: the one there is). */
  manifest?: string;
  /** Default: the manifest's algorithm, else SHA-256. */
  algo?: CheckAlgo;
  /** Parallel streams; default 1 on a spinning disk, else the CPUs this process may use. */
  streams?: number;
  /** The most streams `engine` can run at once, and why (an engine process runs one job at a time). */
  streamsCap?: { max: number; why: string };
  /** Re-check only: never write a manifest (an error when there is none). */
  verifyOnly?: boolean;
  /** Re-check, then rewrite the manifest to what the folder holds now. */
  update?: boolean;
  /** Seconds of the in-memory ceiling measurement (default: the check's own time, 0.25–1 s; 0: none). */
  ceilingSeconds?: number;
  /** As `run --cache` (SHA-256/512; MD5 always reads through the cache): auto, buffered-flushed, buffered. */
  cache?: CacheRequest;
  label?: string;
  signal?: AbortSignal;
  wait?: boolean;
  onWait?: (holderPid: number) => void;
  onProgress?: (p: CheckProgress) => void;
  engine?: { runHash: HashFn };
}

const MiB = 1024 * 1024;
/** The temp file's prefix: never listed as one of the folder's files. */
const TEMP_MARK = '.diskdial-manifest-';

interface Found {
  name: string;
  abs: string;
  bytes: number;
}

/** Every regular file under `root` (names `/`-separated, relative), symbolic links and special
 *  files noted, not followed or read. */
async function walk(root: string, manifest: string, skipped: CheckSection['skipped'], signal?: AbortSignal): Promise<Found[]> {
  const out: Found[] = [];
  const stack = [''];
  while (stack.length) {
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
    const rel = stack.pop()!;
    const dir = await opendir(path.join(root, rel));
    for await (const d of dir) {
      const name = rel ? `${rel}/${d.name}` : d.name;
      const abs = path.join(root, name);
      if (d.isDirectory()) stack.push(name);
      else if (d.isSymbolicLink()) skipped.push({ name, why: 'symbolic link (not followed)' });
      else if (d.isFile()) {
        if (abs === manifest || (d.name.startsWith(TEMP_MARK) && path.dirname(abs) === path.dirname(manifest))) continue;
        const st = await lstat(abs).catch(() => undefined);
        if (st?.isFile()) out.push({ name, abs, bytes: st.size });
      } else {
        const what = d.isFIFO() ? 'FIFO (named pipe)' : d.isSocket() ? 'socket' : 'device';
        skipped.push({ name, why: `${what}: not a regular file, not read` });
      }
    }
  }
  return out;
}

/** The manifest to use when none is named: the one of the three usual names there is. */
async function defaultManifest(folder: string, algo: CheckAlgo | undefined): Promise<string> {
  if (algo) return path.join(folder, DEFAULT_MANIFEST[algo]);
  for (const a of ['sha256', 'sha512', 'md5'] as const) {
    const p = path.join(folder, DEFAULT_MANIFEST[a]);
    if (
      await stat(p)
        .then((s) => s.isFile())
        .catch(() => false)
    )
      return p;
  }
  return path.join(folder, DEFAULT_MANIFEST.sha256);
}

/** A manifest of a million files is about 100 MB; anything larger is not one (/dev/zero was read
 *  to 681 MB before the string ran out). */
const MAX_MANIFEST_BYTES = 256 * 1024 ** 2;

async function readManifest(file: string): Promise<ParsedManifest | undefined> {
  let text: string;
  try {
    text = await readUserText(file, { what: 'a checksum manifest', maxBytes: MAX_MANIFEST_BYTES, follow: true });
  } catch (err) {
    if (err instanceof DiskDialError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw toPlainError(err, { path: file, subject: 'file', access: 'read', category: 'input' });
  }
  try {
    return parseManifest(text);
  } catch (err) {
    if (err instanceof ManifestError) throw inputError(`${file} is not a checksum manifest: ${err.message}`, 'ERR_INVALID_MANIFEST');
    throw err;
  }
}

/** Writes `text` to `file` atomically: a temp file beside it, flushed, renamed over it. */
export async function writeAtomic(file: string, text: string, signal?: AbortSignal): Promise<void> {
  const temp = path.join(path.dirname(file), `${TEMP_MARK}${process.pid}-${Date.now()}`);
  try {
    const h = await open(temp, 'wx', 0o644);
    try {
      await h.writeFile(text);
      await h.sync();
    } finally {
      await h.close();
    }
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    if (isAbortError(err)) throw err;
    throw toPlainError(err, { path: file, doing: 'writing the manifest', subject: 'file', access: 'write' });
  }
}

/** MD5 through Node's crypto, opened as the engine opens: never blocking on a FIFO swapped in
 *  after the listing, never through a symbolic link, and only a regular file. */
async function md5File(file: string, signal?: AbortSignal): Promise<string> {
  const h = await open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP')
      throw inputError(`${file} is a symbolic link, not a file: not followed, not read`, 'ELOOP');
    throw err;
  });
  try {
    if (!(await h.stat()).isFile()) throw inputError(`${file} is not a regular file: not read`, 'EINVAL');
    const hash = createHash('md5');
    // O_NONBLOCK changes nothing for a regular file's reads.
    for await (const b of h.createReadStream({ highWaterMark: MiB, autoClose: false, ...(signal ? { signal } : {}) }))
      hash.update(b as Buffer);
    return hash.digest('hex');
  } finally {
    await h.close();
  }
}

function defaultStreams(volume: VolumeInfo | undefined): { streams: number; why: string } {
  const cpus = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const disk = volume?.disk;
  // A virtio disk says "rotational" by default whatever is behind it: its flag is not evidence.
  if (disk?.rotational && disk.bus !== 'virtio')
    return { streams: 1, why: '1: the drive reports itself as a spinning disk, where parallel reads only add seeks' };
  const what = !disk ? 'the drive could not be identified' : disk.bus === 'virtio' ? 'a virtual disk' : 'not a spinning disk';
  return { streams: cpus, why: `${cpus}: one per CPU (${what})` };
}

export async function runFolderCheck(opts: RunCheckOptions): Promise<ResultDocument> {
  const signal = opts.signal;
  const hashFn: HashFn = opts.engine?.runHash ?? runHash;
  const folder = path.resolve(opts.folder);
  const st = await stat(folder).catch((err: unknown) => {
    throw toPlainError(err, { path: folder, category: 'input', access: 'read' });
  });
  if (!st.isDirectory()) throw inputError(`${folder} is a file, not a folder: give the folder to check`, 'ENOTDIR');
  if (opts.verifyOnly && opts.update) throw inputError('--verify-only and --update contradict each other: choose one');
  const manifestPath = opts.manifest !== undefined ? path.resolve(opts.manifest) : await defaultManifest(folder, opts.algo);
  const old = await readManifest(manifestPath);
  if (old && opts.algo && old.algo !== opts.algo) {
    throw inputError(
      `${manifestPath} holds ${CHECK_ALGO_LABEL[old.algo]} digests but ${CHECK_ALGO_LABEL[opts.algo]} was asked for; drop --algo, or name another --manifest`,
      'ERR_ALGO_MISMATCH',
    );
  }
  if (!old && opts.verifyOnly)
    throw inputError(`No manifest at ${manifestPath} to verify against: run without --verify-only to create one`, 'ENOENT');
  const algo: CheckAlgo = old?.algo ?? opts.algo ?? 'sha256';
  const mode: CheckMode = !old ? 'create' : opts.update ? 'update' : 'verify';
  const volume = await volumeInfo(folder).catch(() => undefined);
  const auto = defaultStreams(volume);
  const wanted = opts.streams ?? auto.streams;
  if (!Number.isInteger(wanted) || wanted < 1 || wanted > 256) throw inputError('streams must be a whole number from 1 to 256');
  const cap = opts.streamsCap && opts.streamsCap.max < wanted ? opts.streamsCap : undefined;
  const streams = cap ? cap.max : wanted;
  const streamsWhy = cap ? `${streams}: ${cap.why}` : opts.streams !== undefined ? `${streams}: as asked` : auto.why;

  const startedAt = new Date();
  const lock = await lockVolume(folder, {
    ...(opts.wait ? { wait: true } : {}),
    ...(opts.onWait ? { onWait: opts.onWait } : {}),
    ...(signal ? { signal } : {}),
  });
  try {
    const skipped: CheckSection['skipped'] = [];
    const found = await walk(folder, manifestPath, skipped, signal).catch((err: unknown) => {
      if (isAbortError(err)) throw err;
      throw toPlainError(err, { path: folder, access: 'read', doing: 'listing the folder' });
    });
    for (const e of old?.entries ?? []) {
      if (!isInsideName(e.name)) skipped.push({ name: e.name, why: 'the manifest names a place outside the folder: not read' });
    }
    const listed = new Set((old?.entries ?? []).map((e) => e.name));
    // A re-check hashes what the manifest lists; files it does not list are only hashed when the
    // manifest is to be rewritten.
    const todo = mode === 'verify' ? found.filter((f) => listed.has(f.name)) : found;
    const bytesTotal = todo.reduce((s, f) => s + f.bytes, 0);
    const digests = new Map<string, string | undefined>(found.map((f) => [f.name, undefined]));
    const unreadable: CheckSection['unreadable'] = [];
    const cacheModes: CacheMode[] = [];
    let provider =
      algo === 'md5'
        ? `Node.js crypto (${process.versions.openssl ? `OpenSSL ${process.versions.openssl}` : 'built-in'}), buffered reads`
        : '';
    let engineVersion = '';
    let filesDone = 0;
    let bytesDone = 0;
    let next = 0;
    const cache: CacheRequest = opts.cache ?? 'auto';
    // On an fscrypt folder the kernel decrypts in its own workers: their CPU time is watched.
    const fscrypt = volume?.encryption?.kind === 'fscrypt';
    const before = fscrypt ? await decryptSnapshot() : undefined;
    const t0 = performance.now();
    const hashOne = async (f: Found): Promise<void> => {
      opts.onProgress?.({
        filesDone,
        filesTotal: todo.length,
        bytesDone,
        bytesTotal,
        current: f.name,
        elapsedSeconds: (performance.now() - t0) / 1e3,
      });
      try {
        if (algo === 'md5') digests.set(f.name, await md5File(f.abs, signal));
        else {
          // A small file gets a chunk its size and two buffers: one engine call a file costs a
          // fraction of a millisecond then, instead of touching 4 MiB of buffers every time.
          const small = f.bytes < 4 * MiB;
          const r = await hashFn(
            {
              mode: 'read-hash',
              algo: algo as HashAlgo,
              path: f.abs,
              // The listing skipped symbolic links: one swapped in since is not read either.
              followLinks: false,
              cache,
              ...(small ? { chunkBytes: Math.max(4096, Math.ceil(f.bytes / 4096) * 4096), buffers: 2 } : {}),
            },
            signal ? { signal } : {},
          );
          digests.set(f.name, r.digest ?? '');
          if (r.cacheMode) cacheModes.push(r.cacheMode);
          provider ||= r.provider ?? '';
          engineVersion ||= r.engineVersion ?? '';
        }
      } catch (err) {
        // The engine's own AbortError says whether it had to be given up on (engineStuck).
        if (isAbortError(err)) throw err;
        if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
        unreadable.push({ name: f.name, why: toPlainError(err, { path: f.abs, subject: 'file', access: 'read' }).message });
        digests.delete(f.name);
      }
      filesDone++;
      bytesDone += f.bytes;
    };
    await Promise.all(
      Array.from({ length: Math.min(streams, Math.max(todo.length, 1)) }, async () => {
        while (next < todo.length) {
          if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
          await hashOne(todo[next++]!);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1e3;
    const observed = observedDecryption(before, fscrypt ? await decryptSnapshot() : undefined, bytesDone, seconds, streams);
    opts.onProgress?.({ filesDone, filesTotal: todo.length, bytesDone, bytesTotal, current: '', elapsedSeconds: seconds });

    // The CPU's hashing ceiling on as many streams, measured now, says which side limited the run:
    // for as long as the files took, from a quarter second to one (a check of a few small files is
    // not made a second longer by a figure that hashes hundreds of MB in a quarter second).
    const ceilingSeconds = opts.ceilingSeconds ?? Math.min(1, Math.max(0.25, seconds));
    const ceiling =
      algo !== 'md5' && ceilingSeconds > 0
        ? await hashFn({ mode: 'memory', algo, threads: streams, seconds: ceilingSeconds }, signal ? { signal } : {})
        : undefined;
    engineVersion ||= ceiling?.engineVersion ?? '';
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });

    const diff = diffManifest(old?.entries ?? [], digests);
    const unreadableNames = new Set(unreadable.map((u) => u.name));
    const missing = diff.missing.filter((n) => !unreadableNames.has(n) && isInsideName(n));
    const added = diff.added.filter((n) => !unreadableNames.has(n));
    const counts = {
      unchanged: diff.unchanged.length,
      changed: diff.changed.length,
      missing: missing.length,
      added: mode === 'create' ? 0 : added.length,
      unreadable: unreadable.length,
      skipped: skipped.length,
    };
    let manifestWritten = false;
    if (mode !== 'verify') {
      const entries = [...digests].filter((e): e is [string, string] => e[1] !== undefined).map(([name, hex]) => ({ name, hex }));
      await writeAtomic(manifestPath, formatManifest(entries), signal);
      manifestWritten = true;
    }
    const mbps = seconds > 0 ? bytesDone / seconds / 1e6 : 0;
    const target = targetFromVolume(folder, volume);
    const cipher = target.encrypted ? await readCipher(observed, signal) : undefined;
    const about = aboutTarget(target, cipher);
    const limit = ceiling || cipher ? checkBottleneck(mbps, ceiling?.mbps, streams, CHECK_ALGO_LABEL[algo], about) : undefined;
    const bound = limit ? checkBound(limit) : undefined;
    const section: CheckSection = {
      folder,
      manifest: manifestPath,
      manifestFormat: mode === 'verify' ? (old?.format ?? 'gnu') : 'gnu',
      algo,
      mode,
      manifestWritten,
      provider,
      streams,
      streamsWhy,
      files: filesDone,
      bytes: bytesDone,
      seconds,
      filesPerSecond: seconds > 0 ? filesDone / seconds : 0,
      mbps,
      ...(ceiling ? { ceilingMBps: ceiling.mbps } : {}),
      ...(bound ? { bound } : {}),
      counts,
      changed: diff.changed,
      missing,
      added: mode === 'create' ? [] : added,
      unreadable,
      skipped,
      ...(old?.badLines.length ? { badLines: old.badLines } : {}),
      ...checkIntegrity(counts, mode, filesDone - unreadable.length),
    };
    const doc = buildResult({
      kind: 'check',
      ...(opts.label !== undefined ? { label: opts.label } : {}),
      startedAt,
      finishedAt: new Date(),
      engineVersion: engineVersion || 'none',
      host: hostInfo(),
      target,
      settings: { size: bytesDone, pattern: 'random', cache, runs: 1 },
      tests: [],
      ...(volume ? { volume } : {}),
      check: section,
    });
    doc.cacheMode = algo === 'md5' ? 'buffered' : weakestCacheMode(cacheModes.length ? cacheModes : ['direct']);
    if (cipher) doc.cipher = cipher;
    if (cipher && limit) doc.flags.push(encryptedTargetFlag(encryptionView(limit, cipher)));
    return doc;
  } finally {
    lock.release();
  }
}
