// The verify kind (issue 35): its plan (all files written first, then all read back, one seed),
// and the laws of its analysis and capacity verdict over generated drives. Each case plants a
// drive shape — genuine, wrapping at N, dropping writes beyond N (zeros, ones or other data),
// flipping bits in chosen blocks, stopped after some blocks — and simulates, block by block and
// apart from the analysis, what a drive of that shape gives back; the verdict must name the shape
// and the exact capacity or first bad block, and the claims audit must find nothing its figures
// contradict.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../../../../app/src/model/analysis.js';
import type { EngineResult, VerifyBad, VerifyFigures, VerifyRun } from '../../../../app/src/model/engine-types.js';
import { buildPlan } from '../../../../app/src/model/presets.js';
import type { Plan } from '../../../../app/src/model/kinds/plan.js';
import { verifySection, wrapDistance } from '../../../../app/src/model/kinds/verify/analysis.js';
import { VERIFY_BLOCK_BYTES, VERIFY_FILE_BYTES, type VerifyFile } from '../../../../app/src/model/kinds/verify/plan.js';
import { capacityText, capacityVerdict } from '../../../../app/src/model/verdict/capacity.js';
import { capacityContradictions } from '../../../helpers/claims-audit.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const B = VERIFY_BLOCK_BYTES;

