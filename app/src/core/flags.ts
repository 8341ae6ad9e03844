// Flags on a result: what a reader must know before trusting the numbers, each in plain words
// with the figures that triggered it and what to do about it. One small named rule per flag, all
// pure (tests, settings, volume and link facts in; flags out), so every rule is tested without a
// disk and the document, its exports, the report and the share image all carry the same list.
//
// Severity: 'warning' when the figures are probably not the disk's (a cache, RAM, compression of
// zeros answered); 'info' when they are the disk's but shaped by how the file system or the
// target works (copy-on-write, a network share) — worth knowing, nothing to fix.
import type { CacheRequest, DataPattern, Rw } from '../model/engine-types.js';
import type { DriveHealth, LinkInfo } from '../model/link-types.js';
import { isNetworkFs, networkLabel, networkLink, uncachedAdvice, type NetworkPath } from '../model/network.js';
import type { ResultFlag, ResultTest } from '../model/result.js';
import { capitalized } from '../model/text.js';
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
}

// Link detection adds these to DiskInfo (app/src/core/link.ts); read them as optional so the
// rules work with and without it.
type DiskWithLink = DiskInfo & { linkInfo?: LinkInfo; health?: DriveHealth };

/** The disk facts flags and the result document read, with the link engineer's optional fields. */
export function diskOf(v: VolumeInfo | undefined): DiskWithLink | undefined {
  return v?.disk as DiskWithLink | undefined;
}

type Rule = (input: FlagInput) => ResultFlag | undefined;

const isWrite = (rw: Rw): boolean => rw === 'write' || rw === 'randwrite' || rw === 'randrw' || rw === 'rw';
const isRead = (rw: Rw): boolean => rw === 'read' || rw === 'randread';
const mb = (x: number): string => `${x >= 100 ? Math.round(x) : x.toFixed(1)} MB/s`;
const fsOptions = (v: VolumeInfo): string[] => [...v.mountOptions, ...v.superOptions];

/** Tests with their figures: "Read 900 MB/s and Write 850 MB/s" when few, else their group and
 *  the highest ("the sweep's 32 steps (4 KiB–100 MiB), up to 2,900 MB/s"). */
function figuresText(over: readonly ResultTest[], all: readonly ResultTest[], kind: string | undefined): string {
  if (over.length <= LISTED_NAMES) return listWords(over.map((t) => `${t.name} ${mb(t.mbps)}`));
  return `${testGroupText(over, all, kind)}, up to ${mb(Math.max(...over.map((t) => t.mbps)))}`;
}

/** Pairs of figures, "A 900 MB/s vs B 100 MB/s", listed when few, else grouped by their first
 *  test, with the pair that differs most as the example. */
function pairsText<P extends { a: ResultTest; b: ResultTest }>(pairs: readonly P[], all: readonly ResultTest[], kind?: string): string {
  const one = (p: P): string => `${p.a.name} ${mb(p.a.mbps)} vs ${p.b.name} ${mb(p.b.mbps)}`;
  if (pairs.length <= LISTED_NAMES) return listWords(pairs.map(one));
  const worst = pairs.reduce((w, p) => (p.a.mbps / p.b.mbps > w.a.mbps / w.b.mbps ? p : w));
  return `${testGroupText(pairs.map((p) => p.a), all, kind)}; e.g. ${one(worst)}`;
}

/** Best figure per test name across runs: a flag names each test once, at its highest. */
function bestByName(tests: readonly ResultTest[]): ResultTest[] {
  const best = new Map<string, ResultTest>();
  for (const t of tests) {
    const b = best.get(t.name);
    if (!b || t.mbps > b.mbps) best.set(t.name, t);
  }
  return [...best.values()];
}

// A figure more than 5% above the link's payload ceiling cannot have crossed the link: the 5%
// leaves room for timer granularity and a ceiling rounded down.
const CEILING_SLACK = 1.05;

/** The network path of a share, from the probe or, for a volume without one, its mount type. */
function shareOf(volume: VolumeInfo | undefined): Pick<NetworkPath, 'protocol' | 'client'> | undefined {
  if (volume?.network) return volume.network;
  if (!volume || !isNetworkFs(volume.fsType)) return undefined;
  const client = volume.fsType.startsWith('fuse.') ? volume.fsType.slice('fuse.'.length) : 'kernel';
  const protocol = /^(cifs|smb3|smbfs)$/.test(volume.fsType) ? 'SMB' : /^nfs/.test(volume.fsType) ? 'NFS' : volume.fsType;
  return { protocol, client };
}

