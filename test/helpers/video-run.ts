// The frame-paced video test as its ground-truth tests run it: `diskdial run <dir> --test video
// --format prores-hq-uhd-2997 --seconds 10 --json` on a real ext4 on a loop device whose image is
// in RAM (/dev/shm), optionally with the CLI in a blkio throttle group. Shared by
// test/app/cli/video-paced.test.ts (free: needs the CPU alone, `solo`) and
// video-paced-throttled.test.ts (throttled: frames late whatever the load, `wait`).
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ResultDocument } from '../../app/src/model/result.js';
import { buildCoreIfChanged } from './build-core.js';
import type { ThrottleGroup } from './blkio.js';
import { bin } from './cli.js';
import { cleanupAllLoopFs, mountFsInRam, type MountedFs } from './loopfs.js';

export const FORMAT = 'prores-hq-uhd-2997';
export const SECONDS = 10;
export const FRAMES = Math.round(SECONDS * 29.97);

/** `diskdial run` on `dir` in the throttle group `group` (or the test's own), as JSON. */
export function runVideo(
  dir: string,
  home: string,
  group?: ThrottleGroup,
): { status: number | null; doc?: ResultDocument; stderr: string } {
  const args = ['run', dir, '--test', 'video', '--format', FORMAT, '--seconds', String(SECONDS), '--json'];
  // The shell joins the group, then becomes the CLI: every thread of the run is throttled.
  const script = group ? group.script : 'exec "$0" "$@"';
  const r = spawnSync('sh', ['-c', script, process.execPath, bin, ...args], {
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, DISKDIAL_HOME: home },
  });
  return { status: r.status, stderr: r.stderr, ...(r.status === 0 ? { doc: JSON.parse(r.stdout) as ResultDocument } : {}) };
}

/** An ext4 in RAM big enough for the run (300 frames of ~3.7 MB each, with room for ext4's own
 *  blocks) and a data folder for its results; `cleanup` removes both. */
export async function videoVolume(): Promise<{ fs: MountedFs; home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'dd-video-home-'));
  const fs = await mountFsInRam('ext4', { sizeMiB: 1400 });
  return {
    fs,
    home,
    cleanup: async () => {
      await fs.cleanup();
      await cleanupAllLoopFs();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Inside a describe: the compiled core and a video volume before its tests, `before` (e.g. a
 *  throttle group's removal) and the volume's removal after them. Read `fs`/`home` in the tests. */
export function useVideoVolume(before?: () => void): { fs: MountedFs; home: string } {
  const vol = {} as { fs: MountedFs; home: string };
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    buildCoreIfChanged();
    ({ fs: vol.fs, home: vol.home, cleanup } = await videoVolume());
  }, 120_000);
  afterAll(async () => {
    before?.();
    await cleanup?.();
  });
  return vol;
}
