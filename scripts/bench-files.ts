// DiskDial many-file benchmark (not a test: it prints ratios against a reference measured in the
// same run, and never fails the build). `npm run bench:files -- --help` for the options; the method
// is described in docs/benchmarks.md.
//
// The many-file test's aggregate read rate, engine vs fio reading the same files (direct=1), side
// by side, interleaved, N rounds. Target: engine / fio >= 0.90, where fio reads the files as the
// test does — one file at a time, each from an empty queue (one job per file). fio reading the
// whole set as one stream, whose queue stays full across file boundaries, is measured too and
// reported beside it: a different workload, it shows what reading files one by one costs.
//
// - The set is drawn with makeFileSet (the app's own set: log-uniform sizes, seeded, shuffled
//   write and read orders) and written once by the engine, each file as the many-file test writes
//   it (filesPlan's spec: rw write, bs = the file's block, qd 8, one thread, random data,
//   keepFile, seed + index). That write is setup for the read rounds; its figures are shown for
//   information next to a fio write of a fresh copy of the same set.
// - Engine read pass: exactly the many-file test's read pass, one runTest per file in the set's
//   read order (filesPlan's spec), aggregate = sum of bytes / sum of each file's timed seconds.
// - fio stream pass (informational): ONE fio process reading the same files in the same order, as
//   one stream:
//     fio --name=files --rw=read --direct=1 --ioengine=libaio --iodepth=QD --bs=BS --numjobs=1
//         --directory=DIR --filename=F1:F2:... --file_service_type=sequential --output-format=json
//   With a list of existing files and no --size, fio gives every file its real size, and
//   file_service_type=sequential finishes one file before it opens the next: checked with
//   --write_iolog (each file opened once, when its turn comes, not all up front; read from offset
//   0 to its end in bs steps; closed; then the next), and checked on every run here: read.io_bytes
//   must equal the set's total. Names are relative to --directory because fio refuses an option
//   value over 4096 characters (a 100-file list of absolute paths already is); a list that would
//   still pass it (about 290 files) goes on in a further job section. A colon in a name or in the
//   directory is escaped as "\:", fio's convention. fio's block size must be the one the engine
//   uses for each file (the largest power of two up to 1 MiB dividing the file's size: 1 MiB for
//   every file when all sizes are whole MiB, as with the default and preset sets); when the read
//   order has files of different blocks, each run of consecutive files with the same block becomes
//   its own job section in the same command (--name=files-2 ... --stonewall), so every I/O of
//   both tools has the same size and the sections run one after the other; runtimes are summed.
// - fio per file (the reference of the verdict; --no-per-file skips it and falls back to the
//   stream): the same files with one fio job section per file, one after the other (--stonewall),
//   so each file starts from an empty queue and drains at its end, as the many-file test's one
//   engine test per file does — like for like. Measured: on this project's virtual disk the
//   stream is up to twice as fast as either tool file by file, even for the largest files, so a
//   verdict against the stream would measure the method, not the engine.
// - fio's figure: read.io_bytes / read.runtime. fio's JSON durations are whole milliseconds
//   (job_runtime too; elapsed is whole seconds; fio rounds each job's runtime up from its
//   microsecond count), and no latency figure adds up to a wall time at QD > 1. A stream pass
//   lasts seconds, so its millisecond is < 0.1 %; the per-file pass has one rounding per file
//   (the report says how much that can weigh). read.runtime is what fio's own bw_bytes is
//   computed from. The engine's figure is the many-file test's own: sum of EngineResult.bytes /
//   sum of EngineResult.seconds (nanosecond clock, measured phase only).
// - Interleaving: odd rounds run the engine first, even rounds fio first. Before each pass: sync,
//   and, when permitted (root), echo 3 > /proc/sys/vm/drop_caches (--no-drop: sync only). Both
//   tools do direct I/O, so this only keeps metadata and earlier buffered writes out of the picture.
import { spawnSync } from 'node:child_process';
import { rmSync, statfsSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { EngineSpec } from '../app/src/model/engine-types.js';
import {
  DEFAULT_FILES_SEED,
  FILES_PRESET_OPTIONS,
  makeFileSet,
  type FileSet,
  type FileSetEntry,
  type FileSetOptions,
} from '../app/src/model/file-set.js';
import { parseSize } from '../app/src/model/units.js';
import {
  docHead,
  engineLines,
  finish,
  headerLines,
  machine,
  engineInfo,
  f1,
  f2,
  f3,
  fioSaidLines,
  fsInfo,
  GiB,
  log,
  makeBenchDir,
  median,
  MiB,
  parseArgv,
  runEngine,
  runFioJobs,
  runMain,
  spreadPct,
  table,
} from './bench/common.js';

const TARGET = 0.9;
/** Free space left untouched on top of the set. */
const HEADROOM = GiB;

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  dir: string;
  preset: 'quick' | 'standard' | 'default';
  set: FileSetOptions;
  qd: number;
  rounds: number;
  write: boolean;
  perFile: boolean;
  drop: boolean;
  json: boolean;
}

