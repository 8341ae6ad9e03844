// The kernel's fscrypt decryption observed from /proc (core/kernel-decrypt.ts), on a fake /proc:
// only the workers that served fscrypt_read_queue count, the idle CPU comes from /proc/stat, and a
// read that decrypted nothing (served from the cache) observes nothing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptSnapshot, observedDecryption } from '../../../app/src/core/kernel-decrypt.js';

let proc: string;
afterEach(() => rmSync(proc, { recursive: true, force: true }));

/** A fake /proc: idle and iowait ticks, and kworkers with their comm and utime + stime ticks. */
function fakeProc(idle: number, iowait: number, workers: Record<string, [string, number, number]>): void {
  writeFileSync(path.join(proc, 'stat'), `cpu  100 0 50 ${idle} ${iowait} 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8\n`);
  for (const [pid, [comm, utime, stime]] of Object.entries(workers)) {
    mkdirSync(path.join(proc, pid), { recursive: true });
    const fields = ['I', '2', '0', '0', '0', '-1', '69238880', '0', '0', '0', '0', String(utime), String(stime), '0', '0'];
    writeFileSync(path.join(proc, pid, 'stat'), `${pid} (${comm}) ${fields.join(' ')}\n`);
  }
}

describe('observed fscrypt decryption', () => {
  it('counts the fscrypt workers’ CPU and the idle CPU; the ceiling is the rate × (CPU + idle) / CPU', async () => {
    proc = mkdtempSync(path.join(os.tmpdir(), 'dd-proc-'));
    fakeProc(1000, 10, {
      '101': ['kworker/u9:0-events_unbound', 0, 0],
      '102': ['kworker/u9:1-fscrypt_read_queue', 0, 500],
      '103': ['kworker/1:0H-kblockd', 0, 7],
    });
    const before = await decryptSnapshot(proc);
    fakeProc(1004, 11, {
      '101': ['kworker/u9:0-fscrypt_read_queue', 0, 60], // served fscrypt during the read
      '102': ['kworker/u9:1-fscrypt_read_queue', 0, 560],
      '103': ['kworker/1:0H-kblockd', 0, 50], // the block layer's, not the cipher's
    });
    const after = await decryptSnapshot(proc);
    const o = observedDecryption(before, after, 60e6, 1)!;
    expect(o.cpuSeconds).toBeCloseTo(1.2, 9);
    expect(o.idleSeconds).toBeCloseTo(0.05, 9);
    expect(o.perCoreMBps).toBeCloseTo(50, 9);
    // 60 MB/s from 1.2 s of decryption CPU: more than one core per stream was busy (50 MB/s a
    // core), and the rate it reached is its ceiling.
    expect(o.mbps).toBeCloseTo(60, 9);
    // The same CPU over 2 s (30 MB/s): a core per stream at 50 MB/s was the headroom.
    expect(observedDecryption(before, after, 60e6, 2)!.mbps).toBeCloseTo(50, 9);
  });

  it('observes nothing when the workers did not decrypt (a read from the cache), or off Linux', async () => {
    proc = mkdtempSync(path.join(os.tmpdir(), 'dd-proc-'));
    fakeProc(1000, 0, { '102': ['kworker/u9:1-fscrypt_read_queue', 0, 500] });
    const before = await decryptSnapshot(proc);
    fakeProc(1100, 0, { '102': ['kworker/u9:1-fscrypt_read_queue', 0, 501] });
    expect(observedDecryption(before, await decryptSnapshot(proc), 60e6, 1)).toBeUndefined();
    expect(await decryptSnapshot(path.join(proc, 'none'))).toBeUndefined();
  });
});