describe('the verify plan', () => {
  it('fills free space less the reserve with files of at most 1 GiB, writes all of them, then reads all back', () => {
    const plan = buildPlan('verify', { reserveBytes: 0 }, { freeBytes: 2.5 * GiB, totalBytes: 4 * GiB });
    const files = plan.verify!.files;
    expect(files.map((f) => f.bytes)).toEqual([GiB, GiB, GiB / 2]);
    expect(files.map((f) => f.baseBlock)).toEqual([0, GiB / B, (2 * GiB) / B]);
    expect(plan.steps.map((s) => `${s.pass} ${s.fileIndex}`)).toEqual(['write 0', 'write 1', 'write 2', 'read 0', 'read 1', 'read 2']);
    const seeds = new Set(plan.steps.map((s) => s.spec.seed));
    expect(seeds.size).toBe(1);
    for (const s of plan.steps) {
      expect(s.spec).toMatchObject({
        pattern: 'verify',
        keepFile: true,
        bs: MiB,
        threads: 1,
        verify: { baseBlock: files[s.fileIndex!]!.baseBlock },
      });
      expect(s.spec.fileSize).toBe(files[s.fileIndex!]!.bytes);
      // One write at a time, so a file system lays the blocks out in the run's order.
      expect(s.spec.qd).toBe(s.pass === 'write' ? 1 : 8);
    }
    expect(plan.needBytes).toBe(2.5 * GiB);
    expect(plan.verify).toMatchObject({ limitedBy: 'free-space', reportedBytes: 4 * GiB, startBytes: 1.5 * GiB });
  });

  it('--size caps the bytes verified; each plan draws a fresh seed', () => {
    const target = { freeBytes: 100 * GiB, totalBytes: 200 * GiB };
    const a = buildPlan('verify', { size: 300 * MiB }, target);
    expect(a.fileSize).toBe(300 * MiB);
    expect(a.verify).toMatchObject({ limitedBy: 'size', requestedBytes: 300 * MiB });
    expect(a.steps).toHaveLength(2);
    const b = buildPlan('verify', { size: 300 * MiB }, target);
    // Two 53-bit draws agree with chance 2^-53 per run.
    expect(a.verify!.seed).not.toBe(b.verify!.seed);
    expect(Number.isSafeInteger(a.verify!.seed)).toBe(true);
  });

  it('refuses another data pattern, a time bound, and a volume with too little room', () => {
    const target = { freeBytes: 10 * GiB, totalBytes: 20 * GiB };
    expect(() => buildPlan('verify', { pattern: 'random' }, target)).toThrow(/--pattern random does not apply/);
    expect(() => buildPlan('verify', { seconds: 5 }, target)).toThrow(/bounded by bytes, not seconds/);
    expect(() => buildPlan('verify', {}, { freeBytes: 600 * MiB, totalBytes: 20 * GiB })).toThrow(/Not enough free space to verify/);
  });

  it('a whole device: all of it from byte 0 in regions (a sixteenth, 1 MiB to 1 GiB), each at its own offset, no files', () => {
    const dev = (bytes: number): Plan => buildPlan('verify', {}, { freeBytes: bytes, totalBytes: bytes, wholeDevice: true });
    // 256 MiB: 16 regions of 16 MiB; block b lies at byte b × 4 KiB of the device.
    const small = dev(256 * MiB);
    expect(small.verify).toMatchObject({ limitedBy: 'device', reserveBytes: 0, startBytes: 0, reportedBytes: 256 * MiB, device: true });
    expect(small.verify!.files.map((f) => f.bytes)).toEqual(Array(16).fill(16 * MiB));
    for (const s of small.steps) {
      const f = small.verify!.files[s.fileIndex!]!;
      expect(s.file).toBeUndefined();
      expect(s.spec).toMatchObject({ device: true, offset: f.baseBlock * B, fileSize: f.bytes, verify: { baseBlock: f.baseBlock } });
    }
    expect(small.steps.map((s) => s.pass)).toEqual([...Array(16).fill('write'), ...Array(16).fill('read')]);
    // Boundaries of the region size: 1 MiB at the least (a 10 MiB device), 1 GiB at the most.
    expect(dev(10 * MiB).verify!.files.map((f) => f.bytes)).toEqual(Array(10).fill(MiB));
    expect(dev(16 * GiB).verify!.files.every((f) => f.bytes === GiB)).toBe(true);
    expect(dev(16 * GiB - MiB).verify!.files[0]!.bytes).toBe(1023 * MiB);
    expect(dev(931.5e9).verify!.files[0]!.bytes).toBe(GiB);
    // A tail short of 1 MiB is left out; the last region is what remains (100 MiB: 16 × 6 MiB + 4).
    const odd = dev(100 * MiB + 4096).verify!.files;
    expect(odd.reduce((a, f) => a + f.bytes, 0)).toBe(100 * MiB);
    expect(odd.map((f) => f.bytes)).toEqual([...Array(16).fill(6 * MiB), 4 * MiB]);
    // --size verifies the device's first bytes only.
    expect(buildPlan('verify', { size: 64 * MiB }, { freeBytes: GiB, totalBytes: GiB, wholeDevice: true }).verify).toMatchObject({
      limitedBy: 'size',
      requestedBytes: 64 * MiB,
    });
    expect(() => dev(512 * 1024)).toThrow(/too small to verify/);
  });
});

// ---- a drive simulated block by block ----------------------------------------------------------

type Drive =
  | { shape: 'genuine' }
  | { shape: 'wrap'; n: number; layout?: readonly number[] }
  | { shape: 'drop'; n: number; fill: 'zeros' | 'ones' | 'stale' }
  | { shape: 'flip'; bits: ReadonlyMap<number, number> };

/** What each file reads back from `drive` after all `files` were written in order, reading stops
 *  after `readBlocks` blocks in all: the engine's figures, with runs in block order. */
