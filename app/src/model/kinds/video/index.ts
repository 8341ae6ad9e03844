// The frame-paced video test's registry entry ("Will it really play?"): the hooks of its folder put
// together (plan.ts, analysis.ts, result.ts, report.ts, card.ts, cli.ts, settings.ts). Where the
// Will-it-work table (will-it-work.ts, the Quick Test's) divides an average by a data rate, this
// checks every frame. The format data and rate arithmetic are data.ts's and math.ts's.
import type { KindModule } from '../types.js';
import { pacedSection } from './analysis.js';
import { videoFigures } from './card.js';
import { videoCli } from './cli.js';
import { videoPlan } from './plan.js';
import { videoReport } from './report.js';
import { videoResult } from './result.js';
import { videoFromScreen, VideoScreen } from './settings.js';

export const video = {
  id: 'video',
  name: 'Video playback (paced)',
  plan: videoPlan,
  analyse: (plan, outcomes) => ({ video: pacedSection(plan, outcomes) }),
  result: videoResult,
  cli: videoCli,
  report: videoReport,
  card: videoFigures,
  screen: { schema: VideoScreen },
  fromScreen: videoFromScreen,
  paced: true,
} as const satisfies KindModule<'video'>;
