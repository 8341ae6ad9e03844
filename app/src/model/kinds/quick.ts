// The Quick Test: Blackmagic Disk Speed Test's shape — write the stress file with large blocks,
// then read it back.
import { MiB, oneFilePlan } from './plan.js';
import { quickFigures } from './quick-card.js';
import type { KindModule } from './types.js';
import { precisionCli } from '../precision-cli.js';
import { willItWorkSection } from './video/tables.js';
import { willItWorkCli } from './video/will-it-work-cli.js';

export const quick = {
  id: 'quick',
  name: 'Quick Test',
  // Blackmagic's smallest stress size is "1GB" (10^9 bytes).
  defaultSize: 1e9,
  plan: (o) => {
    const bs = o.bs ?? MiB;
    const qd = o.qd ?? 8;
    const threads = o.threads ?? 1;
    return oneFilePlan('quick', o, o.size ?? 1e9, bs * threads, (one) => {
      one('Write', 'write', bs, qd, threads, undefined);
      one('Read', 'read', bs, qd, threads, undefined);
    });
  },
  report: {
    columns: {
      pick: [
        ['Read/mbps', 'Read'],
        ['Write/mbps', 'Write'],
      ],
      bySize: true,
    },
    // The "Will it work?" table, judged from video's format data.
    sections: [willItWorkSection],
  },
  // --video prints the "Will it work?" table after the result; --fps sets its frame rate;
  // --precision ends each step once its rate has settled.
  cli: {
    flags: { ...willItWorkCli.flags, ...precisionCli.flags },
    flagHelp: { ...willItWorkCli.flagHelp, ...precisionCli.flagHelp },
    parse: (flag, given) => ({ ...willItWorkCli.parse(flag, given), ...precisionCli.parse(flag) }),
  },
  card: quickFigures,
} as const satisfies KindModule<'quick'>;
