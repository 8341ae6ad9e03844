// The verify pattern through the engine: blocks that name themselves, written and read back with
// real I/O, on a file (where the test plants damage by hand and the read must name each block
// exactly) and on a whole loop device (opened as it is, never created or removed, refused while
// mounted).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync, closeSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { EngineSpec } from '../../app/src/model/engine-types.js';
import { runTest } from '../../app/src/core/engine.js';
import { cleanupAllLoopFs, mountFs, rootOnly } from '../helpers/loopfs.js';

const KiB = 1024;
const MiB = 1 << 20;
const SEED = 0x5eed_1234_5678;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'diskdial-verify-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function spec(over: Partial<EngineSpec>): EngineSpec {
  return { path: path.join(dir, 'v.dat'), rw: 'write', bs: MiB, qd: 4, threads: 1, fileSize: 16 * MiB, pattern: 'verify', cache: 'auto', seed: SEED, ...over };
}

/** Reads, changes and writes back one 4 KiB block of a file. */
function poke(file: string, block: number, change: (b: Buffer) => void): void {
  const fd = openSync(file, 'r+');
  try {
    const b = Buffer.alloc(4 * KiB);
    readSync(fd, b, 0, b.length, block * 4 * KiB);
    change(b);
    writeSync(fd, b, 0, b.length, block * 4 * KiB);
  } finally {
    closeSync(fd);
  }
}

function blockOf(file: string, block: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(4 * KiB);
    readSync(fd, b, 0, b.length, block * 4 * KiB);
    return b;
  } finally {
    closeSync(fd);
  }
}

describe('verify pattern on a file', () => {
  it('reads back every block intact, numbered from the base block', async () => {
    const file = path.join(dir, 'intact.dat');
    await runTest(spec({ path: file, keepFile: true, verify: { baseBlock: 1000 } }));
    const head = blockOf(file, 3);
    expect(head.subarray(0, 8).toString('latin1')).toBe('DDVERIFY');
    expect(head.readBigUInt64LE(16)).toBe(1003n);
    const r = await runTest(spec({ path: file, rw: 'read', verify: { baseBlock: 1000 } }));
    expect(r.dataPattern).toBe('verify');
    expect(r.verify).toEqual({ blockBytes: 4096, blocks: 4096, intact: 4096, aliased: 0, zeros: 0, ones: 0, stale: 0, corrupted: 0, bitErrors: 0, runs: [], runsTruncated: false });
    expect(existsSync(file)).toBe(false);
  });

  it('names each damaged block exactly: lost, flipped, from elsewhere, from another run', async () => {
    const file = path.join(dir, 'damaged.dat');
    await runTest(spec({ path: file, keepFile: true, verify: { baseBlock: 1000 } }));
    poke(file, 10, (b) => b.fill(0));
    poke(file, 11, (b) => b.fill(0xff));
    poke(file, 20, (b) => b.writeUInt8(b.readUInt8(2000) ^ 0x10, 2000));
    const first = blockOf(file, 0);
    poke(file, 30, (b) => first.copy(b));
    poke(file, 31, (b) => blockOf(file, 1).copy(b));
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4 * KiB, 0x5a), 0, 4 * KiB, 40 * 4 * KiB);
    closeSync(fd);
    const r = await runTest(spec({ path: file, rw: 'read', qd: 8, verify: { baseBlock: 1000 } }));
    expect(r.verify).toMatchObject({ blocks: 4096, intact: 4096 - 6, zeros: 1, ones: 1, corrupted: 1, bitErrors: 1, aliased: 2, stale: 1 });
    expect(r.verify!.runs).toEqual([
      { block: 1010, blocks: 1, kind: 'zeros' },
      { block: 1011, blocks: 1, kind: 'ones' },
      { block: 1020, blocks: 1, kind: 'corrupted', bits: 1 },
      { block: 1030, blocks: 2, kind: 'aliased', held: 1000 },
      { block: 1040, blocks: 1, kind: 'stale' },
    ]);
  });

  it('refuses to verify a file shorter than what was written, instead of laying it out afresh', async () => {
    const file = path.join(dir, 'short.dat');
    await runTest(spec({ path: file, keepFile: true }));
    truncateSync(file, 8 * MiB);
    await expect(runTest(spec({ path: file, rw: 'read' }))).rejects.toThrow(/shorter than the 16777216 B that were written/);
  });

  it('is refused where it cannot mean anything: mixed reads and writes, blocks under 4 KiB', async () => {
    await expect(runTest(spec({ rw: 'rw' }))).rejects.toThrow(/either writes or reads/);
    await expect(runTest(spec({ bs: 2 * KiB }))).rejects.toThrow(/multiple of 4 KiB/);
  });
});