// What the client cache does to a share's figures, said once for every network flag.
const CLIENT_CACHE_MEANS =
  'With the client cache on, reads can come from this computer’s memory and writes count when the client takes them, not when the server has them.';

export const aboveInterfaceCeiling: Rule = ({ tests, volume, link, kind }) => {
  const l = link ?? diskOf(volume)?.linkInfo ?? (volume?.network ? networkLink(volume.network) : undefined);
  const ceiling = l?.ceilingMBps;
  if (!l || !ceiling || ceiling <= 0) return undefined;
  const over = bestByName(tests).filter((t) => t.bytes > 0 && t.mbps > ceiling * CEILING_SLACK);
  if (over.length === 0) return undefined;
  const figures = figuresText(over, tests, kind);
  const share = shareOf(volume);
  if (l.kind === 'network' || share) {
    return {
      code: 'above-interface-ceiling',
      severity: 'warning',
      message: `${figures} ${over.length === 1 ? 'is' : 'are'} above what the network link ${l.label} can carry (≈ ${Math.round(ceiling)} MB/s): the client's cache on this computer answered, not the server.`,
      fix: `To measure the share, ${share ? uncachedAdvice(share) : 'mount it without the client cache'}, and use a test file larger than this computer's free RAM (--size). ${CLIENT_CACHE_MEANS}`,
    };
  }
  return {
    code: 'above-interface-ceiling',
    severity: 'warning',
    message: `${figures} ${over.length === 1 ? 'is' : 'are'} above what ${l.label} can carry (≈ ${Math.round(ceiling)} MB/s): the figure cannot be the disk's — a cache answered.`,
    fix: "Run with --cache auto on a file system that takes direct I/O, and with a test file larger than the drive's and the computer's caches (--size); if the link looks wrong, check the cable and port.",
  };
};

export const cacheNotDirect: Rule = ({ tests, settings, volume, kind }) => {
  const buffered = tests.filter((t) => t.cacheMode.startsWith('buffered'));
  if (buffered.length === 0) return undefined;
  const modes = [...new Set(buffered.map((t) => t.cacheMode))].join(', ');
  const notes = [...new Set(buffered.map((t) => t.cacheNote).filter((n): n is string => !!n))];
  const names = capitalized(testGroupText(buffered, tests, kind));
  // On a share with --cache auto, the cache is the share client's and the fix is its mount option.
  const share = settings.cache === 'auto' ? shareOf(volume) : undefined;
  const [cache, notThe] = share
    ? ["the share client's cache", 'the client cache, not the network and the server']
    : ["the operating system's cache", 'the cache, not the disk'];
  return {
    code: 'cache-not-direct',
    severity: 'warning',
    message:
      `${names} went through ${cache} (${modes})` + (notes.length ? `: ${notes.join('; ')}` : '') + `. Those figures may show ${notThe}.`,
    fix: share
      ? `To measure the share uncached, ${uncachedAdvice(share)}. ${CLIENT_CACHE_MEANS}`
      : settings.cache === 'auto'
        ? 'Uncached I/O was not possible here (the engine note says why); test a folder on a disk file system that supports it (ext4, XFS, Btrfs, APFS, NTFS) for disk-only figures.'
        : `Run with --cache auto to bypass the cache (you asked for ${settings.cache}).`,
  };
};

// devtmpfs (/dev) is a tmpfs the kernel fills with device nodes: memory too.
const RAM_FS = new Set(['tmpfs', 'ramfs', 'devtmpfs']);

// tmpfs/ramfs/devtmpfs are memory by definition; zram (compressed RAM) and brd (/dev/ramN) are block
// devices backed by memory, whatever file system sits on them.
export const ramBacked: Rule = ({ volume, link }) => {
  if (!volume) return link?.kind === 'memory' ? ramFlag(link.label) : undefined;
  const name = diskOf(volume)?.name ?? '';
  const node = volume.device;
  if (RAM_FS.has(volume.fsType)) return ramFlag(`${volume.fsType} at ${volume.mountPoint}`);
  if (/^\/dev\/(zram|ram)\d+/.test(node) || /^(zram|ram)\d+$/.test(name))
    return ramFlag(`${node.startsWith('/dev/') ? node : `/dev/${name}`}, a RAM disk`);
  if ((link ?? diskOf(volume)?.linkInfo)?.kind === 'memory') return ramFlag(link?.label ?? 'memory');
  return undefined;
};