function simulate(files: readonly VerifyFile[], drive: Drive, readBlocks = Infinity): Array<VerifyFigures | undefined> {
  const total = files.reduce((a, f) => a + f.bytes / B, 0);
  // layout: where a file system put each block of the run on the volume (in order by default).
  const where = (b: number): number => (drive.shape === 'wrap' ? (drive.layout?.[b] ?? b) % drive.n : b);
  const store = new Map<number, number>();
  for (let b = 0; b < total; b++) if (!(drive.shape === 'drop' && b >= drive.n)) store.set(where(b), b);
  let left = readBlocks;
  return files.map((f) => {
    if (left <= 0) return undefined;
    const fig: VerifyFigures = {
      blockBytes: B,
      blocks: 0,
      intact: 0,
      aliased: 0,
      zeros: 0,
      ones: 0,
      stale: 0,
      corrupted: 0,
      bitErrors: 0,
      runs: [],
      runsTruncated: false,
    };
    for (let b = f.baseBlock; b < f.baseBlock + f.bytes / B && left > 0; b++, left--) {
      fig.blocks++;
      const held = store.get(where(b));
      let kind: VerifyBad | 'intact';
      let bits = 0;
      if (held === undefined) kind = drive.shape === 'drop' ? drive.fill : 'zeros';
      else if (held !== b) kind = 'aliased';
      else if (drive.shape === 'flip' && drive.bits.has(b)) {
        kind = 'corrupted';
        bits = drive.bits.get(b)!;
      } else kind = 'intact';
      fig[kind]++;
      fig.bitErrors += bits;
      if (kind === 'intact') continue;
      const last = fig.runs.at(-1);
      if (last && last.kind === kind && last.block + last.blocks === b && (kind !== 'aliased' || last.held! + last.blocks === held)) {
        last.blocks++;
        if (kind === 'corrupted') last.bits! += bits;
      } else {
        const run: VerifyRun = { block: b, blocks: 1, kind };
        if (kind === 'aliased') run.held = held!;
        if (kind === 'corrupted') run.bits = bits;
        fig.runs.push(run);
      }
    }
    return fig;
  });
}

/** A plan laid out over `sizes` blocks per file (small, so every block can be simulated). */
function smallPlan(sizes: readonly number[], volume = { reportedBytes: 0, startBytes: 0 }): Plan {
  let at = 0;
  const files = sizes.map((blocks, i) => {
    const f = { name: `verify-${i}.dat`, bytes: blocks * B, baseBlock: at };
    at += blocks;
    return f;
  });
  return {
    kind: 'verify',
    fileSize: at * B,
    needBytes: at * B,
    steps: [],
    settings: { size: at * B, pattern: 'verify', cache: 'auto' },
    notes: [],
    verify: { limitedBy: 'free-space', reserveBytes: 0, seed: 1, files, ...volume },
  };
}

function engineResult(rw: 'write' | 'read', bytes: number, verify?: VerifyFigures): EngineResult {
  const seconds = bytes / 100e6;
  return {
    rw,
    bs: MiB,
    qd: 8,
    threads: 1,
    bytes,
    bytesRead: rw === 'read' ? bytes : 0,
    bytesWritten: rw === 'write' ? bytes : 0,
    seconds,
    mbps: 100,
    iops: bytes / MiB / seconds,
    ios: bytes / MiB,
    latencyUs: { min: 1, mean: 2, p50: 2, p90: 3, p99: 4, p999: 5, max: 6 },
    series: [{ t: seconds, mbps: 100 }],
    cacheMode: 'direct',
    ioEngine: 'libaio',
    alignment: 4096,
    dataPattern: 'verify',
    prepareSeconds: 0,
    warmupSeconds: 0,
    flushSeconds: 0,
    cancelled: false,
    spec: { path: '/x', rw, bs: MiB, qd: 8, threads: 1, fileSize: bytes, pattern: 'verify', cache: 'auto' },
    ...(verify ? { verify } : {}),
    engineVersion: 'test',
  };
}

/** The runner's outcomes: every file written, then the reads that happened. */
function outcomes(plan: Plan, reads: ReadonlyArray<VerifyFigures | undefined>): StepOutcome[] {
  const files = plan.verify!.files;
  const step = (pass: 'write' | 'read', i: number) => ({ name: pass, spec: plan.steps[0]?.spec ?? ({} as never), pass, fileIndex: i });
  return [
    ...files.map((f, i) => ({ step: step('write', i), run: 1, result: engineResult('write', f.bytes) })),
    ...reads.flatMap((r, i) => (r ? [{ step: step('read', i), run: 1, result: engineResult('read', r.blocks * B, r) }] : [])),
  ];
}

