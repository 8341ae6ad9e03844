// A disk that fails mid-test, through a real FUSE file system that fails on command
// (test/helpers/faultfs.ts): EIO said in plain words, Stop during a stalled I/O within a second,
// and a pulled disk ending the test with nothing left behind while the process carries on — at
// the services level, with the engine in its own process as the app and `serve` run it.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockDir } from '../../../app/src/core/workspace.js';

import type { QuickDoneEvent } from '../../../app/src/model/events.js';

import { QuickTestService } from '../../../app/src/services/quick-test.js';
import { onEngineHost } from '../../helpers/engine-host.js';
import { recorder } from '../../helpers/event-recorder.js';
import { mountFaultFs, type FaultFs } from '../../helpers/faultfs.js';

const MiB = 1 << 20;
const engine = onEngineHost((host) => new QuickTestService({ engine: host.runTest }));
let disk: FaultFs;

beforeEach(async () => {
  disk = await mountFaultFs();
});
afterEach(async () => {
  await engine.service.stopAll();
  await disk.cleanup();
});

/** Starts a one-cycle Quick Test on the fault disk; `done` settles with its last event. */
function startQuick(target = disk.mountpoint, sizeBytes = 16 * MiB): { jobId: string; done: Promise<QuickDoneEvent> } {
  const sink = recorder('quick.done');
  const { jobId } = engine.service.start({ target, sizeBytes, mode: 'runs', runs: 1 }, sink);
  return { jobId, done: sink.done };
}

describe('a disk that fails mid-test (FUSE fault injection)', () => {
  it('an I/O error ends the test with EIO in plain words, and its files are removed', async () => {
    await disk.eioAfter(4 * MiB);
    const done = await startQuick().done;
    expect(done.outcome).toBe('failed');
    expect(done.error).toEqual({
      code: 'EIO',
      message: `The disk reported an I/O error while running the test at ${disk.mountpoint}; the disk, cable or port may be failing. Back up what is on it, then try another cable or port.`,
    });
    expect(await fsp.readdir(disk.backing)).toEqual([]);
    expect(engine.service.runningJobId).toBeUndefined();
  });

  it('Stop during a stalled write returns within a second, with the test files removed', async () => {
    // Past the workspace's marker and the first MiB of the test file: the engine is mid-write.
    await disk.stall(30, MiB);
    const { jobId, done } = startQuick();
    // The fault disk's own log says a write is held: the engine is stuck in it, not before it.
    expect((await disk.stalled()).op).toBe('write');
    const t0 = performance.now();
    expect(engine.service.stop(jobId)).toBe(true);
    const end = await done;
    const ms = performance.now() - t0;
    expect(end.outcome).toBe('stopped');
    expect(ms).toBeLessThan(1000);
    // The stalled disk holds up the removal (the file is busy in the kernel) and the drive's
    // lock with it; once the disk answers again, both go.
    await disk.heal();
    await expect.poll(() => fsp.readdir(disk.backing), { timeout: 15_000 }).toEqual([]);
    await expect.poll(async () => (await fsp.readdir(lockDir())).filter((n) => n.endsWith('.lock')), { timeout: 15_000 }).toEqual([]);
  });

  it('a pulled disk ends the test as failed, leaves nothing behind elsewhere, and the process carries on', async () => {
    // Past the workspace's marker and the first MiB of the test file: the engine is mid-write.
    await disk.stall(30, MiB);
    const { done } = startQuick();
    expect((await disk.stalled()).op).toBe('write');
    await disk.pull();
    const end = await done;
    expect(end.outcome).toBe('failed');
    // New requests get ENOTCONN; the write that was in flight when the connection went gets ECONNABORTED.
    expect(['ENOTCONN', 'ECONNABORTED']).toContain(end.error?.code);
    expect(end.error?.message).toBe(`The disk holding ${disk.mountpoint} went away. Reconnect it, then start the test again.`);
    // The drive's lock is released and the process tests another disk as usual.
    expect((await fsp.readdir(lockDir())).filter((n) => n.endsWith('.lock'))).toEqual([]);
    const other = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-after-pull-'));
    try {
      const next = await startQuick(other).done;
      expect(next.outcome).toBe('finished');
      expect(await fsp.readdir(other)).toEqual([]);
    } finally {
      await fsp.rm(other, { recursive: true, force: true });
    }
  });
});