function ramFlag(what: string): ResultFlag {
  return {
    code: 'ram-backed',
    severity: 'warning',
    message: `The folder is in RAM (${what}): the figures measure memory, not a disk, and vanish with a reboot.`,
    fix: 'Choose a folder on the disk you mean to measure.',
  };
}

/** A loop device over a file, without the loop driver's direct I/O: O_DIRECT on the volume
 *  bypasses its own cache, but the loop driver then reads and writes the image file through the
 *  host's page cache, so the figures can be the cache's. */
export const loopCached: Rule = ({ volume }) => {
  const d = diskOf(volume);
  if (d?.bus !== 'loop' || d.loopDirectIo !== false) return undefined;
  const file = d.backingFile ? ` ${d.backingFile}` : ' a file';
  return {
    code: 'loop-cached',
    severity: 'warning',
    message: `The volume is a loop device (/dev/${d.name}) over${file}, which the loop driver reads and writes through the host's page cache: the figures can be the cache's, not a disk's.`,
    fix: 'Attach the image with direct I/O (losetup --direct-io=on), or test a folder on the disk that holds the image file.',
  };
};

// Network file systems, FUSE ones included (model/network.ts names them): their figures are the
// network's and the server's.
export const networkFs: Rule = ({ volume, link }) => {
  const share = shareOf(volume);
  const l = link ?? diskOf(volume)?.linkInfo ?? (volume?.network ? networkLink(volume.network) : undefined);
  if (!share && l?.kind !== 'network') return undefined;
  const what = volume?.network
    ? networkLabel(volume.network)
    : volume
      ? `${volume.fsType}${volume.device && volume.device !== 'unknown' ? ` from ${volume.device}` : ''}`
      : 'network';
  const ceiling = l?.ceilingMBps
    ? `Compare with what the link carries: ${l.label} ≈ ${Math.round(l.ceilingMBps)} MB/s of payload.`
    : "Compare with the network's own speed (1 Gb/s Ethernet carries ≈ 118 MB/s of payload).";
  const uncached = share ? ` For figures without the client cache, ${uncachedAdvice(share)}.` : '';
  return {
    code: 'network-fs',
    severity: 'info',
    message: `The folder is on a network share (${what}): the figures measure the network and the server together, and the client may cache.`,
    fix: `${ceiling}${uncached} To measure the server's own disk, run DiskDial on the server.`,
  };
};

export const fuse: Rule = ({ volume }) => {
  if (!volume) return undefined;
  const t = volume.fsType;
  if (isNetworkFs(t)) return undefined; // sshfs and friends are flagged as network shares
  if (t !== 'fuseblk' && t !== 'fuse' && !t.startsWith('fuse.')) return undefined;
  // Linux names exFAT (exfat-fuse) and NTFS (ntfs-3g) mounts 'fuseblk' without saying which.
  const what = t === 'fuseblk' ? 'exFAT/NTFS through FUSE (fuseblk)' : `${t.slice('fuse.'.length) || 'a'} FUSE file system`;
  return {
    code: 'fuse',
    severity: 'warning',
    message: `${what}: the FUSE daemon caches the device; O_DIRECT may be emulated, so figures can include the cache.`,
    fix: 'For disk-only figures use the kernel driver (mount -t exfat or -t ntfs3 on Linux 5.15+) or test a folder on another file system.',
  };
};

function btrfsCompression(v: VolumeInfo): string | undefined {
  return fsOptions(v).find(
    (o) => o.startsWith('compress=') || o.startsWith('compress-force=') || o === 'compress' || o === 'compress-force',
  );
}

// Btrfs compresses only when mounted with compress/compress-force (or per file, which mount
// options cannot show); OpenZFS compresses by default (compression=on, lz4) and turns all-zero
// blocks into holes, and its dataset properties are not in mount options — so ZFS is assumed to.
export const compressingFs: Rule = ({ volume, settings }) => {
  if (!volume) return undefined;
  let what: string | undefined;
  if (volume.fsType === 'btrfs') {
    const opt = btrfsCompression(volume);
    if (opt) what = `Btrfs mounted with ${opt}`;
  } else if (volume.fsType === 'zfs') {
    what = 'ZFS (compression is on by default)';
  }
  if (!what) return undefined;
  if (settings.pattern === 'zeros') {
    return {
      code: 'compressing-fs',
      severity: 'warning',
      message: `The test wrote zeros to ${what}: zeros compress to almost nothing, so the figures measure the compressor and memory, not the disk.`,
      fix: 'Run with --pattern random (the default): random data does not compress, so it reaches the disk.',
    };
  }
  return {
    code: 'compressing-fs',
    severity: 'info',
    message: `${what} compresses what it stores: the test's random data does not compress, but your files may, and then read and write faster or slower than these figures.`,
    fix: 'Nothing to fix; for raw disk figures test a folder on a file system without compression.',
  };
};

