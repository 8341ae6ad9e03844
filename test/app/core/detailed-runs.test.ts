// The detailed tests end to end through the runner, on real file systems (loop-mounted, as root):
// the CrystalDiskMark grid with repeated runs and intervals, the sustained-write curve sized to
// free space, the many-file test with a rest between runs — and cancellation at any point,
// pauses included, leaves no file behind.
import { promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PauseEvent, RunProgress, StepDoneEvent } from '../../../app/src/core/runner.js';
import { runBenchmark } from '../../../app/src/core/runner.js';
import { leastSquares, theilSen } from '../../../app/src/model/stats.js';
import { cleanupAllLoopFs, mountFs, rootOnly, type MountedFs } from '../../helpers/loopfs.js';

const MiB = 1024 * 1024;
const mounted: MountedFs[] = [];
let xfs: MountedFs;
let ext4: MountedFs;
let btrfs: MountedFs;

async function leftovers(dir: string): Promise<string[]> {
  return (await fsp.readdir(dir)).filter((n) => n !== 'lost+found');
}

async function freeBytes(dir: string): Promise<number> {
  const st = await fsp.statfs(dir);
  return st.bavail * st.bsize;
}

describe.runIf(rootOnly())('detailed tests on real file systems (root)', () => {
  beforeAll(async () => {
    [xfs, ext4, btrfs] = await Promise.all([
      mountFs('xfs', { sizeMiB: 320 }),
      mountFs('ext4', { sizeMiB: 320 }),
      mountFs('btrfs', { sizeMiB: 256 }),
    ]);
    mounted.push(xfs, ext4, btrfs);
  }, 60_000);
  afterAll(async () => {
    for (const m of mounted) await m.cleanup();
    await cleanupAllLoopFs();
  });

  it('cdm on XFS: the Peak profile, all three columns, two runs with an interval; best, median and spread per test', async () => {
    const pauses: PauseEvent[] = [];
    const doc = await runBenchmark({
      target: xfs.dir,
      test: 'cdm',
      preset: 'peak',
      mode: 'all',
      size: 16 * MiB,
      seconds: 0.2,
      runs: 2,
      intervalSeconds: 0.1,
      handleSignals: false,
      onPause: (e) => pauses.push(e),
    });
    const names = [
      'SEQ1M Q8T1 Read',
      'RND4K Q32T1 Read',
      'SEQ1M Q8T1 Write',
      'RND4K Q32T1 Write',
      'SEQ1M Q8T1 Mix 70/30',
      'RND4K Q32T1 Mix 70/30',
    ];
    expect(doc.tests.map((t) => `${t.name}#${t.run}`)).toEqual([...names.map((n) => `${n}#1`), ...names.map((n) => `${n}#2`)]);
    expect(doc.tests.map((t) => t.rw).slice(0, 6)).toEqual(['read', 'randread', 'write', 'randwrite', 'rw', 'randrw']);
    for (const t of doc.tests) {
      expect(t.cacheMode).toBe('direct');
      expect(t.latencyUs.p99).toBeGreaterThanOrEqual(t.latencyUs.p50);
      expect(t.latencyUs.p999).toBeGreaterThanOrEqual(t.latencyUs.p99);
    }
    // A mixed test really mixed: 70 % of its bytes were reads.
    const seqMix = doc.tests.find((t) => t.rw === 'rw')!;
    expect(seqMix.spec.rwmixread).toBe(70);
    expect(doc.summary!.map((s) => s.name)).toEqual(names);
    for (const s of doc.summary!) {
      const runs = doc.tests.filter((t) => t.name === s.name);
      expect(s.runs).toBe(2);
      expect(s.mbps.best).toBe(Math.max(...runs.map((t) => t.mbps)));
      expect(s.mbps.median).toBeCloseTo((runs[0]!.mbps + runs[1]!.mbps) / 2, 9);
      expect(s.p99Us.best).toBe(Math.min(...runs.map((t) => t.latencyUs.p99)));
      expect(s.mbps.stdev).toBeCloseTo(Math.abs(runs[0]!.mbps - runs[1]!.mbps) / Math.SQRT2, 6);
    }
    // An interval before every test but the first of each run, counting down to 0.
    const intervals = pauses.filter((p) => p.reason === 'interval');
    expect(intervals.filter((p) => p.remaining === 0)).toHaveLength(2 * 5);
    expect(doc.settings).toMatchObject({ preset: 'peak', mode: 'all', runs: 2, intervalSeconds: 0.1 });
    expect(await leftovers(xfs.dir)).toEqual([]);
  }, 60_000);

  it('sustained on ext4: asks for 10 GB, writes what free space less the reserve allows, draws the curve', async () => {
    const before = await freeBytes(ext4.dir);
    const reserve = 64 * MiB;
    const doc = await runBenchmark({ target: ext4.dir, test: 'sustained', size: 10e9, reserveBytes: reserve, handleSignals: false });
    const s = doc.sustained!;
    expect(s.limitedBy).toBe('free-space');
    expect(s.requestedBytes).toBe(10e9);
    expect(s.reserveBytes).toBe(reserve);
    expect(s.plannedBytes).toBeLessThanOrEqual(before - reserve);
    expect(s.plannedBytes).toBeGreaterThan(before - reserve - 2 * MiB);
    expect(doc.notes![0]).toMatch(/^Writing .* not 10 GB: that is what free space allows with 67.1 MB kept free\.$/);
    const [run] = s.runs;
    expect(run!.bytes).toBe(s.plannedBytes);
    expect(doc.tests[0]).toMatchObject({ name: 'SEQ1M Q8T1 Sustained Write', rw: 'write', bytes: s.plannedBytes, cacheMode: 'direct' });
    // Equal-byte slices covering what was written (the last one may be partial).
    expect(run!.curve.length).toBeGreaterThanOrEqual(8);
    expect(run!.curve.at(-1)!.bytes).toBeCloseTo(run!.bytes, -6);
    for (const p of run!.curve) expect(p.mbps).toBeGreaterThan(0);
    expect(['knee', 'steady', 'varies']).toContain(run!.verdict.kind);
    expect(run!.summary.length).toBeGreaterThan(10);
    expect(await leftovers(ext4.dir)).toEqual([]);
    expect(await freeBytes(ext4.dir)).toBeGreaterThanOrEqual(before - MiB);
  }, 60_000);

  it('files on Btrfs: two runs with a rest, every file written then read, fits and pooled latency; each run starts empty', async () => {
    const pauses: PauseEvent[] = [];
    const steps: StepDoneEvent[] = [];
    const seenAtRun2: string[][] = [];
    const doc = await runBenchmark({
      target: btrfs.dir,
      test: 'files',
      files: { count: 10, minBytes: MiB, maxBytes: 12 * MiB, seed: 5 },
      reserveBytes: 0,
      runs: 2,
      restSeconds: 1.2,
      handleSignals: false,
      onPause: (e) => pauses.push(e),
      onStepDone: (e) => steps.push(e),
      onTestStart: (e) => {
        // The first step of run 2: the folder holds only our marker, the files of run 1 are gone.
        // Read synchronously: onTestStart runs before the step's engine call creates its file.
        if (e.run === 2 && e.testIndex === 0) {
          const ws = readdirSync(btrfs.dir).find((w) => w.startsWith('.diskdial-'))!;
          seenAtRun2.push(readdirSync(path.join(btrfs.dir, ws)));
        }
      },
    });
    const f = doc.files!;
    expect(f.preset).toBe('custom');
    expect(f.count).toBe(10);
    expect(f.runs).toHaveLength(2);
    expect(steps).toHaveLength(2 * 20);
    for (const r of f.runs) {
      expect(r.items.every((i) => i.write && i.read && i.write.seconds > 0 && i.read.seconds > 0)).toBe(true);
      expect(r.write.bytes).toBe(f.totalBytes);
      expect(r.read.bytes).toBe(f.totalBytes);
      expect(r.read.mbps).toBeCloseTo(r.read.bytes / r.read.seconds / 1e6, 9);
      expect(r.read.seconds).toBeCloseTo(
        r.items.reduce((a, i) => a + i.read!.seconds, 0),
        9,
      );
      // A fit is given when time grows with size; on a busy machine these small files' times can
      // fail to (a slope ≤ 0 has no rate), and then the document must leave the fit out.
      const sizes = r.items.map((i) => i.bytes);
      if (
        theilSen(
          sizes,
          r.items.map((i) => i.write!.seconds),
        ).slope > 0
      )
        expect(r.write.theilSen!.rateMBps).toBeGreaterThan(0);
      else expect(r.write.theilSen).toBeUndefined();
      if (
        leastSquares(
          sizes,
          r.items.map((i) => i.read!.seconds),
        ).slope > 0
      )
        expect(r.read.leastSquares!.r2).toBeGreaterThanOrEqual(0);
      else expect(r.read.leastSquares).toBeUndefined();
      // Positions are a permutation of 1..n.
      expect(r.items.map((i) => i.readOrder).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, k) => k + 1));
    }
    expect(doc.tests.map((t) => `${t.name}#${t.run}`)).toEqual(['Files Write#1', 'Files Read#1', 'Files Write#2', 'Files Read#2']);
    const read1 = doc.tests[1]!;
    const readSteps = steps.filter((s) => s.run === 1 && s.step.pass === 'read');
    expect(read1.bytes).toBe(readSteps.reduce((a, s) => a + s.result.bytes, 0));
    expect(read1.iops).toBeCloseTo(readSteps.reduce((a, s) => a + s.result.ios, 0) / read1.seconds, 6);
    expect(read1.latencyUs.min).toBe(Math.min(...readSteps.map((s) => s.result.latencyUs.min)));
    expect(read1.latencyUs.max).toBe(Math.max(...readSteps.map((s) => s.result.latencyUs.max)));
    expect(read1.latencyUs.p99).toBeGreaterThanOrEqual(read1.latencyUs.p50);
    expect(doc.summary!.map((s) => [s.name, s.runs])).toEqual([
      ['Files Write', 2],
      ['Files Read', 2],
    ]);
    // The rest before run 2: announced, counted down once a second, ended at 0.
    const rest = pauses.filter((p) => p.reason === 'rest');
    expect(rest[0]).toMatchObject({ run: 2, runs: 2, secondsTotal: 1.2, remaining: 2 });
    expect(rest.at(-1)!.remaining).toBe(0);
    expect(seenAtRun2).toEqual([['owner.json']]);
    expect(doc.settings).toMatchObject({ restSeconds: 1.2, runs: 2, files: { count: 10, seed: 5 } });
    expect(await leftovers(btrfs.dir)).toEqual([]);
  }, 60_000);

  it('the same seed draws the same files on another file system', async () => {
    const a = await runBenchmark({
      target: xfs.dir,
      test: 'files',
      files: { count: 4, minBytes: MiB, maxBytes: 4 * MiB, seed: 9 },
      reserveBytes: 0,
      handleSignals: false,
    });
    const b = await runBenchmark({
      target: ext4.dir,
      test: 'files',
      files: { count: 4, minBytes: MiB, maxBytes: 4 * MiB, seed: 9 },
      reserveBytes: 0,
      handleSignals: false,
    });
    expect(a.files!.runs[0]!.items.map((i) => [i.name, i.bytes, i.writeOrder, i.readOrder])).toEqual(
      b.files!.runs[0]!.items.map((i) => [i.name, i.bytes, i.writeOrder, i.readOrder]),
    );
  }, 60_000);

  describe('cancelled mid-way, nothing is left', () => {
    const cancelWhen = async (
      opts: Parameters<typeof runBenchmark>[0],
      when: (ac: AbortController) => Partial<Parameters<typeof runBenchmark>[0]>,
    ) => {
      const ac = new AbortController();
      const p = runBenchmark({ ...opts, ...when(ac), signal: ac.signal, handleSignals: false });
      await expect(p).rejects.toMatchObject({ name: 'AbortError' });
      expect(await leftovers(opts.target)).toEqual([]);
    };

    it('files: during the write pass, with files on disk', async () => {
      let started = 0;
      await cancelWhen(
        { target: ext4.dir, test: 'files', files: { count: 12, minBytes: MiB, maxBytes: 8 * MiB }, reserveBytes: 0 },
        (ac) => ({
          onStepDone: () => {
            if (++started === 5) ac.abort();
          },
        }),
      );
    }, 30_000);

    it('files: during the read pass', async () => {
      await cancelWhen(
        { target: xfs.dir, test: 'files', files: { count: 8, minBytes: MiB, maxBytes: 8 * MiB }, reserveBytes: 0 },
        (ac) => ({
          onProgress: (p: RunProgress) => {
            if (p.testName.startsWith('Read file 3/')) ac.abort();
          },
        }),
      );
    }, 30_000);

    it('sustained: while writing', async () => {
      await cancelWhen({ target: btrfs.dir, test: 'sustained', size: 10e9, reserveBytes: 16 * MiB }, (ac) => ({
        onProgress: (p: RunProgress) => {
          if (p.phase === 'run' && p.bytesDone > 16 * MiB) ac.abort();
        },
      }));
    }, 30_000);

    it('cdm: during the rest between runs, promptly', async () => {
      // Timed from the rest's start (the first run before it takes what the machine's load makes it).
      let t0 = 0;
      await cancelWhen(
        { target: ext4.dir, test: 'cdm', preset: 'realworld', mode: 'read', size: 16 * MiB, seconds: 0.1, runs: 2, restSeconds: 600 },
        (ac) => ({
          onPause: (e: PauseEvent) => {
            if (e.reason !== 'rest' || t0) return;
            t0 = performance.now();
            setTimeout(() => ac.abort(), 50);
          },
        }),
      );
      expect(t0).toBeGreaterThan(0);
      expect(performance.now() - t0).toBeLessThan(10_000);
    }, 30_000);
  });
});
