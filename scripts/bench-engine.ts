// DiskDial engine benchmark (not a test: it prints ratios against a reference measured in the same
// run, and never fails the build). `npm run bench:engine -- --help` for the options; the method is
// described in docs/benchmarks.md.
//
// 1. The CrystalDiskMark grid (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; read and write),
//    engine vs fio (libaio, direct) on the same pre-laid-out file, interleaved, N rounds.
// 2. Peak RSS of a child process running a 5 GB sequential write + read through runTest, next to
//    the RSS of an idle child that only loaded the addon.
// 3. The cost of progress reporting (callback at 100 ms and 20 ms vs no callback).
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineProgress, EngineSpec } from '../app/src/model/engine-types.js';
import {
  checkAbort,
  docHead,
  engineLines,
  finish,
  headerLines,
  machine,
  f1,
  f2,
  f3,
  fioSaidLines,
  fsInfo,
  GiB,
  layoutSpec,
  log,
  makeBenchDir,
  median,
  MiB,
  parseArgv,
  ROOT,
  runChild,
  runEngine,
  runFioJobs,
  runMain,
  spreadPct,
  table,
} from './bench/common.js';

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  dir: string;
  size: number;
  rounds: number;
  progressRounds: number;
  seconds: number;
  rssSize: number;
  rss: boolean;
  progress: boolean;
  grid: boolean;
  json: boolean;
}

const HELP = `usage: npm run bench:engine -- [options]

  --dir DIR         file system to test: a fresh folder is made (and removed) inside DIR
                    (default: ${os.tmpdir()})
  --size SIZE       test file size for the grid and progress tests (default 1GiB; K/M/G = KiB/MiB/GiB,
                    or plain bytes such as 5e9)
  --rounds N        rounds of engine/fio pairs (default 3, at least 3)
  --progress-rounds N
                    rounds of the progress-cost test (default 5, at least 3): the effect looked for
                    (1 %) is far below this kind of disk's run-to-run noise, so it needs more pairs
  --seconds S       length of every timed run (default 3)
  --rss-size SIZE   bytes written then read in the memory test (default 5e9)
  --no-rss          skip the memory test
  --no-progress     skip the progress-cost test
  --no-grid         skip the engine-vs-fio grid
  --json            print a JSON document on stdout; the human report goes to stderr
  --help`;

function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)\s*([kmgt]?)(i?b?)$/i.exec(s.trim());
  if (!m) throw new Error(`not a size: ${s}`);
  const unit = (m[2] ?? '').toLowerCase();
  const mult = unit === 'k' ? 1024 : unit === 'm' ? MiB : unit === 'g' ? GiB : unit === 't' ? GiB * 1024 : 1;
  return Math.floor(Number(m[1]) * mult);
}

function parseArgs(argv: string[]): Options {
  const own = {
    size: GiB,
    rounds: 3,
    progressRounds: 5,
    seconds: 3,
    rssSize: 5e9,
    rss: true,
    progress: true,
    grid: true,
  };
  const common = parseArgv(argv, HELP, own, {
    numbers: { '--rounds': 'rounds', '--progress-rounds': 'progressRounds', '--seconds': 'seconds' },
    sizes: { '--size': 'size', '--rss-size': 'rssSize' },
    size: parseSize,
    off: { '--no-rss': 'rss', '--no-progress': 'progress', '--no-grid': 'grid' },
  });
  const o: Options = { ...own, dir: common.dir, json: common.json };
  const quick = common.quick;
  if (!Number.isInteger(o.rounds) || o.rounds < (quick ? 1 : 3)) throw new Error('--rounds must be an integer >= 3');
  if (!Number.isInteger(o.progressRounds) || o.progressRounds < (quick ? 1 : 3))
    throw new Error('--progress-rounds must be an integer >= 3');
  if (!(o.seconds > 0)) throw new Error('--seconds must be > 0');
  o.size -= o.size % MiB; // a whole number of 1 MiB blocks, so both tools cover the same region
  if (o.size < 64 * MiB) throw new Error('--size must be at least 64 MiB');
  o.rssSize -= o.rssSize % MiB;
  return o;
}

const fInt = (x: number): string => (Number.isFinite(x) ? Math.round(x).toString() : '-');
const mb = (kb: number | null): number => (kb == null ? NaN : (kb * 1024) / 1e6);

function statusKb(pid: number, field: string): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null; // the process is gone
  }
}

// ---------------------------------------------------------------------------------------------
// One run of each tool

interface Sample {
  mbps: number;
  iops: number;
  seconds: number;
}

