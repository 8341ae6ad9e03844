// The test services every front door builds the same way (the desktop app's main process and
// `diskdial serve`): one engine host, one history, the one job slot they all share.
import { CampaignService } from './campaign.js';
import { DetailedTestService } from './detailed-test.js';
import type { EngineHost } from './engine-host.js';
import { HashTestService } from './hash-test.js';
import { HistoryService } from './history.js';
import { QuickTestService } from './quick-test.js';
import { TargetsService } from './targets.js';

export interface TestServices {
  quick: QuickTestService;
  detailed: DetailedTestService;
  hash: HashTestService;
  targets: TargetsService;
  history: HistoryService;
  campaign: CampaignService;
}

/** The dispatcher's test services, their engine calls going to `host`. */
export function createTestServices(host: Pick<EngineHost, 'runTest' | 'runHash'>, history = new HistoryService()): TestServices {
  const targets = new TargetsService();
  const common = { history: history.record, targets };
  return {
    quick: new QuickTestService({ engine: host.runTest, ...common }),
    detailed: new DetailedTestService({ engine: host.runTest, ...common }),
    hash: new HashTestService({ engine: { runHash: host.runHash, runTest: host.runTest }, ...common }),
    campaign: new CampaignService({ engine: host.runTest, ...common }),
    targets,
    history,
  };
}
