// bench:engine's progress cost: the same runs with a progress callback at 100 ms and 20 ms and
// without one, interleaved, and what the callback costs.
import type { EngineProgress } from '../../app/src/model/engine-types.js';
import { fInt, f1, f2, log, median, MiB, runEngine, spreadPct, table } from './common.js';
import type { Options } from './engine-options.js';
import { engineSpec } from './engine-grid.js';

export type Variant = 'none' | 'cb100' | 'cb20';
export const VARIANTS: Variant[] = ['none', 'cb100', 'cb20'];
export const VARIANT_LABEL: Record<Variant, string> = {
  none: 'no callback (null)',
  cb100: 'callback, 100 ms (default)',
  cb20: 'callback, 20 ms',
};

export interface ProgressRow {
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

export async function progressBench(o: Options, file: string): Promise<ProgressRow[]> {
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

export function costRange(r: ProgressRow, v: Variant): string {
  const costs = r.rounds.map((x) => (1 - x[v].value / x.none.value) * 100);
  const sgn = (c: number): string => `${c >= 0 ? '+' : ''}${f1(c)}%`;
  return `${sgn(Math.min(...costs))} .. ${sgn(Math.max(...costs))}`;
}

export function progressText(rows: ProgressRow[]): string {
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
