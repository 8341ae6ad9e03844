// Flags on results: each rule with built volume, link and test values, then end to end as root —
// runBenchmark on real tmpfs, exFAT (FUSE), compressed Btrfs and ext4 mounts — so what a flag
// claims about a file system holds on that file system.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustOf } from '../../../app/src/model/verdict/trust.js';
import { computeFlags, deviceClass, type FlagInput } from '../../../app/src/core/flags.js';
import { POWERSHELL_MISSING_NOTE } from '../../../app/src/core/link/index.js';
import type { LinkInfo } from '../../../app/src/model/link-types.js';
import type { NetworkPath } from '../../../app/src/model/network.js';
import type { ResultDocument, ResultTest } from '../../../app/src/model/result.js';

import { formatReport } from '../../../app/src/cli/table.js';
import { runBenchmark } from '../../../app/src/core/runner.js';

import { mountFs, rootOnly, type MountedFs } from '../../helpers/loopfs.js';
import type { DiskInfo, VolumeInfo } from '../../../app/src/model/volume.js';
import { USB32G2 } from '../../helpers/links.js';

function test(name: string, rw: ResultTest['rw'], mbps: number, extra: Partial<ResultTest> = {}): ResultTest {
  return {
    name,
    rw,
    bs: 1 << 20,
    qd: 8,
    threads: 1,
    bytes: 1e8,
    seconds: 1e8 / (mbps * 1e6),
    mbps,
    iops: mbps,
    latencyUs: { mean: 1, p50: 1, p90: 1, p99: 1, p999: 1, max: 1 },
    series: [],
    cacheMode: 'direct',
    run: 1,
    spec: { rw, bs: 1 << 20, qd: 8, threads: 1, fileSize: 1e8, pattern: 'random', cache: 'auto' },
    ...extra,
  };
}

function volume(fsType: string, extra: Partial<VolumeInfo> = {}, disk?: Partial<DiskInfo> & { linkInfo?: LinkInfo }): VolumeInfo {
  return {
    path: '/mnt/x',
    realPath: '/mnt/x',
    mountPoint: '/mnt/x',
    device: '/dev/sdb1',
    fsType,
    mountOptions: ['rw', 'relatime'],
    superOptions: ['rw'],
    totalBytes: 1e11,
    freeBytes: 5e10,
    ...(disk ? { disk: { name: 'sdb', bus: 'usb', ...disk } as DiskInfo } : {}),
    ...extra,
  };
}

const USB2: LinkInfo = {
  kind: 'usb',
  label: 'USB 2.0 Hi-Speed (480 Mb/s)',
  rawMbps: 480,
  ceilingMBps: 53,
  typicalMBps: [30, 42],
  source: 'sysfs',
};
const quickPair = (write: number, read: number): ResultTest[] => [test('Write', 'write', write), test('Read', 'read', read)];
const random = { cache: 'auto', pattern: 'random' } as const;
const zeros = { cache: 'auto', pattern: 'zeros' } as const;
const codes = (input: FlagInput): string[] => computeFlags(input).map((f) => f.code);
const FIXTURES = path.join(import.meta.dirname, '../..', 'fixtures');
const fixture = (file: string): ResultDocument => JSON.parse(readFileSync(file, 'utf8')) as ResultDocument;
/** A saved document's flags computed again from what it keeps of its volume. */
const flagsOf = (doc: ResultDocument) =>
  computeFlags({
    tests: doc.tests,
    settings: { cache: doc.settings.cache, pattern: doc.settings.pattern },
    volume: volume(
      doc.target.fs,
      { device: doc.target.device.node ?? 'unknown' },
      {
        name: 'disk',
        bus: doc.target.device.bus as DiskInfo['bus'],
        ...(doc.target.device.linkInfo ? { linkInfo: doc.target.device.linkInfo } : {}),
      },
    ),
  });
const flag = (input: FlagInput, code: string) => computeFlags(input).find((f) => f.code === code);

