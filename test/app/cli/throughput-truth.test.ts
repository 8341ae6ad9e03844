// Ground truth for the MB/s figure itself: a Quick Test through the CLI on a loop-mounted ext4
// whose device is throttled (cgroup v1 blkio) to exactly 10,000,000 bytes/s each way. Every figure
// DiskDial reports — each run's write and read, and their mean — must be that rate within ±3 %.
// A figure in MiB/s (2^20 bytes) labelled MB/s reads 4.6 % low and falls outside, wherever in the
// engine, the runner or the summary it happens. Root only (loop devices, cgroups).
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { canThrottle, throttleGroup, type ThrottleGroup } from '../../helpers/blkio.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';
import { cleanupAllLoopFs, mountFsInRam, rootOnly, type MountedFs } from '../../helpers/loopfs.js';

const RATE_BPS = 10_000_000;
const SIZE = 16 * 1024 * 1024;

describe.runIf(rootOnly() && canThrottle())('MB/s against a device throttled to a known rate', () => {
  let fs: MountedFs;
  let home: string;
  let group: ThrottleGroup;

  beforeAll(async () => {
    buildCoreIfChanged();
    home = await mkdtemp(path.join(os.tmpdir(), 'dd-truth-home-'));
    // The image in RAM: the throttle on the loop device is the only thing slower than memory, so
    // a busy machine disk (other tests, a fio job) cannot be what is measured (0.71 of the
    // throttle once with the image on a disk under a 50 MB/s random-write load).
    fs = await mountFsInRam('ext4', { sizeMiB: 200 });
    group = throttleGroup(fs.device!, 'dd-truth');
    group.set(RATE_BPS);
  }, 120_000);

  afterAll(async () => {
    group?.remove();
    await fs?.cleanup();
    await cleanupAllLoopFs();
    await rm(home, { recursive: true, force: true });
  });

  it('a Quick Test of 16 MiB at 10 MB/s reports 10 MB/s within ±3 % for every run and for the mean, both ways', () => {
    const r = spawnSync(
      'sh',
      ['-c', group.script, process.execPath, bin, 'run', fs.dir, '--test', 'quick', '--size', '16MiB', '--runs', '2', '--json'],
      {
        encoding: 'utf8',
        timeout: 120_000,
        killSignal: 'SIGKILL',
        env: { ...process.env, DISKDIAL_HOME: home },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument;
    const truth = RATE_BPS / 1e6;
    expect(doc.tests).toHaveLength(4);
    for (const t of doc.tests) {
      expect(t.cacheMode).toBe('direct');
      expect(t.bytes).toBe(SIZE);
      // Margin ±3 %: on this machine, under a load of 3–8 (other test runs), 40 figures (10 Quick
      // Tests of 2 runs, both ways) gave 0.989–1.000 of the throttle (mean 0.996, sd 0.003): each
      // bound is more than 8 sd away, a false failure below 1 in 10^9 per figure, 6 figures a run
      // (normal model of the sd seen).
      // The throttle cannot be beaten (upper bound); a free loop device is many times faster, so
      // the throttle is what is measured (lower bound). MiB/s for MB/s: ≤ 0.954, outside.
      expect(t.mbps / truth, `${t.name} run ${t.run}`).toBeGreaterThan(0.97);
      expect(t.mbps / truth, `${t.name} run ${t.run}`).toBeLessThan(1.03);
    }
    for (const s of doc.summary ?? []) {
      expect(s.mbps.mean / truth, s.name).toBeGreaterThan(0.97); // the same margin and rate as above
      expect(s.mbps.mean / truth, s.name).toBeLessThan(1.03);
    }
    expect(doc.summary?.map((s) => s.name)).toEqual(['Write', 'Read']);
  }, 120_000);
});
