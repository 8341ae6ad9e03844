// What every flag rule shares: its input, the disk and share facts it reads, and how it writes
// figures and names tests (core/flags.ts lists the rules).
import type { CacheRequest, DataPattern, Rw } from '../model/engine-types.js';
import type { DriveHealth, LinkInfo } from '../model/link-types.js';
import { isNetworkFs, shareCacheObserved, type NetworkPath, type ShareCacheProbe } from '../model/network.js';
import { formatBytesBinary } from '../model/units.js';
import type { MachineLoad, ResultFlag, ResultTest } from '../model/result.js';
import { LISTED_NAMES, listWords, testGroupText } from '../model/verdict/test-names.js';
import type { DiskInfo, VolumeInfo } from '../model/volume.js';

export interface FlagInput {
  tests: readonly ResultTest[];
  settings: { cache: CacheRequest; pattern: DataPattern };
  volume?: VolumeInfo;
  /** The link to judge against; defaults to the volume's disk.linkInfo. */
  link?: LinkInfo;
  /** The result's kind: a flag naming many tests groups them by it ("all 8 CrystalDiskMark tests"). */
  kind?: string;
  /** What else the machine did while the tests ran. */
  machine?: MachineLoad;
}

// Link detection adds these to DiskInfo (app/src/core/link.ts); read them as optional so the
// rules work with and without it.
export type DiskWithLink = DiskInfo & { linkInfo?: LinkInfo; health?: DriveHealth };

/** The disk facts flags and the result document read, with the link engineer's optional fields. */
export function diskOf(v: VolumeInfo | undefined): DiskWithLink | undefined {
  return v?.disk as DiskWithLink | undefined;
}

export type Rule = (input: FlagInput) => ResultFlag | undefined;

export const isWrite = (rw: Rw): boolean => rw === 'write' || rw === 'randwrite' || rw === 'randrw' || rw === 'rw';
export const isRead = (rw: Rw): boolean => rw === 'read' || rw === 'randread';
export const mb = (x: number): string => `${x >= 100 ? Math.round(x) : x.toFixed(1)} MB/s`;

/** Tests with their figures: "Read 900 MB/s and Write 850 MB/s" when few, else their group and
 *  the highest ("the sweep's 32 steps (4 KiB–100 MiB), up to 2,900 MB/s"). */
export function figuresText(over: readonly ResultTest[], all: readonly ResultTest[], kind: string | undefined): string {
  if (over.length <= LISTED_NAMES) return listWords(over.map((t) => `${t.name} ${mb(t.mbps)}`));
  return `${testGroupText(over, all, kind)}, up to ${mb(Math.max(...over.map((t) => t.mbps)))}`;
}

/** Pairs of figures, "A 900 MB/s vs B 100 MB/s", listed when few, else grouped by their first
 *  test, with the pair that differs most as the example. */
export function pairsText<P extends { a: ResultTest; b: ResultTest }>(
  pairs: readonly P[],
  all: readonly ResultTest[],
  kind?: string,
): string {
  const one = (p: P): string => `${p.a.name} ${mb(p.a.mbps)} vs ${p.b.name} ${mb(p.b.mbps)}`;
  if (pairs.length <= LISTED_NAMES) return listWords(pairs.map(one));
  const worst = pairs.reduce((w, p) => (p.a.mbps / p.b.mbps > w.a.mbps / w.b.mbps ? p : w));
  return `${testGroupText(
    pairs.map((p) => p.a),
    all,
    kind,
  )}; e.g. ${one(worst)}`;
}

// A figure more than 5% above the link's payload ceiling cannot have crossed the link: the 5%
// leaves room for timer granularity and a ceiling rounded down.
export const CEILING_SLACK = 1.05;

/** The network path of a share, from the probe or, for a volume without one, its mount type. */
export function shareOf(volume: VolumeInfo | undefined): Pick<NetworkPath, 'protocol' | 'client'> | undefined {
  if (volume?.network) return volume.network;
  if (!volume || !isNetworkFs(volume.fsType)) return undefined;
  const client = volume.fsType.startsWith('fuse.') ? volume.fsType.slice('fuse.'.length) : 'kernel';
  const protocol = /^(cifs|smb3|smbfs)$/.test(volume.fsType) ? 'SMB' : /^nfs/.test(volume.fsType) ? 'NFS' : volume.fsType;
  return { protocol, client };
}

// What the client cache does to a share's figures, said once for every network flag.
export const CLIENT_CACHE_MEANS =
  'With the client cache on, reads can come from this computer’s memory and writes count when the client takes them, not when the server has them.';

/** What the test observed of a share's client cache (its read-twice probe), if it looked. */
export function shareCacheSeen(volume: VolumeInfo | undefined): { seen: 'cached' | 'uncached'; words: string } | undefined {
  const p: ShareCacheProbe | undefined = volume?.network?.cacheProbe;
  if (!p) return undefined;
  const words = `a ${formatBytesBinary(p.bytes)} file on the share read twice came at ${mb(p.firstMBps)}, then ${mb(p.againMBps)}`;
  return { seen: shareCacheObserved(p, volume?.network?.ceilingMBps), words };
}