// Copy-on-write writes every block to a new place and updates metadata (and checksums), so write
// figures — random writes most — carry that cost. It is how the file system treats real files
// too, hence 'info'. Btrfs's nodatacow mount option turns it off (per-file chattr +C is not
// visible in mount options).
export const copyOnWrite: Rule = ({ volume, tests }) => {
  if (!volume || !tests.some((t) => isWrite(t.rw))) return undefined;
  let what: string | undefined;
  if (volume.fsType === 'btrfs' && !fsOptions(volume).includes('nodatacow')) what = 'Btrfs';
  else if (volume.fsType === 'zfs') what = 'ZFS';
  if (!what) return undefined;
  return {
    code: 'copy-on-write',
    severity: 'info',
    message: `${what} is copy-on-write: each write goes to a new place and updates metadata, so write figures — random writes most — include that cost.`,
    fix: 'Nothing to fix: your files pay it too. For raw disk figures test a folder on ext4 or XFS.',
  };
};

export const zerosPattern: Rule = ({ settings }) =>
  settings.pattern === 'zeros'
    ? {
        code: 'zeros-pattern',
        severity: 'warning',
        message: 'The test wrote zeros; disks and file systems that compress or deduplicate will look faster than with real data.',
        fix: 'Run with --pattern random (the default) for figures that hold for video, photos and archives.',
      }
    : undefined;

export type DeviceClass = 'hdd' | 'ssd';

/**
 * The device class whose read/write ratio we know, or undefined when we do not judge.
 * - 'hdd': a rotational disk on ATA or SCSI/SAS — its heads read and write at about the same
 *   speed, so reads more than 2 × writes mean a cache answered the reads.
 * - 'ssd': a non-rotational, non-removable NVMe or ATA disk — even QLC drives past their write
 *   cache stay within ~8 × (e.g. 7000 MB/s read, 900 MB/s write).
 * Not judged: USB (bridges misreport both 'rotational' and 'removable', and flash sticks and SD
 *   cards read ≫ write by design; the interface ceiling covers USB), mmc, virtio (VMs report
 *   rotational=1 and the host caches), loop, dm and md (the class is the layer below's).
 */
export function deviceClass(disk: DiskInfo | undefined): DeviceClass | undefined {
  if (!disk || disk.removable === true) return undefined;
  if (disk.rotational === true && (disk.bus === 'ata' || disk.bus === 'scsi')) return 'hdd';
  if (disk.rotational === false && (disk.bus === 'nvme' || disk.bus === 'ata')) return 'ssd';
  return undefined;
}

export const READ_WRITE_RATIO: Readonly<Record<DeviceClass, number>> = { hdd: 2, ssd: 8 };

// Compares like with like: the best read and the best write of the same access (sequential or
// random), block size, queue depth and thread count — Quick's Write/Read pair, each CDM row's
// Read/Write pair, across runs. Mixed (randrw) tests have no pair.
export const readsImplausiblyFast: Rule = ({ tests, volume, kind }) => {
  const cls = deviceClass(diskOf(volume));
  if (!cls) return undefined;
  const limit = READ_WRITE_RATIO[cls];
  const groups = new Map<string, { read?: ResultTest; write?: ResultTest }>();
  for (const t of tests) {
    if (t.bytes <= 0 || t.rw === 'randrw' || t.rw === 'rw') continue;
    const key = `${t.rw.startsWith('rand') ? 'rand' : 'seq'}/${t.bs}/${t.qd}/${t.threads}`;
    const g = groups.get(key) ?? {};
    if (isRead(t.rw)) {
      if (!g.read || t.mbps > g.read.mbps) g.read = t;
    } else if (!g.write || t.mbps > g.write.mbps) g.write = t;
    groups.set(key, g);
  }
  const pairs = [...groups.values()].filter(
    (g): g is { read: ResultTest; write: ResultTest } => !!g.read && !!g.write && g.write.mbps > 0 && g.read.mbps > limit * g.write.mbps,
  );
  if (pairs.length === 0) return undefined;
  const figures = pairsText(
    pairs.map((p) => ({ a: p.read, b: p.write })),
    tests,
    kind,
  );
  const device = cls === 'hdd' ? 'a spinning disk' : 'an internal SSD';
  return {
    code: 'reads-implausibly-fast',
    severity: 'warning',
    message: `Reads are more than ${limit} × writes (${figures}), implausible for ${device}: the reads were probably answered by a cache.`,
    fix: "Use a test file larger than the drive's cache and the computer's free RAM (--size), with --cache auto.",
  };
};

