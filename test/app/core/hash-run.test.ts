// The hash test end to end through the core with the real engine: the four rates in order, the
// digest against sha256sum/sha512sum, the user's file untouched, a generated file removed,
// verification, plain-words refusals, cancellation.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHashBenchmark, type HashRunProgress, type HashStageDone } from '../../../app/src/core/hash-run.js';

let dir: string;
let file: string;
let sha256: string;
let sha512: string;
const MiB = 1024 * 1024;
const quick = { memorySeconds: 0.2, threads: 2, handleSignals: false } as const;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-hashrun-'));
  file = path.join(dir, 'clip.mov');
  await fsp.writeFile(file, randomBytes(8 * MiB + 123));
  sha256 = execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0]!;
  sha512 = execFileSync('sha512sum', [file], { encoding: 'utf8' }).split(' ')[0]!;
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('runHashBenchmark', () => {
  it('a user’s file: four stages in order, the digest sha256sum gives, the file untouched', async () => {
    const before = await fsp.stat(file);
    const stages: HashStageDone[] = [];
    const progress: HashRunProgress[] = [];
    const doc = await runHashBenchmark({ file, ...quick, onStage: (s) => stages.push(s), onProgress: (p) => progress.push(p) });
    expect(stages.map((s) => s.stage)).toEqual(['read', 'read-hash', 'memory', 'memory-parallel']);
    expect(stages.every((s) => s.stageCount === 4 && s.mbps > 0)).toBe(true);
    expect(new Set(progress.map((p) => p.stage))).toEqual(new Set(['read', 'read-hash', 'memory', 'memory-parallel']));
    const h = doc.hash!;
    expect(doc.kind).toBe('hash');
    expect(h.algo).toBe('sha256');
    expect(h.digest).toBe(sha256);
    expect(stages[1]!.digest).toBe(sha256);
    expect(h.file).toEqual({ path: file, bytes: 8 * MiB + 123, generated: false });
    expect(h.read).toMatchObject({ bytes: 8 * MiB + 123, cacheMode: 'direct' });
    expect(h.readHash.bytes).toBe(8 * MiB + 123);
    expect(h.readHash.readerWaitSeconds).toBeGreaterThanOrEqual(0);
    expect(h.memory.threads).toBe(1);
    expect(h.memoryParallel.threads).toBe(2);
    expect(h.memoryParallel.mbps).toBeGreaterThan(0);
    expect(h.provider).toMatch(/OpenSSL/);
    // An 8 MiB file on a plain disk: any outcome but a cipher or a link (this target has neither);
    // which one the rates give is the bottleneck verdict's to decide (verdict/bottleneck.test.ts).
    expect(['storage', 'cpu', 'balanced', 'none']).toContain(h.verdict.bound);
    expect(h.verdict.claim?.outcome).toBe({ storage: 'disk', cpu: 'hash-cpu', balanced: 'none', none: 'none' }[h.verdict.bound as string]);
    expect(h.verdict.factor).toBeGreaterThanOrEqual(1);
    expect(doc.notes![0]).toMatch(/^The file is small \(8.39 MB\)/);
    expect(doc.cacheMode).toBe('direct');
    expect(doc.target.fs).toBe('ext4');
    const after = await fsp.stat(file);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.size).toBe(before.size);
    expect(execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0]).toBe(sha256);
  }, 60_000);

  it('SHA-512 chosen by the expected digest’s length, and verified', async () => {
    const doc = await runHashBenchmark({ file, ...quick, verify: sha512.toUpperCase() });
    expect(doc.hash!.algo).toBe('sha512');
    expect(doc.hash!.digest).toBe(sha512);
    expect(doc.hash!.verify).toEqual({ expected: sha512, source: 'pasted', match: true, text: 'Matches the SHA-512 you gave.' });
  }, 60_000);

  it('a checksum file with another digest for this file: a mismatch, said plainly', async () => {
    const sums = path.join(dir, 'SHA256SUMS');
    await fsp.writeFile(sums, `${'0'.repeat(64)}  clip.mov\n`);
    const doc = await runHashBenchmark({ file, ...quick, verify: sums });
    expect(doc.hash!.verify).toMatchObject({
      match: false,
      source: sums,
      text: 'Does NOT match the SHA-256 in SHA256SUMS: the file differs from the one that digest was made from.',
    });
  }, 60_000);

  it('a generated test file: written first, hashed, removed; nothing left in the folder', async () => {
    const target = await fsp.mkdtemp(path.join(dir, 'gen-'));
    const stages: string[] = [];
    const doc = await runHashBenchmark({
      generate: { target, sizeBytes: 16 * MiB },
      algo: 'sha512',
      ...quick,
      onStage: (s) => stages.push(`${s.stageIndex}/${s.stageCount} ${s.stage}`),
    });
    expect(stages).toEqual(['0/5 write', '1/5 read', '2/5 read-hash', '3/5 memory', '4/5 memory-parallel']);
    expect(doc.hash!.file).toMatchObject({ bytes: 16 * MiB, generated: true });
    expect(doc.hash!.digest).toMatch(/^[0-9a-f]{128}$/);
    expect(await fsp.readdir(target)).toEqual([]);
  }, 60_000);

  it('refuses a folder, a missing file and a digest of the other algorithm before reading anything', async () => {
    await expect(runHashBenchmark({ file: dir, ...quick })).rejects.toMatchObject({ code: 'EISDIR', category: 'input' });
    await expect(runHashBenchmark({ file: dir, ...quick })).rejects.toThrow(/is a folder, not a file/);
    await expect(runHashBenchmark({ file: path.join(dir, 'nope.iso'), ...quick })).rejects.toMatchObject({
      code: 'ENOENT',
      message: `No such file: ${path.join(dir, 'nope.iso')}. Check the path, or choose another file.`,
    });
    await expect(runHashBenchmark({ file, algo: 'sha256', verify: sha512, ...quick })).rejects.toMatchObject({ code: 'ERR_ALGO_MISMATCH' });
  });

  it('a file it may not read is "Permission denied reading", never "writing to"', async () => {
    const denied = Object.assign(new Error('open(2) failed, EACCES'), { code: 'EACCES', syscall: 'open', path: file });
    const engine = { runHash: () => Promise.reject(denied), runTest: () => Promise.reject(new Error('no writes here')) };
    await expect(runHashBenchmark({ file, ...quick, engine })).rejects.toMatchObject({
      code: 'EACCES',
      message: `Permission denied reading ${file}. Give your user read access to it, or choose another file.`,
    });
  });

  it('cancelled mid-file: AbortError, the user’s file untouched; a generated file removed', async () => {
    const sparse = path.join(dir, 'big.img');
    execFileSync('truncate', ['-s', '3G', sparse]);
    const ac = new AbortController();
    // Timed from the abort, not from the start: what comes before is not the cancel's doing.
    let t0 = 0;
    const abort = (): void => {
      if (ac.signal.aborted) return;
      t0 = performance.now();
      ac.abort();
    };
    await expect(
      runHashBenchmark({ file: sparse, ...quick, signal: ac.signal, onProgress: (p) => p.bytesDone > 64 * MiB && abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(t0).toBeGreaterThan(0);
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect((await fsp.stat(sparse)).size).toBe(3 * 1024 ** 3);
    await fsp.rm(sparse);

    const target = await fsp.mkdtemp(path.join(dir, 'gen-cancel-'));
    const ac2 = new AbortController();
    await expect(
      runHashBenchmark({
        generate: { target, sizeBytes: 64 * MiB },
        ...quick,
        signal: ac2.signal,
        onStage: (s) => s.stage === 'read' && ac2.abort(),
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(await fsp.readdir(target)).toEqual([]);
  }, 60_000);
});