/** The default set: small enough for a run of a few minutes on a ~1.5 GB/s disk, the presets' shape. */
const DEFAULT_SET = { count: 60, minBytes: 2e6, maxBytes: 2e8 };

const HELP = `usage: npm run bench:files -- [options]

  --dir DIR         file system to test: a fresh folder is made (and removed) inside DIR
                    (default: ${os.tmpdir()})
  --preset P        quick (40 files, 2MB-600MB, ~5 GB) or standard (160 files, 2MB-2GB, ~53 GB):
                    the many-file test's own sets (default: 60 files, 2MB-200MB, ~3.4 GB)
  --files N         number of files (overrides the preset's)
  --min-size SIZE   smallest file (overrides the preset's; 2MB = 2*10^6 bytes, 2MiB = 2*2^20,
                    as the app's --min-size)
  --max-size SIZE   largest file (overrides the preset's)
  --seed N          seed of the set (default ${DEFAULT_FILES_SEED}, the app's)
  --qd N            queue depth of both tools (default 8, the many-file test's)
  --rounds N        rounds of engine/fio read pairs (default 5, at least 3)
  --no-write        skip the informational write comparison (fio writing a fresh copy of the set)
  --no-per-file     skip the per-file fio pass (the verdict then falls back to the stream)
  --no-drop         do not drop the page cache before each pass (sync only)
  --json            print a JSON document on stdout; the human report goes to stderr
  --help`;

function parseArgs(argv: string[]): Options {
  // The set's own flags (count, sizes, seed) override the preset's figures only when given.
  const own: Omit<Options, 'dir' | 'json' | 'set'> & Partial<FileSetOptions> = {
    preset: 'default',
    qd: 8,
    rounds: 5,
    write: true,
    perFile: true,
    drop: true,
  };
  const choosePreset = (p: string): void => {
    if (p !== 'quick' && p !== 'standard') throw new Error(`--preset must be quick or standard, not ${p}`);
    own.preset = p;
  };
  const common = parseArgv(argv, HELP, own, {
    numbers: { '--qd': 'qd', '--rounds': 'rounds', '--files': 'count', '--seed': 'seed' },
    sizes: { '--min-size': 'minBytes', '--max-size': 'maxBytes' },
    size: parseSize,
    off: { '--no-write': 'write', '--no-per-file': 'perFile', '--no-drop': 'drop' },
    custom: { '--preset': choosePreset },
  });
  const { count, minBytes, maxBytes, seed, ...rest } = own;
  const over = Object.fromEntries(Object.entries({ count, minBytes, maxBytes, seed }).filter(([, v]) => v !== undefined));
  const quick = common.quick;
  const base = own.preset === 'default' ? DEFAULT_SET : FILES_PRESET_OPTIONS[own.preset];
  const o: Options = { ...rest, dir: common.dir, json: common.json, set: { ...base, seed: DEFAULT_FILES_SEED, ...over } };
  if (!Number.isInteger(o.rounds) || o.rounds < (quick ? 1 : 3)) throw new Error('--rounds must be an integer >= 3');
  if (!Number.isInteger(o.qd) || o.qd < 1 || o.qd > 64) throw new Error('--qd must be an integer from 1 to 64');
  return o;
}

