// Stop always stops (issue 30, point 6): with a FUSE disk whose data path hangs (faultfs), the
// engine's thread sleeps in the kernel (D state) and no signal can end it. Ctrl-C and SIGTERM
// still give the prompt back within a second: the engine process is given up on, the user is
// told so, and the test folder goes once the disk answers. After a few seconds of no data the
// CLI says the drive is not answering. The moment of the stall is the fault log's STALL line (the
// I/O has reached the daemon and hangs there), never a guess.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';
import { mountFaultFs, type FaultFs } from '../../helpers/faultfs.js';
import { rootOnly } from '../../helpers/loopfs.js';

const MiB = 1 << 20;
// The bound the issue sets, from the signal to the process's exit. Measured on this 2-core machine
// with other helpers' tests running (measure: 20 runs each, SIGINT and SIGTERM alternating): Quick
// Test 469–550 ms, folder check 461–663 ms, mean ≈ 500 ms, SD ≈ 45 ms — the engine's 0.25 s grace,
// two looks 0.1 s apart that find it in D state, Node's exit; the CLI's own deadline
// (STOP_WAIT_MS, 0.75 s) caps whatever else waits. Margin: 337 ms over the slowest run, > 7 SD
// over the mean; a false failure needs the machine to freeze for a third of a second past the
// deadline, far rarer than 1 in 10,000 runs at the load measured.
const STOP_BOUND_MS = 1000;

let tmp: string;
let disk: FaultFs;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-stop-'));
}, 300_000);
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  disk = await mountFaultFs();
});
afterEach(async () => {
  // The engine given up on ends once its I/O returns; then the mount can go.
  await disk.heal();
  await disk.cleanup();
});

interface Run {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves when stderr has matched `re`. */
  says(re: RegExp): Promise<void>;
  /** The exit code and the moment of the exit ('exit', not 'close': a child of its own stuck in
   *  the kernel must not be what is waited for). */
  exited: Promise<{ code: number | null; at: number }>;
}

function start(args: string[]): Run {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: tmp,
    env: { ...process.env, DISKDIAL_HOME: path.join(tmp, 'home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const waiters: Array<{ re: RegExp; resolve: () => void }> = [];
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of waiters.filter((x) => x.re.test(err))) w.resolve();
  });
  child.stdout!.resume();
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once('exit', (code, sig) => resolve({ code: code ?? (sig ? 128 : null), at: performance.now() })),
  );
  return {
    child,
    stderr: () => err,
    says: (re) => (re.test(err) ? Promise.resolve() : new Promise((resolve) => waiters.push({ re, resolve }))),
    exited,
  };
}

/** Sends `sig` once the disk holds an I/O in the kernel; returns ms from the signal to the exit. */
async function stopWhenStalled(run: Run, sig: NodeJS.Signals): Promise<{ ms: number; code: number | null }> {
  await disk.stalled();
  const t0 = performance.now();
  run.child.kill(sig);
  const { code, at } = await run.exited;
  return { ms: at - t0, code };
}

/** The folder the test left on the disk is gone once the disk answers again. */
async function folderGoneAfterHeal(): Promise<void> {
  await disk.heal();
  await expect
    .poll(async () => (await fsp.readdir(disk.backing)).filter((n) => n.startsWith('.diskdial-')), { timeout: 20_000 })
    .toEqual([]);
}

describe.runIf(rootOnly())('Stop on a disk that stalls (faultfs, root)', () => {
  it('the Quick Test says the drive is not answering, and Ctrl-C ends it within a second', async () => {
    // Past the workspace's marker and the first MiB of the test file: the engine is mid-write.
    await disk.stall(60, MiB);
    const run = start(['run', disk.mountpoint, '--size', '16MiB', '--no-save']);
    await disk.stalled();
    const silentFrom = performance.now();
    await run.says(/the drive is not answering: no data has moved for \d+ s/);
    // NOT_ANSWERING_MS (5 s) after the last progress that moved data, which is the first report
    // after the last write before the stall (reports come every 0.1 s), so never earlier than the
    // stall's line minus 0.1 s: the line comes ≥ 4.9 s after it. A false failure would need the
    // message 0.9 s early, which the watch's own timer cannot do (no false failure possible short
    // of a clock jump).
    expect(performance.now() - silentFrom).toBeGreaterThan(4000);
    const { ms, code } = await stopWhenStalled(run, 'SIGINT');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(STOP_BOUND_MS); // margin and false-failure rate: STOP_BOUND_MS
    expect(run.stderr()).toMatch(/cancelled; the drive is not answering: the engine process \(pid \d+\) is stuck in the kernel/);
    await folderGoneAfterHeal();
  }, 60_000);

  it('SIGTERM during a stalled sequential write ends it within a second (exit 143)', async () => {
    await disk.stall(60, MiB);
    const run = start(['run', disk.mountpoint, '--test', 'seq-write', '--size', '16MiB', '--seconds', '30', '--no-save']);
    const { ms, code } = await stopWhenStalled(run, 'SIGTERM');
    expect(code).toBe(143);
    expect(ms).toBeLessThan(STOP_BOUND_MS); // margin and false-failure rate: STOP_BOUND_MS
    expect(run.stderr()).toMatch(/stuck in the kernel|stopped without waiting for the drive/);
    await folderGoneAfterHeal();
  }, 60_000);

  it('Ctrl-C during a stalled folder check ends it within a second, the manifest untouched', async () => {
    const folder = path.join(disk.backing, 'photos');
    await fsp.mkdir(folder);
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']) await fsp.writeFile(path.join(folder, name), Buffer.alloc(4 * MiB, name));
    await disk.stall(60, 0);
    const run = start(['check', path.join(disk.mountpoint, 'photos'), '--streams', '2', '--no-save']);
    const { ms, code } = await stopWhenStalled(run, 'SIGINT');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(STOP_BOUND_MS); // margin and false-failure rate: STOP_BOUND_MS
    expect(run.stderr()).toMatch(/the manifest was left as it was/i);
    await disk.heal();
    expect((await fsp.readdir(folder)).sort()).toEqual(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']);
  }, 60_000);
});
