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
import { rmSync, statfsSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeFileSet } from '../app/src/model/file-set.js';
import { TARGET, HEADROOM, parseArgs, gb, mbSize } from './bench/files-options.js';
import { cache, settle, type Pass, enginePass, fioArgs, fioPass } from './bench/files-passes.js';
import { readRounds, samples, fit, bySize } from './bench/files-rounds.js';
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
  log,
  makeBenchDir,
  median,
  MiB,
  reportOut,
  runMain,
  spreadPct,
  table,
} from './bench/common.js';

/** The set written once, the read rounds, the report (and the JSON document with --json). */
async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  cache.drop = o.drop;
  const out = reportOut(o.json);
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
      `page cache dropped before each pass: ${!o.drop ? 'no (--no-drop: sync only)' : cache.dropped ? 'yes' : 'no (not permitted: sync only)'}`,
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
  doc.cacheDropped = cache.dropped ?? false;

  return finish(doc, t0, out, o.json);
}

await runMain(main);