const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(2)} GB`;
const mbSize = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** sync, then drop the page cache when permitted (root); silently skipped otherwise. */
let cacheDropped: boolean | undefined;
let dropCaches = true;
function settle(): void {
  spawnSync('sync');
  if (!dropCaches) return;
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    cacheDropped ??= true;
  } catch {
    cacheDropped = false;
  }
}

// ---------------------------------------------------------------------------------------------
// One pass of each tool over the set

interface Pass {
  bytes: number;
  /** Sum of the timed seconds: the engine's per-file measured phases; fio's job runtimes. */
  seconds: number;
  mbps: number;
  /** Wall time of the whole pass as this script saw it (engine: all runTest calls; fio: the process). */
  wallSeconds: number;
}

interface EnginePass extends Pass {
  /** Per file, in the order run. */
  files: Array<{ index: number; bytes: number; seconds: number }>;
}

/** The many-file test's spec for one file (presets.ts filesPlan). */
function fileSpec(dir: string, set: FileSet, e: FileSetEntry, rw: 'read' | 'write', qd: number): EngineSpec {
  return {
    path: path.join(dir, e.name),
    rw,
    bs: e.bs,
    qd,
    threads: 1,
    fileSize: e.bytes,
    pattern: 'random',
    cache: 'auto',
    keepFile: true,
    seed: set.options.seed + e.index,
  };
}

async function enginePass(dir: string, set: FileSet, rw: 'read' | 'write', qd: number): Promise<EnginePass> {
  const order = rw === 'read' ? set.readOrder : set.writeOrder;
  const files: EnginePass['files'] = [];
  const t0 = performance.now();
  for (const index of order) {
    const e = set.entries[index]!;
    const r = await runEngine(fileSpec(dir, set, e, rw, qd));
    const bytes = rw === 'read' ? r.bytesRead : r.bytesWritten;
    if (bytes !== e.bytes) throw new Error(`the engine ${rw} ${bytes} B of ${e.name}, not ${e.bytes}`);
    files.push({ index, bytes, seconds: r.seconds });
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  const bytes = files.reduce((a, f) => a + f.bytes, 0);
  const seconds = files.reduce((a, f) => a + f.seconds, 0);
  return { bytes, seconds, mbps: bytes / seconds / 1e6, wallSeconds, files };
}

/** fio's list syntax (filename, directory): items separated by ':', a ':' inside one escaped as '\:'. */
const fioName = (file: string): string => file.replace(/:/g, '\\:');
/** fio refuses a longer option value ("value exceeds max length of 4096"). */
const FIO_MAX_VALUE = 4096;

type FioMode = 'stream' | 'per-file';

/**
 * One fio command over the files in `order`, in that order.
 *  - stream (the reference): one job reading the files one after the other
 *    (file_service_type=sequential), keeping its queue full across file boundaries; one job
 *    section per run of consecutive files with the same block size (a single section for sets of
 *    whole-MiB files), the sections run one after the other (--stonewall).
 *  - per-file (the verdict's reference): one job section per file, one after the other, so each file's
 *    I/O starts from an empty queue and drains at its end, as the many-file test's one engine
 *    test per file does.
 */
function fioArgs(
  dir: string,
  set: FileSet,
  order: number[],
  rw: 'read' | 'write',
  qd: number,
  mode: FioMode = 'stream',
  prefix = '',
): string[] {
  // Names relative to --directory keep the list short; a list that would still pass fio's limit
  // on one option's length (about 290 of the set's 13-character names) goes on in a new section.
  const groups: Array<{ bs: number; files: string[]; length: number }> = [];
  for (const index of order) {
    const e = set.entries[index]!;
    const last = groups[groups.length - 1];
    const file = fioName(prefix + e.name);
    if (mode === 'stream' && last && last.bs === e.bs && last.length + 1 + file.length < FIO_MAX_VALUE) {
      last.files.push(file);
      last.length += 1 + file.length;
    } else {
      groups.push({ bs: e.bs, files: [file], length: file.length });
    }
  }
  const args: string[] = [];
  groups.forEach((g, i) => {
    args.push(
      `--name=${mode === 'stream' ? 'files' : 'file'}${groups.length > 1 ? `-${i + 1}` : ''}`,
      `--rw=${rw}`,
      '--direct=1',
      '--ioengine=libaio',
      `--iodepth=${qd}`,
      `--bs=${g.bs}`,
      '--numjobs=1',
      `--directory=${fioName(dir)}`,
      `--filename=${g.files.join(':')}`,
    );
    if (g.files.length > 1) args.push('--file_service_type=sequential');
    // The engine flushes (fdatasync) each written file inside its timed region; fio's
    // fsync_on_close does the same per file, inside its runtime.
    if (rw === 'write') args.push('--fsync_on_close=1');
    if (i > 0) args.push('--stonewall');
  });
  args.push('--output-format=json');
  return args;
}

interface FioPass extends Pass {
  jobs: number;
  /** Each job's runtime, ms (per-file mode: one per file, in the order run). */
  jobMs: number[];
}

async function fioPass(
  dir: string,
  set: FileSet,
  rw: 'read' | 'write',
  qd: number,
  mode: FioMode = 'stream',
  prefix = '',
): Promise<FioPass> {
  const order = rw === 'read' ? set.readOrder : set.writeOrder;
  const files = order.map((i) => path.join(dir, prefix + set.entries[i]!.name));
  const { jobs, wallSeconds } = await runFioJobs(fioArgs(dir, set, order, rw, qd, mode, prefix), files);
  let bytes = 0;
  let ms = 0;
  const jobMs: number[] = [];
  for (const job of jobs) {
    const d = rw === 'read' ? job.read : job.write;
    bytes += d.io_bytes;
    ms += d.runtime;
    jobMs.push(d.runtime);
  }
  // Every file read (written) exactly once, in full: fio moved exactly the set's bytes.
  if (bytes !== set.totalBytes) throw new Error(`fio ${rw} ${bytes} B, not the set's ${set.totalBytes} B`);
  const seconds = ms / 1000;
  return { bytes, seconds, mbps: bytes / seconds / 1e6, wallSeconds, jobs: jobs.length, jobMs };
}

