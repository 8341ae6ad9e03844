// The kernel's fscrypt decryption, observed during a timed read. Where the kernel lets no program
// run its cipher (no AF_ALG, no cryptsetup), its rate can still be seen: ext4 and f2fs decrypt a
// read in the fscrypt_read_queue workers, whose CPU time /proc/<pid>/stat counts, while
// /proc/stat counts the CPU left idle. Linux only; elsewhere there is nothing to observe.
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { ObservedDecryption } from '../model/cipher/types.js';

/** CPU seconds: the fscrypt workers' (by pid) and the whole machine's idle (idle + iowait). */
export interface DecryptSnapshot {
  workers: Map<string, { comm: string; seconds: number }>;
  idleSeconds: number;
}

// /proc counts clock ticks of USER_HZ, 100 on every Linux architecture's user ABI.
const USER_HZ = 100;
/** Less decryption than this (two ticks) is no decryption: the read came from the cache. */
const MIN_CPU_SECONDS = 0.02;

const fields = (stat: string): string[] => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** A snapshot of the counters, or undefined off Linux. */
export async function decryptSnapshot(proc = '/proc'): Promise<DecryptSnapshot | undefined> {
  const cpu = await readFile(`${proc}/stat`, 'utf8').catch(() => undefined);
  if (cpu === undefined) return undefined;
  const t = (cpu.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const idleSeconds = ((t[3] ?? 0) + (t[4] ?? 0)) / USER_HZ;
  const workers = new Map<string, { comm: string; seconds: number }>();
  for (const pid of await readdir(proc).catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`${proc}/${pid}/stat`, 'utf8').catch(() => undefined);
    const comm = stat?.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (!stat || !comm?.startsWith('kworker')) continue;
    const f = fields(stat);
    // utime and stime: fields 14 and 15 of the line, 11 and 12 after the comm.
    workers.set(pid, { comm, seconds: (Number(f[11]) + Number(f[12])) / USER_HZ });
  }
  return { workers, idleSeconds };
}

/** The decryption between two snapshots of a read of `bytes` in `seconds`: its CPU, the idle CPU,
 *  and the ceiling they give; undefined when the workers did not decrypt (a cached read). */
export function observedDecryption(
  before: DecryptSnapshot | undefined,
  after: DecryptSnapshot | undefined,
  bytes: number,
  seconds: number,
  /** Reads in flight at once (the check's streams; 1 for the hash test's one reader). */
  streams = 1,
): ObservedDecryption | undefined {
  if (!before || !after || !(bytes > 0) || !(seconds > 0)) return undefined;
  let cpuSeconds = 0;
  for (const [pid, w] of after.workers) {
    const was = before.workers.get(pid);
    // A worker names the queue it last served: fscrypt's, before or after the read.
    if (!w.comm.includes('fscrypt') && !was?.comm.includes('fscrypt')) continue;
    cpuSeconds += Math.max(0, w.seconds - (was?.seconds ?? 0));
  }
  if (cpuSeconds < MIN_CPU_SECONDS) return undefined;
  const idleSeconds = Math.max(0, after.idleSeconds - before.idleSeconds);
  // The cipher's ceiling for this read: one core's decryption rate per stream of reads, and never
  // below the rate it did reach (decryption spread over more cores than streams still reached only
  // that). So the cipher is named when its workers were busy at least ~87 % of the read per stream;
  // idle cores are no headroom for a sequential reader (a check on one stream held one core busy
  // beside an idle one).
  const perCoreMBps = bytes / cpuSeconds / 1e6;
  const rate = bytes / seconds / 1e6;
  return {
    mbps: Math.max(rate, perCoreMBps * Math.max(1, Math.min(streams, availableParallelism()))),
    perCoreMBps,
    bytes,
    seconds,
    cpuSeconds,
    idleSeconds,
  };
}
