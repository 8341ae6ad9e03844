// The small-file test's registry entry: the hooks of its folder put together (plan.ts,
// analysis.ts, result.ts, report.ts, cli.ts, settings.ts).
import type { KindModule } from '../types.js';
import { smallFilesSection } from './analysis.js';
import { smallFilesCli } from './cli.js';
import { smallFilesPlan } from './plan.js';
import { smallFilesReport } from './report.js';
import { smallFilesResult } from './result.js';
import { smallFilesFromScreen, SmallFilesScreen } from './settings.js';

export const smallFiles = {
  id: 'small-files',
  name: 'Small-file test',
  plan: smallFilesPlan,
  analyse: (plan, outcomes) => ({ smallFiles: smallFilesSection(plan, outcomes) }),
  result: smallFilesResult,
  cli: smallFilesCli,
  report: smallFilesReport,
  screen: { schema: SmallFilesScreen },
  fromScreen: smallFilesFromScreen,
} as const satisfies KindModule<'small-files'>;
