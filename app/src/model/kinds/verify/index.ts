// The verify test's registry entry: the hooks of its folder put together (plan.ts, analysis.ts,
// result.ts, report.ts, card.ts, cli.ts, settings.ts). Its verdict is the capacity verdict of
// model/verdict/capacity.ts.
import type { KindModule } from '../types.js';
import { verifySection, verifyTests } from './analysis.js';
import { verifyFigures } from './card.js';
import { verifyCli, verifyDevice } from './cli.js';
import { VERIFY_MIN_BYTES, verifyPlan } from './plan.js';
import { verifyReport } from './report.js';
import { verifyResult } from './result.js';
import { verifyFromScreen, VerifyScreen } from './settings.js';

export const verify = {
  id: 'verify',
  name: 'Verify capacity',
  sized: true,
  leastBytes: (o) => Math.min(VERIFY_MIN_BYTES, o.size ?? VERIFY_MIN_BYTES),
  plan: (o, target) => verifyPlan(o, target),
  analyse: (plan, outcomes) => ({ tests: verifyTests(plan, outcomes), verify: verifySection(plan, outcomes) }),
  result: verifyResult,
  cli: verifyCli,
  report: verifyReport,
  card: verifyFigures,
  screen: { schema: VerifyScreen },
  fromScreen: verifyFromScreen,
  keepsStopped: true,
  wholeDevice: verifyDevice,
} as const satisfies KindModule<'verify'>;
