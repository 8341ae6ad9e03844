// The share test's plan (issue 34: what limits a network share, the link, the server's disk or
// the protocol?), in three parts, all through the share itself and nothing on the server:
// - the server's disk: a large file written (flushed to the server) and read back, uncached here;
//   larger than the server can cache, its read comes from the server's disk (docs/network.md);
// - the ceiling: a small file written, then read twice: the server has it in memory, so the second
//   read is what the link and the protocol carry;
// - small files: --files files of 4 KiB created, written, stat'ed, opened, read and deleted, each
//   operation timed (the small-file engine mode), set against the round trip the runner times.
// The disk comes first: writing the large file would push the small one out of a small cache.
import type { EngineSpec } from '../../engine-types.js';
import { inputError } from '../../errors.js';
import { formatBytesBinary } from '../../units.js';
import { sizeText } from '../../report/figure-text.js';
import { KiB, MiB, type Plan, type PlanOptions, type PlanStep } from '../plan.js';

/** How many small files (--files). */
export interface ShareSet {
  files?: number;
}

declare module '../plan.js' {
  interface KindPlanOptions {
    /** share: how many small files time the protocol's operations. */
    share?: ShareSet;
  }
  interface KindPlanSettings {
    share?: { cacheFileBytes: number; files: number };
  }
}

/** The large file: more than a small NAS keeps in memory (--size sets it for a larger one); 1 GB,
 *  the Quick Test's unit, runs as 952 MiB of whole 4 MiB reads (998 MB). */
export const SHARE_DISK_BYTES = 1e9;
/** The file read twice: any server keeps 32 MiB in memory, and at 1 Gbit/s a read takes ~0.3 s. */
export const SHARE_CACHE_BYTES = 32 * MiB;
export const SHARE_FILES = 100;
export const SHARE_MAX_FILES = 10_000;
// 4 MiB a read: an SMB client through FUSE carried 11.7 MB/s of a 100 Mbit/s link so, 11.4 at 1 MiB.
const BS = 4 * MiB;

export const SHARE_STEPS = {
  diskWrite: 'Server disk: write',
  diskRead: 'Server disk: read cold',
  cacheWrite: 'Cached file: write',
  cacheFirst: 'Cached file: read',
  cacheAgain: 'Cached file: read again',
  files: 'Small files',
} as const;

export function sharePlan(o: PlanOptions): Plan {
  const diskBytes = o.size ?? SHARE_DISK_BYTES;
  const files = o.share?.files ?? SHARE_FILES;
  if (!Number.isSafeInteger(diskBytes) || diskBytes < 2 * SHARE_CACHE_BYTES)
    throw inputError(
      `the share test's large file must be at least ${formatBytesBinary(2 * SHARE_CACHE_BYTES)} (twice the file it reads from the server's memory), not ${sizeText(diskBytes)}`,
    );
  if (!Number.isInteger(files) || files < 1 || files > SHARE_MAX_FILES)
    throw inputError(`the share test's file count must be a whole number from 1 to ${SHARE_MAX_FILES.toLocaleString('en-US')}`);
  const cache = o.cache ?? 'auto';
  const pattern = o.pattern ?? 'random';
  const fileSize = Math.floor(diskBytes / BS) * BS;
  // One stream, from the start: the large file's tail is the part a server still caches after
  // the write, and a read from the start pushes it out before it gets there (two streams read a
  // 20 MB/s disk at 38 MB/s, the second half from the server's memory).
  const seq = (rw: 'read' | 'write', bytes: number, keepFile: boolean): Omit<EngineSpec, 'path'> => ({
    rw,
    bs: BS,
    qd: 1,
    threads: 1,
    fileSize: bytes,
    pattern,
    cache,
    keepFile,
  });
  const steps: PlanStep[] = [
    { name: SHARE_STEPS.diskWrite, spec: seq('write', fileSize, true), file: 'share-disk.dat' },
    { name: SHARE_STEPS.diskRead, spec: seq('read', fileSize, false), file: 'share-disk.dat' },
    { name: SHARE_STEPS.cacheWrite, spec: seq('write', SHARE_CACHE_BYTES, true), file: 'share-cached.dat' },
    { name: SHARE_STEPS.cacheFirst, spec: seq('read', SHARE_CACHE_BYTES, true), file: 'share-cached.dat' },
    { name: SHARE_STEPS.cacheAgain, spec: seq('read', SHARE_CACHE_BYTES, false), file: 'share-cached.dat' },
    {
      name: SHARE_STEPS.files,
      spec: { ...seq('write', files * 4 * KiB, false), bs: 4 * KiB, smallFiles: { files, fileBytes: 4 * KiB } },
      file: 'share-small.dat',
    },
  ];
  return {
    kind: 'share',
    fileSize,
    needBytes: fileSize + SHARE_CACHE_BYTES + files * 4 * KiB,
    steps,
    // The size asked, as chosen ("1 GB", "128 MiB"); the section has the file that ran.
    settings: { size: diskBytes, pattern, cache, share: { cacheFileBytes: SHARE_CACHE_BYTES, files } },
    notes: [
      `The server's disk is read cold only when ${sizeText(diskBytes)} is more than the server keeps in memory: for a server with more, give a larger --size.`,
    ],
  };
}
