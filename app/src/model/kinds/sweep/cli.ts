// The sweep on the command line: its flags and their words, the common flags it refuses, its
// line under `run --help`, its --from/--to range, and its lines under the CLI's table.
import { askedSizeText } from '../../size-units.js';
import { parseSize } from '../../units.js';
import type { KindModule } from '../types.js';
import { precisionCli } from '../../precision-cli.js';
import { ladderText, SWEEP_PRESETS } from './plan.js';
import { averageLines, fullSpeedText } from './report.js';

const NOT_FOR_SWEEP = 'does not apply to --test sweep: the preset sets the transfer sizes, one at a time';

export const sweepCli = {
  flags: { preset: 'string', from: 'string', to: 'string', ...precisionCli.flags },
  presets: SWEEP_PRESETS,
  summary: `transfer-size sweep (ATTO, QuickBench): sequential write then read
at each size, uncached, each step for --seconds (default 2) or --size
of data. --preset standard (4 KiB-64 MiB, QD1; default), atto
(512 B-64 MiB, QD4), quickbench (4 KiB-16 MiB, then 20/40/60/80/100 MiB,
QD1, with its 4 KB and 20-100 MB averages); --from and
--to run part of the ladder, as ATTO's start and end sizes`,
  flagHelp: {
    from: "SIZE         the sweep's smallest transfer size, one of its preset's\n(default the first: 4KiB; atto 512B)",
    to: "SIZE           the sweep's largest transfer size (default the last: 64MiB;\nquickbench 100MiB); timed steps then go over a file of 4\ntimes it (64MiB to 256MiB)",
  },
  refuse: { bs: `--bs ${NOT_FOR_SWEEP}`, threads: `--threads ${NOT_FOR_SWEEP}` },
  // The range; the plan checks that both ends are sizes of the preset's ladder.
  // --precision: each step ends once its rate has settled (the stop rule), its time the most.
  parse: (flag) => {
    const from = flag('from');
    const to = flag('to');
    const precision = precisionCli.parse(flag);
    if (from === undefined && to === undefined) return precision;
    return {
      ...precision,
      sweep: {
        ...(from !== undefined ? { fromBytes: parseSize(from, '--from') } : {}),
        ...(to !== undefined ? { toBytes: parseSize(to, '--to') } : {}),
      },
    };
  },
  // The ladder, what each step ran for, and where each direction reaches full speed.
  tableLines: (doc, units) => {
    const s = doc.sweep;
    if (!s) return [];
    const each = s.stepSeconds !== undefined ? `${s.stepSeconds} s` : askedSizeText(s.stepBytes ?? 0, units);
    const out = [
      '',
      `Sweep (${s.preset}): ${s.sizes.length} transfer sizes, ${ladderText(s.sizes)}, Q${s.qd}, each write and read for ${each}`,
    ];
    // QuickBench's headline averages (the mean across runs, as the table's figures are).
    out.push(...averageLines(s).map(([label, value]) => `${label}: ${value}`));
    for (const r of s.runs) out.push(...fullSpeedText(s, r).map((line) => `${doc.settings.runs > 1 ? `Run ${r.run}: ` : ''}${line}`));
    return out;
  },
} as const satisfies KindModule['cli'];
