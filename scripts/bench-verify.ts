// DiskDial verify benchmark: issue 35's performance anchor (not a test: it prints figures measured
// in the same run and never fails the build). `npm run bench:verify -- --help`; the method and the
// figures are in docs/benchmarks.md ("verify").
//
// On each planted fake drive (test/helpers/fake-drive.ts: alias, drop, flip, genuine), on both
// faces (a loop device; a folder), in one run:
//   1. DiskDial's own sequential write then read of the whole drive (the engine, SEQ1M Q8T1,
//      uncached): the reference rates verify must keep ≥ 0.9× of;
//   2. f3 over the whole drive, write then read, each timed: f3write + f3read on the folder,
//      f3brew (every block written, then every block read) on the device; and its verdict, checked
//      against what was planted;
//   3. DiskDial's verify: `run DIR --test verify` on the folder, `verify --device DEV --confirm NAME`
//      on the device (see diskdialVerify() below), its verdict as the result says it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeFakeDrive, type FakeBehaviour, type FakeDrive, type FakeFace } from '../test/helpers/fake-drive.js';
import { f3Brew, f3Folder } from '../test/helpers/f3.js';
import type { EngineResult } from '../app/src/model/engine-types.js';
import type { ResultDocument } from '../app/src/model/result.js';
import { checkAbort, f1, f2, hostFacts, log, makeBenchDir, MiB, parseArgv, reportOut, runEngine, runMain, table } from './bench/common.js';

const HELP = `usage: npm run bench:verify -- [options]   (root: loop devices and FUSE)

  --claimed MIB    the size every fake reports (default 1024; a whole number of MiB)
  --real MIB       what the alias and drop fakes really store (default 384)
  --dir DIR        where the fakes' backing files go (default ${os.tmpdir()})
  --json           the figures as JSON on stdout
  --help`;

interface Options {
  claimed: number;
  real: number;
}

const BIN = path.resolve(import.meta.dirname, '../bin/diskdial.js');
const BEHAVIOURS: readonly FakeBehaviour[] = ['genuine', 'alias', 'drop', 'flip'];
const FACES: readonly FakeFace[] = ['device', 'folder'];

/** One case's figures; rates in MB/s (10^6 B/s) over the claimed size, null where not measured. */
interface Row {
  face: FakeFace;
  behaviour: FakeBehaviour;
  seqWrite: number | null;
  seqRead: number | null;
  /** Why the engine could not run here, when it could not. */
  seqNote?: string;
  f3Tool: string;
  f3WriteSeconds: number;
  f3ReadSeconds: number;
  f3Verdict: string;
  /** f3's verdict is what was planted: the bytes it calls good are exactly the intact ones. */
  f3AsPlanted: boolean;
  verify: VerifyFigures | null;
}

interface VerifyFigures {
  seconds: number;
  writeMbps: number;
  readMbps: number;
  verdict: string;
}

/** Bytes of the claimed disk that read back intact, as planted: an alias keeps the last writer of
 *  each real byte, a drop the first `real` bytes, a flip all but its flipped sectors. */
function intactBytes(behaviour: FakeBehaviour, claimed: number, real: number, flips: number[], sector: number): number {
  if (behaviour === 'alias' || behaviour === 'drop') return real;
  return claimed - new Set(flips.map((f) => Math.floor(f / sector))).size * sector;
}

/** The engine's sequential write then read of the whole drive, as `run --test seq-write/seq-read`
 *  does (1 MiB blocks, QD8, uncached). The engine takes block devices once spec.device lands. */
async function diskdialSeq(
  face: FakeFace,
  drive: FakeDrive,
  claimed: number,
): Promise<{ write: EngineResult; read: EngineResult } | string> {
  const base = { bs: MiB, qd: 8, threads: 1, pattern: 'random', cache: 'auto' } as const;
  const spec =
    face === 'device'
      ? { ...base, path: drive.device!, fileSize: claimed, device: true, keepFile: true }
      : { ...base, path: path.join(drive.folder!, 'seq.bin'), fileSize: claimed };
  try {
    const write = await runEngine({ ...spec, rw: 'write', keepFile: true });
    const read = await runEngine({ ...spec, rw: 'read' });
    return { write, read };
  } catch (err) {
    if (face === 'device' && /not a regular file/.test(String(err))) return 'the engine does not take block devices yet';
    throw err;
  }
}

