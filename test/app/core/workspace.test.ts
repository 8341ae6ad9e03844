import { spawn, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupAllLoopFs, mountFs, rootOnly } from '../../helpers/loopfs.js';
import {
  MARKER_NAME,
  openWorkspace,
  processStartTime,
  removeStaleWorkspaces,
  type WorkspaceMarker,
} from '../../../app/src/core/workspace.js';

let target: string;

beforeEach(async () => {
  target = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-ws-'));
});
afterEach(async () => {
  await fsp.rm(target, { recursive: true, force: true });
});

async function entries(): Promise<string[]> {
  return (await fsp.readdir(target)).sort();
}

/** A pid that surely belongs to no process: a child that has already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

async function fakeWorkspace(name: string, marker: Partial<WorkspaceMarker> | string | null): Promise<string> {
  const dir = path.join(target, name);
  await fsp.mkdir(dir);
  await fsp.writeFile(path.join(dir, 'testfile.dat'), 'x');
  if (marker !== null) {
    const base: WorkspaceMarker = { pid: deadPid(), startedAt: new Date().toISOString(), app: 'diskdial', hostname: os.hostname() };
    await fsp.writeFile(path.join(dir, MARKER_NAME), typeof marker === 'string' ? marker : JSON.stringify({ ...base, ...marker }));
  }
  return dir;
}

describe('openWorkspace', () => {
  it('creates one hidden folder with a marker naming this process, and removes it on close', async () => {
    const ws = await openWorkspace(target, { needBytes: 1024, handleSignals: false });
    expect(await entries()).toEqual([path.basename(ws.dir)]);
    expect(path.basename(ws.dir)).toMatch(/^\.diskdial-[A-Za-z0-9_-]+$/);
    expect(path.basename(ws.dir)).toBe(`.diskdial-${ws.id}`);
    const marker = JSON.parse(await fsp.readFile(path.join(ws.dir, MARKER_NAME), 'utf8')) as WorkspaceMarker;
    expect(marker).toMatchObject({ pid: process.pid, app: 'diskdial', hostname: os.hostname() });
    expect(marker.procStart).toBe(processStartTime(process.pid));
    expect(Number.isNaN(Date.parse(marker.startedAt))).toBe(false);

    await fsp.writeFile(ws.filePath('testfile.dat'), 'data');
    expect(ws.filePath('testfile.dat')).toBe(path.join(ws.dir, 'testfile.dat'));
    expect(() => ws.filePath('../escape')).toThrow();
    await ws.close();
    await ws.close(); // idempotent
    expect(await entries()).toEqual([]);
  });

  it("a next test of this process waits for its previous test's background removal, not ERR_VOLUME_BUSY", async () => {
    // A stopped test whose engine was given up on removes its folder in a background process and
    // holds the drive until that ends; the next test may start at once (the service said
    // "stopped"). The remover is a new Node process: it cannot have ended within this tick.
    const a = await openWorkspace(target, { handleSignals: false });
    await fsp.writeFile(a.filePath('testfile.dat'), 'data');
    await a.close({ waitMs: 0 });
    const b = await openWorkspace(target, { handleSignals: false });
    try {
      expect(b.dir).not.toBe(a.dir);
      expect(await entries()).toEqual([path.basename(b.dir)]);
    } finally {
      await b.close();
    }
  });

  it('refuses a second workspace on the same drive while the first is open, naming the holder', async () => {
    const a = await openWorkspace(target, { handleSignals: false });
    const other = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-ws-other-'));
    try {
      // Another folder on the same volume: the lock is per drive, not per folder.
      await expect(openWorkspace(other, { handleSignals: false })).rejects.toMatchObject({
        code: 'ERR_VOLUME_BUSY',
        category: 'runtime',
        message: expect.stringMatching(
          new RegExp(`^A test by ${os.userInfo().username} \\(pid ${process.pid}\\) is running on this drive since \\d\\d:\\d\\d$`),
        ),
      });
      expect(await fsp.readdir(other)).toEqual([]);
      await a.close();
      const b = await openWorkspace(other, { handleSignals: false });
      expect(b.dir).not.toBe(a.dir);
      await b.close();
    } finally {
      await fsp.rm(other, { recursive: true, force: true });
    }
    expect(await entries()).toEqual([]);
  });

  it('removes the leftover of a dead process before creating its own', async () => {
    await fakeWorkspace('.diskdial-dead1', {});
    const ws = await openWorkspace(target, { handleSignals: false });
    expect(await entries()).toEqual([path.basename(ws.dir)]);
    await ws.close();
  });

  it('removes a folder whose pid is alive but belongs to a later process (pid reuse)', async () => {
    await fakeWorkspace('.diskdial-reused', { pid: process.pid, procStart: '1' });
    const ws = await openWorkspace(target, { handleSignals: false });
    expect(await entries()).toEqual([path.basename(ws.dir)]);
    await ws.close();
  });

  it('leaves a folder of a live process alone', async () => {
    await fakeWorkspace('.diskdial-live', { pid: process.pid, procStart: processStartTime(process.pid)! });
    const ws = await openWorkspace(target, { handleSignals: false });
    expect(await entries()).toEqual([path.basename(ws.dir), '.diskdial-live'].sort());
    await ws.close();
    expect(await entries()).toEqual(['.diskdial-live']);
  });

  it('never touches folders and files that are not provably ours', async () => {
    await fakeWorkspace('.diskdial-foo', null); // no marker
    await fakeWorkspace('.diskdial-badjson', '{not json');
    await fakeWorkspace('.diskdial-otherapp', { app: 'other' as 'diskdial' });
    await fakeWorkspace('.diskdial-otherhost', { hostname: `not-${os.hostname()}` });
    await fakeWorkspace('.diskdial-bad.name', {}); // dead marker, but a name we never make
    await fakeWorkspace('diskdial-nodot', {});
    await fsp.writeFile(path.join(target, '.diskdial-file'), 'a file');
    // A symlink with our name pointing at a dead workspace elsewhere must not be followed.
    const elsewhere = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-elsewhere-'));
    try {
      await fsp.mkdir(path.join(elsewhere, 'victim'));
      await fsp.writeFile(
        path.join(elsewhere, 'victim', MARKER_NAME),
        JSON.stringify({ pid: deadPid(), startedAt: 'x', app: 'diskdial', hostname: os.hostname() }),
      );
      await fsp.symlink(path.join(elsewhere, 'victim'), path.join(target, '.diskdial-link'));
      const before = await entries();
      const ws = await openWorkspace(target, { handleSignals: false });
      await ws.close();
      expect(await entries()).toEqual(before);
      expect(await fsp.readdir(path.join(elsewhere, 'victim'))).toEqual([MARKER_NAME]);
    } finally {
      await fsp.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it("leaves a user's own unmarked folder alone, however old and empty", async () => {
    const old = path.join(target, '.diskdial-x');
    await fsp.mkdir(old);
    const past = new Date(Date.now() - 3600_000);
    await fsp.utimes(old, past, past);
    const oldWithFiles = await fakeWorkspace('.diskdial-oldfiles', null);
    await fsp.utimes(oldWithFiles, past, past);
    const ws = await openWorkspace(target, { handleSignals: false });
    await ws.close();
    expect(await entries()).toEqual(['.diskdial-oldfiles', '.diskdial-x']);
  });

  it('leaves a marked folder owned by another user alone (a forged marker proves nothing)', async () => {
    const forged = await fakeWorkspace('.diskdial-forged', {});
    await fsp.chown(forged, 65534, 65534);
    const ws = await openWorkspace(target, { handleSignals: false });
    await ws.close();
    expect(await entries()).toEqual(['.diskdial-forged']);
  });

  it('never removes through a leftover swapped for a symlink between check and removal', async () => {
    const leftover = await fakeWorkspace('.diskdial-swapped', {});
    const elsewhere = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-elsewhere-'));
    try {
      // The victim looks like a dead leftover too: following the link would remove it.
      const victim = path.join(elsewhere, 'victim');
      await fsp.mkdir(victim);
      await fsp.writeFile(path.join(victim, 'precious.txt'), 'keep me');
      await fsp.writeFile(path.join(victim, MARKER_NAME), await fsp.readFile(path.join(leftover, MARKER_NAME)));
      const parked = path.join(elsewhere, 'parked');
      const removed = await removeStaleWorkspaces(target, {
        beforeMove: async (dir) => {
          await fsp.rename(dir, parked);
          await fsp.symlink(victim, dir);
        },
      });
      expect(removed).toEqual([]);
      // The symlink is back where it was, its target and the parked folder untouched.
      expect((await fsp.lstat(leftover)).isSymbolicLink()).toBe(true);
      expect(await fsp.readlink(leftover)).toBe(victim);
      expect((await fsp.readdir(victim)).sort()).toEqual([MARKER_NAME, 'precious.txt']);
      expect((await fsp.readdir(parked)).sort()).toEqual([MARKER_NAME, 'testfile.dat']);
      expect(await entries()).toEqual(['.diskdial-swapped']);
    } finally {
      await fsp.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('removes a proven leftover through its private folder and leaves nothing else behind', async () => {
    await fakeWorkspace('.diskdial-deadA', {});
    await fakeWorkspace('.diskdial-deadB', {});
    const removed = await removeStaleWorkspaces(target);
    expect(removed.sort()).toEqual([path.join(target, '.diskdial-deadA'), path.join(target, '.diskdial-deadB')]);
    expect(await entries()).toEqual([]);
  });

  it('refuses with ENOSPC before writing anything when the disk is too small', async () => {
    const st = await fsp.statfs(target);
    const needBytes = st.blocks * st.bsize + 2 ** 30;
    const err = (await openWorkspace(target, { needBytes, handleSignals: false }).catch((e: unknown) => e)) as Error & { code: string };
    expect(err.code).toBe('ENOSPC');
    const free = st.bavail * st.bsize;
    expect(err.message).toContain(`Not enough free space on ${target}: the test needs `);
    const [, need, freeGb] = /needs ([\d.]+) GB, ([\d.]+) GB is free/.exec(err.message) ?? [];
    expect(Number(need)).toBeCloseTo((needBytes + 16 * 2 ** 20) / 1e9, 1);
    expect(Math.abs(Number(freeGb) - free / 1e9)).toBeLessThan(1);
    expect(await entries()).toEqual([]);
  });

  it('reports a missing folder and a file as input errors', async () => {
    const missing = path.join(target, 'nope');
    await expect(openWorkspace(missing, { handleSignals: false })).rejects.toMatchObject({
      code: 'ENOENT',
      category: 'input',
      message: `No such folder: ${missing}. Check the path, or choose another folder.`,
    });
    const file = path.join(target, 'file.txt');
    await fsp.writeFile(file, 'x');
    await expect(openWorkspace(file, { handleSignals: false })).rejects.toMatchObject({
      code: 'ENOTDIR',
      category: 'input',
      message: `${file} is a file, not a folder. Choose the folder that holds it, or another folder.`,
    });
    expect(await entries()).toEqual(['file.txt']);
  });
});

describe('process-lifetime cleanup', () => {
  const workspaceModule = new URL('../../../app/src/core/workspace.ts', import.meta.url).pathname;

  /** Runs a real Node process that opens a workspace in `target`, then does `then`. */
  function child(then: string) {
    const script = `import { openWorkspace } from ${JSON.stringify(workspaceModule)};
      const ws = await openWorkspace(${JSON.stringify(target)});
      process.stdout.write(ws.dir + '\\n');
      ${then}`;
    return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  }

  async function runChild(then: string, signal?: NodeJS.Signals): Promise<{ code: number | null; dir: string }> {
    const proc = child(then);
    let out = '';
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const dir = await new Promise<string>((resolve) =>
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.trim());
      }),
    );
    // The folder really existed while the process ran.
    expect((await fsp.readdir(dir)).includes(MARKER_NAME)).toBe(true);
    if (signal) proc.kill(signal);
    return { code: await exited, dir };
  }

  it('removes an open workspace when the process exits without closing it', async () => {
    const { code } = await runChild('setTimeout(() => process.exit(0), 50);');
    expect(code).toBe(0);
    expect(await entries()).toEqual([]);
  });

  it('removes it on SIGTERM and exits 143', async () => {
    const { code } = await runChild('setInterval(() => {}, 1000);', 'SIGTERM');
    expect(code).toBe(143);
    expect(await entries()).toEqual([]);
  });

  it('removes it on SIGINT and exits 130', async () => {
    const { code } = await runChild('setInterval(() => {}, 1000);', 'SIGINT');
    expect(code).toBe(130);
    expect(await entries()).toEqual([]);
  });
});

describe('processStartTime', () => {
  it('reads the start time (field 22 of /proc/PID/stat), undefined once the process is gone', () => {
    const mine = processStartTime(process.pid);
    expect(mine).toMatch(/^\d+$/);
    // init started before this test process did.
    expect(Number(processStartTime(1))).toBeLessThanOrEqual(Number(mine));
    expect(processStartTime(deadPid())).toBeUndefined();
  });
});

describe.runIf(rootOnly())('a volume out of inodes', () => {
  afterEach(async () => {
    await cleanupAllLoopFs();
  });

  it('is said to be out of inodes, not out of space (space is left)', async () => {
    const m = await mountFs('tmpfs', { mountOptions: ['nr_inodes=16'] });
    for (let i = 0; ; i++) {
      const made = await fsp.writeFile(path.join(m.dir, `f${i}`), '').then(
        () => true,
        () => false,
      );
      if (!made) break;
    }
    await expect(openWorkspace(m.dir)).rejects.toMatchObject({
      code: 'ENOSPC',
      message: expect.stringContaining(`The volume at ${m.dir} has no free inodes: every file it can hold exists already`),
    });
  });
});
