import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineProgress, EngineSpec } from '../../../app/src/model/engine-types.js';
import { addonCandidates, engineVersion, findPackageRoot, ioAlignment, loadAddonFrom, runTest } from '../../../app/src/core/engine.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let dir: string;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-engine-'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('loader', () => {
  it('finds the package root from deep inside the tree', () => {
    expect(findPackageRoot(path.join(repoRoot, 'app/src/core'))).toBe(repoRoot);
    expect(findPackageRoot(path.join(repoRoot, 'dist/core'))).toBe(repoRoot);
  });

  it('tries Release, Debug, then the packaged path', () => {
    expect(addonCandidates(repoRoot)).toEqual([
      path.join(repoRoot, 'native/build/Release/diskdial.node'),
      path.join(repoRoot, 'native/build/Debug/diskdial.node'),
    ]);
    const p = process as { resourcesPath?: string };
    p.resourcesPath = '/opt/DiskDial/resources';
    try {
      expect(addonCandidates(repoRoot)[2]).toBe('/opt/DiskDial/resources/app.asar.unpacked/native/build/Release/diskdial.node');
    } finally {
      delete p.resourcesPath;
    }
  });

  it('fails with one error naming every path tried and why', async () => {
    const broken = path.join(dir, 'broken.node');
    await fsp.writeFile(broken, 'not an ELF file');
    const missing = path.join(dir, 'missing.node');
    let err: (Error & { code?: string; tried?: string[] }) | undefined;
    try {
      loadAddonFrom([missing, broken]);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.code).toBe('ERR_DISKDIAL_ADDON_NOT_FOUND');
    expect(err?.message).toContain(`${missing} (not found)`);
    expect(err?.message).toMatch(new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.+\\)`));
    expect(err?.message).not.toContain('\n');
    expect(err?.tried).toEqual([missing, broken]);
  });
});

describe('runTest against the real addon', () => {
  const spec = (name: string, extra: Partial<EngineSpec> = {}): EngineSpec => ({
    path: path.join(dir, name),
    rw: 'write',
    bs: 1 << 20,
    qd: 4,
    threads: 1,
    fileSize: 8 << 20,
    pattern: 'random',
    cache: 'auto',
    ...extra,
  });

  it('reports its version and the alignment of a folder', () => {
    expect(engineVersion()).toMatch(/^\d+\.\d+\.\d+/);
    const a = ioAlignment(dir);
    expect(a.offset).toBeGreaterThanOrEqual(512);
    expect(Number.isInteger(Math.log2(a.offset))).toBe(true);
    expect(typeof a.source).toBe('string');
  });

  it('runs a small uncached write and streams progress', async () => {
    const progress: EngineProgress[] = [];
    const r = await runTest(spec('w.dat', { progressIntervalMs: 20 }), { onProgress: (p) => progress.push(p) });
    expect(r.rw).toBe('write');
    expect(r.bytes).toBe(8 << 20);
    expect(r.bytesWritten).toBe(8 << 20);
    expect(r.seconds).toBeGreaterThan(0);
    expect(r.mbps).toBeCloseTo(r.bytes / r.seconds / 1e6, 3);
    expect(r.cacheMode).toBe('direct'); // ext4 /tmp takes O_DIRECT
    expect(r.cancelled).toBe(false);
    expect(r.latencyUs.p50).toBeLessThanOrEqual(r.latencyUs.p99);
    for (const p of progress) expect(['prepare', 'warmup', 'run', 'flush']).toContain(p.phase);
    // keepFile defaults to false: the engine removes its file.
    await expect(fsp.access(path.join(dir, 'w.dat'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rejects with AbortError after the engine stopped, well before the test would end', async () => {
    const ac = new AbortController();
    // Timed from the abort: preparing the file first takes what a loaded machine makes it take.
    let t0 = 0;
    const p = runTest(spec('a.dat', { rw: 'randwrite', bs: 4096, qd: 1, fileSize: 32 << 20, seconds: 20, progressIntervalMs: 20 }), {
      signal: ac.signal,
      onProgress: (e) => {
        if (e.phase === 'run' && !ac.signal.aborted) {
          t0 = Date.now();
          ac.abort();
        }
      },
    });
    const err = (await p.catch((e: unknown) => e)) as Error & { code?: string };
    expect(err.name).toBe('AbortError');
    expect(err.code).toBe('ABORT_ERR');
    expect(t0).toBeGreaterThan(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    // The engine has finished (closed and removed its file) by the time we hear of the abort.
    await expect(fsp.access(path.join(dir, 'a.dat'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rejects at once when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(runTest(spec('never.dat'), { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR' });
    await expect(fsp.access(path.join(dir, 'never.dat'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('turns a native error into a Node-style error with a JS stack', async () => {
    const missing = path.join(dir, 'no-such-folder', 'x.dat');
    const err = (await runTest(spec('x', { path: missing })).catch((e: unknown) => e)) as Error & { code?: string; syscall?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('ENOENT');
    expect(typeof err.syscall).toBe('string');
    expect(err.stack).toContain('engine.test.ts');
  });
});
