// The engine in a child process: same answers as in-process, cancel that waits for the engine,
// and a native crash (a real SIGSEGV of the child) that ends the test, not the caller.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EngineProgress, EngineSpec, HashProgress } from '../../../app/src/model/engine-types.js';
import { cryptoProvider, engineVersion, runHash, runTest } from '../../../app/src/core/engine.js';
import { runBenchmark, type RunProgress } from '../../../app/src/core/runner.js';
import { CANCEL_GRACE_MS, crashedMessage, EngineHost, engineChildPath } from '../../../app/src/services/engine-host.js';

const MiB = 1 << 20;
let dir: string;
let host: EngineHost;

beforeAll(() => {
  host = new EngineHost();
});
afterAll(async () => {
  await host.close();
});
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-host-'));
});
afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** A 20 s random-write benchmark through the host: long enough to be stopped or crashed mid-run. */
const longRandWrite = (opts: Pick<Parameters<typeof runBenchmark>[0], 'signal' | 'onProgress'>) =>
  runBenchmark({ target: dir, test: 'rand-write', size: 8 * MiB, qd: 1, seconds: 20, handleSignals: false, engine: host.runTest, ...opts });

function seqWrite(file: string, size = 16 * MiB): EngineSpec {
  return { path: file, rw: 'write', bs: MiB, qd: 8, threads: 1, fileSize: size, pattern: 'random', cache: 'auto', seed: 7 };
}

/** A test that runs until stopped: random 4 KiB writes at QD1 for 20 s over a small file. */
function longTest(file: string): EngineSpec {
  return { path: file, rw: 'randwrite', bs: 4096, qd: 1, threads: 1, fileSize: 8 * MiB, seconds: 20, pattern: 'random', cache: 'auto' };
}