// ---------------------------------------------------------------------------------------------
// The rounds

type Tool = 'engine' | 'fio' | 'fio-per-file';

interface Round {
  round: number;
  order: Tool[];
  engine: EnginePass;
  fio: FioPass;
  ratio: number;
  /** Informational: fio, one job per file (absent with --no-per-file). */
  perFile?: FioPass;
  perFileRatio?: number;
}

async function readRounds(o: Options, dir: string, set: FileSet): Promise<Round[]> {
  const rounds: Round[] = [];
  for (let r = 1; r <= o.rounds; r++) {
    // Odd rounds run the engine first, even rounds fio first, so neither always follows the
    // other tool's I/O. The per-file fio pass goes on the engine's other side (first
    // in odd rounds, last in even ones), so the engine is next to both fio passes in every round.
    const order: Tool[] = r % 2 ? ['engine', 'fio'] : ['fio', 'engine'];
    if (o.perFile) {
      if (r % 2) order.unshift('fio-per-file');
      else order.push('fio-per-file');
    }
    let eng: EnginePass | undefined;
    let fio: FioPass | undefined;
    let perFile: FioPass | undefined;
    for (const tool of order) {
      settle();
      if (tool === 'engine') eng = await enginePass(dir, set, 'read', o.qd);
      else if (tool === 'fio') fio = await fioPass(dir, set, 'read', o.qd);
      else perFile = await fioPass(dir, set, 'read', o.qd, 'per-file');
    }
    if (!eng || !fio) throw new Error('unreachable');
    const ratio = eng.mbps / fio.mbps;
    rounds.push({ round: r, order, engine: eng, fio, ratio, ...(perFile ? { perFile, perFileRatio: eng.mbps / perFile.mbps } : {}) });
    log(
      `  round ${r}/${o.rounds}  engine ${f1(eng.mbps).padStart(7)} MB/s in ${f3(eng.seconds)} s (wall ${f2(eng.wallSeconds)} s)` +
        `   fio ${f1(fio.mbps).padStart(7)} MB/s in ${f3(fio.seconds)} s (wall ${f2(fio.wallSeconds)} s)   ratio ${f3(ratio)}` +
        (perFile ? `   fio per file ${f1(perFile.mbps).padStart(7)} MB/s in ${f3(perFile.seconds)} s` : ''),
    );
  }
  return rounds;
}