type GridRw = 'read' | 'write' | 'randread' | 'randwrite';

interface GridTest {
  name: string; // "SEQ1M Q8T1 Read"
  rw: GridRw;
  bs: number;
  qd: number;
  random: boolean;
  target: number;
}

const GRID: GridTest[] = [];
for (const [label, bs, qd, random] of [
  ['SEQ1M Q8T1', MiB, 8, false],
  ['SEQ1M Q1T1', MiB, 1, false],
  ['RND4K Q32T1', 4096, 32, true],
  ['RND4K Q1T1', 4096, 1, true],
] as const) {
  for (const dir of ['read', 'write'] as const) {
    GRID.push({
      name: `${label} ${dir === 'read' ? 'Read' : 'Write'}`,
      rw: random ? (dir === 'read' ? 'randread' : 'randwrite') : dir,
      bs,
      qd,
      random,
      target: random ? 0.9 : 0.95,
    });
  }
}

function engineSpec(file: string, size: number, t: { rw: GridRw; bs: number; qd: number }, seconds: number): EngineSpec {
  return {
    path: file,
    rw: t.rw,
    bs: t.bs,
    qd: t.qd,
    threads: 1,
    fileSize: size,
    seconds, // bytes omitted: bounded by time only; sequential runs wrap around the file
    pattern: 'random',
    cache: 'auto',
    keepFile: true, // the file is shared with fio and the following runs
  };
}

function fioArgs(file: string, size: number, t: { rw: GridRw; bs: number; qd: number }, seconds: number): string[] {
  const runtime = Number.isInteger(seconds) ? String(seconds) : `${Math.round(seconds * 1000)}ms`;
  const args = [
    '--name=diskdial-bench',
    `--filename=${file}`,
    `--size=${size}`,
    '--direct=1',
    '--ioengine=libaio',
    `--rw=${t.rw}`,
    `--bs=${t.bs}`,
    `--iodepth=${t.qd}`,
    '--numjobs=1',
    '--time_based',
    `--runtime=${runtime}`,
    '--output-format=json',
  ];
  // The engine draws random offsets uniformly with replacement; fio's default random map instead
  // visits every block once per pass. --norandommap makes fio draw like the engine.
  if (t.rw === 'randread' || t.rw === 'randwrite') args.push('--norandommap');
  // The engine flushes (fdatasync) inside its timed region; fio's end_fsync is inside its runtime.
  if (t.rw === 'write' || t.rw === 'randwrite') args.push('--end_fsync=1');
  return args;
}

interface FileId {
  ino: number;
  size: number;
  blocks: number;
}
const fileId = (file: string): FileId => {
  const st = statSync(file);
  return { ino: st.ino, size: st.size, blocks: st.blocks };
};

async function runFio(file: string, size: number, t: GridTest, seconds: number): Promise<Sample> {
  const job = (await runFioJobs(fioArgs(file, size, t, seconds), [file])).jobs[0]!;
  const d = t.rw === 'read' || t.rw === 'randread' ? job.read : job.write;
  return { mbps: d.bw_bytes / 1e6, iops: d.iops, seconds: d.runtime / 1000 };
}

// ---------------------------------------------------------------------------------------------
// 1. The grid

interface GridRow {
  test: string;
  rw: GridRw;
  bs: number;
  qd: number;
  target: number;
  rounds: Array<{ engine: Sample; fio: Sample; ratio: number }>;
  engineMedianMBps: number;
  fioMedianMBps: number;
  engineMedianIops: number;
  fioMedianIops: number;
  ratioMedianOfRounds: number;
  ratioOfMedians: number;
  engineSpreadPct: number;
  fioSpreadPct: number;
  pass: boolean;
}

