// Ground truth for the transfer-size sweep and the small-file test: `diskdial run` on a real ext4
// on a loop device (its image in RAM, /dev/shm), the sweep once as the device is and once with
// the loop device throttled (test/helpers/blkio.ts) to 40 MB/s each way, the CLI moved into the
// throttled group before it starts. Root only: loop devices, mount and the cgroup need it.
//
// Throttled, no transfer size can beat the throttle, and the large ones reach it; free, the
// MB/s rises with the transfer size (4 KiB direct I/O at QD1 pays a round trip per 4 KiB). The
// small-file test runs every operation of every file, leaves nothing behind, and a Ctrl-C in the
// middle of its files leaves nothing behind either.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';
import { canThrottle, throttleGroup, type ThrottleGroup } from '../../helpers/blkio.js';
import { cleanupAllLoopFs, mountFsInRam, type MountedFs } from '../../helpers/loopfs.js';

/** The throttle: 40 MB/s each way — far under what the RAM-backed ext4 does free at any size
 *  (≥ 290 MB/s at 4 KiB, QD1), so the throttle is the limit; and twice 20 MB/s, so that laying out
 *  QuickBench's 256 MiB read file and its 100 MiB transfers take half the time. */
const THROTTLE_BPS = 40_000_000;

function run(
  args: string[],
  home: string,
  group?: ThrottleGroup,
): { status: number | null; doc?: ResultDocument; stderr: string; stdout: string } {
  const script = group ? group.script : 'exec "$0" "$@"';
  const r = spawnSync('sh', ['-c', script, process.execPath, bin, 'run', ...args], {
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, DISKDIAL_HOME: home },
  });
  const json = args.includes('--json') && r.status === 0;
  return { status: r.status, stderr: r.stderr, stdout: r.stdout, ...(json ? { doc: JSON.parse(r.stdout) as ResultDocument } : {}) };
}

