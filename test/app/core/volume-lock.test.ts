// One DiskDial test per drive across processes: two real CLIs, the CLI and the services (the
// app's and serve's door), --wait, and a lock whose owner was killed; then, machine-wide, two
// Btrfs subvolumes, two data folders (DISKDIAL_HOME) and two users on one drive.
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
import { cleanupAllLoopFs, mountFsInRam, rootOnly } from '../../helpers/loopfs.js';

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
  await fsp.chmod(tmp, 0o755); // other users' data folders live in it
});
afterEach(async () => {
  await killChildren();
});

/** Kills what a failed test left running, and waits for it: a live test holds its mount. */
async function killChildren(): Promise<void> {
  const live = children.splice(0).filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(live.map((c) => new Promise((resolve) => c.once('exit', resolve).kill('SIGKILL'))));
}
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

/** The refusal, naming the holder: its user, pid and start time. */
function busy(pid: number | undefined, user = os.userInfo().username): RegExp {
  return new RegExp(`A test by ${user} \\(pid ${pid}\\) is running on this drive since \\d\\d:\\d\\d`);
}

interface Cli {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(...args: string[]): Cli {
  return startAs({}, ...args);
}

/** A CLI with its own environment and, as root, as another user. */
function startAs(opts: { env?: NodeJS.ProcessEnv; uid?: number }, ...args: string[]): Cli {
  const as = opts.uid === undefined ? {} : { uid: opts.uid, gid: opts.uid };
  const child = spawn(process.execPath, [bin, ...args], { env: opts.env ?? process.env, ...as });
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
async function longRun(dir: string, opts: { env?: NodeJS.ProcessEnv; uid?: number } = {}): Promise<Cli> {
  const a = startAs(opts, 'run', dir, '--test', 'rand-write', '--size', '16MiB', '--qd', '1', '--seconds', '30', '--no-save');
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
    expect(b.stderr()).toMatch(new RegExp(`^diskdial: ${busy(a.child.pid).source}\n$`));
    expect(await fsp.readdir(dirB)).toEqual([]);
    // The hash of a user's file reads the drive too: refused as well.
    await fsp.writeFile(path.join(dirB, 'f.bin'), Buffer.alloc(1 << 20));
    const h = start('hash', path.join(dirB, 'f.bin'), '--no-save');
    expect(await h.exited).toBe(1);
    expect(h.stderr()).toMatch(busy(a.child.pid));
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
    expect(done.error).toEqual({ code: 'ERR_VOLUME_BUSY', message: expect.stringMatching(new RegExp(`^${busy(a.child.pid).source}$`)) });
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
    expect(b.stderr()).toMatch(new RegExp(`diskdial: ${busy(a.child.pid).source}; waiting for it to end\n`));
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

describe.runIf(rootOnly())('one test per physical drive, machine-wide (root)', () => {
  const NOBODY = 65534;
  /** The machine's lock folder, not this test run's private one (vitest.config.ts). */
  const machineLocks = lockDir({});

  /** A data folder of its own, for `uid`, and an environment that uses it and the machine's locks. */
  async function home(uid = 0): Promise<NodeJS.ProcessEnv> {
    const dir = await fsp.mkdtemp(path.join(tmp, 'home-'));
    await fsp.chown(dir, uid, uid);
    const env: NodeJS.ProcessEnv = { ...process.env, DISKDIAL_HOME: dir, HOME: dir };
    delete env.DISKDIAL_LOCK_DIR;
    return env;
  }

  /** A folder `uid` may write in. */
  async function folder(parent: string, name: string, uid = 0): Promise<string> {
    const dir = path.join(parent, name);
    await fsp.mkdir(dir);
    await fsp.chown(dir, uid, uid);
    return dir;
  }

  /** This drive's lock files held by `pid`, in the machine's lock folder. */
  async function locksOf(pid: number | undefined): Promise<string[]> {
    const names = await fsp.readdir(machineLocks).catch((): string[] => []);
    const mine: string[] = [];
    for (const n of names.filter((x) => x.endsWith('.lock'))) {
      const m = JSON.parse(await fsp.readFile(path.join(machineLocks, n), 'utf8').catch(() => '{}')) as { pid?: number };
      if (m.pid === pid) mine.push(n);
    }
    return mine;
  }

  afterEach(async () => {
    await killChildren();
    await cleanupAllLoopFs();
  });

  it('two Btrfs subvolumes of one disk: the second test is refused, naming who holds the drive', async () => {
    const btrfs = await mountFsInRam('btrfs');
    const [a, b] = ['a', 'b'].map((n) => path.join(btrfs.dir, n)) as [string, string];
    for (const sv of [a, b]) execFileSync('btrfs', ['subvolume', 'create', sv], { stdio: 'ignore' });
    // Each subvolume has a device number of its own: the old per-volume lock told them apart.
    expect((await fsp.stat(a)).dev).not.toBe((await fsp.stat(b)).dev);
    const env = await home();
    const first = await longRun(a, { env });
    const second = startAs({ env }, 'run', b, '--test', 'quick', '--size', '8MiB', '--no-save');
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(new RegExp(`^diskdial: ${busy(first.child.pid).source}\n$`));
    expect(await fsp.readdir(b)).toEqual([]);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    expect(await locksOf(first.child.pid)).toEqual([]);
  });

  it('another DISKDIAL_HOME and another user see the lock; the shared folder is mode 1777', async () => {
    const ext4 = await mountFsInRam('ext4', { sizeMiB: 64 });
    const mine = await folder(ext4.dir, 'root');
    const theirs = await folder(ext4.dir, 'nobody', NOBODY);
    const first = await longRun(mine, { env: await home() });
    const st = await fsp.lstat(machineLocks);
    expect(st.isDirectory() && (st.mode & 0o7777).toString(8)).toBe('1777');
    expect(await locksOf(first.child.pid)).toHaveLength(1);
    const env = await home(NOBODY);
    const second = startAs({ env, uid: NOBODY }, 'run', theirs, '--test', 'quick', '--size', '8MiB', '--no-save');
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(new RegExp(`^diskdial: ${busy(first.child.pid).source}\n$`));
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    const again = startAs({ env, uid: NOBODY }, 'run', theirs, '--test', 'quick', '--size', '8MiB', '--no-save');
    expect(await again.exited).toBe(0);
  });

  it("a killed user's lock blocks neither another user nor root, whose next test removes it", async () => {
    const ext4 = await mountFsInRam('ext4', { sizeMiB: 64 });
    const theirs = await folder(ext4.dir, 'nobody', NOBODY);
    const dead = await longRun(theirs, { env: await home(NOBODY), uid: NOBODY });
    dead.child.kill('SIGKILL');
    await dead.exited;
    const [stale] = await locksOf(dead.child.pid);
    expect(stale).toBeDefined();
    expect((await fsp.stat(path.join(machineLocks, stale!))).uid).toBe(NOBODY);
    // A third user (no passwd entry) takes the drive, though the sticky folder may not let it
    // remove the dead lock.
    const other = 65533;
    const otherDir = await folder(ext4.dir, 'other', other);
    const second = startAs({ env: await home(other), uid: other }, 'run', otherDir, '--test', 'quick', '--size', '8MiB', '--no-save');
    expect(await second.exited).toBe(0);
    const third = startAs({ env: await home() }, 'run', await folder(ext4.dir, 'root'), '--test', 'quick', '--size', '8MiB', '--no-save');
    expect(await third.exited).toBe(0);
    expect(await locksOf(dead.child.pid)).toEqual([]);
  });
});
