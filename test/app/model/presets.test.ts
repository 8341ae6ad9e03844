import { describe, expect, it } from 'vitest';
import type { EngineSpec } from '../../../app/src/model/engine-types.js';
import { buildPlan, defaultReserve, GiB, MiB, type PlanStep } from '../../../app/src/model/presets.js';
import { TEST_KINDS } from '../../../app/src/model/kinds/registry.js';
import { CDM_TEST_NAMES } from '../../helpers/cdm.js';

const KiB = 1024;
/** A roomy target for the plans that size themselves to free space. */
const roomy = { freeBytes: 2e12, totalBytes: 4e12 };

// What the engine contract (engine-types.ts) accepts.
function assertValidSpec(s: PlanStep['spec']): void {
  const spec: Omit<EngineSpec, 'path'> = s;
  expect(['read', 'write', 'randread', 'randwrite', 'randrw']).toContain(spec.rw);
  expect(Number.isInteger(Math.log2(spec.bs))).toBe(true);
  expect(spec.bs).toBeGreaterThanOrEqual(512);
  expect(spec.bs).toBeLessThanOrEqual(64 * MiB);
  expect(spec.qd).toBeGreaterThanOrEqual(1);
  expect(spec.qd).toBeLessThanOrEqual(64);
  expect(spec.threads).toBeGreaterThanOrEqual(1);
  expect(spec.threads).toBeLessThanOrEqual(64);
  expect(spec.fileSize % (spec.bs * spec.threads)).toBe(0);
  expect(spec.fileSize).toBeGreaterThan(0);
  expect(['random', 'zeros', 'verify']).toContain(spec.pattern);
  expect(['auto', 'buffered-flushed', 'buffered']).toContain(spec.cache);
  if (spec.rw === 'randrw' || spec.rw === 'rw') expect(spec.rwmixread).toBe(70);
}

