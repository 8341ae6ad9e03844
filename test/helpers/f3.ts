// Debian's f3, the reference fake-drive finder, run and read back: f3write + f3read on a folder,
// f3probe on a block device. Its word is the ground truth of the fake drives (fake-drive.ts) and
// the yardstick of bench:verify.
import { execFile } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

/** f3read's tally, in 512-byte sectors, and how long each half took. */
export interface F3Folder {
  ok: number;
  corrupted: number;
  /** "Slightly changed": the sector names itself but a few bits differ. */
  changed: number;
  /** The sector holds another sector's data: the drive wrapped. */
  overwritten: number;
  writeSeconds: number;
  readSeconds: number;
}

export interface F3Probe {
  /** "the real thing", "a counterfeit of type limbo", "damaged"… as f3probe words it. */
  verdict: string;
  usableBytes: number;
  seconds: number;
}

/** Runs an f3 tool; f3probe exits non-zero when it finds a fake, so its word is its output. */
async function timed(cmd: string, args: string[]): Promise<{ out: string; seconds: number }> {
  const t0 = performance.now();
  const stdout = await execFileP(cmd, args, { maxBuffer: 16 << 20 }).then(
    (r) => r.stdout,
    (err: { stdout?: string; message: string }) => {
      if (!err.stdout) throw new Error(`${cmd} failed: ${err.message}`);
      return err.stdout;
    },
  );
  return { out: stdout, seconds: (performance.now() - t0) / 1000 };
}

function sectors(out: string, label: string): number {
  const m = new RegExp(`${label}: .*\\((\\d+) sectors\\)`).exec(out);
  if (!m) throw new Error(`f3read printed no "${label}" line:\n${out}`);
  return Number(m[1]);
}

/** Fills `dir` with f3write, reads it back with f3read, and removes f3's files. */
export async function f3Folder(dir: string): Promise<F3Folder> {
  const w = await timed('f3write', [dir]);
  const r = await timed('f3read', [dir]);
  for (const f of await readdir(dir)) if (/^\d+\.h2w$/.test(f)) await rm(path.join(dir, f));
  return {
    ok: sectors(r.out, 'Data OK'),
    corrupted: sectors(r.out, 'Corrupted'),
    changed: sectors(r.out, 'Slightly changed'),
    overwritten: sectors(r.out, 'Overwritten'),
    writeSeconds: w.seconds,
    readSeconds: r.seconds,
  };
}

/** f3probe --destructive on a whole block device: its verdict and the size it finds usable. */
export async function f3Probe(device: string): Promise<F3Probe> {
  const { out, seconds } = await timed('f3probe', ['--destructive', '--time-ops', device]);
  const verdict = /The device `[^']*' is (.*)$/m.exec(out)?.[1];
  const usable = /\*Usable\* size: .*\((\d+) blocks\)/.exec(out)?.[1];
  // Its blocks are the device's physical blocks: "Physical block size: 512.00 Byte (2^9 Bytes)".
  const blockLog2 = /Physical block size: .*\(2\^(\d+) Bytes\)/.exec(out)?.[1];
  if (verdict === undefined || usable === undefined || blockLog2 === undefined) throw new Error(`f3probe printed no verdict:\n${out}`);
  return { verdict, usableBytes: Number(usable) * 2 ** Number(blockLog2), seconds };
}

/** A run of blocks f3brew found alike: Good, Bad, Overwritten (holding block `found` onwards)… */
export interface F3BrewRange {
  status: string;
  from: number;
  to: number;
  found?: number;
}

export interface F3Brew {
  blockSize: number;
  ranges: F3BrewRange[];
  writeSeconds: number;
  readSeconds: number;
}

/** f3brew over a whole block device: writes every block, then reads every block back, timed apart.
 *  --reset-type=2: no USB reset (a loop device has none to give). */
export async function f3Brew(device: string): Promise<F3Brew> {
  const w = await timed('f3brew', ['--reset-type=2', '--do-not-read', device]);
  const r = await timed('f3brew', ['--reset-type=2', '--do-not-write', device]);
  const blockLog2 = /Physical block size: 2\^(\d+) Bytes/.exec(r.out)?.[1];
  if (blockLog2 === undefined) throw new Error(`f3brew printed no block size:\n${r.out}`);
  const ranges = [...r.out.matchAll(/^\[(\w+)\] from block 0x([0-9a-f]+) to block 0x([0-9a-f]+)(?:, found block 0x([0-9a-f]+))?/gm)].map(
    (m) => ({
      status: m[1]!,
      from: parseInt(m[2]!, 16),
      to: parseInt(m[3]!, 16),
      ...(m[4] ? { found: parseInt(m[4], 16) } : {}),
    }),
  );
  return { blockSize: 2 ** Number(blockLog2), ranges, writeSeconds: w.seconds, readSeconds: r.seconds };
}