const sizesArb = fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 5 });
const total = (sizes: readonly number[]): number => sizes.reduce((a, b) => a + b, 0);
const volumeArb = fc.record({ reportedBytes: fc.integer({ min: 0, max: 2e12 }), startBytes: fc.integer({ min: 0, max: 1e9 }) });

function analyse(sizes: readonly number[], drive: Drive, readBlocks = Infinity, volume = { reportedBytes: 0, startBytes: 0 }) {
  const plan = smallPlan(sizes, volume);
  const s = verifySection(plan, outcomes(plan, simulate(plan.verify!.files, drive, readBlocks)));
  // No verdict its figures contradict, whatever the shape.
  expect(capacityContradictions(s.verdict)).toEqual([]);
  expect(s.summary).toBe(capacityText(s.verdict));
  return s;
}

const RUNS = { numRuns: 300 };

describe('the capacity verdict over planted drives (fast-check)', () => {
  it('genuine: every block intact, capacity = everything written', () => {
    fc.assert(
      fc.property(sizesArb, volumeArb, (sizes, volume) => {
        const s = analyse(sizes, { shape: 'genuine' }, Infinity, volume);
        expect(s.verdict.outcome).toBe('genuine');
        expect(s.verdict.figures.capacityBytes).toBe(volume.startBytes + total(sizes) * B);
        expect(s.checkedBytes).toBe(total(sizes) * B);
        expect(s.summary).toMatch(/^Genuine: all .+ written and read back intact$/);
      }),
      RUNS,
    );
  });

  it('wraps at N: capacity is exactly N blocks, whatever the laps', () => {
    fc.assert(
      fc.property(
        sizesArb.filter((s) => total(s) >= 2),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        volumeArb,
        (sizes, at, volume) => {
          const n = 1 + Math.floor(at * (total(sizes) - 1)); // 1 ≤ N < T
          const s = analyse(sizes, { shape: 'wrap', n }, Infinity, volume);
          expect(s.verdict.outcome).toBe('wraps');
          // A distance the drive comes round after, wherever the run started.
          expect(s.verdict.figures.capacityBytes).toBe(n * B);
          expect(s.verdict.figures.wrapBlocks).toBe(n);
          // The first T − N blocks hold blocks N… and the rest read back intact (one lap past N).
          if (total(sizes) <= 2 * n) {
            expect(s.verdict.figures.aliasedBlocks).toBe(total(sizes) - n);
            expect(s.runs[0]).toMatchObject({ block: 0, kind: 'aliased', held: n, blocks: total(sizes) - n });
          }
          expect(s.summary).toMatch(/^Fake capacity: only .+ hold data; writes beyond wrap to the start$/);
        },
      ),
      RUNS,
    );
  });

  it('wraps at N, the files laid out in any order on the volume: capacity is still exactly N blocks', () => {
    fc.assert(
      fc.property(
        sizesArb.filter((s) => total(s) >= 2),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.integer(),
        (sizes, at, seed) => {
          const t = total(sizes);
          const n = 1 + Math.floor(at * (t - 1));
          // A shuffle of the run's blocks over the volume (a file system's extents, out of order).
          const layout = Array.from({ length: t }, (_, i) => i);
          let x = seed >>> 0;
          for (let i = t - 1; i > 0; i--) {
            x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
            const j = x % (i + 1);
            [layout[i], layout[j]] = [layout[j]!, layout[i]!];
          }
          const s = analyse(sizes, { shape: 'wrap', n, layout });
          expect(s.verdict.outcome).toBe('wraps');
          expect(s.verdict.figures.capacityBytes).toBe(n * B);
        },
      ),
      RUNS,
    );
  });

  it('drops writes beyond N: capacity and the first bad block are exactly N', () => {
    fc.assert(
      fc.property(
        sizesArb.filter((s) => total(s) >= 2),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.constantFrom('zeros' as const, 'ones' as const, 'stale' as const),
        (sizes, at, fill) => {
          const n = 1 + Math.floor(at * (total(sizes) - 1));
          const s = analyse(sizes, { shape: 'drop', n, fill });
          expect(s.verdict.outcome).toBe('lost');
          expect(s.verdict.figures.capacityBytes).toBe(n * B);
          expect(s.verdict.figures.firstBadBlock).toBe(n);
          expect(s.runs).toEqual([{ block: n, blocks: total(sizes) - n, kind: fill }]);
          expect(s.summary).toMatch(/^Lost: writes beyond .+ read back as /);
        },
      ),
      RUNS,
    );
  });

  it('flipped bits in chosen blocks: errors, the count, the bits and the first bad block exactly', () => {
    fc.assert(
      fc.property(
        sizesArb,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 1, max: 64 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (sizes, picks) => {
          const bits = new Map(picks.map(([at, k]) => [Math.floor(at * total(sizes)), k]));
          const s = analyse(sizes, { shape: 'flip', bits });
          const f = s.verdict.figures;
          expect(f.firstBadBlock).toBe(Math.min(...bits.keys()));
          expect(f.corruptedBlocks).toBe(bits.size);
          expect(f.bitErrors).toBe([...bits.values()].reduce((a, b) => a + b, 0));
          expect(f.prefixBlocks).toBe(f.firstBadBlock);
          expect(s.verdict.outcome).toBe('errors');
          expect(s.summary).toMatch(new RegExp(`^Errors: ${bits.size} blocks? read back wrong, first at `));
        },
      ),
      RUNS,
    );
  });

  it('stopped early on a genuine drive: proves exactly the blocks read, no more', () => {
    fc.assert(
      fc.property(
        sizesArb.filter((s) => total(s) >= 2),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (sizes, at) => {
          const read = Math.floor(at * total(sizes)); // 0 ≤ read < T
          const s = analyse(sizes, { shape: 'genuine' }, read);
          expect(s.verdict.outcome).toBe('stopped');
          expect(s.verdict.figures.prefixBlocks).toBe(read);
          expect(s.verdict.figures.capacityBytes).toBe(read * B);
          expect(s.summary).toMatch(/^Stopped: verified the first .+ of /);
        },
      ),
      RUNS,
    );
  });

  it('stopped on a fake drive past its wrap still says what was found', () => {
    fc.assert(
      fc.property(
        sizesArb.filter((s) => total(s) >= 4),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (sizes, at) => {
          const t = total(sizes);
          // T/2 < N < T: the first block read holds block N (one lap past the wrap).
          const n = Math.floor(t / 2) + 1 + Math.floor(at * (t - Math.floor(t / 2) - 2));
          const s = analyse(sizes, { shape: 'wrap', n }, 1);
          expect(s.verdict.outcome).toBe('wraps');
          expect(s.verdict.figures.capacityBytes).toBe(n * B);
        },
      ),
      RUNS,
    );
  });
});

