// The share test's registry entry: the hooks of its folder put together (plan.ts, analysis.ts,
// result.ts, report.ts, cli.ts). Command line only: no Detailed screen of its own yet.
import type { KindModule } from '../types.js';
import { shareSection } from './analysis.js';
import { shareCli } from './cli.js';
import { SHARE_DISK_BYTES, sharePlan } from './plan.js';
import { shareReport } from './report.js';
import { shareResult } from './result.js';

export const share = {
  id: 'share',
  name: 'Share limits',
  defaultSize: SHARE_DISK_BYTES,
  plan: sharePlan,
  analyse: (plan, outcomes, seen) => ({ share: shareSection(plan, outcomes, seen?.network) }),
  networkOnly: true,
  cliOnly: true,
  result: shareResult,
  cli: shareCli,
  report: shareReport,
} as const satisfies KindModule<'share'>;
