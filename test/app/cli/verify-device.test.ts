// Ground truth for `diskdial verify --device DEV --confirm NAME` (issue 35), the verify kind's
// device face: the four planted fake drives (test/helpers/fake-drive.ts: a loop device of 256 MiB
// over a FUSE file) each get their verdict and their exact figure, to the 4 KiB block — a drive that
// wraps at 96 MiB holds 96 MiB; one that drops writes past 96 MiB loses them from byte 96 MiB on;
// bits flipped at two addresses are two bad blocks at those addresses' blocks; a genuine one is
// genuine. Positions on a device are bytes from its start (no file system, nothing before the run).
// Then the wizard's refusals, in its own words and before anything is written: a mounted disk, a
// wrong name, a partition of a mounted disk, a regular file and a FIFO. And a Ctrl-C part way
// keeps what was proven and saves it. Root only: loop devices and FUSE need it.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryListing } from '../../../app/src/model/history.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { canThrottle, throttleGroup } from '../../helpers/blkio.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin, runCli, type CliRun } from '../../helpers/cli.js';
import { makeFakeDrive, type FakeBehaviour, type FakeDrive } from '../../helpers/fake-drive.js';
import { cleanupAllLoopFs, mountFs, mountPartitioned, rootOnly } from '../../helpers/loopfs.js';

const MiB = 1024 * 1024;
const CLAIMED = 256 * MiB;
const REAL = 96 * MiB;
const B = 4096;
/** The regions a 256 MiB device is verified in (a sixteenth of it). */
const REGION = 16 * MiB;
/** The result document's published schema: a whole-disk result must meet it too. */
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats.default(ajv);
const validate = ajv.compile(
  JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../docs/result.schema.json'), 'utf8')) as object,
);

