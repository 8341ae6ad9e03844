// The plausibility rules: figures of one result that contradict each other, so a cache answered
// some of them — reads far above writes on a disk that cannot do that, writes far above reads
// where a write cache may hide, a mixed test above both pure ones.
import type { LinkInfo } from '../model/link-types.js';
import type { ResultTest } from '../model/result.js';
import { LISTED_NAMES, listWords, testGroupText } from '../model/verdict/test-names.js';
import type { DiskInfo, VolumeInfo } from '../model/volume.js';
import { diskOf, isRead, mb, pairsText, shareOf, type Rule } from './flag-kit.js';

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
// and more (SEQ1M Q1T1 write 5.1 GB/s against reads of 1.4–2.2 GB/s); docs/trust.md's flags list says so too.
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
  const key = (t: ResultTest): string =>
    `${t.rw === 'rw' || t.rw === 'read' || t.rw === 'write' ? 'seq' : 'rand'}/${t.bs}/${t.qd}/${t.threads}`;
  const best = new Map<string, { read?: ResultTest; write?: ResultTest; mix?: ResultTest }>();
  for (const t of tests) {
    if (t.bytes <= 0) continue;
    const side = t.rw === 'rw' || t.rw === 'randrw' ? 'mix' : isRead(t.rw) ? 'read' : 'write';
    const g = best.get(key(t)) ?? {};
    if (!g[side] || t.mbps > g[side].mbps) g[side] = t;
    best.set(key(t), g);
  }
  const over = [...best.values()].filter(
    (g): g is Required<typeof g> => !!g.mix && !!g.read && !!g.write && g.mix.mbps > MIX_SLACK * Math.max(g.read.mbps, g.write.mbps),
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
