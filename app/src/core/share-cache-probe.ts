// Does the share's client cache answer reads? Asked of the share itself, not of its mount options
// (sshfs's never reach /proc/self/mountinfo): a small file is written and closed, then read twice
// in a row. Over the link the two reads take about as long; when the client cache kept the file,
// the second comes from this computer's memory, many times faster. model/network.ts judges it.
import { randomBytes } from 'node:crypto';
import { open, rm, writeFile } from 'node:fs/promises';
import type { ShareCacheProbe } from '../model/network.js';

/** 4 MiB: a first read over a 1 Gbit/s link takes ~30 ms, long beside the timer; a read from
 *  memory well under a millisecond more than nothing. */
export const PROBE_BYTES = 4 << 20;
const CHUNK = 1 << 20;

/** Reads `file` whole in 1 MiB pieces through `h`; the seconds it took. */
async function readPass(h: Awaited<ReturnType<typeof open>>, bytes: number, buf: Buffer): Promise<number> {
  const t = performance.now();
  for (let at = 0; at < bytes; at += CHUNK) await h.read(buf, 0, Math.min(CHUNK, bytes - at), at);
  return (performance.now() - t) / 1000;
}

/** Writes `file` (in the test's own folder on the share), reads it twice, removes it. Undefined
 *  when the share refused any step: the flags then judge by the figures alone. */
export async function probeShareCache(file: string, bytes = PROBE_BYTES): Promise<ShareCacheProbe | undefined> {
  try {
    await writeFile(file, randomBytes(bytes));
    const h = await open(file, 'r');
    try {
      const buf = Buffer.allocUnsafe(CHUNK);
      const first = await readPass(h, bytes, buf);
      const again = await readPass(h, bytes, buf);
      const rate = (s: number): number => Math.round((bytes / 1e6 / Math.max(s, 1e-6)) * 10) / 10;
      return { bytes, firstMBps: rate(first), againMBps: rate(again) };
    } finally {
      await h.close();
    }
  } catch {
    return undefined;
  } finally {
    await rm(file, { force: true }).catch(() => undefined);
  }
}
