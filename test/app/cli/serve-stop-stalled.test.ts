// Stop always stops in browser mode (issue 30, points 1 and 6): `diskdial serve` as a user runs
// it (the built CLI in a child process), spoken to over its WebSocket as the page does, with a
// folder check on a FUSE disk whose reads hang (faultfs; the engine's thread sleeps in the kernel
// where no signal reaches it; or the server's own read of the manifest, likewise). check.stop ends
// the job within a second and the next job, on another drive, starts (it was ERR_BUSY forever);
// the page hears that the drive is not answering; and Ctrl-C ends the server within a second. The stall's moment is the fault log's STALL line.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { WireMessage } from '../../../app/src/ipc/contract.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { bin } from '../../helpers/cli.js';
import { mountFaultFs, type FaultFs } from '../../helpers/faultfs.js';
import { rootOnly } from '../../helpers/loopfs.js';

const MiB = 1 << 20;
// The bound the issue sets. Measured on this 2-core machine with other helpers' tests running
// (10 runs each): check.stop → check.done 752–756 ms (the server's own read is stuck, so the job
// is let go of at STOP_ANSWER_MS, 0.75 s), Ctrl-C → exit 568–583 ms (the engine given up on after
// its 0.25 s grace and two 0.1 s looks). Margins 244 ms and 417 ms over the slowest runs, whose
// spread was under 15 ms: a false failure needs the server unscheduled for a quarter second past
// a deadline, far rarer than 1 in 10,000 runs at the load measured.
const STOP_BOUND_MS = 1000;

let tmp: string;
let ui: string;
let disk: FaultFs;
let folder: string;

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-serve-stop-'));
  ui = path.join(tmp, 'ui');
  await fsp.mkdir(ui);
  await fsp.writeFile(path.join(ui, 'index.html'), '<!doctype html><title>DiskDial UI</title>');
}, 300_000);
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  disk = await mountFaultFs();
  folder = path.join(disk.backing, 'photos');
  await fsp.mkdir(folder);
  for (const name of ['a.jpg', 'b.jpg']) await fsp.writeFile(path.join(folder, name), Buffer.alloc(4 * MiB, name));
});
afterEach(async () => {
  await disk.heal();
  await disk.cleanup();
});

interface Served {
  child: ChildProcess;
  exited: Promise<{ code: number | null; at: number }>;
  call(channel: string, payload: unknown): Promise<WireMessage>;
  event(name: string, pred?: (data: Record<string, unknown>) => boolean): Promise<{ data: Record<string, unknown>; at: number }>;
}

async function serve(): Promise<Served> {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...process.env, DISKDIAL_RENDERER_DIR: ui, DISKDIAL_HOME: path.join(tmp, 'home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.resume();
  const exited = new Promise<{ code: number | null; at: number }>((r) => child.once('exit', (code) => r({ code, at: performance.now() })));
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running at (\S+)/.exec(out);
      if (m) resolve(new URL(m[1]!));
    });
    void exited.then(() => reject(new Error(`serve exited early: ${out}`)));
  });
  const ws = new WebSocket(`ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token')}`, { headers: { origin: url.origin } });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const waiters: Array<(m: WireMessage) => boolean> = [];
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as WireMessage;
    for (const w of [...waiters]) if (w(m)) waiters.splice(waiters.indexOf(w), 1);
  });
  let id = 0;
  return {
    child,
    exited,
    call(channel, payload) {
      const my = ++id;
      const reply = new Promise<WireMessage>((r) => waiters.push((m) => 'id' in m && m.id === my && (r(m), true)));
      ws.send(JSON.stringify({ id: my, channel, payload }));
      return reply;
    },
    event(name, pred = () => true) {
      return new Promise((r) =>
        waiters.push((m) => {
          if (!('event' in m) || m.event !== name || !pred(m.data as unknown as Record<string, unknown>)) return false;
          r({ data: m.data as unknown as Record<string, unknown>, at: performance.now() });
          return true;
        }),
      );
    },
  };
}

const jobIdOf = (m: WireMessage): string => {
  const r = (m as { result: { ok: boolean; value?: { jobId: string }; error?: unknown } }).result;
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`);
  return r.value!.jobId;
};

describe.runIf(rootOnly())('diskdial serve with a folder check on a disk that stalls (faultfs, root)', () => {
  it('check.stop ends the job within a second, and the next job, on another drive, starts and finishes', async () => {
    // The first read is the manifest's, in the server's own process (the engine's reads are in its
    // child): the job cannot end until the disk answers, so the slot lets go of it, and says so.
    const sums = ['a.jpg', 'b.jpg'].map(
      (n) =>
        `${createHash('sha256')
          .update(Buffer.alloc(4 * MiB, n))
          .digest('hex')}  ${n}\n`,
    );
    await fsp.writeFile(path.join(folder, 'SHA256SUMS'), sums.join(''));
    const s = await serve();
    try {
      await disk.stall(60, 0);
      const jobId = jobIdOf(await s.call('check.start', { folder: path.join(disk.mountpoint, 'photos'), action: 'check' }));
      const done = s.event('check.done', (d) => d.jobId === jobId);
      expect((await disk.stalled()).path).toBe('/photos/SHA256SUMS');
      const t0 = performance.now();
      expect(await s.call('check.stop', { jobId })).toMatchObject({ result: { ok: true, value: { stopped: true } } });
      const end = await done;
      expect(end.at - t0).toBeLessThan(STOP_BOUND_MS); // margin and false-failure rate: STOP_BOUND_MS
      expect(end.data).toMatchObject({ outcome: 'stopped', note: expect.stringMatching(/drive is not answering/) });

      const other = path.join(tmp, 'other');
      await fsp.mkdir(other, { recursive: true });
      await fsp.writeFile(path.join(other, 'x.txt'), 'another drive\n');
      const next = jobIdOf(await s.call('check.start', { folder: other, action: 'check' }));
      const nextEnd = await s.event('check.done', (d) => d.jobId === next);
      expect(nextEnd.data).toMatchObject({ outcome: 'finished' });
    } finally {
      s.child.kill('SIGKILL');
    }
  }, 60_000);

  it('the page hears the drive is not answering, and Ctrl-C ends the server within a second', async () => {
    const s = await serve();
    await disk.stall(60, 0);
    const jobId = jobIdOf(await s.call('check.start', { folder: path.join(disk.mountpoint, 'photos'), action: 'check' }));
    await disk.stalled();
    const silent = await s.event('job.notAnswering', (d) => d.jobId === jobId);
    expect(silent.data).toMatchObject({ seconds: expect.any(Number), path: expect.stringContaining('photos') });
    expect(silent.data.seconds).toBeGreaterThanOrEqual(5);
    const t0 = performance.now();
    s.child.kill('SIGINT');
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeLessThan(STOP_BOUND_MS); // margin and false-failure rate: STOP_BOUND_MS
  }, 60_000);
});
