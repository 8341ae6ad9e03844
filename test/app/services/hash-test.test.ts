// HashTestService with the engine in a child process, as the app runs it: events in order, stop
// mid-file, a crashed engine reported as a failed job with the next job running fine.
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../app/src/ipc/contract.js';
import { EngineHost } from '../../../app/src/services/engine-host.js';
import { HashTestService } from '../../../app/src/services/hash-test.js';
import { recorder as record, type Recorded } from '../../helpers/event-recorder.js';

const recorder = (onEvent?: (e: Recorded) => void) => record('hash.done', onEvent);

let dir: string;
let big: string;
let host: EngineHost;
let service: HashTestService;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-hashsvc-'));
  big = path.join(dir, 'big.img');
  execFileSync('truncate', ['-s', '3G', big]);
  host = new EngineHost();
  service = new HashTestService({
    engine: { runHash: host.runHash, runTest: host.runTest },
    memorySeconds: 0.2,
    threads: 2,
    progressIntervalMs: 20,
  });
});
afterAll(async () => {
  await service.stopAll();
  await host.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('HashTestService', () => {
  it('a generated file: progress and a stage event per stage in order, then done; the test file removed', async () => {
    const target = await fsp.mkdtemp(path.join(dir, 'gen-'));
    const sink = recorder();
    const { jobId } = service.start({ source: { kind: 'generate', target, sizeBytes: 16 << 20 }, algo: 'sha256' }, sink);
    const done = await sink.done;
    expect(done.outcome).toBe('finished');
    const stages = sink.events.filter((e) => e.channel === 'hash.stage').map((e) => (e.data as EventMap['hash.stage']).stage);
    expect(stages).toEqual(['write', 'read', 'read-hash', 'memory', 'memory-parallel']);
    const progress = sink.events.filter((e) => e.channel === 'hash.progress').map((e) => e.data as EventMap['hash.progress']);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.stageCount === 5)).toBe(true);
    expect(sink.events.every((e) => e.data.jobId === jobId)).toBe(true);
    expect(done.result!.hash!.file.generated).toBe(true);
    expect(await fsp.readdir(target)).toEqual([]);
  }, 60_000);

  it('stop mid-file: done "stopped"', async () => {
    let stopped = false;
    const sink = recorder((e) => {
      if (!stopped && e.channel === 'hash.progress' && e.data.bytesDone > 0) {
        stopped = true;
        expect(service.stop(e.data.jobId)).toBe(true);
      }
    });
    const { jobId } = service.start({ source: { kind: 'file', path: big }, algo: 'sha256' }, sink);
    expect(await sink.done).toEqual({ jobId, outcome: 'stopped' });
    expect(service.runningJobId).toBeUndefined();
  }, 60_000);

  it('an engine crash mid-hash ends the job with ERR_ENGINE_CRASHED, and the next job runs', async () => {
    let killed = false;
    const sink = recorder((e) => {
      if (!killed && e.channel === 'hash.progress' && e.data.stage === 'read-hash' && e.data.bytesDone > 0) {
        killed = true;
        process.kill(host.pid!, 'SIGSEGV');
      }
    });
    service.start({ source: { kind: 'file', path: big }, algo: 'sha512' }, sink);
    expect(await sink.done).toMatchObject({ outcome: 'failed', error: { code: 'ERR_ENGINE_CRASHED' } });
    const small = path.join(dir, 'small.bin');
    await fsp.writeFile(small, 'abc');
    const next = recorder();
    service.start(
      { source: { kind: 'file', path: small }, algo: 'sha256', verify: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
      next,
    );
    const done = await next.done;
    expect(done.outcome).toBe('finished');
    expect(done.result!.hash!.verify!.match).toBe(true);
  }, 60_000);
});