describe('flag rules', () => {
  it('above-interface-ceiling: USB 2 at 480 Mb/s with a 500 MB/s read is flagged, naming the figure and the link', () => {
    const f = flag({ tests: quickPair(40, 500), settings: random, link: USB2 }, 'above-interface-ceiling');
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f!.message).toBe(
      "Read 500 MB/s is above what USB 2.0 Hi-Speed (480 Mb/s) can carry (≈ 53 MB/s): the figure cannot be the disk's — a cache answered.",
    );
    // The write (40 MB/s) fits the link and is not named.
    expect(f!.message).not.toContain('Write');
  });

  it("above-interface-ceiling reads the link from the volume's disk when none is given", () => {
    const v = volume('ext4', {}, { linkInfo: USB2 });
    expect(codes({ tests: quickPair(40, 500), settings: random, volume: v })).toContain('above-interface-ceiling');
  });

  it('USB 3.2 Gen 2 (ceiling 1212 MB/s) with 950 MB/s is not flagged; within the 5% slack neither', () => {
    expect(codes({ tests: quickPair(900, 950), settings: random, link: USB32G2 })).toEqual([]);
    expect(codes({ tests: quickPair(900, 1250), settings: random, link: USB32G2 })).toEqual([]); // 1250 < 1212 × 1.05
    expect(codes({ tests: quickPair(900, 1300), settings: random, link: USB32G2 })).toEqual(['above-interface-ceiling']);
    // A link without a known ceiling cannot judge.
    expect(codes({ tests: quickPair(900, 9000), settings: random, link: { kind: 'unknown', label: '?', source: 'sysfs' } })).toEqual([]);
  });

  it("loop-cached: a loop device without the loop driver's direct I/O; with it, or another bus, no flag", () => {
    const loop = (loopDirectIo?: boolean) =>
      volume(
        'ext4',
        { device: '/dev/loop3' },
        { name: 'loop3', bus: 'loop', backingFile: '/srv/img/disk.img', ...(loopDirectIo === undefined ? {} : { loopDirectIo }) },
      );
    const f = flag({ tests: quickPair(2000, 7000), settings: random, volume: loop(false) }, 'loop-cached');
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f!.message).toBe(
      "The volume is a loop device (/dev/loop3) over /srv/img/disk.img, which the loop driver reads and writes through the host's page cache: the figures can be the cache's, not a disk's.",
    );
    expect(f!.fix).toMatch(/losetup --direct-io=on/);
    expect(codes({ tests: quickPair(1, 1), settings: random, volume: loop(true) })).not.toContain('loop-cached');
    expect(codes({ tests: quickPair(1, 1), settings: random, volume: loop() })).not.toContain('loop-cached');
    expect(codes({ tests: quickPair(1, 1), settings: random, volume: volume('ext4', {}, { loopDirectIo: false }) })).not.toContain(
      'loop-cached',
    );
  });

  it('ram-backed: tmpfs, devtmpfs (/dev), ramfs and zram', () => {
    const tmpfs = flag(
      { tests: quickPair(2000, 5000), settings: random, volume: volume('tmpfs', { device: 'tmpfs', mountPoint: '/dev/shm' }) },
      'ram-backed',
    );
    expect(tmpfs).toMatchObject({ severity: 'warning' });
    expect(tmpfs!.message).toContain('The folder is in RAM (tmpfs at /dev/shm)');
    const devtmpfs = flag(
      { tests: quickPair(2000, 5000), settings: random, volume: volume('devtmpfs', { device: 'udev', mountPoint: '/dev' }) },
      'ram-backed',
    );
    expect(devtmpfs!.message).toContain('The folder is in RAM (devtmpfs at /dev)');
    expect(codes({ tests: quickPair(1, 1), settings: random, volume: volume('ramfs') })).toContain('ram-backed');
    const zram = flag({ tests: quickPair(1, 1), settings: random, volume: volume('ext4', { device: '/dev/zram0' }) }, 'ram-backed');
    expect(zram!.message).toContain('/dev/zram0');
    expect(codes({ tests: quickPair(1, 1), settings: random, volume: volume('ext4') })).not.toContain('ram-backed');
  });

  it('fuse: fuseblk (exFAT/NTFS) and fuse.* carry the FUSE flag', () => {
    const f = flag({ tests: quickPair(50, 60), settings: random, volume: volume('fuseblk') }, 'fuse');
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f!.message).toContain('exFAT/NTFS through FUSE');
    expect(f!.message).toContain('O_DIRECT may be emulated');
    expect(flag({ tests: quickPair(50, 60), settings: random, volume: volume('fuse.mergerfs') }, 'fuse')!.message).toContain('mergerfs');
  });

  it('compressing-fs: Btrfs with compress=zstd and zeros gets the zeros wording, as a warning', () => {
    const v = volume('btrfs', { superOptions: ['rw', 'compress=zstd:3', 'space_cache=v2'] });
    const withZeros = flag({ tests: quickPair(900, 1000), settings: zeros, volume: v }, 'compressing-fs');
    expect(withZeros).toMatchObject({ severity: 'warning' });
    expect(withZeros!.message).toContain('wrote zeros to Btrfs mounted with compress=zstd:3');
    expect(withZeros!.fix).toContain('--pattern random');
    const withRandom = flag({ tests: quickPair(900, 1000), settings: random, volume: v }, 'compressing-fs');
    expect(withRandom).toMatchObject({ severity: 'info' });
    expect(withRandom!.message).not.toContain('zeros');
    // compress-force too, in per-mount options; plain Btrfs does not compress.
    expect(
      codes({ tests: quickPair(1, 1), settings: random, volume: volume('btrfs', { mountOptions: ['rw', 'compress-force=lzo'] }) }),
    ).toContain('compressing-fs');
    expect(codes({ tests: quickPair(1, 1), settings: random, volume: volume('btrfs') })).not.toContain('compressing-fs');
  });

  it('zfs: compressing (by default) and copy-on-write', () => {
    const c = codes({ tests: quickPair(500, 600), settings: zeros, volume: volume('zfs', { device: 'tank/data' }) });
    expect(c).toEqual(expect.arrayContaining(['compressing-fs', 'copy-on-write', 'zeros-pattern']));
  });

  it('copy-on-write: Btrfs unless nodatacow, only when the test wrote, and as information', () => {
    const f = flag(
      { tests: [test('RND4K Q32T1 Write', 'randwrite', 300, { bs: 4096, qd: 32 })], settings: random, volume: volume('btrfs') },
      'copy-on-write',
    );
    expect(f).toMatchObject({ severity: 'info' });
    expect(f!.message).toContain('random writes');
    expect(
      codes({ tests: quickPair(1, 1), settings: random, volume: volume('btrfs', { mountOptions: ['rw', 'nodatacow'] }) }),
    ).not.toContain('copy-on-write');
    expect(codes({ tests: [test('SEQ1M Q8T1 Read', 'read', 100)], settings: random, volume: volume('btrfs') })).not.toContain(
      'copy-on-write',
    );
  });

  it('network-fs: nfs, cifs, 9p, virtiofs and sshfs; sshfs is not also flagged as FUSE', () => {
    for (const fs of ['nfs', 'nfs4', 'cifs', 'smb3', 'smbfs', '9p', 'virtiofs', 'fuse.sshfs']) {
      expect(codes({ tests: quickPair(100, 110), settings: random, volume: volume(fs, { device: 'nas:/export' }) })).toEqual([
        'network-fs',
      ]);
    }
    const f = flag({ tests: quickPair(100, 110), settings: random, volume: volume('nfs4', { device: 'nas:/export' }) }, 'network-fs');
    expect(f).toMatchObject({ severity: 'info' });
    expect(f!.message).toContain('nfs4 from nas:/export');
  });

  it('reads-implausibly-fast: an HDD reading 300 against writing 100 MB/s is flagged with both figures', () => {
    const hdd = volume('ext4', { device: '/dev/sda1' }, { name: 'sda', bus: 'ata', rotational: true, removable: false });
    const f = flag({ tests: quickPair(100, 300), settings: random, volume: hdd }, 'reads-implausibly-fast');
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f!.message).toContain('more than 2 × writes (Read 300 MB/s vs Write 100 MB/s)');
    expect(f!.message).toContain('spinning disk');
    expect(codes({ tests: quickPair(150, 200), settings: random, volume: hdd })).toEqual([]);
  });

  it('reads-implausibly-fast compares like with like: each CDM row, best of runs', () => {
    const ssd = volume('ext4', { device: '/dev/nvme0n1p1' }, { name: 'nvme0n1', bus: 'nvme', rotational: false, removable: false });
    const rnd = { bs: 4096, qd: 1 };
    const tests = [
      test('SEQ1M Q8T1 Read', 'read', 7000),
      test('SEQ1M Q8T1 Write', 'write', 1000), // 7 × : a QLC SSD can
      test('RND4K Q1T1 Read', 'randread', 900, rnd),
      test('RND4K Q1T1 Write', 'randwrite', 100, rnd), // 9 ×
      test('RND4K Q1T1 Write', 'randwrite', 120, { ...rnd, run: 2 }), // best write of the two runs: 7.5 ×
    ];
    expect(codes({ tests, settings: random, volume: ssd })).toEqual([]);
    const f = flag({ tests: tests.slice(0, 4), settings: random, volume: ssd }, 'reads-implausibly-fast');
    expect(f!.message).toContain('RND4K Q1T1 Read 900 MB/s vs RND4K Q1T1 Write 100 MB/s');
    expect(f!.message).not.toContain('SEQ1M');
  });

  it('writes-implausibly-fast: a planted result (writes acknowledged early on a virtual disk) is flagged with its figures', () => {
    const doc = fixture(path.join(FIXTURES, 'flags', 'writes-acked-early.json'));
    const flags = flagsOf(doc);
    const f = flags.find((x) => x.code === 'writes-implausibly-fast');
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f!.message).toBe(
      'Writes are more than 2 × reads of the same pattern (SEQ1M Q1T1 Write 5100 MB/s vs SEQ1M Q1T1 Read 2196 MB/s) on a virtual disk, which reports no write cache: a cache probably acknowledged the writes before they reached the disk.',
    );
    expect(f!.fix).toMatch(/larger than the host's or bridge's cache \(--size\)/);
    // It feeds the one trust rule as the other warnings do.
    expect(trustOf(flags)).toMatchObject({ level: 'warn', named: 'writes implausibly fast' });
  });

  it('writes-implausibly-fast stays quiet on the ordinary fixtures and where writes ≈ reads', () => {
    const results = path.join(FIXTURES, 'results');
    const files = readdirSync(results).filter((n) => n.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const name of files)
      expect(
        flagsOf(fixture(path.join(results, name))).map((f) => f.code),
        name,
      ).not.toContain('writes-implausibly-fast');
    // A local NVMe drive: writes ≈ reads, and its own buffer taking small random writes 3 × faster
    // than it reads them (CrystalDiskMark 8's RND4K Q1T1 on an S790: 287 vs 85 MB/s) is normal.
    const nvme = volume('ext4', { device: '/dev/nvme0n1p1' }, { name: 'nvme0n1', bus: 'nvme', rotational: false, removable: false });
    const rnd = { bs: 4096, qd: 1 };
    const local = [
      test('SEQ1M Q8T1 Read', 'read', 7428),
      test('SEQ1M Q8T1 Write', 'write', 6520),
      test('RND4K Q1T1 Read', 'randread', 84.5, rnd),
      test('RND4K Q1T1 Write', 'randwrite', 287.5, rnd),
    ];
    expect(codes({ tests: local, settings: random, volume: nvme })).toEqual([]);
    // The same figures on a virtual disk: the random pair is still not judged, the sequential one is within 2 ×.
    const vda = volume('ext4', { device: '/dev/vda1' }, { name: 'vda', bus: 'virtio', rotational: true });
    expect(codes({ tests: local, settings: random, volume: vda })).toEqual([]);
  });

  it('writes-implausibly-fast judges network shares and USB bridges, at more than 2 × only', () => {
    const usb = volume('exfat', {}, { name: 'sdb', bus: 'usb', rotational: false, removable: false });
    expect(flag({ tests: quickPair(900, 400), settings: random, volume: usb }, 'writes-implausibly-fast')!.message).toContain(
      '(Write 900 MB/s vs Read 400 MB/s) on a drive behind a USB bridge',
    );
    expect(codes({ tests: quickPair(790, 400), settings: random, volume: usb })).toEqual([]);
    expect(flag({ tests: quickPair(300, 110), settings: random, volume: volume('nfs4') }, 'writes-implausibly-fast')!.message).toContain(
      'on a network share',
    );
    // A sweep over an SMB share: at 4 KiB, queue depth 1, reads wait a round trip each while the
    // client pipelines the writes; only from 1 MiB (bandwidth-bound both ways) does 2 × mean a cache.
    const seq = (kib: number, rw: 'read' | 'write', mbps: number) =>
      test(`SEQ${kib}K Q1T1 ${rw === 'read' ? 'Read' : 'Write'}`, rw, mbps, { bs: kib * 1024, qd: 1 });
    const share = volume('cifs');
    const sweep = [
      seq(4, 'write', 8.7),
      seq(4, 'read', 4.2),
      seq(512, 'write', 90),
      seq(512, 'read', 40),
      seq(1024, 'write', 110),
      seq(1024, 'read', 100),
    ];
    expect(codes({ tests: sweep, settings: random, volume: share })).not.toContain('writes-implausibly-fast');
    const early = [...sweep.slice(0, 4), seq(1024, 'write', 230), seq(1024, 'read', 100)];
    expect(flag({ tests: early, settings: random, volume: share }, 'writes-implausibly-fast')!.message).toContain(
      '(SEQ1024K Q1T1 Write 230 MB/s vs SEQ1024K Q1T1 Read 100 MB/s) on a network share',
    );
    // An internal SATA disk has no such rule (its cache is the drive's, and known).
    const sata = volume('ext4', {}, { name: 'sda', bus: 'ata', rotational: false, removable: false });
    expect(codes({ tests: quickPair(900, 400), settings: random, volume: sata })).toEqual([]);
  });

  it('a removable USB flash stick reading 300 and writing 30 MB/s is not flagged (that is normal)', () => {
    const stick = volume('vfat', {}, { name: 'sdc', bus: 'usb', rotational: true, removable: true });
    expect(codes({ tests: quickPair(30, 300), settings: random, volume: stick })).toEqual([]);
  });

  it('device classes: what the ratio rule judges and what it leaves alone', () => {
    expect(deviceClass({ name: 'sda', bus: 'ata', rotational: true })).toBe('hdd');
    expect(deviceClass({ name: 'sda', bus: 'scsi', rotational: true })).toBe('hdd');
    expect(deviceClass({ name: 'nvme0n1', bus: 'nvme', rotational: false })).toBe('ssd');
    expect(deviceClass({ name: 'sda', bus: 'ata', rotational: false })).toBe('ssd');
    expect(deviceClass({ name: 'vda', bus: 'virtio', rotational: true })).toBeUndefined(); // VMs say rotational
    expect(deviceClass({ name: 'sdb', bus: 'usb', rotational: false, removable: false })).toBeUndefined();
    expect(deviceClass({ name: 'mmcblk0', bus: 'mmc', rotational: false })).toBeUndefined();
    expect(deviceClass(undefined)).toBeUndefined();
  });

  it('keeps cache-not-direct, zeros-pattern, engine-note and empty-test', () => {
    const tests = [
      test('Write', 'write', 10, { cacheMode: 'buffered-flushed', cacheNote: 'exFAT refused O_DIRECT (EINVAL)' }),
      test('Read', 'read', 10, { bytes: 0, cacheNote: 'hm' }),
    ];
    const f = computeFlags({ tests, settings: { cache: 'buffered-flushed', pattern: 'zeros' } });
    expect(f.map((x) => x.code)).toEqual(['cache-not-direct', 'zeros-pattern', 'engine-note', 'empty-test']);
    expect(f[0]!.message).toContain('exFAT refused O_DIRECT (EINVAL)');
    expect(f[0]!.fix).toContain('you asked for buffered-flushed');
    expect(f.map((x) => x.severity)).toEqual(['warning', 'warning', 'info', 'warning']);
  });

  it('disk-unknown: says why the disk is unknown (no PowerShell), only when it is', () => {
    const noShell = volume('unknown', { diskNote: POWERSHELL_MISSING_NOTE });
    const f = computeFlags({ tests: quickPair(10, 10), settings: random, volume: noShell });
    expect(f.map((x) => [x.code, x.severity])).toEqual([['disk-unknown', 'info']]);
    expect(f[0]!.message).toBe(`${POWERSHELL_MISSING_NOTE}.`);
    expect(computeFlags({ tests: quickPair(10, 10), settings: random, volume: volume('ext4') })).toEqual([]);
  });

  it('every flag has a code, a message, a fix and a severity', () => {
    const inputs: FlagInput[] = [
      {
        tests: [
          ...quickPair(100, 500),
          test('Empty', 'write', 0, { bytes: 0, cacheMode: 'buffered', cacheNote: 'n' }),
          test('X', 'read', 1, { cacheNote: 'n2' }),
        ],
        settings: zeros,
        volume: volume('btrfs', { superOptions: ['compress=zstd'] }, { name: 'sda', bus: 'ata', rotational: true, linkInfo: USB2 }),
      },
      { tests: quickPair(10, 10), settings: random, volume: volume('tmpfs') },
      { tests: quickPair(10, 10), settings: random, volume: volume('fuseblk') },
      { tests: quickPair(10, 10), settings: random, volume: volume('nfs') },
      { tests: quickPair(300, 100), settings: random, volume: volume('ext4', {}, { name: 'vda', bus: 'virtio' }) },
      { tests: quickPair(10, 10), settings: random, volume: volume('unknown', { diskNote: POWERSHELL_MISSING_NOTE }) },
    ];
    const all = inputs.flatMap((i) => computeFlags(i));
    expect(new Set(all.map((f) => f.code))).toEqual(
      new Set([
        'above-interface-ceiling',
        'cache-not-direct',
        'ram-backed',
        'network-fs',
        'fuse',
        'compressing-fs',
        'reads-implausibly-fast',
        'writes-implausibly-fast',
        'zeros-pattern',
        'engine-note',
        'copy-on-write',
        'disk-unknown',
        'empty-test',
      ]),
    );
    for (const f of all) {
      expect(f.message.length, f.code).toBeGreaterThan(20);
      expect(f.fix.length, f.code).toBeGreaterThan(10);
      expect(['warning', 'info']).toContain(f.severity);
    }
  });
});

