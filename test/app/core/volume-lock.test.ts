// One DiskDial test per drive across processes: two real CLIs, the CLI and the services (the
// app's and serve's door), --wait, and a lock whose owner was killed.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runTest } from '../../../app/src/core/engine.js';
import { lockDir } from '../../../app/src/core/workspace.js';
import { QuickTestService } from '../../../app/src/services/quick-test.js';
import { recorder } from '../../helpers/event-recorder.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin/diskdial.js');
let tmp: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'pipe',
  });
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-lock-'));
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

interface Cli {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(...args: string[]): Cli {
  const child = spawn(process.execPath, [bin, ...args]);
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A CLI writing in `dir` for a long time; resolves once its test file exists (the lock is held). */
async function longRun(dir: string): Promise<Cli> {
  const a = start('run', dir, '--test', 'rand-write', '--size', '16MiB', '--qd', '1', '--seconds', '30', '--no-save');
  await waitFor(async () => {
    for (const n of (await fsp.readdir(dir)).filter((x) => x.startsWith('.diskdial-'))) {
      if ((await fsp.readdir(path.join(dir, n)).catch((): string[] => [])).includes('testfile.dat')) return true;
    }
    return undefined;
  });
  return a;
}

describe('the per-drive lock', () => {
  it('a second CLI on the same drive (another folder) fails with exit 1 naming the first', async () => {
    const dirA = await fsp.mkdtemp(path.join(tmp, 'a-'));
    const dirB = await fsp.mkdtemp(path.join(tmp, 'b-'));
    const a = await longRun(dirA);
    const b = start('run', dirB, '--test', 'seq-write', '--size', '8MiB', '--no-save');
    expect(await b.exited).toBe(1);
    expect(b.stderr()).toBe(`diskdial: another DiskDial test is running on this drive (pid ${a.child.pid})\n`);
    expect(await fsp.readdir(dirB)).toEqual([]);
    // The hash of a user's file reads the drive too: refused as well.
    await fsp.writeFile(path.join(dirB, 'f.bin'), Buffer.alloc(1 << 20));
    const h = start('hash', path.join(dirB, 'f.bin'), '--no-save');
    expect(await h.exited).toBe(1);
    expect(h.stderr()).toContain(`another DiskDial test is running on this drive (pid ${a.child.pid})`);
    a.child.kill('SIGINT');
    expect(await a.exited).toBe(130);
    expect(await fsp.readdir(lockDir())).toEqual([]);
  });

  it('the services (app and serve) refuse while a CLI tests the drive', async () => {
    const dirA = await fsp.mkdtemp(path.join(tmp, 'a-'));
    const dirB = await fsp.mkdtemp(path.join(tmp, 'b-'));
    const a = await longRun(dirA);
    const service = new QuickTestService({ engine: runTest });
    const sink = recorder('quick.done');
    service.start({ target: dirB, sizeBytes: 8 << 20, mode: 'runs', runs: 1 }, sink);
    const done = await sink.done;
    expect(done.outcome).toBe('failed');
    expect(done.error).toEqual({ code: 'ERR_VOLUME_BUSY', message: `another DiskDial test is running on this drive (pid ${a.child.pid})` });
    expect(await fsp.readdir(dirB)).toEqual([]);
    a.child.kill('SIGINT');
    expect(await a.exited).toBe(130);
  });

  it('--wait waits for the first test to end, then runs', async () => {
    const dirA = await fsp.mkdtemp(path.join(tmp, 'a-'));
    const dirB = await fsp.mkdtemp(path.join(tmp, 'b-'));
    const a = await longRun(dirA);
    const b = start('run', dirB, '--test', 'seq-write', '--size', '8MiB', '--no-save', '--wait');
    await waitFor(() => (b.stderr().includes('waiting') ? true : undefined));
    expect(b.stderr()).toContain(`another DiskDial test is running on this drive (pid ${a.child.pid}); waiting for it to end`);
    // Still waiting, and nothing written by it yet.
    await new Promise((r) => setTimeout(r, 500));
    expect(b.child.exitCode).toBeNull();
    expect(await fsp.readdir(dirB)).toEqual([]);
    a.child.kill('SIGINT');
    expect(await a.exited).toBe(130);
    expect(await b.exited).toBe(0);
    expect(await fsp.readdir(dirB)).toEqual([]);
  });

  it('a lock left by a killed process does not block the next test', async () => {
    const dirA = await fsp.mkdtemp(path.join(tmp, 'a-'));
    const a = await longRun(dirA);
    a.child.kill('SIGKILL');
    await a.exited;
    expect((await fsp.readdir(lockDir())).filter((n) => n.endsWith('.lock'))).toHaveLength(1);
    const b = start('run', dirA, '--test', 'seq-write', '--size', '8MiB', '--no-save');
    expect(await b.exited).toBe(0);
    expect(await fsp.readdir(dirA)).toEqual([]);
    expect(await fsp.readdir(lockDir())).toEqual([]);
  });
});
