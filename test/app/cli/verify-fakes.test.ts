// Ground truth for verify's verdicts (issue 35): `diskdial run DIR --test verify` on the folder
// face of the planted fake drives (test/helpers/fake-drive.ts: a FUSE folder claiming 256 MiB
// whose files' 1 MiB extents walk its virtual disk, lowest free first). Each plant gets its
// verdict and its exact figure, to the byte: a drive that wraps at 96 MiB is 96 MiB; one that
// drops writes past 96 MiB loses them from 96 MiB on; bits flipped at two addresses are two bad
// blocks, the first at the first address's block; a genuine one is genuine. No test file is left
// on any of them. Root only: FUSE and /dev/fuse need it.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';
import { makeFakeDrive, type FakeBehaviour } from '../../helpers/fake-drive.js';

const MiB = 1024 * 1024;
const CLAIMED = 256 * MiB;
const REAL = 96 * MiB;
const B = 4096;

describe('verify on the fake drives, folder face', () => {
  let home: string;

  beforeAll(async () => {
    buildCoreIfChanged();
    home = await mkdtemp(path.join(os.tmpdir(), 'dd-verify-fakes-home-'));
  }, 120_000);

  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  /** Verifies the whole of a fresh fake drive's folder; its result, the folder left as it was. */
  async function verify(behaviour: FakeBehaviour, real: number, flips?: number[]): Promise<ResultDocument> {
    const drive = await makeFakeDrive({ face: 'folder', behaviour, claimed: CLAIMED, real, ...(flips ? { flips } : {}) });
    try {
      const r = runCli(['run', drive.folder!, '--test', 'verify', '--reserve', '0', '--json', '--no-save'], {
        cwd: home,
        home,
        timeout: 240_000,
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(readdirSync(drive.folder!)).toEqual([]);
      return JSON.parse(r.stdout) as ResultDocument;
    } finally {
      await drive.cleanup();
    }
  }

  it('genuine: every block read back intact', async () => {
    const s = (await verify('genuine', CLAIMED)).verify!;
    expect(s.verdict.outcome).toBe('genuine');
    expect(s.checkedBytes).toBe(s.plannedBytes);
    expect(s.runs).toEqual([]);
    expect(s.summary).toMatch(/^Genuine: all .+ written and read back intact$/);
  });

  it('wraps at 96 MiB: fake capacity, exactly 96 MiB', async () => {
    const s = (await verify('alias', REAL)).verify!;
    expect(s.verdict.outcome).toBe('wraps');
    expect(s.verdict.figures.capacityBytes).toBe(REAL);
    // Every place the fake really has holds the block written there last.
    expect(s.verdict.figures.intactBlocks).toBe(REAL / B);
    expect(s.summary).toBe('Fake capacity: only 101 MB of the 268 MB it reports hold data; writes beyond wrap to the start');
  });

  it('drops writes past 96 MiB: lost from exactly 96 MiB on, read back as zeros', async () => {
    const s = (await verify('drop', REAL)).verify!;
    const f = s.verdict.figures;
    expect(s.verdict.outcome).toBe('lost');
    expect(f.capacityBytes).toBe(REAL);
    expect(f.startBytes + f.firstBadBlock * B).toBe(REAL);
    expect(f.zerosBlocks).toBe(f.checkedBlocks - f.firstBadBlock);
    expect(s.summary).toBe('Lost: writes beyond 101 MB read back as zeros');
  });

  it('flipped bits at two addresses: two bad blocks, the first at the first address’s block', async () => {
    const flips = [5 * MiB + 7 * B + 17, 200 * MiB + 3];
    const s = (await verify('flip', CLAIMED, flips)).verify!;
    const f = s.verdict.figures;
    expect(s.verdict.outcome).toBe('errors');
    expect(f.corruptedBlocks).toBe(2);
    expect(f.bitErrors).toBe(2);
    expect(f.startBytes + f.firstBadBlock * B).toBe(Math.floor(flips[0]! / B) * B);
    expect(s.runs.map((r) => f.startBytes + r.block * B)).toEqual(flips.map((a) => Math.floor(a / B) * B));
    expect(s.summary).toMatch(/^Errors: 2 blocks read back wrong, first at 5\.\d MB \(2 bits flipped\)$/);
  });
});
