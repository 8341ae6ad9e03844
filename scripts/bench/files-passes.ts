// bench:files' passes: one pass of each tool over the file set (the engine as the many-file test
// reads and writes, fio as one stream or one job per file), each after a sync and a cache drop.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineSpec } from '../../app/src/model/engine-types.js';
import type { FileSet, FileSetEntry } from '../../app/src/model/file-set.js';
import { runEngine, runFioJobs } from './common.js';

/** Whether settle() drops the page cache (--no-drop: sync only), and whether it could (root). */
export const cache: { drop: boolean; dropped: boolean | undefined } = { drop: true, dropped: undefined };

/** sync, then drop the page cache when permitted (root); silently skipped otherwise. */
export function settle(): void {
  spawnSync('sync');
  if (!cache.drop) return;
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    cache.dropped ??= true;
  } catch {
    cache.dropped = false;
  }
}

export interface Pass {
  bytes: number;
  /** Sum of the timed seconds: the engine's per-file measured phases; fio's job runtimes. */
  seconds: number;
  mbps: number;
  /** Wall time of the whole pass as this script saw it (engine: all runTest calls; fio: the process). */
  wallSeconds: number;
}

export interface EnginePass extends Pass {
  /** Per file, in the order run. */
  files: Array<{ index: number; bytes: number; seconds: number }>;
}

/** The many-file test's spec for one file (presets.ts filesPlan). */
export function fileSpec(dir: string, set: FileSet, e: FileSetEntry, rw: 'read' | 'write', qd: number): EngineSpec {
  return {
    path: path.join(dir, e.name),
    rw,
    bs: e.bs,
    qd,
    threads: 1,
    fileSize: e.bytes,
    pattern: 'random',
    cache: 'auto',
    keepFile: true,
    seed: set.options.seed + e.index,
  };
}

export async function enginePass(dir: string, set: FileSet, rw: 'read' | 'write', qd: number): Promise<EnginePass> {
  const order = rw === 'read' ? set.readOrder : set.writeOrder;
  const files: EnginePass['files'] = [];
  const t0 = performance.now();
  for (const index of order) {
    const e = set.entries[index]!;
    const r = await runEngine(fileSpec(dir, set, e, rw, qd));
    const bytes = rw === 'read' ? r.bytesRead : r.bytesWritten;
    if (bytes !== e.bytes) throw new Error(`the engine ${rw} ${bytes} B of ${e.name}, not ${e.bytes}`);
    files.push({ index, bytes, seconds: r.seconds });
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  const bytes = files.reduce((a, f) => a + f.bytes, 0);
  const seconds = files.reduce((a, f) => a + f.seconds, 0);
  return { bytes, seconds, mbps: bytes / seconds / 1e6, wallSeconds, files };
}

/** fio's list syntax (filename, directory): items separated by ':', a ':' inside one escaped as '\:'. */
export const fioName = (file: string): string => file.replace(/:/g, '\\:');
/** fio refuses a longer option value ("value exceeds max length of 4096"). */
export const FIO_MAX_VALUE = 4096;

export type FioMode = 'stream' | 'per-file';

/**
 * One fio command over the files in `order`, in that order.
 *  - stream (the reference): one job reading the files one after the other
 *    (file_service_type=sequential), keeping its queue full across file boundaries; one job
 *    section per run of consecutive files with the same block size (a single section for sets of
 *    whole-MiB files), the sections run one after the other (--stonewall).
 *  - per-file (the verdict's reference): one job section per file, one after the other, so each file's
 *    I/O starts from an empty queue and drains at its end, as the many-file test's one engine
 *    test per file does.
 */
export function fioArgs(
  dir: string,
  set: FileSet,
  order: number[],
  rw: 'read' | 'write',
  qd: number,
  mode: FioMode = 'stream',
  prefix = '',
): string[] {
  // Names relative to --directory keep the list short; a list that would still pass fio's limit
  // on one option's length (about 290 of the set's 13-character names) goes on in a new section.
  const groups: Array<{ bs: number; files: string[]; length: number }> = [];
  for (const index of order) {
    const e = set.entries[index]!;
    const last = groups[groups.length - 1];
    const file = fioName(prefix + e.name);
    if (mode === 'stream' && last && last.bs === e.bs && last.length + 1 + file.length < FIO_MAX_VALUE) {
      last.files.push(file);
      last.length += 1 + file.length;
    } else {
      groups.push({ bs: e.bs, files: [file], length: file.length });
    }
  }
  const args: string[] = [];
  groups.forEach((g, i) => {
    args.push(
      `--name=${mode === 'stream' ? 'files' : 'file'}${groups.length > 1 ? `-${i + 1}` : ''}`,
      `--rw=${rw}`,
      '--direct=1',
      '--ioengine=libaio',
      `--iodepth=${qd}`,
      `--bs=${g.bs}`,
      '--numjobs=1',
      `--directory=${fioName(dir)}`,
      `--filename=${g.files.join(':')}`,
    );
    if (g.files.length > 1) args.push('--file_service_type=sequential');
    // The engine flushes (fdatasync) each written file inside its timed region; fio's
    // fsync_on_close does the same per file, inside its runtime.
    if (rw === 'write') args.push('--fsync_on_close=1');
    if (i > 0) args.push('--stonewall');
  });
  args.push('--output-format=json');
  return args;
}

export interface FioPass extends Pass {
  jobs: number;
  /** Each job's runtime, ms (per-file mode: one per file, in the order run). */
  jobMs: number[];
}

export async function fioPass(
  dir: string,
  set: FileSet,
  rw: 'read' | 'write',
  qd: number,
  mode: FioMode = 'stream',
  prefix = '',
): Promise<FioPass> {
  const order = rw === 'read' ? set.readOrder : set.writeOrder;
  const files = order.map((i) => path.join(dir, prefix + set.entries[i]!.name));
  const { jobs, wallSeconds } = await runFioJobs(fioArgs(dir, set, order, rw, qd, mode, prefix), files);
  let bytes = 0;
  let ms = 0;
  const jobMs: number[] = [];
  for (const job of jobs) {
    const d = rw === 'read' ? job.read : job.write;
    bytes += d.io_bytes;
    ms += d.runtime;
    jobMs.push(d.runtime);
  }
  // Every file read (written) exactly once, in full: fio moved exactly the set's bytes.
  if (bytes !== set.totalBytes) throw new Error(`fio ${rw} ${bytes} B, not the set's ${set.totalBytes} B`);
  const seconds = ms / 1000;
  return { bytes, seconds, mbps: bytes / seconds / 1e6, wallSeconds, jobs: jobs.length, jobMs };
}
