// The fake drives are the ground truth of verify: each must lie exactly as planted, as seen through
// the kernel (O_DIRECT on /dev/loopN, files in the FUSE folder), and f3 — the tool users trust to
// catch fakes — must give each the verdict its behaviour calls for.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statfsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { f3Brew, f3Folder, f3Probe } from '../../helpers/f3.js';
import { makeFakeDrive, type FakeDrive, type FakeDriveOptions } from '../../helpers/fake-drive.js';
import { rootOnly } from '../../helpers/loopfs.js';

const MiB = 1 << 20;
const SECTOR = 512;
const C = 256 * MiB;
const R = 96 * MiB;
let drive: FakeDrive | undefined;

afterEach(async () => {
  await drive?.cleanup();
  drive = undefined;
});

async function make(opts: FakeDriveOptions): Promise<FakeDrive> {
  drive = await makeFakeDrive(opts);
  return drive;
}

/** One 4 KiB block of `byte`, written at `addr` with O_DIRECT (dd's buffers are page-aligned). */
function writeBlock(device: string, addr: number, byte: number): void {
  execFileSync('dd', [`of=${device}`, 'bs=4096', 'count=1', `seek=${addr / 4096}`, 'oflag=direct', 'conv=notrunc', 'status=none'], {
    input: Buffer.alloc(4096, byte),
  });
}

/** The 4 KiB block at `addr`, read with O_DIRECT: from the fake's daemon, never a page cache. */
function readBlock(device: string, addr: number): Buffer {
  return execFileSync('dd', [`if=${device}`, 'bs=4096', 'count=1', `skip=${addr / 4096}`, 'iflag=direct', 'status=none']);
}

function isMounted(dir: string): boolean {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[1] === dir);
}

describe.runIf(rootOnly())('fake drives, device face (a loop device over the FUSE file)', () => {
  it('reports the claimed size, and an alias hands back, through O_DIRECT, the block written a wrap later', async () => {
    const { device } = await make({ face: 'device', behaviour: 'alias', claimed: C, real: R });
    expect(execFileSync('blockdev', ['--getsize64', device!], { encoding: 'utf8' }).trim()).toBe(String(C));
    writeBlock(device!, 4096, 0xa1);
    writeBlock(device!, R + 4096, 0xb2);
    // A page cache between DiskDial and the daemon would hand back 0xa1 here and hide the fake.
    expect(readBlock(device!, 4096)).toEqual(Buffer.alloc(4096, 0xb2));
    expect(readBlock(device!, 2 * R + 4096)).toEqual(Buffer.alloc(4096, 0xb2));
  });

  it('a drop loses writes past the real size (zeros come back) and keeps those below it', async () => {
    const { device } = await make({ face: 'device', behaviour: 'drop', claimed: C, real: R });
    writeBlock(device!, R - 4096, 0xc3);
    writeBlock(device!, R, 0xd4);
    expect(readBlock(device!, R - 4096)).toEqual(Buffer.alloc(4096, 0xc3));
    expect(readBlock(device!, R)).toEqual(Buffer.alloc(4096));
    expect(readBlock(device!, 0)).toEqual(Buffer.alloc(4096));
  });

  it('a flip reads back its planted bits flipped, a genuine drive what was written', async () => {
    const flipped = await make({ face: 'device', behaviour: 'flip', claimed: C, real: C, flips: [C - 4096 + 7] });
    writeBlock(flipped.device!, C - 4096, 0xf0);
    const expected = Buffer.alloc(4096, 0xf0);
    expected[7] = 0xf1;
    expect(readBlock(flipped.device!, C - 4096)).toEqual(expected);
    await flipped.cleanup();
    const genuine = await make({ face: 'device', behaviour: 'genuine', claimed: C, real: C });
    writeBlock(genuine.device!, C - 4096, 0xe5);
    expect(readBlock(genuine.device!, C - 4096)).toEqual(Buffer.alloc(4096, 0xe5));
  });

  // f3probe finds a wrap only at a power of two (real address lines dropped): C/2 here. (At 64 MiB
  // of 256 it calls the drive "damaged" with 0 usable bytes, the sampling gap issue 35 is about.)
  it.each([
    ['alias', 128 * MiB, 'a counterfeit of type wraparound'],
    ['drop', R, 'a counterfeit of type limbo'],
    ['genuine', C, 'the real thing'],
  ] as const)('f3probe calls the %s drive what it is and finds its real size', async (behaviour, real, verdict) => {
    const { device } = await make({ face: 'device', behaviour, claimed: C, real });
    const probe = await f3Probe(device!);
    expect(probe.verdict).toBe(verdict);
    expect(probe.usableBytes).toBe(real);
  });

  // f3brew writes every block then reads every block: the whole-device truth, block by block (512 B).
  it('f3brew finds an alias block by block: every real block holds its last writer', async () => {
    const { device } = await make({ face: 'device', behaviour: 'alias', claimed: C, real: R });
    const b = (bytes: number): number => bytes / SECTOR;
    // Store block s last holds virtual block s + 2R (s < C - 2R) or s + R: the two overwritten runs.
    expect((await f3Brew(device!)).ranges).toEqual([
      { status: 'Overwritten', from: 0, to: b(C - 2 * R) - 1, found: b(2 * R) },
      { status: 'Overwritten', from: b(C - 2 * R), to: b(C - R) - 1, found: b(C - R) },
      { status: 'Good', from: b(C - R), to: b(C) - 1 },
    ]);
  });

  it('f3brew finds a drop good up to R and bad beyond, and a flip bad at exactly the planted blocks', async () => {
    const dropped = await make({ face: 'device', behaviour: 'drop', claimed: C, real: R });
    expect((await f3Brew(dropped.device!)).ranges).toEqual([
      { status: 'Good', from: 0, to: R / SECTOR - 1 },
      { status: 'Bad', from: R / SECTOR, to: C / SECTOR - 1 },
    ]);
    await dropped.cleanup();
    const flipped = await make({ face: 'device', behaviour: 'flip', claimed: C, real: C, flips: [100, 50 * MiB, C - 300] });
    const s = (addr: number): number => Math.floor(addr / SECTOR);
    expect((await f3Brew(flipped.device!)).ranges).toEqual([
      { status: 'Bad', from: 0, to: 0 },
      { status: 'Good', from: 1, to: s(50 * MiB) - 1 },
      { status: 'Bad', from: s(50 * MiB), to: s(50 * MiB) },
      { status: 'Good', from: s(50 * MiB) + 1, to: s(C - 300) - 1 },
      { status: 'Bad', from: s(C - 300), to: s(C - 300) },
    ]);
  });

  it('cleanup detaches the loop device, unmounts, removes its folders, and may run twice', async () => {
    const d = await make({ face: 'device', behaviour: 'drop', claimed: C, real: R });
    const backing = path.dirname(
      JSON.parse(execFileSync('losetup', ['--json', '-l', d.device!], { encoding: 'utf8' })).loopdevices[0]['back-file'],
    );
    expect(isMounted(backing)).toBe(true);
    await d.cleanup();
    await d.cleanup();
    expect(execFileSync('losetup', ['-l', '-n', '-O', 'NAME'], { encoding: 'utf8' })).not.toContain(`${d.device}\n`);
    expect(isMounted(backing)).toBe(false);
    expect(existsSync(path.dirname(backing))).toBe(false);
  });
});