/** What stands between DiskDial and a disk whose write cache nobody reports: a virtual disk (the
 *  host may cache), a network share (client and server may), a USB bridge (it may buffer). */
function writeCacheUnknown(volume: VolumeInfo | undefined, link: LinkInfo | undefined): string | undefined {
  const disk = diskOf(volume);
  const kind = (link ?? disk?.linkInfo)?.kind;
  if (shareOf(volume) || kind === 'network') return 'a network share';
  if (disk?.bus === 'virtio' || kind === 'virtio') return 'a virtual disk';
  if (disk?.bus === 'usb' || kind === 'usb') return 'a drive behind a USB bridge';
  return undefined;
}

// Writes of a pattern more than this many times its reads. Evidence, on the virtio disk of the
// machine DiskDial is built on: ordinary runs write at up to 1.47 × the reads of the same
// pattern (test/fixtures/results/cdm.json: 1.37 ×), a host cache acknowledging writes gave 2.3 ×
// and more (SEQ1M Q1T1 write 5.1 GB/s against reads of 1.4–2.2 GB/s); README.md's flags list says so too.
export const WRITE_READ_RATIO = 2;
// Below this block size a pair is not judged: at queue depth 1 each small read waits out a round
// trip while a write-behind client or host pipelines the writes (over SMB at 4 KiB: writes 8.7,
// reads 4.2 MB/s, flushed, on this project's test share); from 1 MiB both sides are
// bandwidth-bound, where 2 × means a cache.
export const WRITE_READ_MIN_BS = 1 << 20;

// The mirror of readsImplausiblyFast, on sequential pairs only: every SSD, also behind a USB
// bridge, takes small random writes into its own buffer faster than it reads them from flash.
export const writesImplausiblyFast: Rule = ({ tests, volume, link, kind }) => {
  const where = writeCacheUnknown(volume, link);
  if (!where) return undefined;
  const groups = new Map<string, { read?: ResultTest; write?: ResultTest }>();
  for (const t of tests) {
    if (t.bytes <= 0 || (t.rw !== 'read' && t.rw !== 'write') || t.bs < WRITE_READ_MIN_BS) continue;
    const key = `${t.bs}/${t.qd}/${t.threads}`;
    const g = groups.get(key) ?? {};
    const side = t.rw === 'read' ? 'read' : 'write';
    // The best of each side across runs: only a write that beats even the fastest read counts.
    if (!g[side] || t.mbps > g[side].mbps) g[side] = t;
    groups.set(key, g);
  }
  const pairs = [...groups.values()].filter(
    (g): g is { read: ResultTest; write: ResultTest } =>
      !!g.read && !!g.write && g.read.mbps > 0 && g.write.mbps > WRITE_READ_RATIO * g.read.mbps,
  );
  if (pairs.length === 0) return undefined;
  const figures = pairsText(
    pairs.map((p) => ({ a: p.write, b: p.read })),
    tests,
    kind,
  );
  return {
    code: 'writes-implausibly-fast',
    severity: 'warning',
    message: `Writes are more than ${WRITE_READ_RATIO} × reads of the same pattern (${figures}) on ${where}, which reports no write cache: a cache probably acknowledged the writes before they reached the disk.`,
    fix: "Use a test file larger than the host's or bridge's cache (--size), run it more than once (--runs 3) to see whether the writes hold, or test on the machine that holds the disk.",
  };
};

// A mixed test interleaves reads and writes of the same block size and queue: on one disk its
// rate lies between the two pure rates (time is the sum of each side's share), so a mix above both
// means a cache answered it. The 10 % leaves room for run-to-run noise; the best of each across
// runs is compared, so only a mix beating even the fastest pure run counts.
export const MIX_SLACK = 1.1;

