// The transfer-size sweep's registry entry: the hooks of its folder put together (plan.ts,
// analysis.ts, result.ts, report.ts, section.ts, card.ts, cli.ts, settings.ts).
import type { KindModule } from '../types.js';
import { sweepSection } from './analysis.js';
import { sweepCli } from './cli.js';
import { sweepPlan, TIMED_FILE_BYTES } from './plan.js';
import { sweepReport } from './report.js';
import { sweepResult } from './result.js';
import { sweepReportSection } from './section.js';
import { sweepCard } from './card.js';
import { sweepFromScreen, SweepScreen } from './settings.js';

export const sweep = {
  id: 'sweep',
  name: 'Transfer-size sweep',
  defaultSize: TIMED_FILE_BYTES,
  plan: sweepPlan,
  analyse: (plan, outcomes) => ({ sweep: sweepSection(plan, outcomes) }),
  result: sweepResult,
  cli: sweepCli,
  report: { ...sweepReport, sections: [sweepReportSection] },
  screen: { schema: SweepScreen },
  fromScreen: sweepFromScreen,
  card: sweepCard,
} as const satisfies KindModule<'sweep'>;
