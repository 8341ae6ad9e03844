// Ground truth for the verify kind (issue 35): `diskdial run DIR --test verify` on a real ext4 on a
// loop device (its image in RAM) fills the free space less the reserve with self-naming blocks,
// reads every one back, says "Genuine" with the exact bytes proven, and leaves nothing behind;
// the flags that make no sense for it are refused in words before the disk is touched.
// Root only: loop devices and mount need it.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';
import { cleanupAllLoopFs, mountFsInRam, type MountedFs } from '../../helpers/loopfs.js';

const MiB = 1024 * 1024;

describe('diskdial run DIR --test verify on a loop-mounted ext4', () => {
  let fs: MountedFs;
  let home: string;
  const cli = (...args: string[]) => runCli(['run', fs.dir, '--test', 'verify', ...args], { cwd: home, home, timeout: 240_000 });

  beforeAll(async () => {
    buildCoreIfChanged();
    home = await mkdtemp(path.join(os.tmpdir(), 'dd-verify-home-'));
    fs = await mountFsInRam('ext4', { sizeMiB: 300 });
  }, 120_000);

  afterAll(async () => {
    await fs?.cleanup();
    await cleanupAllLoopFs();
    await rm(home, { recursive: true, force: true });
  });

  it('a genuine drive: every byte written is read back intact, "Genuine", and no test file is left', () => {
    const before = readdirSync(fs.dir).sort();
    const r = cli('--reserve', '16MiB', '--json', '--no-save');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument;
    const s = doc.verify!;
    expect(s.verdict.outcome).toBe('genuine');
    expect(s.summary).toMatch(/^Genuine: all \d+(\.\d)? MB written and read back intact$/);
    // The whole free space less 16 MiB, in whole MiB, every block of it checked.
    expect(s.limitedBy).toBe('free-space');
    expect(s.plannedBytes % MiB).toBe(0);
    expect(s.plannedBytes).toBeGreaterThan(200 * MiB);
    expect(s.writtenBytes).toBe(s.plannedBytes);
    expect(s.checkedBytes).toBe(s.plannedBytes);
    expect(s.verdict.figures.capacityBytes).toBe(s.verdict.figures.startBytes + s.plannedBytes);
    expect(s.runs).toEqual([]);
    expect(doc.tests.map((t) => t.name)).toEqual(['Write', 'Read and verify']);
    expect(s.writeCurve.length).toBeGreaterThan(0);
    expect(s.readCurve.length).toBeGreaterThan(0);
    expect(readdirSync(fs.dir).sort()).toEqual(before);
  });

  it('the table says the verdict under the figures', () => {
    const r = cli('--size', '64MiB', '--reserve', '16MiB', '--no-save');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Verify: 1 file, 64 MiB written, 64 MiB read back and checked \(the size asked, 64 MiB\)$/m);
    expect(r.stdout).toMatch(/^Genuine: all 67.1 MB written and read back intact$/m);
  });

  it.each([
    [['--runs', '2'], /--runs does not apply to --test verify/],
    [['--loop'], /--loop does not apply to --test verify/],
    [['--seconds', '5'], /--seconds does not apply to --test verify/],
    [['--bs', '4KiB'], /--bs does not apply to --test verify/],
    [['--pattern', 'zeros'], /--pattern zeros does not apply/],
  ])('refuses %s in words', (args, message) => {
    const before = readdirSync(fs.dir).sort();
    const r = cli(...args, '--no-save');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(readdirSync(fs.dir).sort()).toEqual(before);
  });
});
