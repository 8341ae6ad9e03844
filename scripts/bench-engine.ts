// DiskDial engine benchmark (not a test: it prints ratios against a reference measured in the same
// run, and never fails the build). `npm run bench:engine -- --help` for the options; the method is
// described in docs/benchmarks.md.
//
// 1. The CrystalDiskMark grid (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; read and write),
//    engine vs fio (libaio, direct) on the same pre-laid-out file, interleaved, N rounds.
// 2. Peak RSS of a child process running a 5 GB sequential write + read through runTest, next to
//    the RSS of an idle child that only loaded the addon.
// 3. The cost of progress reporting (callback at 100 ms and 20 ms vs no callback).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from './bench/engine-options.js';
import { fioArgs, fileId, gridBench, gridReport } from './bench/engine-grid.js';
import { rssBench, rssText } from './bench/engine-rss.js';
import { progressBench, progressText } from './bench/engine-progress.js';
import {
  docHead,
  engineLines,
  finish,
  headerLines,
  machine,
  f1,
  f2,
  fioSaidLines,
  fsInfo,
  GiB,
  layoutSpec,
  log,
  makeBenchDir,
  runEngine,
  reportOut,
  runMain,
} from './bench/common.js';

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  const out = reportOut(o.json);
  const t0 = performance.now();
  const m = machine(o.dir);
  const benchDir = makeBenchDir(o.dir);
  const fs = fsInfo(benchDir);
  const file = path.join(benchDir, 'grid-test.bin');

  const header = [
    'DiskDial engine benchmark',
    ...headerLines(m, benchDir, fs),
    `  size       ${o.size} B (${(o.size / GiB).toFixed(2)} GiB) test file; ${o.seconds} s per run, no warm-up for either tool`,
    `  rounds     ${o.rounds} (grid), ${o.progressRounds} (progress cost)`,
  ].join('\n');
  out(header);
  out('');

  const doc: Record<string, unknown> = {
    ...docHead('diskdial-engine', m, benchDir, fs),
    size: o.size,
    seconds: o.seconds,
    rounds: o.rounds,
    progressRounds: o.progressRounds,
  };

  if (o.grid || o.progress) {
    // Lay the file out once with the engine: a sequential write of the whole file (bytes = fileSize,
    // random data), kept for every following run of both tools.
    log(`laying out ${file} (${o.size} B of random data, engine SEQ1M Q8T1 write)...`);
    const lay = await runEngine(layoutSpec(file, o.size));
    const id = fileId(file);
    if (id.size !== o.size || id.blocks * 512 < o.size)
      throw new Error(`the laid-out file is not fully written: size ${id.size}, allocated ${id.blocks * 512}`);
    log(`  laid out in ${f2(lay.seconds)} s (${f1(lay.mbps)} MB/s), cache mode ${lay.cacheMode}, ${lay.ioEngine}`);
    doc.layout = { seconds: lay.seconds, mbps: lay.mbps, cacheMode: lay.cacheMode };
  }

  if (o.grid) {
    log('grid: engine vs fio');
    const rows = await gridBench(o, file);
    doc.fioCommand = `fio ${fioArgs(file, o.size, { rw: 'randwrite', bs: 4096, qd: 32 }, o.seconds).join(' ')}`;
    doc.grid = rows;
    out(gridReport(rows));
    out('');
    for (const line of engineLines()) out(line);
    out(`fio command (RND4K Q32T1 Write; other tests change --rw/--bs/--iodepth, reads drop --end_fsync, sequential drop --norandommap):`);
    out(`  ${String(doc.fioCommand)}`);
    for (const line of fioSaidLines()) out(line);
    out('');
  }

  if (o.progress) {
    log('progress-reporting cost');
    const rows = await progressBench(o, file);
    doc.progress = rows;
    out(progressText(rows));
    out('');
  }
  rmSync(file, { force: true });

  if (o.rss) {
    log('memory');
    const r = await rssBench(o, benchDir);
    doc.rss = r;
    out(rssText(r));
    out('');
  }

  return finish(doc, t0, out, o.json);
}

await runMain(main);
