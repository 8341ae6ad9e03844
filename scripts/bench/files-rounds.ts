// bench:files' rounds: the passes interleaved round by round, and what is read from them (each
// file's samples, a fixed-cost-plus-rate fit, the ratios by size class).
import type { FileSet } from '../../app/src/model/file-set.js';
import { f1, f2, f3, log } from './common.js';
import { mbSize, type Options } from './files-options.js';
import { enginePass, fioPass, settle, type EnginePass, type FioPass } from './files-passes.js';

export type Tool = 'engine' | 'fio' | 'fio-per-file';

export interface Round {
  round: number;
  order: Tool[];
  engine: EnginePass;
  fio: FioPass;
  ratio: number;
  /** Informational: fio, one job per file (absent with --no-per-file). */
  perFile?: FioPass;
  perFileRatio?: number;
}

export async function readRounds(o: Options, dir: string, set: FileSet): Promise<Round[]> {
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
export function samples(
  set: FileSet,
  rounds: Round[],
  tool: 'engine' | 'fio-per-file',
): Array<{ index: number; bytes: number; seconds: number }> {
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
export function fit(xs: ReadonlyArray<{ bytes: number; seconds: number }>): { fixedMs: number; rateMBps: number } | undefined {
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

export interface SizeClass {
  label: string;
  files: number;
  bytes: number;
  engineMBps: number;
  perFileMBps: number;
  engineMeanMs: number;
  perFileMeanMs: number;
}

/** Per-file rates by size class (thirds of the set by size), over all rounds. */
export function bySize(set: FileSet, rounds: Round[]): SizeClass[] {
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
