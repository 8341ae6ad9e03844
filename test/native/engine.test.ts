// The engine through its one loader (app/src/core/engine.ts), doing real I/O: on this machine's
// own file system, and — as root, which CI is — on loop-mounted ext4, XFS, Btrfs, exFAT (FUSE),
// NTFS (ntfs-3g) and tmpfs, asserting the cache mode each one really achieves.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { EngineProgress, EngineResult, EngineSpec } from '../../app/src/model/engine-types.js';
import { engineVersion, ioAlignment, runTest } from '../../app/src/core/engine.js';
import { cleanupAllLoopFs, mountFs, rootOnly, type FsKind, type MountedFs } from '../helpers/loopfs.js';

const MiB = 1 << 20;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'diskdial-engine-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function spec(over: Partial<EngineSpec> = {}): EngineSpec {
  return { path: path.join(dir, 'test.dat'), rw: 'write', bs: MiB, qd: 4, threads: 1, fileSize: 32 * MiB, pattern: 'random', cache: 'auto', ...over };
}

function expectConsistent(r: EngineResult): void {
  expect(r.seconds).toBeGreaterThan(0);
  expect(r.mbps).toBeCloseTo(r.bytes / r.seconds / 1e6, 6);
  expect(r.iops).toBeCloseTo(r.ios / r.seconds, 6);
  expect(r.bytes).toBe(r.bytesRead + r.bytesWritten);
  expect(r.ios).toBe(r.bytes / r.bs);
  const l = r.latencyUs;
  expect(l.min).toBeGreaterThan(0);
  for (const [a, b] of [[l.min, l.p50], [l.p50, l.p90], [l.p90, l.p99], [l.p99, l.p999], [l.p999, l.max]] as const) expect(a).toBeLessThanOrEqual(b);
  expect(l.mean).toBeGreaterThanOrEqual(l.min);
  expect(l.mean).toBeLessThanOrEqual(l.max);
  expect(r.series.length).toBeGreaterThan(0);
  for (let i = 1; i < r.series.length; i++) expect(r.series[i]!.t).toBeGreaterThan(r.series[i - 1]!.t);
  expect(r.engineVersion).toBe(engineVersion());
}

/** Bytes of the file held in the page cache (util-linux fincore). */
function cachedBytes(file: string): number {
  return Number(execFileSync('fincore', ['--bytes', '--noheadings', '--raw', '--output', 'RES', file], { encoding: 'utf8' }).trim());
}