/** Per-file samples of one tool over all rounds: the file's size and its timed seconds. */
function samples(set: FileSet, rounds: Round[], tool: 'engine' | 'fio-per-file'): Array<{ index: number; bytes: number; seconds: number }> {
  const xs: Array<{ index: number; bytes: number; seconds: number }> = [];
  for (const r of rounds) {
    if (tool === 'engine') xs.push(...r.engine.files);
    else if (r.perFile)
      r.perFile.jobMs.forEach((ms, k) => {
        const e = set.entries[set.readOrder[k]!]!;
        xs.push({ index: e.index, bytes: e.bytes, seconds: ms / 1000 });
      });
  }
  return xs;
}

/** Least squares seconds = fixed + bytes / rate over per-file samples. */
function fit(xs: ReadonlyArray<{ bytes: number; seconds: number }>): { fixedMs: number; rateMBps: number } | undefined {
  const n = xs.length;
  if (n < 3) return undefined;
  const mx = xs.reduce((a, x) => a + x.bytes, 0) / n;
  const my = xs.reduce((a, x) => a + x.seconds, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const x of xs) {
    sxx += (x.bytes - mx) ** 2;
    sxy += (x.bytes - mx) * (x.seconds - my);
  }
  if (!(sxx > 0) || !(sxy > 0)) return undefined;
  const slope = sxy / sxx;
  return { fixedMs: (my - slope * mx) * 1000, rateMBps: 1 / slope / 1e6 };
}

interface SizeClass {
  label: string;
  files: number;
  bytes: number;
  engineMBps: number;
  perFileMBps: number;
  engineMeanMs: number;
  perFileMeanMs: number;
}