async function gridBench(o: Options, file: string): Promise<GridRow[]> {
  const rounds = new Map<string, GridRow['rounds']>(GRID.map((t) => [t.name, []]));
  for (let r = 1; r <= o.rounds; r++) {
    for (const t of GRID) {
      // Odd rounds run the engine first, even rounds fio first, so neither always follows the
      // other tool's (or the previous test's) I/O.
      let eng: Sample | undefined;
      let fio: Sample | undefined;
      for (const tool of r % 2 ? ['engine', 'fio'] : ['fio', 'engine']) {
        if (tool === 'engine') {
          const e = await runEngine(engineSpec(file, o.size, t, o.seconds));
          eng = { mbps: e.mbps, iops: e.iops, seconds: e.seconds };
        } else {
          fio = await runFio(file, o.size, t, o.seconds);
        }
      }
      if (!eng || !fio) throw new Error('unreachable');
      rounds.get(t.name)!.push({ engine: eng, fio, ratio: eng.mbps / fio.mbps });
      log(
        `  round ${r}/${o.rounds}  ${t.name.padEnd(17)} engine ${f1(eng.mbps).padStart(7)} MB/s ${fInt(eng.iops).padStart(7)} IOPS` +
          `   fio ${f1(fio.mbps).padStart(7)} MB/s ${fInt(fio.iops).padStart(7)} IOPS   ratio ${f3(eng.mbps / fio.mbps)}`,
      );
    }
  }
  return GRID.map((t) => {
    const rs = rounds.get(t.name)!;
    const em = median(rs.map((x) => x.engine.mbps));
    const fm = median(rs.map((x) => x.fio.mbps));
    const ratio = median(rs.map((x) => x.ratio));
    return {
      test: t.name,
      rw: t.rw,
      bs: t.bs,
      qd: t.qd,
      target: t.target,
      rounds: rs,
      engineMedianMBps: em,
      fioMedianMBps: fm,
      engineMedianIops: median(rs.map((x) => x.engine.iops)),
      fioMedianIops: median(rs.map((x) => x.fio.iops)),
      ratioMedianOfRounds: ratio,
      ratioOfMedians: em / fm,
      engineSpreadPct: spreadPct(rs.map((x) => x.engine.mbps)),
      fioSpreadPct: spreadPct(rs.map((x) => x.fio.mbps)),
      pass: ratio >= t.target,
    };
  });
}