describe('the capacity verdict in words', () => {
  const base = {
    blockBytes: B,
    plannedBlocks: 0,
    checkedBlocks: 0,
    intactBlocks: 0,
    aliasedBlocks: 0,
    zerosBlocks: 0,
    onesBlocks: 0,
    staleBlocks: 0,
    corruptedBlocks: 0,
    bitErrors: 0,
    firstBadBlock: -1,
    wrapBlocks: 0,
    prefixBlocks: 0,
    reportedBytes: 0,
    startBytes: 0,
  };
  const blocks = (bytes: number): number => Math.round(bytes / B);

  it('says the issue’s sentences', () => {
    const all = blocks(931.5e9);
    expect(capacityText(capacityVerdict({ ...base, plannedBlocks: all, checkedBlocks: all, intactBlocks: all, prefixBlocks: all }))).toBe(
      'Genuine: all 931.5 GB written and read back intact',
    );
    const n = blocks(31.9e9);
    const t = blocks(40e9);
    const wrap = capacityVerdict({
      ...base,
      plannedBlocks: t,
      checkedBlocks: t,
      intactBlocks: n,
      aliasedBlocks: t - n,
      firstBadBlock: 0,
      wrapBlocks: n,
      reportedBytes: 1e12,
    });
    expect(capacityText(wrap)).toBe('Fake capacity: only 31.9 GB of the 1 TB it reports hold data; writes beyond wrap to the start');
    const lost = capacityVerdict({
      ...base,
      plannedBlocks: t,
      checkedBlocks: t,
      intactBlocks: n,
      zerosBlocks: t - n,
      firstBadBlock: n,
      prefixBlocks: n,
    });
    expect(capacityText(lost)).toBe('Lost: writes beyond 31.9 GB read back as zeros');
    const first = blocks(402.1e9);
    const errors = capacityVerdict({
      ...base,
      plannedBlocks: all,
      checkedBlocks: all,
      intactBlocks: all - 12,
      corruptedBlocks: 12,
      bitErrors: 12,
      firstBadBlock: first,
      prefixBlocks: first,
    });
    expect(capacityText(errors)).toBe('Errors: 12 blocks read back wrong, first at 402.1 GB (12 bits flipped)');
    const stopped = capacityVerdict({
      ...base,
      plannedBlocks: all,
      checkedBlocks: blocks(212e9),
      intactBlocks: blocks(212e9),
      prefixBlocks: blocks(212e9),
    });
    expect(capacityText(stopped)).toBe('Stopped: verified the first 212 GB of 931.5 GB');
  });

  it('finds the wrap distance only when every aliased run is displaced by a multiple of one distance', () => {
    const a = (block: number, held: number): VerifyRun => ({ block, blocks: 1, kind: 'aliased', held });
    expect(wrapDistance([a(0, 100), a(5, 205), a(300, 400)])).toBe(100);
    expect(wrapDistance([a(0, 100), a(5, 155)])).toBe(0);
    expect(wrapDistance([a(10, 0)])).toBe(0);
    expect(wrapDistance([])).toBe(0);
  });

  it('a real layout: 1 GiB files, a drive wrapping at 31.9 GB of a 40 GB run', () => {
    const plan = buildPlan('verify', { size: 40e9, reserveBytes: 0 }, { freeBytes: 1e12, totalBytes: 1e12 });
    const n = Math.floor(31.9e9 / B);
    const t = plan.fileSize / B;
    // The simulation over 9.7 million blocks is too slow here: the engine's runs, by the paper sum.
    const reads = plan.verify!.files.map((f): VerifyFigures => {
      const blocksIn = f.bytes / B;
      const from = f.baseBlock;
      const aliasedTo = Math.max(from, Math.min(from + blocksIn, t - n));
      const aliased = aliasedTo - from;
      return {
        blockBytes: B,
        blocks: blocksIn,
        intact: blocksIn - aliased,
        aliased,
        zeros: 0,
        ones: 0,
        stale: 0,
        corrupted: 0,
        bitErrors: 0,
        runs: aliased > 0 ? [{ block: from, blocks: aliased, kind: 'aliased', held: from + n }] : [],
        runsTruncated: false,
      };
    });
    const s = verifySection(plan, outcomes(plan, reads));
    expect(s.runs).toEqual([{ block: 0, blocks: t - n, kind: 'aliased', held: n }]);
    expect(s.verdict.figures.capacityBytes).toBe(n * B);
    expect(s.summary).toBe('Fake capacity: only 31.9 GB of the 1 TB it reports hold data; writes beyond wrap to the start');
    expect(plan.verify!.files).toHaveLength(Math.ceil(plan.fileSize / VERIFY_FILE_BYTES));
  });
});