/** The error a promise rejects with; fails the test when it resolves. */
async function failure(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    return err as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('EngineHost', () => {
  it('runs the child from source when tests run from source', () => {
    expect(engineChildPath()).toMatch(/app\/src\/services\/engine-host-child\.ts$/);
  });

  it("asks the child for the engine's version, and the result document takes it from the results", async () => {
    const host = new EngineHost();
    try {
      expect(await host.version()).toBe(engineVersion());
      expect(host.pid).toBeGreaterThan(0);
      const doc = await runBenchmark({ target: dir, test: 'seq-read', size: 4 << 20, engine: host.runTest, handleSignals: false });
      expect(doc.app.engine).toBe(engineVersion());
    } finally {
      await host.close();
    }
  });

  it('gives the same result as the in-process engine, with progress, in another process', async () => {
    const local = await runTest(seqWrite(path.join(dir, 'a.dat')));
    const progress: EngineProgress[] = [];
    const remote = await host.runTest(seqWrite(path.join(dir, 'b.dat')), { onProgress: (p) => progress.push(p) });
    expect(host.pid).toBeTypeOf('number');
    expect(host.pid).not.toBe(process.pid);
    const shape = (r: typeof local) => ({
      rw: r.rw,
      bs: r.bs,
      qd: r.qd,
      bytes: r.bytes,
      bytesWritten: r.bytesWritten,
      ios: r.ios,
      cacheMode: r.cacheMode,
      ioEngine: r.ioEngine,
      alignment: r.alignment,
      dataPattern: r.dataPattern,
      cancelled: r.cancelled,
      engineVersion: r.engineVersion,
    });
    expect(shape(remote)).toEqual(shape(local));
    expect(remote.bytes).toBe(16 * MiB);
    expect(remote.mbps).toBeGreaterThan(0);
    expect(remote.spec).toMatchObject({ path: path.join(dir, 'b.dat'), seed: 7 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => typeof p.bytesDone === 'number' && typeof p.phase === 'string')).toBe(true);
    // The child is reused for the next test.
    const pid = host.pid;
    await host.runTest(seqWrite(path.join(dir, 'c.dat')));
    expect(host.pid).toBe(pid);
  });

  it('rebuilds Node-style engine errors with the fields and the caller’s stack', async () => {
    const missing = path.join(dir, 'no-such-folder', 'f.dat');
    const local = await failure(runTest(seqWrite(missing)));
    const remote = await failure(host.runTest(seqWrite(missing)));
    expect(remote).toBeInstanceOf(Error);
    expect(remote.message).toBe(local.message);
    for (const key of ['code', 'errno', 'syscall', 'path']) expect(remote[key]).toEqual(local[key]);
    expect(remote.code).toBe('ENOENT');
    expect(remote.stack).toContain('engine-host.test.ts');
    // Spec checks in the bindings are TypeError/RangeError, as in-process.
    const bad = { ...seqWrite(path.join(dir, 'x.dat')), bs: 3 };
    const localBad = await failure(runTest(bad));
    const remoteBad = await failure(host.runTest(bad));
    expect(remoteBad.constructor).toBe(localBad.constructor);
    expect(remoteBad.message).toBe(localBad.message);
  });

  it('runs hash measurements in the child: the same digest and figures as in-process, with progress', async () => {
    const file = path.join(dir, 'h.bin');
    await fsp.writeFile(file, Buffer.alloc(3 * MiB + 5, 7));
    const local = await runHash({ mode: 'read-hash', algo: 'sha512', path: file });
    const progress: HashProgress[] = [];
    const remote = await host.runHash(
      { mode: 'read-hash', algo: 'sha512', path: file, chunkBytes: 256 * 1024 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(host.pid).not.toBe(process.pid);
    expect(remote.digest).toBe(local.digest);
    expect(remote).toMatchObject({
      mode: 'read-hash',
      algo: 'sha512',
      bytes: 3 * MiB + 5,
      cacheMode: local.cacheMode,
      provider: local.provider,
      cancelled: false,
    });
    expect(progress.at(-1)).toMatchObject({ mode: 'read-hash', bytesDone: 3 * MiB + 5, bytesTotal: 3 * MiB + 5 });
    const memory = await host.runHash({ mode: 'memory', algo: 'sha256', threads: 2, seconds: 0.2 });
    expect(memory).toMatchObject({ mode: 'memory', threads: 2 });
    expect(memory.bytes).toBeGreaterThan(0);
    expect(await host.cryptoProvider()).toBe(cryptoProvider());
    // Errors cross with their fields and the caller's stack, as for tests.
    const folder = await failure(host.runHash({ mode: 'read', algo: 'sha256', path: dir }));
    expect(folder).toMatchObject({ code: 'EISDIR', path: dir, message: `EISDIR: ${dir} is a folder, not a file` });
    expect(folder.stack).toContain('engine-host.test.ts');
    // An abort waits for the engine, then rejects with AbortError.
    const ac = new AbortController();
    const long = host.runHash({ mode: 'memory', algo: 'sha256', seconds: 20 }, { signal: ac.signal, onProgress: () => ac.abort() });
    await expect(long).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a second test while one runs (ERR_BUSY)', async () => {
    const ac = new AbortController();
    const first = host.runTest(longTest(path.join(dir, 'a.dat')), { signal: ac.signal });
    await expect(host.runTest(seqWrite(path.join(dir, 'b.dat')))).rejects.toMatchObject({ code: 'ERR_BUSY' });
    ac.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR' });
  });

  it('abort mid-test through runBenchmark leaves no file behind', async () => {
    const ac = new AbortController();
    // Timed from the abort: starting the engine child first takes what a loaded machine makes it.
    let t0 = 0;
    const p = longRandWrite({
      signal: ac.signal,
      onProgress: (e: RunProgress) => {
        if (e.phase === 'run' && !t0) {
          t0 = Date.now();
          ac.abort();
        }
      },
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(t0).toBeGreaterThan(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    // On a disk too busy to finish the write in flight within the cancel's grace, the engine is
    // given up on and the folder is removed once the disk answers: gone soon, whichever way.
    await expect.poll(() => fsp.readdir(dir), { timeout: 15_000 }).toEqual([]);
  });

  it('kills a hung engine that does not answer a cancel, then rejects with AbortError', async () => {
    const ac = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const p = host.runTest(longTest(path.join(dir, 'h.dat')), { signal: ac.signal, onProgress: (e) => e.phase === 'run' && started() });
    await running;
    const pid = host.pid!;
    // A stopped process is as deaf as a hung engine.
    process.kill(pid, 'SIGSTOP');
    const t0 = Date.now();
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(CANCEL_GRACE_MS - 20);
    expect(isAlive(pid)).toBe(false);
    // The next test gets a fresh child.
    const r = await host.runTest(seqWrite(path.join(dir, 'after.dat')));
    expect(r.bytes).toBe(16 * MiB);
    expect(host.pid).not.toBe(pid);
  });

  it('a test started while a stopped one winds down gets a fresh engine, not ERR_BUSY', async () => {
    // The stopped engine cannot confirm (SIGSTOP: as deaf as one slow to die on a loaded machine or
    // stuck in the kernel); the next test starts before the cancel's grace is even over.
    const ac = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const first = host.runTest(longTest(path.join(dir, 'h.dat')), { signal: ac.signal, onProgress: (e) => e.phase === 'run' && started() });
    await running;
    const pid = host.pid!;
    process.kill(pid, 'SIGSTOP');
    ac.abort();
    const next = host.runTest(seqWrite(path.join(dir, 'next.dat')));
    await expect(first).rejects.toMatchObject({ name: 'AbortError', engineStuck: true, enginePid: pid });
    expect((await next).bytes).toBe(16 * MiB);
    expect(host.pid).not.toBe(pid);
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
  });

  it('a child that cannot start ends the test with ERR_ENGINE_CRASHED, not a hang', async () => {
    const broken = new EngineHost({ modulePath: path.join(dir, 'no-such-child.js') });
    try {
      await expect(broken.runTest(seqWrite(path.join(dir, 'x.dat')))).rejects.toMatchObject({
        code: 'ERR_ENGINE_CRASHED',
        message: crashedMessage(1, null),
      });
    } finally {
      await broken.close();
    }
  });
});

describe('a native crash, on purpose', () => {
  it('SIGSEGV mid-hash ends it with ERR_ENGINE_CRASHED; the file is unchanged; the next hash works', async () => {
    // 8 GiB of holes: far longer to hash than the test waits.
    const file = path.join(dir, 'sparse.bin');
    await fsp.writeFile(file, '');
    await fsp.truncate(file, 8 * 1024 * MiB);
    const before = await fsp.stat(file, { bigint: true });
    let onRun!: () => void;
    const running = new Promise<void>((r) => (onRun = r));
    const outcome = failure(
      host.runHash({ mode: 'read-hash', algo: 'sha512', path: file }, { onProgress: (p) => p.bytesDone > 0 && onRun() }),
    );
    await running;
    const pid = host.pid!;
    process.kill(pid, 'SIGSEGV');
    const err = await outcome;
    expect(err).toMatchObject({ name: 'DiskDialError', code: 'ERR_ENGINE_CRASHED' });
    expect(err.message).toBe(
      'The test engine stopped unexpectedly (SIGSEGV). The hash test was abandoned; the file was only read and is unchanged. DiskDial is still running.',
    );
    const after = await fsp.stat(file, { bigint: true });
    expect(after.size).toBe(before.size);
    expect(after.mtimeNs).toBe(before.mtimeNs);
    // The same host hashes again, in a fresh child.
    const small = path.join(dir, 'small.bin');
    await fsp.writeFile(small, 'abc');
    const r = await host.runHash({ mode: 'read-hash', algo: 'sha256', path: small });
    expect(r.digest).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(host.pid).not.toBe(pid);
  });

  it('SIGSEGV in the engine process ends the test with a plain error; files removed; the next test works', async () => {
    let onRun!: () => void;
    const running = new Promise<void>((r) => (onRun = r));
    const p = longRandWrite({ onProgress: (e) => e.phase === 'run' && onRun() });
    const outcome = failure(p);
    await running;
    const workspace = (await fsp.readdir(dir)).find((n) => n.startsWith('.diskdial-'));
    expect(workspace).toBeDefined();
    const pid = host.pid!;
    process.kill(pid, 'SIGSEGV');
    const err = await outcome;
    expect(err).toMatchObject({ name: 'DiskDialError', code: 'ERR_ENGINE_CRASHED' });
    expect(err.message).toBe(
      'The test engine stopped unexpectedly (SIGSEGV). The test was abandoned and its files removed; DiskDial is still running.',
    );
    expect(await fsp.readdir(dir)).toEqual([]);
    // This process is fine, and the same host runs the next test in a fresh child.
    const doc = await runBenchmark({ target: dir, test: 'quick', size: 16 * MiB, handleSignals: false, engine: host.runTest });
    expect(doc.tests.map((t) => t.name)).toEqual(['Write', 'Read']);
    expect(host.pid).not.toBe(pid);
    expect(await fsp.readdir(dir)).toEqual([]);
  });
});
