// The sustained write's registry entry: the hooks of its folder put together (plan.ts,
// analysis.ts, result.ts, report.ts, card.ts, cli.ts, settings.ts). Its analysis finds the knee
// in the MB/s curve (model/knee.ts).
import type { KindModule } from '../types.js';
import { sustainedSection } from './analysis.js';
import { sustainedFigures } from './card.js';
import { sustainedCli } from './cli.js';
import { SUSTAINED_DEFAULT_BYTES, SUSTAINED_MIN_BYTES, sustainedPlan } from './plan.js';
import { sustainedReport } from './report.js';
import { sustainedResult } from './result.js';
import { sustainedFromScreen, SustainedScreen } from './settings.js';

export const sustained = {
  id: 'sustained',
  name: 'Sustained write',
  defaultSize: SUSTAINED_DEFAULT_BYTES,
  sized: true,
  leastBytes: (o) => Math.min(SUSTAINED_MIN_BYTES, o.size ?? SUSTAINED_DEFAULT_BYTES),
  plan: sustainedPlan,
  analyse: (plan, outcomes) => ({ sustained: sustainedSection(plan, outcomes) }),
  result: sustainedResult,
  cli: sustainedCli,
  report: sustainedReport,
  card: sustainedFigures,
  screen: { schema: SustainedScreen },
  fromScreen: sustainedFromScreen,
  liveCurve: true,
  curveRuns: (doc) => doc.sustained?.runs,
  wizard: {
    what: 'the sustained write',
    detail: 'Writes until the free space (less a reserve) is full, to find where a fast cache runs out.',
    scaled: (plan) => (plan.sustained?.limitedBy === 'free-space' ? plan.notes[0] : undefined),
  },
} as const satisfies KindModule<'sustained'>;