describe('the CLI report', () => {
  it('prints the link under the header, and flags as ⚠ message — fix / ℹ message', () => {
    const doc = {
      schema: 1,
      id: 'x',
      kind: 'quick',
      startedAt: '',
      finishedAt: '',
      app: { version: '0', engine: '0' },
      host: { os: 'linux', osRelease: '6', arch: 'x64', cpu: 'c', cores: 1, ramBytes: 1 },
      target: {
        path: '/mnt/x',
        volume: 'X',
        mountPoint: '/mnt/x',
        fs: 'btrfs',
        mountOptions: [],
        totalBytes: 1,
        freeBytes: 1,
        device: { model: 'T7', bus: 'usb', link: USB32G2.label, linkInfo: USB32G2, firmware: 'SVT02B6Q' },
      },
      settings: { size: 1 << 24, pattern: 'random', cache: 'auto', runs: 1 },
      cacheMode: 'direct',
      dataPattern: 'random',
      tests: quickPair(900, 950),
      context: { temperatureC: { before: 38, after: 45 } },
      flags: [
        { code: 'a', severity: 'warning', message: 'Something is off.', fix: 'Do this.' },
        { code: 'b', severity: 'info', message: 'Worth knowing.', fix: 'Nothing.' },
        { code: 'c', message: 'Old document.', fix: 'Old fix.' },
      ],
    } as unknown as ResultDocument;
    const lines = formatReport(doc).split('\n');
    expect(lines[1]).toContain('(T7 fw SVT02B6Q, usb)');
    expect(lines[2]).toBe('  USB 3.2 Gen 2 (10 Gb/s) · ceiling ≈ 1212 MB/s · typical 900–1050 MB/s');
    expect(lines[3]).toBe('  Drive temperature 38 °C before, 45 °C after');
    expect(lines.slice(-4, -1)).toEqual(['⚠ Something is off. — Do this.', 'ℹ Worth knowing.', '⚠ Old document. — Old fix.']);
  });
});

