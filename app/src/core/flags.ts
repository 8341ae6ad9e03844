// Flags on a result: what a reader must know before trusting the numbers, each in plain words
// with the figures that triggered it and what to do about it. One small named rule per flag, all
// pure (tests, settings, volume and link facts in; flags out), so every rule is tested without a
// disk and the document, its exports, the report and the share image all carry the same list.
//
// Severity: 'warning' when the figures are probably not the disk's (a cache, RAM, compression of
// zeros answered); 'info' when they are the disk's but shaped by how the file system or the
// target works (copy-on-write, a network share) — worth knowing, nothing to fix.
// A flag names each test once, at its best run (as the CrystalDiskMark text does).
import { bestRuns } from '../model/report/formats/cdm-text.js';
import { networkLabel, networkLink, uncachedAdvice, isNetworkFs } from '../model/network.js';
import type { ResultFlag } from '../model/result.js';
import { busyFlag } from '../model/verdict/busy.js';
import { capitalized } from '../model/text.js';
import { testGroupText } from '../model/verdict/test-names.js';
import type { VolumeInfo } from '../model/volume.js';
import {
  CEILING_SLACK,
  CLIENT_CACHE_MEANS,
  diskOf,
  figuresText,
  isWrite,
  shareCacheSeen,
  shareOf,
  type FlagInput,
  type Rule,
} from './flag-kit.js';
import { mixAbovePure, readsImplausiblyFast, writesImplausiblyFast } from './flags-plausible.js';

const fsOptions = (v: VolumeInfo): string[] => [...v.mountOptions, ...v.superOptions];

export { diskOf, type FlagInput } from './flag-kit.js';
export {
  deviceClass,
  MIX_SLACK,
  mixAbovePure,
  READ_WRITE_RATIO,
  readsImplausiblyFast,
  WRITE_READ_MIN_BS,
  WRITE_READ_RATIO,
  writesImplausiblyFast,
  type DeviceClass,
} from './flags-plausible.js';

export const aboveInterfaceCeiling: Rule = ({ tests, volume, link, kind }) => {
  const l = link ?? diskOf(volume)?.linkInfo ?? (volume?.network ? networkLink(volume.network) : undefined);
  const ceiling = l?.ceilingMBps;
  if (!l || !ceiling || ceiling <= 0) return undefined;
  const over = bestRuns(tests).filter((t) => t.bytes > 0 && t.mbps > ceiling * CEILING_SLACK);
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
  const seen = share ? shareCacheSeen(volume) : undefined;
  // The fix applied, seen at work: the client kept nothing, so every read crossed the link.
  if (seen?.seen === 'uncached') {
    return {
      code: 'share-cache-off',
      severity: 'info',
      message: `Cache off: reads came over the link — ${seen.words}, so the share client's cache kept nothing and the figures are the network's and the server's.`,
      fix: 'Nothing to fix: the client cache is off for this share.',
    };
  }
  const [cache, notThe] = share
    ? ["the share client's cache", 'the client cache, not the network and the server']
    : ["the operating system's cache", 'the cache, not the disk'];
  return {
    code: 'cache-not-direct',
    severity: 'warning',
    message:
      `${names} went through ${cache} (${modes})` +
      (notes.length ? `: ${notes.join('; ')}` : '') +
      `. Those figures may show ${notThe}.` +
      (seen ? ` The cache is on: ${seen.words}, from this computer's memory.` : ''),
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
  const uncached =
    share && shareCacheSeen(volume)?.seen !== 'uncached' ? ` For figures without the client cache, ${uncachedAdvice(share)}.` : '';
  return {
    code: 'network-fs',
    severity: 'info',
    message: `The folder is on a network share (${what}): the figures measure the network and the server together, ${
      shareCacheSeen(volume)?.seen === 'uncached' ? 'with the client cache off' : 'and the client may cache'
    }.`,
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
  ['machine-busy', ({ machine, kind }) => busyFlag(machine, kind)],
];

export function computeFlags(input: FlagInput): ResultFlag[] {
  const flags: ResultFlag[] = [];
  for (const [, rule] of FLAG_RULES) {
    const f = rule(input);
    if (f) flags.push(f);
  }
  return flags;
}
