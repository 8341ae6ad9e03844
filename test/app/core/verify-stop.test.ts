// A verify stopped part way keeps what it proved (issue 35: "Stop at any time and get what was
// proven"): on a real ext4 on a loop device (its image in RAM) with room for two 1 GiB files, the
// real engine writes both, reads the first back, and the stop comes the moment that read is done
// (its step-done event, not a timer). The result is the runner's, not an AbortError: "Stopped:
// verified the first 1.1 GB of …", the first file's blocks exactly, and no test file left.
// Root only: loop devices and mount need it.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBenchmark } from '../../../app/src/core/runner.js';
import { cleanupAllLoopFs, mountFsInRam, type MountedFs } from '../../helpers/loopfs.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('a verify stopped after its first file was read back', () => {
  let fs: MountedFs;

  beforeAll(async () => {
    fs = await mountFsInRam('ext4', { sizeMiB: 1400 });
  }, 120_000);

  afterAll(async () => {
    await fs?.cleanup();
    await cleanupAllLoopFs();
  });

  it('keeps what it proved, says so, and leaves nothing behind', async () => {
    const before = readdirSync(fs.dir).sort();
    const stop = new AbortController();
    const doc = await runBenchmark({
      target: fs.dir,
      test: 'verify',
      reserveBytes: 16 * MiB,
      handleSignals: false,
      signal: stop.signal,
      onStepDone: (e) => {
        if (e.step.pass === 'read') stop.abort(new Error('stopped by the test'));
      },
    });
    const s = doc.verify!;
    expect(s.files).toBe(2);
    expect(s.writtenBytes).toBe(s.plannedBytes);
    // Exactly the first file: 1 GiB of blocks, all intact, nothing of the second.
    expect(s.checkedBytes).toBe(GiB);
    expect(s.verdict.outcome).toBe('stopped');
    expect(s.verdict.figures.prefixBlocks).toBe(GiB / 4096);
    expect(s.summary).toBe(`Stopped: verified the first 1.1 GB of ${(s.plannedBytes / 1e9).toFixed(1)} GB`);
    expect(doc.notes).toContain('Stopped before the end: the result is what the steps finished before the stop found.');
    expect(doc.tests.map((t) => t.name)).toEqual(['Write', 'Read and verify']);
    expect(readdirSync(fs.dir).sort()).toEqual(before);
  });
});