// Real file systems: what the engine achieves there and what the flags say about it.
describe.runIf(rootOnly())('flags on real file systems (root)', () => {
  const mounted: MountedFs[] = [];
  const docs = new Map<string, ResultDocument>();
  const size = 16 << 20;
  beforeAll(async () => {
    const cases: Array<[string, Parameters<typeof mountFs>, 'random' | 'zeros']> = [
      ['tmpfs', ['tmpfs', { sizeMiB: 32 }], 'random'],
      ['exfat', ['exfat'], 'random'],
      ['btrfs', ['btrfs', { mountOptions: ['compress=zstd'] }], 'zeros'],
      ['ext4', ['ext4'], 'random'],
      ['ext4-dio', ['ext4', { directIo: true }], 'random'],
    ];
    // One after another: each mount is a loop device and a mkfs; parallel adds nothing but noise.
    for (const [name, args, pattern] of cases) {
      const m = await mountFs(...args);
      mounted.push(m);
      docs.set(name, await runBenchmark({ target: m.dir, test: 'quick', size, pattern, handleSignals: false }));
    }
  }, 120_000);
  afterAll(async () => {
    for (const m of mounted) await m.cleanup();
  });
  const codesOf = (name: string): string[] => docs.get(name)!.flags.map((f) => f.code);
  const suspicious = [
    'ram-backed',
    'fuse',
    'compressing-fs',
    'cache-not-direct',
    'network-fs',
    'copy-on-write',
    'reads-implausibly-fast',
    'above-interface-ceiling',
  ];

  it('tmpfs is flagged RAM-backed, and its cache mode is honest', () => {
    const doc = docs.get('tmpfs')!;
    expect(doc.target.fs).toBe('tmpfs');
    expect(codesOf('tmpfs')).toContain('ram-backed');
    expect(doc.cacheMode).toBe('buffered-flushed');
  });

  it('exFAT through FUSE carries the FUSE flag, cache-not-direct and an honest cache mode', () => {
    const doc = docs.get('exfat')!;
    expect(doc.target.fs).toBe('fuseblk');
    expect(codesOf('exfat')).toEqual(expect.arrayContaining(['fuse', 'cache-not-direct']));
    expect(doc.cacheMode).toBe('buffered-flushed');
  });

  it('Btrfs mounted with compress=zstd and tested with zeros is flagged compressing, in the zeros wording', () => {
    const doc = docs.get('btrfs')!;
    expect(doc.target.mountOptions.some((o) => o.startsWith('compress=zstd'))).toBe(true);
    const f = doc.flags.find((x) => x.code === 'compressing-fs');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('wrote zeros to Btrfs mounted with compress=zstd');
    expect(codesOf('btrfs')).toEqual(expect.arrayContaining(['copy-on-write', 'zeros-pattern']));
  });

  it('ext4 on a loop device over a cached image file: direct I/O, but the loop-cached flag says the host cache sits below', () => {
    const doc = docs.get('ext4')!;
    expect(doc.target.fs).toBe('ext4');
    expect(doc.cacheMode).toBe('direct');
    expect(codesOf('ext4').filter((c) => suspicious.includes(c))).toEqual([]);
    expect(codesOf('ext4')).toContain('loop-cached');
    expect(doc.flags.find((f) => f.code === 'loop-cached')!.message).toContain(mounted[3]!.image!);
  });

  it('ext4 on a loop device with --direct-io=on gets none of these', () => {
    const doc = docs.get('ext4-dio')!;
    expect(doc.cacheMode).toBe('direct');
    expect(codesOf('ext4-dio').filter((c) => [...suspicious, 'loop-cached'].includes(c))).toEqual([]);
  });
});