/** f3 over the whole drive: f3write + f3read on the folder, f3brew on the device. */
async function f3Run(
  face: FakeFace,
  drive: FakeDrive,
  o: Options,
  behaviour: FakeBehaviour,
  flips: number[],
): Promise<Pick<Row, 'f3Tool' | 'f3WriteSeconds' | 'f3ReadSeconds' | 'f3Verdict' | 'f3AsPlanted'>> {
  const claimed = o.claimed * MiB;
  const real = behaviour === 'alias' || behaviour === 'drop' ? o.real * MiB : claimed;
  if (behaviour !== 'flip') flips = [];
  if (face === 'folder') {
    const r = await f3Folder(drive.folder!);
    const lost = [
      r.corrupted && `${r.corrupted} corrupted`,
      r.changed && `${r.changed} changed`,
      r.overwritten && `${r.overwritten} overwritten`,
    ].filter(Boolean);
    return {
      f3Tool: 'f3write+f3read',
      f3WriteSeconds: r.writeSeconds,
      f3ReadSeconds: r.readSeconds,
      f3Verdict: lost.length ? `${f1((r.ok * 512) / MiB)} MiB OK; sectors ${lost.join(', ')}` : 'all OK',
      f3AsPlanted:
        r.ok * 512 === intactBytes(behaviour, claimed, real, flips, 512) &&
        r.ok + r.corrupted + r.changed + r.overwritten === claimed / 512,
    };
  }
  const r = await f3Brew(drive.device!);
  const good = r.ranges.filter((g) => g.status === 'Good').reduce((n, g) => n + g.to - g.from + 1, 0) * r.blockSize;
  const firstBad = r.ranges.find((g) => g.status !== 'Good');
  return {
    f3Tool: 'f3brew',
    f3WriteSeconds: r.writeSeconds,
    f3ReadSeconds: r.readSeconds,
    f3Verdict: firstBad
      ? `${f1(good / MiB)} MiB good; first ${firstBad.status.toLowerCase()} at ${firstBad.from * r.blockSize} B`
      : 'all good',
    f3AsPlanted: good === intactBytes(behaviour, claimed, real, flips, r.blockSize),
  };
}

// ---------------------------------------------------------------------------------------------
// DiskDial verify, timed whole (its write pass, then its read-and-verify pass), as a user runs it:
//   folder: `node bin/diskdial.js run FOLDER --test verify --reserve 0 --json --no-save`;
//   device: `node bin/diskdial.js verify --device DEV --confirm NAME --json --no-save` (the disk
//           proven by the wizard's rules first, then written and read back in regions of it).
// The verdict is the capacity verdict as the result says it.
function diskdialVerify(face: FakeFace, drive: FakeDrive): VerifyFigures {
  const t0 = performance.now();
  const home = mkdtempSync(path.join(os.tmpdir(), 'diskdial-bench-home-'));
  const args =
    face === 'folder'
      ? ['run', drive.folder!, '--test', 'verify', '--reserve', '0', '--json', '--no-save']
      : ['verify', '--device', drive.device!, '--confirm', path.basename(drive.device!), '--json', '--no-save'];
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DISKDIAL_HOME: home },
    maxBuffer: 256 * MiB,
  });
  const seconds = (performance.now() - t0) / 1000;
  rmSync(home, { recursive: true, force: true });
  if (r.status !== 0) return { seconds, writeMbps: 0, readMbps: 0, verdict: `failed: ${r.stderr.trim().split('\n').at(-1)}` };
  const doc = JSON.parse(r.stdout) as ResultDocument;
  const rate = (rw: string): number => doc.tests.find((t) => t.rw === rw)?.mbps ?? 0;
  return { seconds, writeMbps: rate('write'), readMbps: rate('read'), verdict: doc.verify!.summary };
}

