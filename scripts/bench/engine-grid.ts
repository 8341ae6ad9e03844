// bench:engine's grid: the CrystalDiskMark tests run by the engine and by fio (libaio, direct) on one
// laid-out file, interleaved, and the table of their ratios.
import { statSync } from 'node:fs';
import type { EngineSpec } from '../../app/src/model/engine-types.js';
import { fInt, f1, f2, f3, log, median, MiB, runEngine, runFioJobs, spreadPct, table } from './common.js';
import type { Options } from './engine-options.js';

export interface Sample {
  mbps: number;
  iops: number;
  seconds: number;
}

export type GridRw = 'read' | 'write' | 'randread' | 'randwrite';

export interface GridTest {
  name: string; // "SEQ1M Q8T1 Read"
  rw: GridRw;
  bs: number;
  qd: number;
  random: boolean;
  target: number;
}

export const GRID: GridTest[] = [];
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

export function engineSpec(file: string, size: number, t: { rw: GridRw; bs: number; qd: number }, seconds: number): EngineSpec {
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

export function fioArgs(file: string, size: number, t: { rw: GridRw; bs: number; qd: number }, seconds: number): string[] {
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

export interface FileId {
  ino: number;
  size: number;
  blocks: number;
}
export const fileId = (file: string): FileId => {
  const st = statSync(file);
  return { ino: st.ino, size: st.size, blocks: st.blocks };
};

export async function runFio(file: string, size: number, t: GridTest, seconds: number): Promise<Sample> {
  const job = (await runFioJobs(fioArgs(file, size, t, seconds), [file])).jobs[0]!;
  const d = t.rw === 'read' || t.rw === 'randread' ? job.read : job.write;
  return { mbps: d.bw_bytes / 1e6, iops: d.iops, seconds: d.runtime / 1000 };
}

export interface GridRow {
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

export async function gridBench(o: Options, file: string): Promise<GridRow[]> {
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

export function gridReport(rows: GridRow[]): string {
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