describe.runIf(rootOnly())('verify pattern on a whole device (root)', () => {
  let image: string;
  let device: string;
  beforeAll(() => {
    image = path.join(dir, 'disk.img');
    execFileSync('truncate', ['-s', `${64 * MiB}`, image]);
    device = execFileSync('losetup', ['--find', '--show', image], { encoding: 'utf8' }).trim();
  });
  afterAll(async () => {
    if (device) execFileSync('losetup', ['-d', device]);
    await cleanupAllLoopFs();
  });

  it('writes and reads back the whole device, and leaves the device node alone', async () => {
    const w = await runTest(spec({ path: device, device: true, fileSize: 0 }));
    expect(w.bytesWritten).toBe(64 * MiB);
    expect(w.spec).toMatchObject({ fileSize: 64 * MiB, device: true });
    const r = await runTest(spec({ path: device, device: true, fileSize: 0, rw: 'read' }));
    expect(r.verify).toMatchObject({ blocks: 16384, intact: 16384, runs: [] });
    expect(r.cacheMode).toBe('direct');
    expect(statSync(device).isBlockDevice()).toBe(true);
    // What the device holds is what the engine wrote: block 12345's own number, read around it.
    expect(blockOf(image, 12345).readBigUInt64LE(16)).toBe(12345n);
  });

  it('an offset: the region starts that far into the device, its blocks numbered from the run', async () => {
    // Zero the device, then write 8 MiB at 40 MiB as the run's blocks from 10,240 (40 MiB / 4 KiB).
    await runTest(spec({ path: device, device: true, fileSize: 0, pattern: 'zeros' }));
    const base = (40 * MiB) / (4 * KiB);
    const w = await runTest(spec({ path: device, device: true, offset: 40 * MiB, fileSize: 8 * MiB, verify: { baseBlock: base } }));
    expect(w.bytesWritten).toBe(8 * MiB);
    expect(w.spec).toMatchObject({ offset: 40 * MiB, fileSize: 8 * MiB });
    // Exactly [40, 48) MiB holds the blocks: the block before and the block after are still zeros.
    expect(blockOf(image, base).readBigUInt64LE(16)).toBe(BigInt(base));
    expect(blockOf(image, base + 2047).readBigUInt64LE(16)).toBe(BigInt(base + 2047));
    expect(blockOf(image, base - 1).equals(Buffer.alloc(4 * KiB))).toBe(true);
    expect(blockOf(image, base + 2048).equals(Buffer.alloc(4 * KiB))).toBe(true);
    const r = await runTest(spec({ path: device, device: true, offset: 40 * MiB, fileSize: 8 * MiB, verify: { baseBlock: base }, rw: 'read' }));
    expect(r.verify).toMatchObject({ blocks: 2048, intact: 2048, runs: [] });
    // Read with the region one block off: every block holds its neighbour's number (aliased).
    const off = await runTest(
      spec({ path: device, device: true, offset: 40 * MiB, fileSize: 8 * MiB, verify: { baseBlock: base + 1 }, rw: 'read' }),
    );
    expect(off.verify!.intact).toBe(0);
    // Past the device's end, and an offset not on a block: refused in words.
    await expect(runTest(spec({ path: device, device: true, offset: 64 * MiB, fileSize: MiB }))).rejects.toThrow(/ends before the offset/);
    await expect(runTest(spec({ path: device, device: true, offset: 4 * KiB, fileSize: MiB }))).rejects.toThrow(/not a multiple of the block size/);
    await expect(runTest(spec({ offset: MiB }))).rejects.toThrow(/only to a whole device/);
  });

  it('refuses a mounted device and anything that is not a block device', async () => {
    const fs = await mountFs('ext4', { sizeMiB: 64 });
    try {
      await expect(runTest(spec({ path: fs.device!, device: true, fileSize: 0 }))).rejects.toThrow(/busy/i);
    } finally {
      await fs.cleanup();
    }
    const plain = path.join(dir, 'plain.dat');
    execFileSync('truncate', ['-s', `${MiB}`, plain]);
    await expect(runTest(spec({ path: plain, device: true, fileSize: 0 }))).rejects.toThrow(/not a block device \(a regular file\)/);
    expect(statSync(plain).size).toBe(MiB);
  });
});
