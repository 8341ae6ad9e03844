import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBenchmark, type RunProgress } from '../../../app/src/core/runner.js';

let target: string;
beforeEach(async () => {
  target = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-run-'));
});
afterEach(async () => {
  await fsp.rm(target, { recursive: true, force: true });
});

describe('runBenchmark', () => {
  it('runs quick twice, records each run, and leaves nothing behind', async () => {
    const events: RunProgress[] = [];
    const doc = await runBenchmark({
      target,
      test: 'quick',
      size: 8 << 20,
      runs: 2,
      label: 'two runs',
      handleSignals: false,
      onProgress: (e) => events.push(e),
    });
    expect(doc.schema).toBe(1);
    expect(doc.kind).toBe('quick');
    expect(doc.label).toBe('two runs');
    expect(doc.tests.map((t) => [t.name, t.run])).toEqual([
      ['Write', 1],
      ['Read', 1],
      ['Write', 2],
      ['Read', 2],
    ]);
    for (const t of doc.tests) {
      expect(t.bytes).toBe(8 << 20);
      expect(t.mbps).toBeGreaterThan(0);
    }
    expect(doc.cacheMode).toBe('direct');
    expect(doc.settings).toMatchObject({ size: 8 << 20, runs: 2, pattern: 'random', cache: 'auto' });
    expect(doc.target.path).toBe(target);
    expect(doc.target.fs).toBe('ext4');
    expect(events.every((e) => e.testCount === 2 && e.runs === 2)).toBe(true);
    expect(await fsp.readdir(target)).toEqual([]);
  });

  it('removes the workspace when cancelled', async () => {
    const ac = new AbortController();
    let sawFolder = false;
    const p = runBenchmark({
      target,
      test: 'rand-write',
      size: 32 << 20,
      qd: 1,
      seconds: 20,
      handleSignals: false,
      signal: ac.signal,
      onProgress: (e) => {
        if (e.phase === 'run') {
          void fsp.readdir(target).then((n) => {
            sawFolder ||= n.some((x) => x.startsWith('.diskdial-'));
            ac.abort();
          });
        }
      },
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(sawFolder).toBe(true);
    expect(await fsp.readdir(target)).toEqual([]);
  });

  it('refuses a file as target before any I/O, as an input error', async () => {
    const file = path.join(target, 'f');
    await fsp.writeFile(file, '');
    await expect(runBenchmark({ target: file, handleSignals: false })).rejects.toMatchObject({ code: 'ENOTDIR', category: 'input' });
    expect(await fsp.readdir(target)).toEqual(['f']);
  });
});
