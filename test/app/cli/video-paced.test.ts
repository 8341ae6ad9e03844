// Ground truth for the frame-paced video test: `diskdial run --test video` on a real ext4 on a
// loop device (its image in RAM, /dev/shm), once as the device is and once with the loop device
// throttled by cgroup v1 blkio to 20 MB/s each way, under a fifth of what ProRes 422 HQ UHD
// 29.97 fps needs (~111 MB/s), the CLI moved into the throttled group before it starts. Root
// only: loop devices, mount and the cgroup need it.
//
// Throttled, the format cannot keep up: nearly every frame is late or dropped from the start,
// at the throttle's rate. Unthrottled it sustains the format's rate, but on this shared machine
// (a load of 7-9 on 2 cores while it was written) the loop device's kernel worker was starved
// past the 33 ms frame period for 2-25 of 150 frames a run, and the engine rightly counts those
// late; that is not the disk, and an idle machine was not available to show the clean ✓. So the
// free run is held to at most a fifth of the frames late or dropped and the format's rate, the
// throttled one to over four fifths; the ✓ text is checked whenever a phase had none.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';
import { cleanupAllLoopFs, mountFsInRam, rootOnly, type MountedFs } from '../../helpers/loopfs.js';

const BLKIO = '/sys/fs/cgroup/blkio';
const FORMAT = 'prores-hq-uhd-2997';
const SECONDS = '5';
/** The throttle: 20 MB/s each way, under a fifth of the format's ~111 MB/s. */
const THROTTLE_BPS = 20_000_000;

const canThrottle = rootOnly() && existsSync(path.join(BLKIO, 'blkio.throttle.write_bps_device'));

/** `diskdial run` on `dir` in the blkio group `group` (or the test's own), as JSON. */
function runVideo(dir: string, home: string, group?: string): { status: number | null; doc?: ResultDocument; stderr: string } {
  const args = ['run', dir, '--test', 'video', '--format', FORMAT, '--seconds', SECONDS, '--json'];
  // The shell joins the group, then becomes the CLI: every thread of the run is throttled.
  const script = group ? `echo $$ > ${path.join(group, 'cgroup.procs')} && exec "$0" "$@"` : 'exec "$0" "$@"';
  const r = spawnSync('sh', ['-c', script, process.execPath, bin, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, DISKDIAL_HOME: home },
  });
  return { status: r.status, stderr: r.stderr, ...(r.status === 0 ? { doc: JSON.parse(r.stdout) as ResultDocument } : {}) };
}

describe.runIf(canThrottle)('the paced video test on a loop-mounted ext4, free and throttled', () => {
  let fs: MountedFs;
  let home: string;
  let group: string | undefined;

  beforeAll(async () => {
    buildCoreIfChanged();
    home = await mkdtemp(path.join(os.tmpdir(), 'dd-video-home-'));
    fs = await mountFsInRam('ext4', { sizeMiB: 900 });
  }, 120_000);

  afterAll(async () => {
    if (group && existsSync(group)) {
      // A group can be removed once empty: its process (the CLI) has exited by now.
      for (const f of ['blkio.throttle.write_bps_device', 'blkio.throttle.read_bps_device']) {
        const dev = statSync(fs.device!).rdev;
        writeFileSync(path.join(group, f), `${Math.floor(dev / 256)}:${dev % 256} 0`);
      }
      rmdirSync(group);
    }
    await fs?.cleanup();
    await cleanupAllLoopFs();
    await rm(home, { recursive: true, force: true });
  });

  it('unthrottled: sustains the format’s rate, at most a fifth of the frames late or dropped', () => {
    const r = runVideo(fs.dir, home);
    expect(r.stderr).toBe('');
    const v = r.doc!.video!;
    expect(v.id).toBe(FORMAT);
    expect(v.frames).toBe(Math.round(5 * 29.97));
    const [run] = v.runs;
    for (const p of [run!.write, run!.read]) {
      expect(p.frames).toBe(v.frames);
      expect(p.late + p.dropped).toBeLessThanOrEqual(v.frames * 0.2);
      expect(p.cacheMode).toBe('direct');
      expect(p.p50Ms).toBeLessThan(v.budgetMs / 2);
      // Paced: the sustained rate is the format's, not the device's.
      expect(p.mbps).toBeGreaterThan(v.dataRateMBps * 0.75);
      expect(p.mbps).toBeLessThan(v.dataRateMBps * 1.1);
    }
    for (const p of [run!.write, run!.read])
      if (p.ok) expect(p.verdict).toMatch(/^✓ 150 frames, none late; worst \d+(\.\d)? ms of a 33 ms budget$/);
      else expect(p.verdict).toMatch(/^✗ \d+ of 150 frames late(, \d+ dropped)?, first at /);
    expect(v.ok).toBe(run!.write.ok && run!.read.ok);
    console.log(
      `unthrottled: write ${run!.write.verdict}, p99 ${run!.write.p99Ms.toFixed(1)} ms, ${run!.write.mbps.toFixed(1)} MB/s; read ${run!.read.verdict}, p99 ${run!.read.p99Ms.toFixed(1)} ms, ${run!.read.mbps.toFixed(1)} MB/s`,
    );
  }, 120_000);

  it('falls behind throttled to 20 MB/s: late and dropped frames counted, the first late time given', () => {
    const dev = statSync(fs.device!).rdev;
    const majMin = `${Math.floor(dev / 256)}:${dev % 256}`;
    expect(readFileSync(`/sys/dev/block/${majMin}/uevent`, 'utf8')).toMatch(/DEVNAME=loop\d+/);
    group = path.join(BLKIO, `dd-video-${process.pid}`);
    mkdirSync(group);
    writeFileSync(path.join(group, 'blkio.throttle.write_bps_device'), `${majMin} ${THROTTLE_BPS}`);
    writeFileSync(path.join(group, 'blkio.throttle.read_bps_device'), `${majMin} ${THROTTLE_BPS}`);

    const r = runVideo(fs.dir, home, group);
    expect(r.stderr).toBe('');
    const v = r.doc!.video!;
    const [run] = v.runs;
    for (const p of [run!.write, run!.read]) {
      expect(p.frames).toBe(v.frames);
      expect(p.late + p.dropped).toBeGreaterThan(v.frames * 0.8);
      expect(p.firstLateSeconds).toBeGreaterThanOrEqual(0);
      expect(p.firstLateSeconds).toBeLessThan(2);
      // What the throttle allows, not what the format needs.
      expect(p.mbps).toBeLessThan((THROTTLE_BPS / 1e6) * 1.25);
      expect(p.timeline).toHaveLength(v.frames);
      expect(p.ok).toBe(false);
    }
    expect(run!.write.verdict).toMatch(/^✗ [\d,]+ of 150 frames late(, [\d,]+ dropped)?, first at \d+(\.\d)? s/);
    expect(v.ok).toBe(false);
    expect(v.verdict).toMatch(/^ProRes 422 HQ UHD 29\.97 fps: ✗ write .* read /);
    console.log(
      `throttled: write ${run!.write.verdict}, p99 ${run!.write.p99Ms.toFixed(1)} ms, ${run!.write.mbps.toFixed(1)} MB/s; read ${run!.read.verdict}, p99 ${run!.read.p99Ms.toFixed(1)} ms, ${run!.read.mbps.toFixed(1)} MB/s`,
    );
  }, 120_000);
});