describe('flags on network shares', () => {
  const gbe: NetworkPath = {
    protocol: 'SMB',
    version: '3.1.1',
    client: 'kernel',
    server: 'nas',
    share: 'media',
    interface: { name: 'eth0', kind: 'ethernet', speedMbps: 1000, mtu: 1500, source: 'sysfs' },
    ceilingMBps: 118.7,
  };
  const share = (fsType: string, network?: NetworkPath) => volume(fsType, { device: '//nas/media', ...(network ? { network } : {}) });

  it('above-interface-ceiling judges a share against its network link, and tells how to mount it uncached', () => {
    const f = flag({ tests: quickPair(110, 400), settings: random, volume: share('cifs', gbe) }, 'above-interface-ceiling');
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f!.message).toBe(
      "Read 400 MB/s is above what the network link 1 GbE (eth0) can carry (≈ 119 MB/s): the client's cache on this computer answered, not the server.",
    );
    expect(f!.fix).toContain('cache=none');
    expect(f!.fix).toContain('reads can come from this computer’s memory');
    expect(f!.fix).not.toContain('cable');
    // Within the ceiling (and its 5 % slack): nothing.
    expect(codes({ tests: quickPair(110, 120), settings: random, volume: share('cifs', gbe) })).not.toContain('above-interface-ceiling');
  });

  it('a virtual link or loopback has no ceiling, so no figure is above it', () => {
    const veth: NetworkPath = { ...gbe, interface: { name: 'veth0', kind: 'virtual', speedMbps: 10000, source: 'sysfs' } };
    delete veth.ceilingMBps;
    expect(codes({ tests: quickPair(900, 2000), settings: random, volume: share('fuse.sshfs', veth) })).not.toContain(
      'above-interface-ceiling',
    );
  });

  it('cache-not-direct on a share says how to make that client uncached, not to test a disk file system', () => {
    const buffered = quickPair(50, 60).map((t) => ({ ...t, cacheMode: 'buffered-flushed' as const }));
    const sshfs = flag({ tests: buffered, settings: random, volume: share('fuse.sshfs') }, 'cache-not-direct')!;
    expect(sshfs.message).toContain("went through the share client's cache");
    expect(sshfs.fix).toContain('sshfs -o cache=no,direct_io');
    expect(sshfs.fix).not.toContain('disk file system');
    expect(flag({ tests: buffered, settings: random, volume: share('nfs4') }, 'cache-not-direct')!.fix).toContain('noac');
    expect(flag({ tests: buffered, settings: random, volume: share('cifs') }, 'cache-not-direct')!.fix).toContain('cache=none');
    // A disk keeps the disk advice.
    expect(flag({ tests: buffered, settings: random, volume: volume('ext4') }, 'cache-not-direct')!.fix).toContain('disk file system');
  });

  it('cache-not-direct on a share the user asked to go through the cache: the advice is --cache auto, not a mount option', () => {
    // Buffered because --cache buffered-flushed asked for it, not because the client refused:
    // the fix is the flag, and the share's uncached mount options would not change a thing.
    const buffered = quickPair(50, 60).map((t) => ({ ...t, cacheMode: 'buffered-flushed' as const }));
    const asked = { ...random, cache: 'buffered-flushed' as const };
    for (const fsType of ['fuse.sshfs', 'nfs4', 'cifs']) {
      const f = flag({ tests: buffered, settings: asked, volume: share(fsType) }, 'cache-not-direct')!;
      expect(f.fix, fsType).toBe('Run with --cache auto to bypass the cache (you asked for buffered-flushed).');
      expect(f.message, fsType).toContain("went through the operating system's cache");
    }
  });

  it('network-fs names the share and its link, with the ceiling to compare with', () => {
    const f = flag({ tests: quickPair(100, 110), settings: random, volume: share('cifs', gbe) }, 'network-fs')!;
    expect(f.message).toContain('(SMB 3.1.1 · nas:media · via eth0)');
    expect(f.fix).toContain('1 GbE (eth0) ≈ 119 MB/s of payload');
    expect(f.fix).toContain('cache=none');
    expect(codes({ tests: quickPair(100, 110), settings: random, volume: share('fuse.smbnetfs') })).toEqual(['network-fs']);
  });
});