describe('engine on the machine\'s own file system', () => {
  it('writes sequentially with direct I/O, flushing inside the timed region', async () => {
    const r = await runTest(spec({ bs: MiB, qd: 8 }));
    expectConsistent(r);
    expect(r.cacheMode).toBe('direct');
    expect(r.ioEngine).toBe('libaio');
    expect(r.bytes).toBe(32 * MiB);
    expect(r.bytesWritten).toBe(32 * MiB);
    expect(r.flushSeconds).toBeGreaterThan(0);
    expect(r.flushSeconds).toBeLessThan(r.seconds);
    expect(r.dataPattern).toBe('random');
    expect(r.spec).toMatchObject({ rw: 'write', bs: MiB, qd: 8, fileSize: 32 * MiB, bytes: 32 * MiB, cache: 'auto' });
    expect(existsSync(path.join(dir, 'test.dat'))).toBe(false);
  });

  it('reads a laid-out file without leaving it in the page cache', async () => {
    const file = path.join(dir, 'read.dat');
    const r = await runTest(spec({ path: file, rw: 'read', keepFile: true }));
    expectConsistent(r);
    expect(r.cacheMode).toBe('direct');
    expect(r.bytesRead).toBe(32 * MiB);
    expect(r.prepareSeconds).toBeGreaterThan(0); // the file was laid out first, untimed
    expect(statSync(file).size).toBe(32 * MiB);
    expect(cachedBytes(file)).toBe(0);
    // A second read reuses the laid-out file.
    const again = await runTest(spec({ path: file, rw: 'randread', bs: 4096, qd: 16, bytes: 4 * MiB }));
    expect(again.bytesRead).toBe(4 * MiB);
    expect(again.prepareSeconds).toBeLessThan(r.prepareSeconds);
    expect(existsSync(file)).toBe(false);
  });

  it('writes incompressible data by default and zeros only when asked', async () => {
    const file = path.join(dir, 'pattern.dat');
    await runTest(spec({ path: file, fileSize: 4 * MiB, keepFile: true }));
    const random = readFileSync(file);
    expect(deflateSync(random).length / random.length).toBeGreaterThan(0.99);
    // Seeded: the same seed writes the same bytes (reproducible runs), another seed other bytes.
    const echoed = (await runTest(spec({ path: file, fileSize: 4 * MiB, keepFile: true }))).spec.seed!;
    expect(readFileSync(file).equals(random)).toBe(true);
    await runTest(spec({ path: file, fileSize: 4 * MiB, keepFile: true, seed: echoed }));
    expect(readFileSync(file).equals(random)).toBe(true);
    await runTest(spec({ path: file, fileSize: 4 * MiB, keepFile: true, seed: echoed + 1 }));
    expect(readFileSync(file).equals(random)).toBe(false);
    const r = await runTest(spec({ path: file, fileSize: 4 * MiB, pattern: 'zeros', keepFile: true }));
    expect(r.dataPattern).toBe('zeros');
    expect(readFileSync(file).every((b) => b === 0)).toBe(true);
    rmSync(file);
  });

  it('mixes reads and writes in the asked proportion', async () => {
    const r = await runTest(spec({ rw: 'randrw', bs: 4096, qd: 8, fileSize: 16 * MiB, bytes: 8 * MiB, rwmixread: 70 }));
    expectConsistent(r);
    expect(r.bytesRead / r.bytes).toBeGreaterThan(0.6);
    expect(r.bytesRead / r.bytes).toBeLessThan(0.8);
  });

  it('mixes reads and writes sequentially (rw, as fio rw=rw and CrystalDiskMark SEQ Mix)', async () => {
    const r = await runTest(spec({ rw: 'rw', bs: 64 * 1024, qd: 4, fileSize: 16 * MiB, bytes: 16 * MiB, rwmixread: 70 }));
    expectConsistent(r);
    expect(r.spec.rwmixread).toBe(70);
    expect(r.bytesRead / r.bytes).toBeGreaterThan(0.6);
    expect(r.bytesRead / r.bytes).toBeLessThan(0.8);
    expect(r.bytesWritten).toBeGreaterThan(0);
  });

  it('returns its latency histogram: counts add up to the I/Os, buckets bracket min and max', async () => {
    const r = await runTest(spec({ rw: 'randread', bs: 4096, qd: 4, fileSize: 8 * MiB, bytes: 4 * MiB }));
    const h = r.latencyHistogram!;
    expect(h.counts.reduce((a, b) => a + b, 0)).toBe(r.ios);
    expect(h.lowerNs.length).toBe(h.counts.length);
    expect(h.widthNs.length).toBe(h.counts.length);
    for (let i = 1; i < h.lowerNs.length; i++) expect(h.lowerNs[i]!).toBeGreaterThanOrEqual(h.lowerNs[i - 1]! + h.widthNs[i - 1]!);
    expect(h.minNs / 1e3).toBeCloseTo(r.latencyUs.min, 6);
    expect(h.minNs).toBeGreaterThanOrEqual(h.lowerNs[0]!);
    expect(h.maxNs).toBeLessThan(h.lowerNs.at(-1)! + h.widthNs.at(-1)!);
  });

  it('covers block sizes from 512 B to 64 MiB, threads and queue depths', async () => {
    const tiny = await runTest(spec({ rw: 'randread', bs: 512, qd: 1, fileSize: MiB, bytes: 256 * 1024 }));
    expect(tiny.ios).toBe(512);
    expect(tiny.ioEngine).toBe('sync'); // QD1 reads: plain pread, the cheapest
    expect(tiny.alignment).toBe(512); // statx: this ext4 allows 512 B direct I/O
    const folder = ioAlignment(dir); // no file to ask statx about: a conservative answer
    expect(folder.offset % 512).toBe(0);
    expect(folder.source).toMatch(/block size|statx/);
    expect(tiny.cacheMode).toBe('direct');
    const huge = await runTest(spec({ rw: 'write', bs: 64 * MiB, qd: 1, fileSize: 64 * MiB }));
    expect(huge.ios).toBe(1);
    expect(huge.ioEngine).toBe('libaio'); // QD1 large random writes: next buffer filled meanwhile
    const threaded = await runTest(spec({ rw: 'read', bs: 64 * 1024, qd: 4, threads: 4, fileSize: 16 * MiB }));
    expect(threaded.bytesRead).toBe(16 * MiB);
    expect(threaded.threads).toBe(4);
  });

  it('stops a time-bounded test on time, and at its byte cap when that comes first', async () => {
    const timed = await runTest(spec({ rw: 'randread', bs: 4096, qd: 4, seconds: 0.5 }));
    expect(timed.seconds).toBeGreaterThanOrEqual(0.49);
    expect(timed.seconds).toBeLessThan(0.9);
    const capped = await runTest(spec({ rw: 'read', seconds: 30, bytes: 8 * MiB }));
    expect(capped.bytes).toBe(8 * MiB);
    expect(capped.seconds).toBeLessThan(5);
  });

  it('keeps warm-up I/O out of the figures', async () => {
    const r = await runTest(spec({ rw: 'read', bs: 64 * 1024, warmupSeconds: 0.3, bytes: 4 * MiB }));
    expect(r.warmupSeconds).toBeGreaterThanOrEqual(0.29);
    expect(r.bytes).toBe(4 * MiB); // the warm-up read more than this; none of it is counted
    expect(r.ios).toBe(64);
  });

  it('reports progress a few times a second with monotonic figures', async () => {
    const seen: EngineProgress[] = [];
    await runTest(spec({ rw: 'randread', bs: 4096, qd: 4, seconds: 0.6, progressIntervalMs: 50 }), { onProgress: (p) => seen.push(p) });
    const run = seen.filter((p) => p.phase === 'run');
    expect(run.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < run.length; i++) {
      expect(run[i]!.bytesDone).toBeGreaterThanOrEqual(run[i - 1]!.bytesDone);
      expect(run[i]!.elapsed).toBeGreaterThanOrEqual(run[i - 1]!.elapsed);
    }
    expect(run.at(-1)!.secondsTotal).toBeCloseTo(0.6, 1);
    expect(run.some((p) => p.instMBps > 0 && p.avgMBps > 0)).toBe(true);
  });

  it('paces frames and reports each frame’s fate in its progress, ending at the summary’s counts', async () => {
    const seen: EngineProgress[] = [];
    const frames = 40;
    const r = await runTest(
      spec({ rw: 'write', fileSize: frames * 64 * 1024, progressIntervalMs: 50, paced: { fps: 50, frameBytes: 64 * 1024, frames, layout: 'stream', buffer: 4 } }),
      { onProgress: (p) => seen.push(p) },
    );
    const counted = seen.filter((p) => p.phase === 'run' && p.frames).map((p) => p.frames!);
    expect(counted.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < counted.length; i++)
      for (const k of ['due', 'onTime', 'late', 'dropped'] as const) expect(counted[i]![k]).toBeGreaterThanOrEqual(counted[i - 1]![k]);
    // Never more frames decided than have come due.
    for (const c of counted) expect(c.onTime + c.late + c.dropped).toBeLessThanOrEqual(c.due);
    const last = counted.at(-1)!;
    const p = r.paced!;
    expect(last).toEqual({ due: frames, onTime: frames - p.late - p.dropped, late: p.late, dropped: p.dropped });
    expect([...p.timeline].filter((c) => c === '.').length).toBe(last.onTime);
  });

  it('stops within 250 ms of an abort and leaves no file', async () => {
    const file = path.join(dir, 'cancel.dat');
    const ac = new AbortController();
    let abortedAt = 0;
    const p = runTest(spec({ path: file, rw: 'write', fileSize: 2048 * MiB, seconds: 20 }), {
      signal: ac.signal,
      onProgress: (pr) => {
        if (pr.phase === 'run' && pr.bytesDone > 0 && !abortedAt) {
          abortedAt = performance.now();
          ac.abort();
        }
      },
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - abortedAt).toBeLessThan(250);
    expect(existsSync(file)).toBe(false);
  });

  it('gives Node-style errors with a JS stack, and keeps running', async () => {
    const missing = path.join(dir, 'no-such-folder', 'f.dat');
    const err = await runTest(spec({ path: missing })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ENOENT', errno: -2, syscall: 'open', path: missing });
    expect((err as Error).message).toMatch(/^ENOENT: no such file or directory, open/);
    expect((err as Error).stack).toContain('engine.test.ts');

    await expect(runTest(spec({ bs: 100 }))).rejects.toMatchObject({ code: 'EINVAL', message: expect.stringMatching(/block size 100 B/) });
    await expect(runTest(spec({ qd: 65 }))).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(runTest({ ...spec(), rw: 'sideways' as never })).rejects.toMatchObject({ name: 'TypeError', message: expect.stringMatching(/spec.rw must be one of/) });
    await expect(runTest({ ...spec(), fileSize: 'big' as never })).rejects.toThrow(/fileSize must be a number/);

    const dirAsFile = await runTest(spec({ path: dir })).catch((e: unknown) => e);
    expect(dirAsFile).toMatchObject({ code: 'EISDIR' });
    expect(readdirSync(dir)).toEqual([]);
    // Still alive and measuring.
    expect((await runTest(spec({ fileSize: 4 * MiB }))).bytes).toBe(4 * MiB);
  });
});

describe.runIf(rootOnly())('engine on real file systems (root)', () => {
  const mounted: MountedFs[] = [];
  afterAll(async () => {
    for (const m of mounted) await m.cleanup();
    await cleanupAllLoopFs();
  });
  async function mount(kind: FsKind, opts: Parameters<typeof mountFs>[1] = {}): Promise<MountedFs> {
    const m = await mountFs(kind, opts);
    mounted.push(m);
    return m;
  }

  const expected: Record<FsKind, { mode: string; note?: RegExp }> = {
    ext4: { mode: 'direct' },
    xfs: { mode: 'direct' },
    btrfs: { mode: 'direct' },
    exfat: { mode: 'buffered-flushed', note: /FUSE/ },
    ntfs: { mode: 'buffered-flushed', note: /FUSE/ },
    tmpfs: { mode: 'buffered-flushed', note: /RAM \(tmpfs\)/ },
  };
  for (const kind of Object.keys(expected) as FsKind[]) {
    it(`achieves ${expected[kind].mode} on ${kind}, and says why when it is not direct`, async () => {
      const m = await mount(kind);
      const file = path.join(m.dir, 'dd.dat');
      const w = await runTest(spec({ path: file, fileSize: 16 * MiB, keepFile: true }));
      const r = await runTest(spec({ path: file, rw: 'randread', bs: 4096, qd: 8, fileSize: 16 * MiB, bytes: 2 * MiB }));
      for (const res of [w, r]) {
        expectConsistent(res);
        expect(res.cacheMode).toBe(expected[kind].mode);
        if (expected[kind].note) expect(res.cacheNote).toMatch(expected[kind].note!);
        else expect(res.cacheNote).toBeUndefined();
      }
      expect(existsSync(file)).toBe(false);
      // Kernel AIO only for direct I/O (it would block in io_submit on the page cache).
      expect(r.ioEngine).toBe(expected[kind].mode === 'direct' ? 'libaio' : 'threads');
      if (kind === 'btrfs') expect(r.alignment).toBeGreaterThanOrEqual(4096); // no statx answer: fs block size
    });
  }

  it('falls back explicitly when the block size is below the direct-I/O alignment (Btrfs, 512 B)', async () => {
    const m = await mount('btrfs');
    const file = path.join(m.dir, 'dd.dat');
    const r = await runTest(spec({ path: file, rw: 'randwrite', bs: 512, qd: 4, fileSize: 4 * MiB, bytes: MiB }));
    expectConsistent(r);
    expect(r.cacheMode).toBe('buffered-flushed');
    expect(r.cacheNote).toMatch(/block size \(512 B\) is not a multiple of the file system's direct-I\/O alignment \(4096 B\)/);
    expect(r.ioEngine).toBe('threads');
    expect(r.flushSeconds).toBeGreaterThan(0); // the fallback still flushes inside the timed region
    // The same file system at its own alignment gets direct I/O.
    expect((await runTest(spec({ path: file, rw: 'randwrite', bs: 4096, qd: 4, fileSize: 4 * MiB, bytes: MiB }))).cacheMode).toBe('direct');
  });

  it('fails with ENOSPC when the disk fills up mid-run, and removes its file', async () => {
    // The run fills the disk itself: random 4 KiB writes into a sparse 200 MiB file on a 64 MiB
    // ext4 need a new block for each new offset, and ~14,000 blocks are free, far fewer than the
    // 51,200 the run writes. (A filler started at the first progress event lost the race to a
    // 0.2 s run on a quiet machine: one cold CI run.)
    const m = await mount('ext4', { sizeMiB: 64 });
    const file = path.join(m.dir, 'dd.dat');
    const err = await runTest(spec({ path: file, rw: 'randwrite', bs: 4096, qd: 1, fileSize: 200 * MiB, bytes: 200 * MiB })).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ENOSPC', path: file });
    expect((err as Error).message).toMatch(/no space left on device/);
    expect(existsSync(file)).toBe(false);
  });

  it('fails with EROFS on a read-only mount without touching it', async () => {
    const m = await mount('ext4', { readOnly: true });
    const before = readdirSync(m.dir);
    const err = await runTest(spec({ path: path.join(m.dir, 'dd.dat') })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EROFS', syscall: 'open' });
    expect(readdirSync(m.dir)).toEqual(before);
  });
});