describe.runIf(rootOnly())('fake drives, folder face', () => {
  it('reports the claimed size free, and deleting a file gives its extents back', async () => {
    const { folder } = await make({ face: 'folder', behaviour: 'drop', claimed: C, real: R });
    const free = (): number => {
      const s = statfsSync(folder!);
      return s.bavail * s.bsize;
    };
    expect(free()).toBe(C);
    await fs.writeFile(path.join(folder!, 'a'), Buffer.alloc(3 * MiB + 1, 1));
    expect(free()).toBe(C - 4 * MiB);
    await fs.rm(path.join(folder!, 'a'));
    expect(free()).toBe(C);
  });

  it('files take the virtual disk in allocation order: the second file past R is lost on a drop', async () => {
    const { folder } = await make({ face: 'folder', behaviour: 'drop', claimed: C, real: R });
    await fs.writeFile(path.join(folder!, 'first'), Buffer.alloc(R, 7));
    await fs.writeFile(path.join(folder!, 'second'), Buffer.alloc(MiB, 9));
    expect((await fs.readFile(path.join(folder!, 'first'))).equals(Buffer.alloc(R, 7))).toBe(true);
    expect((await fs.readFile(path.join(folder!, 'second'))).equals(Buffer.alloc(MiB))).toBe(true);
    // Deleting the first frees its extents, lowest first: a new file lands below R and holds.
    await fs.rm(path.join(folder!, 'first'));
    await fs.writeFile(path.join(folder!, 'third'), Buffer.alloc(MiB, 5));
    expect((await fs.readFile(path.join(folder!, 'third'))).equals(Buffer.alloc(MiB, 5))).toBe(true);
  });

  // f3 counts 512-byte sectors; f3write fills all C (one file: f3 writes up to 1 GB a file).
  it('f3 finds a genuine folder all OK', async () => {
    const { folder } = await make({ face: 'folder', behaviour: 'genuine', claimed: C, real: C });
    expect(await f3Folder(folder!)).toMatchObject({ ok: C / SECTOR, corrupted: 0, changed: 0, overwritten: 0 });
  });

  it('f3 finds a drop: the data past R lost (zeros read as corrupted)', async () => {
    const { folder } = await make({ face: 'folder', behaviour: 'drop', claimed: C, real: R });
    expect(await f3Folder(folder!)).toMatchObject({ ok: R / SECTOR, corrupted: (C - R) / SECTOR, changed: 0, overwritten: 0 });
  });

  it('f3 finds an alias: every real byte holds its last writer, the rest read as overwritten', async () => {
    const { folder } = await make({ face: 'folder', behaviour: 'alias', claimed: C, real: R });
    expect(await f3Folder(folder!)).toMatchObject({ ok: R / SECTOR, corrupted: 0, changed: 0, overwritten: (C - R) / SECTOR });
  });

  it('f3 finds a flip: exactly the planted sectors slightly changed', async () => {
    // Past each sector's 8-byte header (f3's own offset stamp), in three different sectors.
    const flips = [100, 50 * MiB + 4000, C - 300];
    const { folder } = await make({ face: 'folder', behaviour: 'flip', claimed: C, real: C, flips });
    expect(await f3Folder(folder!)).toMatchObject({ ok: C / SECTOR - 3, corrupted: 0, changed: 3, overwritten: 0 });
  });
});