function gridReport(rows: GridRow[]): string {
  const main = table(
    ['test', 'engine MB/s', 'fio MB/s', 'ratio', 'ratio', 'engine', 'fio', 'target', 'verdict'],
    rows.map((g) => [
      g.test,
      f1(g.engineMedianMBps),
      f1(g.fioMedianMBps),
      f3(g.ratioMedianOfRounds),
      f3(g.ratioOfMedians),
      `${f1(g.engineSpreadPct)}%`,
      `${f1(g.fioSpreadPct)}%`,
      `>= ${f2(g.target)}`,
      g.pass ? 'PASS' : 'BELOW',
    ]),
    [false, true, true, true, true, true, true, false, false],
    ['', '', '', 'median', 'of', 'spread', 'spread'],
  );
  const detail = table(
    ['test', ...rows[0]!.rounds.map((_, i) => `round ${i + 1}: engine / fio MB/s (ratio)`)],
    rows.map((g) => [g.test, ...g.rounds.map((x) => `${f1(x.engine.mbps)} / ${f1(x.fio.mbps)} (${f3(x.ratio)})`)]),
  );
  const iops = table(
    ['test', 'engine IOPS', 'fio IOPS'],
    rows.filter((g) => g.bs === 4096).map((g) => [g.test, fInt(g.engineMedianIops), fInt(g.fioMedianIops)]),
    [false, true, true],
  );
  return [
    'Engine vs fio, medians over rounds. ratio median = median of the per-round ratios engine / fio (the',
    'verdict); ratio of = ratio of the medians; spread = (max - min) / median over rounds.',
    '',
    main,
    '',
    'Per round (odd rounds ran the engine first, even rounds fio first):',
    detail,
    '',
    'Random tests in IOPS (medians):',
    iops,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// 2. Peak RSS

interface RssRun {
  sampledPeakKb: number;
  samples: number;
  hwmKb: number | null; // VmHWM, as the child itself read it before exiting
  maxRssKb: number | null; // process.resourceUsage().maxRSS
  child: Record<string, unknown>;
  seconds: number;
}

async function rssChild(args: string[]): Promise<RssRun> {
  checkAbort();
  let peak = 0;
  let samples = 0;
  let timer: NodeJS.Timeout | undefined;
  const t0 = performance.now();
  const r = await runChild(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench-rss-child.ts'), ...args], (c) => {
    const sample = (): void => {
      const kb = c.pid ? statusKb(c.pid, 'VmRSS') : null;
      if (kb != null) {
        samples++;
        peak = Math.max(peak, kb);
      }
    };
    sample();
    timer = setInterval(sample, 50);
  });
  clearInterval(timer);
  checkAbort();
  if (r.code !== 0) throw new Error(`the RSS child failed (${r.code ?? r.signal}): ${r.stderr.trim()}`);
  const line = r.stdout.trim().split('\n').pop() ?? '{}';
  const child = JSON.parse(line) as Record<string, unknown> & { maxRssKb?: number; vmHwmKb?: number };
  return {
    sampledPeakKb: peak,
    samples,
    hwmKb: child.vmHwmKb ?? null,
    maxRssKb: child.maxRssKb ?? null,
    child,
    seconds: (performance.now() - t0) / 1000,
  };
}

interface RssReport {
  bytes: number;
  idle: RssRun;
  run: RssRun;
  engineShareMB: number;
  totalPeakMB: number;
  target: number;
  pass: boolean;
  fileDeleted: boolean;
}

async function rssBench(o: Options, dir: string): Promise<RssReport> {
  log(`  memory: idle child (addon loaded only)...`);
  const idle = await rssChild(['idle', '1500']);
  log(`  memory: ${(o.rssSize / 1e9).toFixed(2)} GB sequential write + read in a child...`);
  const run = await rssChild(['run', dir, String(o.rssSize)]);
  const peakOf = (x: RssRun): number => Math.max(x.sampledPeakKb, x.hwmKb ?? 0, x.maxRssKb ?? 0);
  const totalPeakMB = mb(peakOf(run));
  const engineShareMB = totalPeakMB - mb(peakOf(idle));
  const fileDeleted = run.child.fileLeft === false && !existsSync(path.join(dir, 'rss-test.bin'));
  return { bytes: o.rssSize, idle, run, engineShareMB, totalPeakMB, target: 100, pass: engineShareMB < 100, fileDeleted };
}

function rssText(r: RssReport): string {
  const row = (name: string, x: RssRun): string[] => [
    name,
    f1(mb(x.sampledPeakKb)),
    String(x.samples),
    f1(mb(x.hwmKb)),
    f1(mb(x.maxRssKb)),
    f1(x.seconds),
  ];
  const w = r.run.child.write as { mbps?: number; seconds?: number; cacheMode?: string } | undefined;
  const rd = r.run.child.read as { mbps?: number; seconds?: number } | undefined;
  return [
    `Peak RSS (MB = 10^6 bytes), ${(r.bytes / 1e9).toFixed(2)} GB SEQ1M Q8T1 write then read through runTest in a child process,`,
    'VmRSS sampled every 50 ms by the parent; VmHWM and resourceUsage().maxRSS read by the child before exiting.',
    '',
    table(
      ['child', 'sampled peak', 'samples', 'VmHWM', 'maxRSS', 'wall s'],
      [row('idle (addon loaded)', r.idle), row('write + read', r.run)],
      [false, true, true, true, true, true],
    ),
    '',
    `  write ${f1(w?.mbps ?? NaN)} MB/s in ${f2(w?.seconds ?? NaN)} s, read ${f1(rd?.mbps ?? NaN)} MB/s in ${f2(rd?.seconds ?? NaN)} s, ` +
      `${String(r.run.child.progressCalls)} progress callbacks; test file deleted by the engine: ${r.fileDeleted ? 'yes' : 'NO'}`,
    `  whole process peak ${f1(r.totalPeakMB)} MB; engine's share (peak - idle peak) ${f1(r.engineShareMB)} MB` +
      `  target < ${r.target} MB: ${r.pass ? 'PASS' : 'BELOW'}`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// 3. Cost of progress reporting

type Variant = 'none' | 'cb100' | 'cb20';
const VARIANTS: Variant[] = ['none', 'cb100', 'cb20'];
const VARIANT_LABEL: Record<Variant, string> = {
  none: 'no callback (null)',
  cb100: 'callback, 100 ms (default)',
  cb20: 'callback, 20 ms',
};

interface ProgressRow {
  test: string;
  metric: 'IOPS' | 'MB/s';
  rounds: Array<Record<Variant, { value: number; calls: number }>>;
  median: Record<Variant, number>;
  /** 1 - variant/none, %, from the medians and as the median of per-round pairs. */
  costOfMediansPct: Record<Variant, number>;
  costMedianOfRoundsPct: Record<Variant, number>;
  noneSpreadPct: number;
  target: number;
  pass: boolean;
}

async function progressBench(o: Options, file: string): Promise<ProgressRow[]> {
  const tests = [
    { test: 'RND4K Q32T1 Read', rw: 'randread' as const, bs: 4096, qd: 32, metric: 'IOPS' as const },
    { test: 'SEQ1M Q8T1 Read', rw: 'read' as const, bs: MiB, qd: 8, metric: 'MB/s' as const },
  ];
  const all = new Map<string, ProgressRow['rounds']>(tests.map((t) => [t.test, []]));
  for (let r = 0; r < o.progressRounds; r++) {
    for (const t of tests) {
      const round = {} as Record<Variant, { value: number; calls: number }>;
      // Rotate the order each round so no variant always runs first.
      const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
      for (const v of order) {
        const spec = engineSpec(file, o.size, t, o.seconds);
        if (v === 'cb20') spec.progressIntervalMs = 20;
        let calls = 0;
        let last: EngineProgress | undefined;
        const cb =
          v === 'none'
            ? undefined
            : (p: EngineProgress): void => {
                calls++;
                last = p; // what a UI would do: keep the latest figure
              };
        const res = await runEngine(spec, cb);
        void last;
        round[v] = { value: t.metric === 'IOPS' ? res.iops : res.mbps, calls };
      }
      all.get(t.test)!.push(round);
      log(
        `  round ${r + 1}/${o.progressRounds}  ${t.test.padEnd(17)} ` +
          VARIANTS.map((v) => `${v} ${t.metric === 'IOPS' ? fInt(round[v].value) : f1(round[v].value)} ${t.metric}`).join('   '),
      );
    }
  }
  return tests.map((t) => {
    const rounds = all.get(t.test)!;
    const med = {} as Record<Variant, number>;
    const costM = {} as Record<Variant, number>;
    const costR = {} as Record<Variant, number>;
    for (const v of VARIANTS) med[v] = median(rounds.map((x) => x[v].value));
    for (const v of VARIANTS) {
      costM[v] = (1 - med[v] / med.none) * 100;
      costR[v] = median(rounds.map((x) => (1 - x[v].value / x.none.value) * 100));
    }
    return {
      test: t.test,
      metric: t.metric,
      rounds,
      median: med,
      costOfMediansPct: costM,
      costMedianOfRoundsPct: costR,
      noneSpreadPct: spreadPct(rounds.map((x) => x.none.value)),
      target: 1,
      pass: costR.cb100 <= 1,
    };
  });
}

function costRange(r: ProgressRow, v: Variant): string {
  const costs = r.rounds.map((x) => (1 - x[v].value / x.none.value) * 100);
  const sgn = (c: number): string => `${c >= 0 ? '+' : ''}${f1(c)}%`;
  return `${sgn(Math.min(...costs))} .. ${sgn(Math.max(...costs))}`;
}

function progressText(rows: ProgressRow[]): string {
  const fmt = (m: string, x: number): string => (m === 'IOPS' ? fInt(x) : f1(x));
  const out: string[] = [
    'Cost of progress reporting: cost = 1 - with / without callback (positive = slower with progress);',
    'cost median = median of the per-round costs (verdict, at the default 100 ms interval; 20 ms is for',
    'information); cost of = from the medians; spread = (max - min) / median of the runs without callback.',
    '',
  ];
  const rowsOut: string[][] = [];
  for (const r of rows) {
    for (const v of VARIANTS) {
      rowsOut.push([
        v === 'none' ? r.test : '',
        VARIANT_LABEL[v],
        `${fmt(r.metric, r.median[v])} ${r.metric}`,
        String(median(r.rounds.map((x) => x[v].calls))),
        v === 'none' ? '-' : `${r.costMedianOfRoundsPct[v] >= 0 ? '+' : ''}${f2(r.costMedianOfRoundsPct[v])}%`,
        v === 'none' ? '-' : `${r.costOfMediansPct[v] >= 0 ? '+' : ''}${f2(r.costOfMediansPct[v])}%`,
        v === 'none' ? '-' : costRange(r, v),
        v === 'none' ? `spread ${f1(r.noneSpreadPct)}%` : v === 'cb100' ? `<= 1%: ${r.pass ? 'PASS' : 'BELOW'}` : '(info)',
      ]);
    }
  }
  out.push(
    table(
      ['test', 'progress', 'median', 'callbacks', 'cost', 'cost', 'per-round costs', 'target'],
      rowsOut,
      [false, false, true, true, true, true, true, false],
      ['', '', '', 'per run', 'median', 'of', 'min .. max', ''],
    ),
  );
  out.push('', 'Per round (none / 100 ms / 20 ms):');
  for (const r of rows) {
    out.push(
      `  ${r.test.padEnd(17)} ` +
        r.rounds.map((x, i) => `r${i + 1} ${VARIANTS.map((v) => fmt(r.metric, x[v].value)).join(' / ')}`).join('   '),
    );
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2));
  const out = (s: string): void => {
    (o.json ? process.stderr : process.stdout).write(`${s}\n`);
  };
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