export const mixAbovePure: Rule = ({ tests, kind }) => {
  const key = (t: ResultTest): string => `${t.rw === 'rw' || t.rw === 'read' || t.rw === 'write' ? 'seq' : 'rand'}/${t.bs}/${t.qd}/${t.threads}`;
  const best = new Map<string, { read?: ResultTest; write?: ResultTest; mix?: ResultTest }>();
  for (const t of tests) {
    if (t.bytes <= 0) continue;
    const side = t.rw === 'rw' || t.rw === 'randrw' ? 'mix' : isRead(t.rw) ? 'read' : 'write';
    const g = best.get(key(t)) ?? {};
    if (!g[side] || t.mbps > g[side].mbps) g[side] = t;
    best.set(key(t), g);
  }
  const over = [...best.values()].filter(
    (g): g is Required<typeof g> =>
      !!g.mix && !!g.read && !!g.write && g.mix.mbps > MIX_SLACK * Math.max(g.read.mbps, g.write.mbps),
  );
  if (over.length === 0) return undefined;
  const one = (g: Required<(typeof over)[number]>): string =>
    `${g.mix.name} ${mb(g.mix.mbps)} vs ${g.read.name} ${mb(g.read.mbps)} and ${g.write.name} ${mb(g.write.mbps)}`;
  const figures =
    over.length <= LISTED_NAMES
      ? listWords(over.map(one))
      : `${testGroupText(
          over.map((g) => g.mix),
          tests,
          kind,
        )}; e.g. ${one(over[0]!)}`;
  return {
    code: 'mix-above-pure',
    severity: 'warning',
    message: `A mixed test ran faster than both the pure read and the pure write of the same block size and queue (${figures}), which one disk cannot do: a cache answered the mix.`,
    fix: "Run with --cache auto and a test file larger than the drive's cache and the computer's free RAM (--size); if it stays, run the test again (--runs 3) to see whether the mix holds.",
  };
};

export const engineNote: Rule = ({ tests }) => {
  // The engine may explain a direct result too (a RAM-backed tmpfs takes O_DIRECT but measures
  // memory); such notes are worth a reader's attention.
  const notes = [...new Set(tests.filter((t) => !t.cacheMode.startsWith('buffered') && t.cacheNote).map((t) => t.cacheNote!))];
  if (notes.length === 0) return undefined;
  return {
    code: 'engine-note',
    severity: 'info',
    message: `The engine noted: ${notes.join('; ')}.`,
    fix: 'Check that the folder is on the disk you mean to measure.',
  };
};

// The disk could not be described (Windows without PowerShell): the figures stand, but nothing
// says which disk or link they belong to, and no ceiling check could run.
export const diskUnknown: Rule = ({ volume }) =>
  volume?.diskNote && !volume.disk
    ? {
        code: 'disk-unknown',
        severity: 'info',
        message: `${volume.diskNote}.`,
        fix: 'Run DiskDial where PowerShell is available to name the disk and check its link.',
      }
    : undefined;

export const emptyTest: Rule = ({ tests }) =>
  tests.some((t) => t.bytes === 0)
    ? {
        code: 'empty-test',
        severity: 'warning',
        message: 'At least one test transferred no data, so its figures are meaningless.',
        fix: 'Use a larger --size or longer --seconds.',
      }
    : undefined;

/** The rules in the order their flags are listed: what makes figures not the disk's first. */
export const FLAG_RULES: ReadonlyArray<readonly [code: string, rule: Rule]> = [
  ['above-interface-ceiling', aboveInterfaceCeiling],
  ['cache-not-direct', cacheNotDirect],
  ['ram-backed', ramBacked],
  ['loop-cached', loopCached],
  ['network-fs', networkFs],
  ['fuse', fuse],
  ['compressing-fs', compressingFs],
  ['reads-implausibly-fast', readsImplausiblyFast],
  ['writes-implausibly-fast', writesImplausiblyFast],
  ['mix-above-pure', mixAbovePure],
  ['zeros-pattern', zerosPattern],
  ['engine-note', engineNote],
  ['copy-on-write', copyOnWrite],
  ['disk-unknown', diskUnknown],
  ['empty-test', emptyTest],
];

export function computeFlags(input: FlagInput): ResultFlag[] {
  const flags: ResultFlag[] = [];
  for (const [, rule] of FLAG_RULES) {
    const f = rule(input);
    if (f) flags.push(f);
  }
  return flags;
}