/** Per-file rates by size class (thirds of the set by size), over all rounds. */
function bySize(set: FileSet, rounds: Round[]): SizeClass[] {
  const sorted = [...set.entries].sort((a, b) => a.bytes - b.bytes);
  const third = Math.ceil(sorted.length / 3);
  const classes = [sorted.slice(0, third), sorted.slice(third, 2 * third), sorted.slice(2 * third)].filter((c) => c.length);
  const eng = samples(set, rounds, 'engine');
  const per = samples(set, rounds, 'fio-per-file');
  return classes.map((c) => {
    const ids = new Set(c.map((e) => e.index));
    const sum = (xs: typeof eng): { bytes: number; seconds: number; n: number } =>
      xs
        .filter((x) => ids.has(x.index))
        .reduce((a, x) => ({ bytes: a.bytes + x.bytes, seconds: a.seconds + x.seconds, n: a.n + 1 }), { bytes: 0, seconds: 0, n: 0 });
    const e = sum(eng);
    const p = sum(per);
    return {
      label: `${mbSize(c[0]!.bytes)} - ${mbSize(c[c.length - 1]!.bytes)}`,
      files: c.length,
      bytes: c.reduce((a, x) => a + x.bytes, 0),
      engineMBps: e.bytes / e.seconds / 1e6,
      perFileMBps: p.n ? p.bytes / p.seconds / 1e6 : NaN,
      engineMeanMs: (e.seconds / e.n) * 1000,
      perFileMeanMs: p.n ? (p.seconds / p.n) * 1000 : NaN,
    };
  });
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  dropCaches = o.drop;
  const out = (s: string): void => {
    (o.json ? process.stderr : process.stdout).write(`${s}\n`);
  };
  const t0 = performance.now();
  const m = machine(o.dir);
  const set = makeFileSet(o.set);
  const st = statfsSync(o.dir);
  const free = st.bavail * st.bsize;
  if (free < set.totalBytes + HEADROOM) {
    throw new Error(
      `not enough free space in ${o.dir}: the set needs ${gb(set.totalBytes)} plus ${gb(HEADROOM)} head-room, ${gb(free)} free ` +
        `(use a smaller set: --files, --max-size)`,
    );
  }
  const benchDir = makeBenchDir(o.dir);
  const fs = fsInfo(benchDir);
  const sizes = set.entries.map((e) => e.bytes);
  const blocks = [...new Set(set.entries.map((e) => e.bs))].sort((a, b) => b - a);

  const header = [
    'DiskDial many-file benchmark: aggregate read rate, engine vs fio on the same files',
    ...headerLines(m, benchDir, fs),
    `  set        ${o.preset === 'default' ? 'bench default' : `preset ${o.preset}`}: ${set.entries.length} files, ` +
      `${mbSize(o.set.minBytes)} - ${mbSize(o.set.maxBytes)} log-uniform, seed ${o.set.seed}; ` +
      `drawn ${mbSize(Math.min(...sizes))} - ${mbSize(Math.max(...sizes))}, median ${mbSize(median(sizes))}, total ${set.totalBytes} B (${gb(set.totalBytes)})`,
    `  I/O        QD${o.qd}, 1 thread, block ${blocks.map((b) => (b >= MiB ? `${b / MiB} MiB` : `${b / 1024} KiB`)).join(' / ')} (per file: largest power of two <= 1 MiB dividing its size)`,
    `  rounds     ${o.rounds}: engine first in odd rounds, fio first in even ones` +
      (o.perFile ? ' (fio per file: before the engine in odd rounds, after it in even ones)' : ''),
    `  settle     sync${o.drop ? ' + echo 3 > /proc/sys/vm/drop_caches (when permitted)' : ''} before each pass`,
  ].join('\n');
  out(header);
  out('');

  const doc: Record<string, unknown> = {
    ...docHead('diskdial-files', m, benchDir, fs),
    set: {
      preset: o.preset,
      options: set.options,
      totalBytes: set.totalBytes,
      entries: set.entries,
      writeOrder: set.writeOrder,
      readOrder: set.readOrder,
    },
    qd: o.qd,
    rounds: o.rounds,
    dropCaches: o.drop,
    target: TARGET,
  };

  // Write (informational): fio writes a fresh copy of the set (files of the right size made as the
  // engine makes them, by ftruncate, so both tools write into sparse files), which is then removed;
  // then the engine writes the set the read rounds use, as the many-file test writes it.
  let fioWrite: Pass | undefined;
  if (o.write) {
    log(`write (informational): fio writes a fresh copy of the set (${gb(set.totalBytes)})...`);
    for (const e of set.entries) {
      const f = path.join(benchDir, `fio-${e.name}`);
      writeFileSync(f, '');
      truncateSync(f, e.bytes);
    }
    settle();
    fioWrite = await fioPass(benchDir, set, 'write', o.qd, 'stream', 'fio-');
    log(`  fio    ${f1(fioWrite.mbps)} MB/s in ${f2(fioWrite.seconds)} s (wall ${f2(fioWrite.wallSeconds)} s)`);
    for (const e of set.entries) rmSync(path.join(benchDir, `fio-${e.name}`), { force: true });
  }
  log(`writing the set with the engine (${set.entries.length} files, ${gb(set.totalBytes)}, write order)...`);
  settle();
  const engWrite = await enginePass(benchDir, set, 'write', o.qd);
  for (const e of set.entries) {
    const s = statSync(path.join(benchDir, e.name));
    if (s.size !== e.bytes || s.blocks * 512 < e.bytes)
      throw new Error(`${e.name} is not fully written: size ${s.size}, allocated ${s.blocks * 512}`);
  }
  log(`  engine ${f1(engWrite.mbps)} MB/s in ${f2(engWrite.seconds)} s (wall ${f2(engWrite.wallSeconds)} s)`);

  log('read: engine vs fio');
  const rounds = await readRounds(o, benchDir, set);
  const ratioMedian = median(rounds.map((r) => r.ratio));
  const engMedian = median(rounds.map((r) => r.engine.mbps));
  const fioMedian = median(rounds.map((r) => r.fio.mbps));
  // The verdict is like for like (fio one job per file) unless that pass was skipped.
  const fioCmd = `fio ${fioArgs(benchDir, set, set.readOrder, 'read', o.qd).join(' ')}`;

  const withPer = rounds.filter((r) => r.perFile);
  const perRound = table(
    [
      'round',
      'order',
      'engine MB/s',
      'fio MB/s',
      'ratio',
      'engine s',
      'fio s',
      'engine wall s',
      'fio wall s',
      ...(withPer.length ? ['fio per file MB/s', 'ratio'] : []),
    ],
    rounds.map((r) => [
      String(r.round),
      r.order.map((t) => (t === 'engine' ? 'E' : t === 'fio' ? 'F' : 'P')).join(''),
      f1(r.engine.mbps),
      f1(r.fio.mbps),
      f3(r.ratio),
      f3(r.engine.seconds),
      f3(r.fio.seconds),
      f2(r.engine.wallSeconds),
      f2(r.fio.wallSeconds),
      ...(withPer.length ? [f1(r.perFile?.mbps ?? NaN), f3(r.perFileRatio ?? NaN)] : []),
    ]),
    [true, false, true, true, true, true, true, true, true, true, true],
  );
  const classes = bySize(set, rounds);
  const classTable = table(
    ['file size', 'files', 'bytes', 'engine MB/s', 'fio per file MB/s', 'engine ms', 'fio per file ms'],
    classes.map((c) => [
      c.label,
      String(c.files),
      gb(c.bytes),
      f1(c.engineMBps),
      f1(c.perFileMBps),
      f2(c.engineMeanMs),
      f2(c.perFileMeanMs),
    ]),
    [false, true, true, true, true, true, true],
    ['', '', '', '', '', 'per file', 'per file'],
  );
  const engFit = fit(samples(set, rounds, 'engine'));
  const perFit = fit(samples(set, rounds, 'fio-per-file'));
  const fitLine = (name: string, f: ReturnType<typeof fit>): string =>
    f ? `  ${name.padEnd(13)} ${f2(f.fixedMs).padStart(6)} ms per file + bytes at ${f1(f.rateMBps)} MB/s` : `  ${name.padEnd(13)} -`;
  const engOverheadMs = median(rounds.map((r) => ((r.engine.wallSeconds - r.engine.seconds) / set.entries.length) * 1000));
  const perMedian = withPer.length ? median(withPer.map((r) => r.perFile!.mbps)) : NaN;
  const perRatio = withPer.length ? median(withPer.map((r) => r.perFileRatio!)) : NaN;
  const verdictRatio = withPer.length ? perRatio : ratioMedian;
  const pass = verdictRatio >= TARGET;
  out(
    [
      `Read: aggregate rate of the whole set (bytes / timed seconds; MB = 10^6 bytes). engine = the many-file`,
      `test's read pass (one runTest per file, sum of the timed seconds); fio = one process reading the same`,
      `files in the same order, one stream (read.io_bytes / read.runtime); fio per file (the verdict's reference) = one`,
      `fio job per file, one after the other (sum of the job runtimes). order: E engine, F fio, P fio per file.`,
      `wall = the pass as this script saw it (engine: every runTest call, setup included; fio: the process).`,
      '',
      perRound,
      '',
      `median engine ${f1(engMedian)} MB/s, fio ${f1(fioMedian)} MB/s (spread ${f1(spreadPct(rounds.map((r) => r.engine.mbps)))}% / ${f1(spreadPct(rounds.map((r) => r.fio.mbps)))}%)`,
      ...(withPer.length
        ? [
            `ratio engine / fio per file (like for like): median of rounds ${f3(perRatio)} (rounds ${f3(Math.min(...withPer.map((r) => r.perFileRatio!)))} .. ${f3(Math.max(...withPer.map((r) => r.perFileRatio!)))}; ` +
              `fio per file median ${f1(perMedian)} MB/s; fio rounds each job's runtime up to a whole ms, which lowers its figure by about ${f1((0.5 * set.entries.length) / 10 / median(withPer.map((r) => r.perFile!.seconds)))}%)` +
              `  target >= ${f2(TARGET)}: ${pass ? 'ok' : 'BELOW'}`,
            `informational: engine / fio as one stream: median of rounds ${f3(ratioMedian)} (ratio of medians ${f3(engMedian / fioMedian)}; rounds ${f3(Math.min(...rounds.map((r) => r.ratio)))} .. ${f3(Math.max(...rounds.map((r) => r.ratio)))}) — what reading the files one by one costs on this disk`,
          ]
        : [
            `ratio engine / fio stream: median of rounds ${f3(ratioMedian)} (ratio of medians ${f3(engMedian / fioMedian)}; rounds ${f3(Math.min(...rounds.map((r) => r.ratio)))} .. ${f3(Math.max(...rounds.map((r) => r.ratio)))})` +
              `  target >= ${f2(TARGET)}: ${pass ? 'ok' : 'BELOW'} (--no-per-file: against the stream, not like for like)`,
          ]),
      '',
      'Per-file read rates by file size (all rounds; thirds of the set by size):',
      classTable,
      '',
      'Per-file fit, timed seconds = fixed + bytes / rate (least squares over every file of every round):',
      fitLine('engine', engFit),
      ...(withPer.length ? [fitLine('fio per file', perFit)] : []),
      `  (the fio stream pays no per-file cost of this kind: its queue stays full across file boundaries)`,
      `engine time outside the timed region (runTest setup and teardown): ${f1(engOverheadMs)} ms per file (median over rounds)`,
      '',
      `Write (informational, one pass each, not a verdict): engine ${f1(engWrite.mbps)} MB/s in ${f2(engWrite.seconds)} s` +
        (fioWrite
          ? `, fio ${f1(fioWrite.mbps)} MB/s in ${f2(fioWrite.seconds)} s (one stream over a fresh copy, --fsync_on_close=1), ratio ${f3(engWrite.mbps / fioWrite.mbps)}`
          : ' (fio write skipped: --no-write)'),
      '',
      ...engineLines(),
      `page cache dropped before each pass: ${!o.drop ? 'no (--no-drop: sync only)' : cacheDropped ? 'yes' : 'no (not permitted: sync only)'}`,
      `fio command (read, stream; the write pass uses --rw=write --fsync_on_close=1 on fio-<name> copies in write`,
      `order; the per-file pass has one --name=file-K --filename=<one file> section per file, each but the first with --stonewall):`,
      `  ${fioCmd.length > 600 ? `${fioCmd.slice(0, 400)} ... ${fioCmd.slice(-160)}` : fioCmd}`,
      ...fioSaidLines(),
    ].join('\n'),
  );
  out('');

  doc.fioCommand = fioCmd;
  doc.write = { engine: { ...engWrite }, fio: fioWrite ?? null };
  doc.read = {
    rounds,
    engineMedianMBps: engMedian,
    fioMedianMBps: fioMedian,
    ratioMedianOfRounds: ratioMedian,
    verdictAgainst: withPer.length ? 'fio per file' : 'fio stream',
    verdictRatio,
    ratioOfMedians: engMedian / fioMedian,
    pass,
    perFileMedianMBps: perMedian,
    perFileRatioMedianOfRounds: perRatio,
    bySize: classes,
    fit: { engine: engFit ?? null, fioPerFile: perFit ?? null },
    engineOutsideTimedMsPerFile: engOverheadMs,
  };
  doc.engine = { cacheModes: [...engineInfo.cacheModes], ioEngines: [...engineInfo.ioEngines], notes: [...engineInfo.notes] };
  doc.cacheDropped = cacheDropped ?? false;

  return finish(doc, t0, out, o.json);
}

await runMain(main);
