// The share test's registry entry: the hooks of its folder put together (plan.ts, analysis.ts,
// result.ts, report.ts, card.ts, cli.ts, settings.ts). Its verdicts are model/verdict/share.ts's.
import type { KindModule } from '../types.js';
import { shareSection } from './analysis.js';
import { shareFigures } from './card.js';
import { shareCli } from './cli.js';
import { SHARE_DISK_BYTES, sharePlan } from './plan.js';
import { shareReport } from './report.js';
import { shareResult } from './result.js';
import { shareFromScreen, ShareScreen } from './settings.js';

export const share = {
  id: 'share',
  name: 'Share limits',
  defaultSize: SHARE_DISK_BYTES,
  plan: sharePlan,
  analyse: (plan, outcomes, seen) => ({ share: shareSection(plan, outcomes, seen?.network) }),
  networkOnly: true,
  result: shareResult,
  cli: shareCli,
  report: shareReport,
  card: shareFigures,
  screen: { schema: ShareScreen },
  fromScreen: shareFromScreen,
} as const satisfies KindModule<'share'>;
