// engine-spawner.ts: the engine's utilityProcess as EngineHost's HostChannel, with `electron`
// replaced by test/helpers/electron-fake.ts. EngineHost itself is then run over the adapter
// against a scripted child, so the message protocol is exercised end to end.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineResult, EngineSpec } from '../../../app/src/model/engine-types.js';
import { FakeUtilityProcess, resetElectronFake, utilityProcess } from '../../helpers/electron-fake.js';

vi.mock('electron', () => import('../../helpers/electron-fake.js'));

const { adaptUtilityProcess, electronSpawner } = await import('../../../app/src/main/engine-spawner.js');
const { EngineHost, ENGINE_CRASHED } = await import('../../../app/src/services/engine-host.js');

beforeEach(() => resetElectronFake());

describe('electronSpawner', () => {
  it('forks a utilityProcess with the engine service name and piped stdio', () => {
    electronSpawner('/app/dist/services/engine-host-child.js');
    expect(utilityProcess.fork).toHaveBeenCalledExactlyOnceWith('/app/dist/services/engine-host-child.js', [], {
      serviceName: 'DiskDial engine',
      stdio: 'pipe',
    });
  });
});

describe('adaptUtilityProcess', () => {
  it('sends with postMessage and delivers messages as they are', () => {
    const child = new FakeUtilityProcess();
    const channel = adaptUtilityProcess(child as never);
    const got: unknown[] = [];
    channel.onMessage((m) => got.push(m));
    channel.send({ type: 'run', id: 1 });
    child.emit('message', { type: 'result', id: 1 });
    expect(child.posted).toEqual([{ type: 'run', id: 1 }]);
    expect(got).toEqual([{ type: 'result', id: 1 }]);
  });

  it('reports the pid live and the exit once, as (code, null)', () => {
    const child = new FakeUtilityProcess();
    const channel = adaptUtilityProcess(child as never);
    expect(channel.pid).toBe(4242);
    child.pid = undefined;
    expect(channel.pid).toBeUndefined();
    const exits: unknown[] = [];
    channel.onExit((code, signal) => exits.push([code, signal]));
    child.emit('exit', 134);
    child.emit('exit', 134);
    expect(exits).toEqual([[134, null]]);
  });

  it('kills, and neither posts nor kills after the exit', () => {
    const child = new FakeUtilityProcess();
    const channel = adaptUtilityProcess(child as never);
    channel.kill();
    expect(child.killed).toBe(true);
    child.killed = false;
    child.emit('exit', 0);
    channel.kill();
    channel.send({ type: 'cancel', id: 1 });
    expect(child.killed).toBe(false);
    expect(child.posted).toEqual([]);
  });

  it("forwards the child's output to the main process's streams", async () => {
    const child = new FakeUtilityProcess();
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    try {
      adaptUtilityProcess(child as never);
      child.stderr.write('engine says hi\n');
      await new Promise((r) => setImmediate(r));
    } finally {
      spy.mockRestore();
    }
    expect(writes.join('')).toContain('engine says hi');
  });
});

describe('EngineHost over a utility process', () => {
  const spec = {
    path: '/tmp/x',
    rw: 'write',
    bs: 1 << 20,
    qd: 1,
    threads: 1,
    fileSize: 1 << 24,
    pattern: 'random',
    cache: 'auto',
  } as EngineSpec;

  it('runs a test through the child and resolves with its result', async () => {
    const host = new EngineHost({ spawner: electronSpawner, modulePath: '/app/dist/services/engine-host-child.js' });
    const progress: unknown[] = [];
    const running = host.runTest(spec, { onProgress: (p) => progress.push(p) });
    const child = utilityProcess.children[0]!;
    const run = child.posted[0] as { type: string; id: number; spec: EngineSpec };
    expect(run).toMatchObject({ type: 'run', spec });
    child.emit('message', { type: 'progress', id: run.id, progress: { bytesDone: 1 } });
    child.emit('message', { type: 'result', id: run.id, result: { mbps: 1234 } });
    await expect(running).resolves.toEqual({ mbps: 1234 } as unknown as EngineResult);
    expect(progress).toEqual([{ bytesDone: 1 }]);
    const closing = host.close();
    expect(child.killed).toBe(true);
    child.emit('exit', 0);
    await closing;
  });

  it('turns a crashed child into ERR_ENGINE_CRASHED, and the next test gets a new child', async () => {
    const host = new EngineHost({ spawner: electronSpawner, modulePath: '/m.js' });
    const running = host.runTest(spec);
    utilityProcess.children[0]!.emit('exit', 139);
    await expect(running).rejects.toMatchObject({ code: ENGINE_CRASHED });
    void host.runTest(spec).catch(() => undefined);
    expect(utilityProcess.fork).toHaveBeenCalledTimes(2);
    const closing = host.close();
    utilityProcess.children[1]!.emit('message', { type: 'error', id: 2, error: { name: 'AbortError', message: 'x' } });
    utilityProcess.children[1]!.emit('exit', 0);
    await closing;
  });
});
