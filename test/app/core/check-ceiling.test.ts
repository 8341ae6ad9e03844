// The folder check's in-memory hashing ceiling is measured for as long as the check itself took,
// from a quarter second to one: a check of a few small files is not made a second longer by it,
// and a long check still gets a full second. The engine is the real one; the wrapper records the
// time asked of the ceiling, holds each file's hash back to make the check as long as wanted (a
// slow disk of known speed), and measures the ceiling itself briefly so the test stays short.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFolderCheck } from '../../../app/src/core/check-run.js';
import { runHash } from '../../../app/src/core/engine.js';
import type { HashFn } from '../../../app/src/core/engine.js';

let tmp: string;
let folder: string;

beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-ceiling-'));
  folder = path.join(tmp, 'photos');
  await fsp.mkdir(folder);
  await fsp.writeFile(path.join(folder, 'a.jpg'), 'one small file\n');
  process.env.DISKDIAL_HOME = path.join(tmp, 'home');
});
afterAll(async () => {
  delete process.env.DISKDIAL_HOME;
  await fsp.rm(tmp, { recursive: true, force: true });
});

/** Checks `folder` with each file's hash taking at least `fileMs`; the ceiling's asked seconds. */
async function ceilingAsked(fileMs: number): Promise<{ asked: number; checkSeconds: number; ceilingMBps?: number }> {
  let asked = NaN;
  const engine: HashFn = async (spec, opts) => {
    if (spec.mode === 'memory') {
      asked = spec.seconds!;
      return runHash({ ...spec, seconds: 0.05 }, opts);
    }
    const [r] = await Promise.all([runHash(spec, opts), new Promise((done) => setTimeout(done, fileMs))]);
    return r;
  };
  const doc = await runFolderCheck({ folder, algo: 'sha256', streams: 1, engine: { runHash: engine } });
  const c = doc.check!;
  return { asked, checkSeconds: c.seconds, ...(c.ceilingMBps !== undefined ? { ceilingMBps: c.ceilingMBps } : {}) };
}

describe('the ceiling of a folder check', () => {
  it('a check of one small file: a quarter second, and the ceiling is still measured', async () => {
    const r = await ceilingAsked(0);
    // A few ms here; a loaded machine may stretch it, and then the ceiling follows it.
    expect(r.asked).toBe(Math.min(1, Math.max(0.25, r.checkSeconds)));
    if (r.checkSeconds < 0.25) expect(r.asked).toBe(0.25);
    expect(r.ceilingMBps).toBeGreaterThan(0);
  });

  it('a check of half a second: as long as the check took', async () => {
    const r = await ceilingAsked(500);
    expect(r.checkSeconds).toBeGreaterThanOrEqual(0.5);
    // A loaded machine may stretch the check past 1 s: then the cap holds.
    expect(r.asked).toBe(Math.min(1, r.checkSeconds));
  });

  it('a check longer than a second: one second, no more', async () => {
    const r = await ceilingAsked(1100);
    expect(r.checkSeconds).toBeGreaterThan(1);
    expect(r.asked).toBe(1);
  });
});