describe('buildPlan', () => {
  // The many-file set, the sweep (a file for writes, one for reads) and verify (the free space in
  // files of at most 1 GiB) have files of their own, and so has the share test (kinds/share.test.ts).
  it.each(TEST_KINDS.filter((k) => k !== 'files' && k !== 'sweep' && k !== 'verify' && k !== 'share'))(
    '%s produces valid specs on one shared file',
    (kind) => {
      const plan = buildPlan(kind, {}, roomy);
      expect(plan.steps.length).toBeGreaterThan(0);
      for (const step of plan.steps) {
        assertValidSpec(step.spec);
        expect(step.spec.fileSize).toBe(plan.fileSize);
      }
      // Only the last step may delete the file; every earlier one keeps it for the next.
      plan.steps.slice(0, -1).forEach((s) => expect(s.spec.keepFile).toBe(true));
      expect(plan.steps.at(-1)!.spec.keepFile).toBe(false);
    },
  );

  it('quick: Blackmagic-style write then read, 1 GB by default', () => {
    const plan = buildPlan('quick');
    expect(plan.steps.map((s) => [s.name, s.spec.rw, s.spec.bs, s.spec.qd])).toEqual([
      ['Write', 'write', MiB, 8],
      ['Read', 'read', MiB, 8],
    ]);
    expect(plan.fileSize).toBe(Math.floor(1e9 / MiB) * MiB);
    expect(plan.steps[0]!.spec.seconds).toBeUndefined();
  });

  it("cdm: CrystalDiskMark's four tests, the read column then the write column, 5 s each, 1 GiB", () => {
    const plan = buildPlan('cdm');
    expect(plan.fileSize).toBe(GiB);
    expect(plan.steps.map((s) => s.name)).toEqual(CDM_TEST_NAMES);
    expect(plan.steps.map((s) => s.spec.rw)).toEqual(['read', 'read', 'randread', 'randread', 'write', 'write', 'randwrite', 'randwrite']);
    // 5 s each, looping over the file as often as it takes.
    expect(plan.steps.every((s) => s.spec.seconds === 5 && s.spec.bytes === undefined)).toBe(true);
    expect(plan.settings).toMatchObject({ preset: 'default', mode: 'readwrite' });
  });

  it("cdm presets are CrystalDiskMark 8's profiles", () => {
    const rows = (preset: 'nvme' | 'peak' | 'realworld') =>
      buildPlan('cdm', { preset, mode: 'read' }).steps.map((s) => [s.name, s.spec.bs, s.spec.qd, s.spec.threads]);
    expect(rows('nvme')).toEqual([
      ['SEQ1M Q8T1 Read', MiB, 8, 1],
      ['SEQ128K Q32T1 Read', 128 * KiB, 32, 1],
      ['RND4K Q32T16 Read', 4 * KiB, 32, 16],
      ['RND4K Q1T1 Read', 4 * KiB, 1, 1],
    ]);
    expect(rows('peak').map((r) => r[0])).toEqual(['SEQ1M Q8T1 Read', 'RND4K Q32T1 Read']);
    expect(rows('realworld').map((r) => r[0])).toEqual(['SEQ1M Q1T1 Read', 'RND4K Q1T1 Read']);
    // Sixteen threads each need whole blocks of their own: the file rounds to 16 x 4 KiB, and 1 MiB.
    expect(buildPlan('cdm', { preset: 'nvme', size: 16 * MiB + 5 }).fileSize).toBe(16 * MiB);
  });

  it('cdm modes: one direction, the mixes (sequential mixes are sequential), or all three columns', () => {
    const names = (mode: 'read' | 'write' | 'mix' | 'all') =>
      buildPlan('cdm', { preset: 'peak', mode }).steps.map((s) => `${s.name}:${s.spec.rw}`);
    expect(names('write')).toEqual(['SEQ1M Q8T1 Write:write', 'RND4K Q32T1 Write:randwrite']);
    expect(names('mix')).toEqual(['SEQ1M Q8T1 Mix 70/30:rw', 'RND4K Q32T1 Mix 70/30:randrw']);
    expect(names('all')).toEqual([
      'SEQ1M Q8T1 Read:read',
      'RND4K Q32T1 Read:randread',
      'SEQ1M Q8T1 Write:write',
      'RND4K Q32T1 Write:randwrite',
      'SEQ1M Q8T1 Mix 70/30:rw',
      'RND4K Q32T1 Mix 70/30:randrw',
    ]);
    expect(buildPlan('cdm', { preset: 'peak', mode: 'mix', rwmixread: 50 }).steps[0]).toMatchObject({
      name: 'SEQ1M Q8T1 Mix 50/50',
      spec: { rwmixread: 50 },
    });
  });

  it("cdm sizes stay within CrystalDiskMark's 16 MiB – 64 GiB", () => {
    expect(buildPlan('cdm', { size: 16 * MiB }).fileSize).toBe(16 * MiB);
    expect(() => buildPlan('cdm', { size: 8 * MiB })).toThrow(/16 MiB to 64 GiB/);
    expect(() => buildPlan('cdm', { size: 65 * GiB })).toThrow(/16 MiB to 64 GiB/);
    expect(() => buildPlan('cdm', { preset: 'turbo' as never })).toThrow(/default, nvme, peak, realworld, fast/);
  });

  it('sustained: one file written start to end, up to the size asked or free space less the reserve', () => {
    const asked = buildPlan('sustained', { size: 10e9 }, roomy);
    expect(asked.steps).toHaveLength(1);
    expect(asked.steps[0]!.spec).toMatchObject({ rw: 'write', bs: MiB, qd: 8, threads: 1, keepFile: false });
    expect(asked.steps[0]!.spec.seconds).toBeUndefined();
    expect(asked.fileSize).toBe(Math.floor(10e9 / MiB) * MiB);
    expect(asked.sustained).toEqual({ requestedBytes: 10e9, limitedBy: 'size', reserveBytes: defaultReserve(4e12) });
    expect(asked.notes).toEqual([]);

    // 20 GB free, 1 TB volume: the default reserve is 5 % (50 GB) — nothing left; with 2 GiB kept free, 18 GB.
    expect(() => buildPlan('sustained', { size: 50e9 }, { freeBytes: 20e9, totalBytes: 1e12 })).toThrow(/Not enough free space/);
    const short = buildPlan('sustained', { size: 50e9, reserveBytes: 2 * GiB }, { freeBytes: 20e9, totalBytes: 1e12 });
    expect(short.fileSize).toBe(Math.floor((20e9 - 2 * GiB) / MiB) * MiB);
    expect(short.sustained!.limitedBy).toBe('free-space');
    expect(short.notes[0]).toMatch(/^Writing 17\.9 GB, not 50 GB: that is what free space allows with 2\.15 GB kept free\.$/);
    expect(() => buildPlan('sustained', { seconds: 10 }, roomy)).toThrow(/bounded by bytes/);
  });

  it('defaultReserve: the larger of 512 MiB and 5 % of the volume', () => {
    expect(defaultReserve(1e9)).toBe(512 * MiB);
    expect(defaultReserve(1e12)).toBe(5e10);
  });

  it('files: every file written in the write order, then read in the read order, each its own file', () => {
    const plan = buildPlan('files', { preset: 'quick' }, roomy);
    const set = plan.fileSet!;
    expect(set.entries).toHaveLength(40);
    expect(plan.steps).toHaveLength(80);
    expect(plan.steps.slice(0, 40).map((s) => s.fileIndex)).toEqual(set.writeOrder);
    expect(plan.steps.slice(40).map((s) => s.fileIndex)).toEqual(set.readOrder);
    expect(new Set(plan.steps.map((s) => s.file)).size).toBe(40);
    for (const step of plan.steps) {
      assertValidSpec(step.spec);
      const e = set.entries[step.fileIndex!]!;
      expect(step.file).toBe(e.name);
      expect(step.spec).toMatchObject({ rw: step.pass, fileSize: e.bytes, bs: e.bs, qd: 8, threads: 1, keepFile: true });
    }
    expect(plan.steps[0]!.name).toMatch(/^Write file 1\/40 \(/);
    expect(plan.steps[40]!.name).toMatch(/^Read file 1\/40 \(/);
    expect(plan.settings).toMatchObject({ preset: 'quick', files: { count: 40, minBytes: 2e6, maxBytes: 6e8, seed: 326 } });
    expect(plan.needBytes).toBe(set.totalBytes);
  });

  it("files: the Standard set is Stibium's 160 files from 2 MB to 2 GB, about 53 GB", () => {
    const set = buildPlan('files', { preset: 'standard' }, roomy).fileSet!;
    expect(set.entries).toHaveLength(160);
    expect(set.totalBytes / 1e9).toBeCloseTo(53.1, 1);
    expect(Math.min(...set.entries.map((e) => e.bytes))).toBeGreaterThanOrEqual(2 * MiB);
    expect(Math.max(...set.entries.map((e) => e.bytes))).toBeLessThanOrEqual(2e9);
  });

  it('files: custom sets, and a set scaled down to free space says so', () => {
    const custom = buildPlan('files', { files: { count: 12, minBytes: MiB, maxBytes: 16 * MiB } }, roomy);
    expect(custom.settings.preset).toBe('custom');
    expect(custom.fileSet!.entries).toHaveLength(12);
    const tight = buildPlan('files', { preset: 'quick', reserveBytes: 0 }, { freeBytes: 1e9, totalBytes: 1e9 });
    expect(tight.fileSet!.totalBytes).toBeLessThanOrEqual(1e9);
    // Fewer than 40 files of the sequence fit in 1 GB at full size: all 40 are kept, each smaller by one factor.
    expect(tight.fileSet!.entries).toHaveLength(40);
    expect(tight.notes[0]).toBe(
      'Free space (1 GB usable) is short of the 40 files (5.01 GB) this set needs: scaled down to 40 files of 387 kB – 116 MB (971 MB), the same spread of sizes, smaller.',
    );
    expect(() => buildPlan('files', { preset: 'quick', reserveBytes: 0 }, { freeBytes: 4e6, totalBytes: 1e9 })).toThrow(
      /Not enough free space/,
    );
    expect(() => buildPlan('files', { seconds: 3 }, roomy)).toThrow(/whole files/);
  });

  it('files: each step names its file in the units the set was asked in (MiB asked, MiB shown; a preset in MB)', () => {
    const binary = buildPlan('files', { files: { count: 12, minBytes: 4 * MiB, maxBytes: 64 * MiB } }, roomy);
    const sizes = binary.steps.map((s) => /\((.+)\)$/.exec(s.name)![1]!);
    for (const size of sizes) expect(size).toMatch(/^[\d.]+ MiB$/);
    const first = binary.fileSet!.entries[binary.steps[0]!.fileIndex!]!.bytes;
    expect(binary.steps[0]!.name).toBe(`Write file 1/12 (${first / MiB} MiB)`);
    const decimal = buildPlan('files', { files: { count: 12, minBytes: 4e6, maxBytes: 64e6 } }, roomy);
    for (const s of decimal.steps) expect(s.name).toMatch(/\([\d.]+ MB\)$/);
    for (const s of buildPlan('files', { preset: 'quick' }, roomy).steps) expect(s.name).toMatch(/\([\d.]+ [kMG]B\)$/);
  });

  it('honours a duration the user asks for as a duration, without a byte cap', () => {
    const spec = buildPlan('rand-read', { seconds: 30 }).steps[0]!.spec;
    expect(spec.seconds).toBe(30);
    expect(spec.bytes).toBeUndefined();
    expect(buildPlan('rand-read').steps[0]!.spec).toMatchObject({ seconds: 5 });
  });

  it('applies options and names steps after them', () => {
    const plan = buildPlan('rand-write', {
      size: 64 * MiB,
      bs: 8192,
      qd: 4,
      threads: 2,
      pattern: 'zeros',
      cache: 'buffered',
      seconds: 2,
      warmupSeconds: 1,
    });
    expect(plan.steps).toEqual([
      {
        name: 'RND8K Q4T2 Write',
        spec: {
          rw: 'randwrite',
          bs: 8192,
          qd: 4,
          threads: 2,
          fileSize: 64 * MiB,
          pattern: 'zeros',
          cache: 'buffered',
          seconds: 2,
          warmupSeconds: 1,
          keepFile: false,
        },
      },
    ]);
    expect(buildPlan('mix').steps[0]!.name).toBe('RND4K Q32T1 Mix 70/30');
    expect(buildPlan('seq-read', { threads: 4 }).steps[0]!.name).toBe('SEQ1M Q8T4 Read');
  });

  it('rounds the file down to whole blocks per thread', () => {
    expect(buildPlan('seq-write', { size: 10 * MiB + 123, threads: 3 }).fileSize).toBe(9 * MiB);
  });

  it.each([
    [{ bs: 100 }, /block size/],
    [{ bs: 256 * MiB }, /block size/],
    [{ qd: 0 }, /queue depth/],
    [{ qd: 65 }, /queue depth/],
    [{ threads: 65 }, /thread/],
    [{ size: 0 }, /size/],
    [{ size: 4096 }, /smaller than one block/],
  ])('rejects %j', (opts, message) => {
    expect(() => buildPlan('seq-write', opts)).toThrow(message);
  });
});