async function main(): Promise<number> {
  const opts: Options = { claimed: 1024, real: 384 };
  const o = parseArgv(process.argv.slice(2), HELP, opts, { numbers: { '--claimed': 'claimed', '--real': 'real' } });
  if (!(Number.isInteger(opts.claimed) && Number.isInteger(opts.real) && 0 < opts.real && opts.real < opts.claimed))
    throw new Error('--claimed and --real are whole MiB, with 0 < real < claimed');
  const out = reportOut(o.json);
  const t0 = performance.now();
  const dir = makeBenchDir(o.dir);
  const claimed = opts.claimed * MiB;
  // Three flips: near the start, in the middle, near the end; each past f3's 8-byte sector stamp.
  const flips = [100, Math.floor(claimed / 2) + 4000, claimed - 300];
  out('DiskDial verify benchmark: planted fake drives, f3 and DiskDial on each');
  out(`  fakes      claim ${opts.claimed} MiB; alias and drop store ${opts.real} MiB; flip flips bytes ${flips.join(', ')}`);
  out(`  host       ${hostFacts().cpu}, ${hostFacts().cores} cores, ${hostFacts().kernel}`);
  out('');

  const rows: Row[] = [];
  for (const face of FACES) {
    for (const behaviour of BEHAVIOURS) {
      checkAbort();
      const real = behaviour === 'alias' || behaviour === 'drop' ? opts.real * MiB : claimed;
      const drive = await makeFakeDrive({ face, behaviour, claimed, real, flips: behaviour === 'flip' ? flips : undefined, dir });
      try {
        log(`${face} ${behaviour}: DiskDial sequential write + read...`);
        const seq = await diskdialSeq(face, drive, claimed);
        log(`${face} ${behaviour}: f3...`);
        const f3 = await f3Run(face, drive, opts, behaviour, flips);
        const verify = diskdialVerify(face, drive);
        rows.push({
          face,
          behaviour,
          seqWrite: typeof seq === 'string' ? null : seq.write.mbps,
          seqRead: typeof seq === 'string' ? null : seq.read.mbps,
          ...(typeof seq === 'string' ? { seqNote: seq } : {}),
          ...f3,
          verify,
        });
        log(`  f3 ${f2(f3.f3WriteSeconds)} + ${f2(f3.f3ReadSeconds)} s: ${f3.f3Verdict}`);
      } finally {
        await drive.cleanup();
      }
    }
  }

  const mbps = (s: number): string => f1(claimed / s / 1e6);
  const notYet = 'not yet';
  out(
    table(
      [
        'face',
        'case',
        'DD seq W',
        'DD seq R',
        'f3 tool',
        'f3 W s',
        'f3 R s',
        'f3 W',
        'f3 R',
        'f3 verdict',
        'as planted',
        'verify s',
        'vs f3',
        'W ratio',
        'R ratio',
        'verify verdict',
      ],
      rows.map((r) => [
        r.face,
        r.behaviour,
        r.seqWrite === null ? notYet : f1(r.seqWrite),
        r.seqRead === null ? notYet : f1(r.seqRead),
        r.f3Tool,
        f2(r.f3WriteSeconds),
        f2(r.f3ReadSeconds),
        mbps(r.f3WriteSeconds),
        mbps(r.f3ReadSeconds),
        r.f3Verdict,
        r.f3AsPlanted ? 'yes' : 'NO',
        r.verify ? f2(r.verify.seconds) : notYet,
        r.verify ? f2(r.verify.seconds / (r.f3WriteSeconds + r.f3ReadSeconds)) : notYet,
        r.verify && r.seqWrite ? f2(r.verify.writeMbps / r.seqWrite) : notYet,
        r.verify && r.seqRead ? f2(r.verify.readMbps / r.seqRead) : notYet,
        r.verify ? r.verify.verdict : notYet,
      ]),
      [false, false, true, true, false, true, true, true, true, false, false, true, true, true, true, false],
    ),
  );
  out('  rates in MB/s (10^6 B/s) over the claimed size; DD = DiskDial engine, SEQ1M Q8T1 uncached');
  for (const note of new Set(rows.flatMap((r) => (r.seqNote ? [`  DD seq "not yet" on the ${r.face}: ${r.seqNote}`] : [])))) out(note);
  const secs = (performance.now() - t0) / 1000;
  out(`total ${f1(secs)} s`);
  if (o.json)
    process.stdout.write(
      `${JSON.stringify({ benchmark: 'diskdial-verify', host: hostFacts(), claimed, real: opts.real * MiB, flips, rows, durationSeconds: secs }, null, 2)}\n`,
    );
  return rows.every((r) => r.f3AsPlanted) ? 0 : 1;
}

void runMain(main);
