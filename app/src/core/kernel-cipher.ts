// The Linux kernel's own AES, as fscrypt and dm-crypt use it: /proc/crypto lists every
// registered implementation with a priority, and the kernel picks the highest that passed its
// self-test. The driver's name says whether it uses the CPU's AES instructions.
import { readFile } from 'node:fs/promises';
import type { KernelCipher } from '../model/cipher/types.js';

export interface CryptoEntry {
  name: string;
  driver: string;
  priority: number;
  type: string;
  selftest?: string;
  internal?: string;
}

/** /proc/crypto's blocks, one entry each. */
export function parseProcCrypto(text: string): CryptoEntry[] {
  const out: CryptoEntry[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const f = new Map<string, string>();
    for (const line of block.split('\n')) {
      const m = /^(\w[\w ]*?)\s*:\s*(.*)$/.exec(line.trim());
      if (m) f.set(m[1]!, m[2]!.trim());
    }
    const name = f.get('name');
    const driver = f.get('driver');
    if (!name || !driver) continue;
    const e: CryptoEntry = { name, driver, priority: Number(f.get('priority') ?? 0), type: f.get('type') ?? '' };
    if (f.has('selftest')) e.selftest = f.get('selftest')!;
    if (f.has('internal')) e.internal = f.get('internal')!;
    out.push(e);
  }
  return out;
}

// What each known AES driver is, by the innermost name ("xts(ecb(aes-fixed-time))" → aes-fixed-time).
const MEANINGS: ReadonlyArray<[RegExp, boolean, string]> = [
  [/^aes-fixed-time$/, false, 'software AES, no acceleration'],
  [/^aes-generic$/, false, 'software AES (table-based), no acceleration'],
  [/^aes-arm64-neonbs$|^aes-neonbs$|-neonbs$/, false, 'bit-sliced NEON AES, no AES instructions'],
  [/^aes-arm64$|^aes-arm$/, false, 'scalar software AES, no acceleration'],
  [/vaes/, true, 'hardware AES (VAES vector instructions)'],
  [/aesni|aes-ni/, true, 'hardware AES-NI'],
  [/-ce$|-ce-|arm64-ce/, true, 'hardware AES (ARMv8 Crypto Extensions)'],
  [/s390|paes|cpacf/, true, 'hardware AES (CPACF)'],
  [/p8|vmx|ppc/, true, 'POWER vector AES'],
];

/** "xts(ecb(aes-fixed-time))" → "aes-fixed-time"; "xts-aes-aesni" → "xts-aes-aesni". */
export function innerDriver(driver: string): string {
  let d = driver;
  for (let m = /^\w+\((.*)\)$/.exec(d); m; m = /^\w+\((.*)\)$/.exec(d)) d = m[1]!;
  return d;
}

/** The driver the kernel would use for xts(aes): the highest-priority, self-tested, non-internal
 *  one; when no xts(aes) was made yet (it is made on first use), the plain aes cipher under it. */
export function kernelCipher(entries: readonly CryptoEntry[]): KernelCipher | undefined {
  const usable = (e: CryptoEntry): boolean => e.internal !== 'yes' && (e.selftest === undefined || e.selftest === 'passed');
  const top = (name: string): CryptoEntry | undefined =>
    entries.filter((e) => e.name === name && usable(e)).sort((a, b) => b.priority - a.priority)[0];
  const e = top('xts(aes)') ?? top('aes');
  if (!e) return undefined;
  const aes = innerDriver(e.driver);
  const hit = MEANINGS.find(([re]) => re.test(aes));
  const k: KernelCipher = {
    name: e.name,
    driver: e.driver,
    priority: e.priority,
    aes,
    meaning: hit ? hit[2] : `the ${aes} driver (acceleration not known to DiskDial)`,
  };
  if (hit) k.accelerated = hit[1];
  return k;
}

/** The kernel's cipher on this machine; undefined off Linux or when /proc/crypto cannot be read. */
export async function readKernelCipher(file = '/proc/crypto'): Promise<KernelCipher | undefined> {
  if (process.platform !== 'linux' && file === '/proc/crypto') return undefined;
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : kernelCipher(parseProcCrypto(text));
}

/** `cryptsetup benchmark -c aes-xts-plain64 -s 512`'s encryption rate (MiB/s → MB/s). */
export function parseCryptsetupBenchmark(text: string): number | undefined {
  const m = /aes-xts\s+512b\s+([\d.]+)\s+MiB\/s/i.exec(text);
  return m ? (Number(m[1]) * 1024 * 1024) / 1e6 : undefined;
}