describe.runIf(rootOnly())('verify --device on the fake drives (root)', () => {
  let tmp: string;
  let home: string;
  const cli = (args: string[], timeout = 120_000): CliRun => runCli(args, { cwd: tmp, home, timeout });

  beforeAll(async () => {
    buildCoreIfChanged();
    tmp = await mkdtemp(path.join(os.tmpdir(), 'dd-verify-device-'));
    home = path.join(tmp, 'home');
  }, 120_000);

  afterAll(async () => {
    await cleanupAllLoopFs();
    await rm(tmp, { recursive: true, force: true });
  });

  async function withDrive<T>(
    behaviour: FakeBehaviour,
    real: number,
    flips: number[] | undefined,
    f: (d: FakeDrive) => Promise<T> | T,
  ): Promise<T> {
    const drive = await makeFakeDrive({ face: 'device', behaviour, claimed: CLAIMED, real, ...(flips ? { flips } : {}) });
    try {
      return await f(drive);
    } finally {
      await drive.cleanup();
    }
  }

  /** Verifies the whole of a fresh fake drive through the CLI, confirmed by its name. */
  function verify(behaviour: FakeBehaviour, real: number, flips?: number[]): Promise<ResultDocument> {
    return withDrive(behaviour, real, flips, (drive) => {
      const name = path.basename(drive.device!);
      const r = cli(['verify', '--device', drive.device!, '--confirm', name, '--json', '--no-save']);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const doc = JSON.parse(r.stdout) as ResultDocument;
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(doc.kind).toBe('verify');
      expect(doc.target).toMatchObject({ path: drive.device, volume: name, totalBytes: CLAIMED });
      expect(doc.verify!.device).toBe(true);
      expect(doc.verify!.files).toBe(CLAIMED / REGION);
      expect(doc.verify!.writtenBytes).toBe(CLAIMED);
      expect(doc.verify!.checkedBytes).toBe(CLAIMED);
      return doc;
    });
  }

  it('genuine: every block of the device read back intact', async () => {
    const s = (await verify('genuine', CLAIMED)).verify!;
    expect(s.verdict.outcome).toBe('genuine');
    expect(s.runs).toEqual([]);
    expect(s.verdict.figures.intactBlocks).toBe(CLAIMED / B);
    expect(s.summary).toBe('Genuine: all 268 MB written and read back intact');
  }, 120_000);

  it('wraps at 96 MiB: fake capacity, exactly 96 MiB, every aliased block displaced by 96 MiB', async () => {
    const s = (await verify('alias', REAL)).verify!;
    const f = s.verdict.figures;
    expect(s.verdict.outcome).toBe('wraps');
    expect(f.capacityBytes).toBe(REAL);
    expect(f.intactBlocks).toBe(REAL / B);
    expect(f.wrapBlocks).toBe(REAL / B);
    // Block 0 holds what was written last to its place: the block at 2 × 96 MiB.
    expect(s.runs[0]).toMatchObject({ block: 0, kind: 'aliased', held: (2 * REAL) / B });
    expect(s.summary).toBe('Fake capacity: only 101 MB of the 268 MB it reports hold data; writes beyond wrap to the start');
  }, 120_000);

  it('drops writes past 96 MiB: lost from byte 96 MiB on, read back as zeros', async () => {
    const s = (await verify('drop', REAL)).verify!;
    const f = s.verdict.figures;
    expect(s.verdict.outcome).toBe('lost');
    expect(f.capacityBytes).toBe(REAL);
    expect(f.firstBadBlock * B).toBe(REAL);
    expect(f.zerosBlocks).toBe((CLAIMED - REAL) / B);
    expect(s.runs).toEqual([{ block: REAL / B, blocks: (CLAIMED - REAL) / B, kind: 'zeros' }]);
    expect(s.summary).toBe('Lost: writes beyond 101 MB read back as zeros');
  }, 120_000);

  it('flipped bits at two addresses: two bad blocks, at those addresses’ blocks', async () => {
    const flips = [5 * MiB + 7 * B + 17, 200 * MiB + 3];
    const s = (await verify('flip', CLAIMED, flips)).verify!;
    const f = s.verdict.figures;
    expect(s.verdict.outcome).toBe('errors');
    expect(f.corruptedBlocks).toBe(2);
    expect(f.bitErrors).toBe(2);
    expect(f.firstBadBlock * B).toBe(5 * MiB + 7 * B);
    expect(s.runs.map((r) => r.block * B)).toEqual(flips.map((a) => Math.floor(a / B) * B));
    expect(s.summary).toBe('Errors: 2 blocks read back wrong, first at 5.3 MB (2 bits flipped)');
  }, 120_000);

  it('the table says what was verified, the verdict and the bad runs, and the result is saved', async () => {
    await withDrive('alias', REAL, undefined, (drive) => {
      const name = path.basename(drive.device!);
      const r = cli(['verify', '--device', drive.device!, '--confirm', name, '--label', 'fake']);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Verify: 16 regions of the device, 256 MiB written, 256 MiB read back and checked (the whole device)');
      expect(r.stdout).toContain('Fake capacity: only 101 MB of the 268 MB it reports hold data; writes beyond wrap to the start');
      expect(r.stdout).toContain('  16,384 blocks from 0 MB: held the block written at 201 MB');
      expect(r.stdout).toMatch(/Saved to history as [0-9a-f]{8}/);
      const list = JSON.parse(cli(['history', '--json', '--kind', 'verify']).stdout) as HistoryListing;
      expect(list.entries.map((e) => e.label)).toContain('fake');
    });
  }, 120_000);

  describe('refused in the wizard’s words, before anything is written', () => {
    // Each refusal is the disk listing's answer (lsblk), never an open of DEV. Bound 10 s: measured
    // 0.4–1.6 s with a CLI start each (up to ~3 s on a loaded machine), so > 3× head-room, a false
    // failure under 1 in 10,000; a FIFO opened for writing would block until the 10 s timeout.
    const refused = (args: string[], message: string | RegExp): void => {
      const t0 = performance.now();
      const r = cli(['verify', ...args], 10_000);
      const seconds = (performance.now() - t0) / 1000;
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      if (typeof message === 'string') expect(r.stderr).toBe(`diskdial: ${message}\n`);
      else expect(r.stderr).toMatch(message);
      expect(seconds).toBeLessThan(10);
    };

    it('a wrong name: nothing written to the disk', async () => {
      await withDrive('genuine', CLAIMED, undefined, (drive) => {
        const name = path.basename(drive.device!);
        const mark = Buffer.alloc(B, 0x5a);
        const fd = openSync(drive.device!, 'r+');
        writeSync(fd, mark, 0, B, 0);
        refused(
          ['--device', drive.device!, '--confirm', 'Samsung T7'],
          `The name typed ("Samsung T7") is not the disk's name ("${name}"): nothing was erased.`,
        );
        const back = Buffer.alloc(B);
        readSync(fd, back, 0, B, 0);
        closeSync(fd);
        expect(back.equals(mark)).toBe(true);
      });
    }, 60_000);

    it('a mounted disk', async () => {
      const fs = await mountFs('ext4', { sizeMiB: 64 });
      try {
        refused(
          ['--device', fs.device!, '--confirm', path.basename(fs.device!)],
          `${fs.device} cannot be erased: ${fs.device} is in use (mounted at ${fs.dir}): unmount it first.`,
        );
        expect(readFileSync('/proc/mounts', 'utf8')).toContain(` ${fs.dir} `);
      } finally {
        await fs.cleanup();
      }
    }, 60_000);

    it('a partition of a mounted disk, and that disk', async () => {
      const disk = await mountPartitioned('ext4', 2, 32);
      try {
        const name = path.basename(disk.device);
        refused(['--device', `${disk.device}p2`, '--confirm', name], `${disk.device}p2 is not a whole disk (see diskdial disks)`);
        refused(
          ['--device', disk.device, '--confirm', name],
          `${disk.device} cannot be erased: ${disk.device}p1 is in use (mounted at ${disk.dirs[0]}): unmount it first.`,
        );
      } finally {
        await disk.cleanup();
      }
    }, 60_000);

    it('a regular file and a FIFO: not disks, never opened', () => {
      const file = path.join(tmp, 'image.bin');
      writeFileSync(file, 'keep me');
      const fifo = path.join(tmp, 'pipe');
      execFileSync('mkfifo', [fifo]);
      refused(['--device', file, '--confirm', 'image.bin'], `${file} is not a whole disk (see diskdial disks)`);
      refused(['--device', fifo, '--confirm', 'pipe'], `${fifo} is not a whole disk (see diskdial disks)`);
      expect(readFileSync(file, 'utf8')).toBe('keep me');
    });

    it('usage mistakes', () => {
      refused(['--confirm', 'x'], '--device is required: the whole disk to verify capacity, e.g. --device /dev/sdb (see diskdial disks)');
      refused(
        ['--device', '/dev/sdz'],
        "--confirm NAME is required: the disk's name as `diskdial disks` shows it; everything on the disk is overwritten, and nothing is written without it",
      );
      refused(['/mnt/x'], /^diskdial: unexpected argument "\/mnt\/x"; verify takes --device DEV/);
    });
  });

  // Reads of the device throttled to 24 MB/s (the CLI and its engine in a blkio group): the write
  // pass is fast, the read pass takes ~11 s. Ctrl-C comes once the kernel's count of bytes read from
  // the device passes three and a half regions (a state polled, not a timer): the fourth region's
  // reads have begun, so the first three were read and kept whatever else (udev's probe, a few KiB)
  // read the device; the run stops within the fourth. Nothing here is timed.
  it.runIf(canThrottle())(
    'Ctrl-C part way: "Stopped: verified the first …", exit 130, saved',
    async () => {
      await withDrive('genuine', CLAIMED, undefined, async (drive) => {
        const name = path.basename(drive.device!);
        const group = throttleGroup(drive.device!, 'dd-verify-device');
        let child: ReturnType<typeof spawn> | undefined;
        try {
          group.set({ read: 24e6, write: 0 });
          child = spawn('sh', ['-c', group.script, process.execPath, bin, 'verify', '--device', drive.device!, '--confirm', name], {
            cwd: tmp,
            env: { ...process.env, DISKDIAL_HOME: home },
          });
          let stdout = '';
          let stderr = '';
          child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
          child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
          const running = child;
          const exited = new Promise<number | null>((resolve) => running.once('exit', (code) => resolve(code)));
          const bytesRead = (): number => Number(readFileSync(`/sys/block/${name}/stat`, 'utf8').trim().split(/\s+/)[2]) * 512;
          const before = bytesRead();
          await expect.poll(() => bytesRead() - before, { timeout: 60_000, interval: 50 }).toBeGreaterThan(3.5 * REGION);
          child.kill('SIGINT');
          expect(await exited).toBe(130);
          expect(stderr).toBe('');
          const m = /Stopped: verified the first ([\d.]+) MB of 268 MB/.exec(stdout);
          expect(m, stdout).not.toBeNull();
          // Whole regions read back, at least the three seen and not all of them.
          const proven = Number(m![1]) * 1e6;
          expect(proven).toBeGreaterThanOrEqual(3 * REGION - 0.05e6);
          expect(proven).toBeLessThan(CLAIMED - 0.05e6);
          const list = JSON.parse(cli(['history', '--json', '--kind', 'verify']).stdout) as HistoryListing;
          const saved = cli(['export', list.entries[0]!.id, '--format', 'json']);
          const doc =
            (JSON.parse(saved.stdout) as { results?: ResultDocument[] }).results?.[0] ?? (JSON.parse(saved.stdout) as ResultDocument);
          expect(doc.verify!.verdict.outcome).toBe('stopped');
          expect(doc.verify!.checkedBytes % REGION).toBe(0);
          expect(doc.verify!.verdict.figures.prefixBlocks * B).toBe(doc.verify!.checkedBytes);
        } finally {
          // A test that failed before the child ended: it goes before its group does.
          if (child && child.exitCode === null && child.signalCode === null) {
            const gone = new Promise((resolve) => child!.once('exit', resolve));
            child.kill('SIGKILL');
            await gone;
          }
          group.remove();
        }
      });
    },
    120_000,
  );
});