describe.runIf(canThrottle())('the sweep and the small-file test on a loop-mounted ext4', () => {
  let fs: MountedFs;
  let home: string;
  let group: ThrottleGroup | undefined;

  beforeAll(async () => {
    buildCoreIfChanged();
    home = await mkdtemp(path.join(os.tmpdir(), 'dd-sweep-home-'));
    fs = await mountFsInRam('ext4', { sizeMiB: 600 });
  }, 120_000);

  afterAll(async () => {
    group?.remove();
    await fs?.cleanup();
    await cleanupAllLoopFs();
    await rm(home, { recursive: true, force: true });
  });

  it('sweep, free: MB/s rises with the transfer size, both ways, uncached; the table says where full speed starts', () => {
    const r = run([fs.dir, '--test', 'sweep', '--seconds', '0.5', '--json', '--no-save'], home);
    expect(r.stderr).toBe('');
    const s = r.doc!.sweep!;
    expect(s.preset).toBe('standard');
    expect(s.sizes[0]).toBe(4096);
    expect(s.sizes.at(-1)).toBe(64 * 1024 * 1024);
    expect(s.stepSeconds).toBe(0.5);
    const points = s.runs[0]!.points;
    console.log(`free: ${points.map((p) => `${p.bs / 1024}K w${p.writeMBps.toFixed(0)}/r${p.readMBps.toFixed(0)}`).join(' ')}`);
    expect(points).toHaveLength(15);
    const at = (bs: number) => points.find((p) => p.bs === bs)!;
    for (const dir of ['writeMBps', 'readMBps'] as const) {
      // 1 MiB moves more than 4 KiB does, one I/O at a time: a sweep that ignored the size would
      // give ~1×. Seen here: 7.5–20× idle, 2.8× once under a load of 6 (a 4 KiB read at 754 MB/s
      // against 207–410 idle), which failed the 3× this asked before; 1.5× is about half the
      // lowest ratio seen in 10 runs, loaded ones included.
      expect(at(1024 * 1024)[dir]).toBeGreaterThan(1.5 * at(4096)[dir]);
    }
    expect(r.doc!.cacheMode).toBe('direct');
    expect(points.every((p) => p.cacheMode === undefined)).toBe(true);
    const full = s.runs[0]!.fullSpeedRead!;
    expect(full.bs).toBeGreaterThan(4096);
    expect(full.topMBps).toBe(Math.max(...points.map((p) => p.readMBps)));
  }, 240_000);

  it('sweep, throttled to 40 MB/s: no size beats the throttle, the large ones reach it', () => {
    group = throttleGroup(fs.device!, 'dd-sweep');
    group.set(THROTTLE_BPS);
    const r = run([fs.dir, '--test', 'sweep', '--preset', 'quickbench', '--seconds', '1', '--json', '--no-save'], home, group);
    expect(r.stderr).toBe('');
    const s = r.doc!.sweep!;
    // QuickBench's large steps, 20–100 MB as whole MiB: 100 MiB in one transfer, over the old 64 MiB cap.
    expect(s.sizes.slice(-5)).toEqual([20, 40, 60, 80, 100].map((m) => m * 1024 * 1024));
    // Its two headline averages: the mean of exactly the rows they name.
    const [small, large] = s.runs[0]!.averages!;
    const at = (bs: number) => s.runs[0]!.points.find((p) => p.bs === bs)!;
    expect(small!.writeMBps).toBe(at(4096).writeMBps);
    const rows = s.sizes.slice(-5).map((bs) => at(bs).readMBps);
    expect(large!.readMBps).toBeCloseTo(rows.reduce((a, b) => a + b) / 5, 9);
    const points = s.runs[0]!.points;
    console.log(`throttled: ${points.map((p) => `${p.bs / 1024}K w${p.writeMBps.toFixed(1)}/r${p.readMBps.toFixed(1)}`).join(' ')}`);
    // blkio v1 grants a group its rate per 100 ms slice, a slice at a time: a step can run at most
    // one slice ahead of the rate, 0.1 s in 1 s = 10 % over, under the 30 % bound whatever the load
    // (load only slows a step; at 0.5 s steps a load of 7 took 4 MiB reads to 0.54 of the rate).
    for (const p of points) {
      expect(p.writeMBps).toBeLessThan((THROTTLE_BPS / 1e6) * 1.3);
      expect(p.readMBps).toBeLessThan((THROTTLE_BPS / 1e6) * 1.3);
    }
    const mid = points.find((p) => p.bs === 4 * 1024 * 1024)!;
    expect(mid.writeMBps).toBeGreaterThan((THROTTLE_BPS / 1e6) * 0.6);
    expect(mid.readMBps).toBeGreaterThan((THROTTLE_BPS / 1e6) * 0.6);
    // From 256 KiB on every step is throttle-bound: the median of its 24 figures (12 sizes, both
    // ways) is the throttle within 5 %. Under stress-ng --cpu 2 plus a 50 MB/s fio job, 160 such
    // figures (8 runs) lay at 0.87–1.044 of it, 7 in 80 below 0.95 (a QD1 step loses the time the
    // loaded CPU takes to issue the next I/O); the median falls under 0.95 only if 12 of 24 do:
    // P ≈ C(24,12)·0.09¹²·0.91¹² ≈ 2·10⁻⁷ per run. None of the 160 went over 1.05.
    const big = points.filter((p) => p.bs >= 256 * 1024).flatMap((p) => [p.writeMBps, p.readMBps]);
    expect(big).toHaveLength(24);
    const median =
      [...big]
        .sort((a, b) => a - b)
        .slice(11, 13)
        .reduce((a, b) => a + b) / 2;
    expect(median / (THROTTLE_BPS / 1e6)).toBeGreaterThan(0.95);
    expect(median / (THROTTLE_BPS / 1e6)).toBeLessThan(1.05);
  }, 240_000);

  it('small files: every operation of every file timed, the scope said, nothing left behind', () => {
    const r = run([fs.dir, '--test', 'small-files', '--files', '300', '--file-size', '16KiB', '--json', '--no-save'], home);
    expect(r.stderr).toBe('');
    const s = r.doc!.smallFiles!;
    expect(s.count).toBe(300);
    expect(s.fileBytes).toBe(16384);
    expect(s.scope).toMatch(/file system and, on a share, every network round trip/);
    const [one] = s.runs;
    expect(one!.files).toBe(300);
    expect(one!.ops.map((o) => o.op)).toEqual(['create', 'write', 'fsync', 'close', 'stat', 'open', 'read', 'delete']);
    for (const o of one!.ops) {
      expect(o.count).toBe(300);
      expect(o.p50Ms).toBeLessThanOrEqual(o.p99Ms);
    }
    // The per-file time is the sum of its operations: files/s and ms per file agree.
    expect(one!.filesPerSecond * one!.msPerFile).toBeCloseTo(1000, 6);
    expect(one!.cacheMode).toBe('direct');
    expect(readdirSync(fs.dir).filter((n) => !n.startsWith('lost+found'))).toEqual([]);
  }, 240_000);

  it('small files: Ctrl-C in the middle leaves nothing behind', async () => {
    const child = spawn(process.execPath, [bin, 'run', fs.dir, '--test', 'small-files', '--files', '100000', '--no-save'], {
      env: { ...process.env, DISKDIAL_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Wait until a few hundred of the files are made (of 100,000: the run is in the middle), then interrupt.
    const made = () => readdirSync(fs.dir, { recursive: true }).filter((n) => String(n).startsWith('.diskdial-')).length;
    await expect.poll(made, { timeout: 60_000, interval: 100 }).toBeGreaterThan(300);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).not.toBe(0);
    // On a loaded machine the CLI may give up waiting for the engine and leave the folder to its
    // detached remover (core/workspace.ts, up to a minute): 1 of 10 loaded runs found it still
    // there at exit. Nothing may be left once that remover is done.
    await expect.poll(() => readdirSync(fs.dir).filter((n) => !n.startsWith('lost+found')), { timeout: 60_000 }).toEqual([]);
  }, 180_000);
});
