// The test services every front door builds the same way (the desktop app's main process and
// `diskdial serve`): one engine host, one history, the one job slot they all share.
import { CampaignService } from './campaign.js';
import { DetailedTestService } from './detailed-test.js';
import type { EngineHost } from './engine-host.js';
import { FolderCheckService } from './folder-check.js';
import { HashTestService } from './hash-test.js';
import { HistoryService } from './history.js';
import { QuickTestService } from './quick-test.js';
import { TargetsService } from './targets.js';
import { wizardService, type WizardDeps, type WizardService } from './wizard.js';
import type { AppInfo } from '../model/history.js';

export interface TestServices {
  quick: QuickTestService;
  detailed: DetailedTestService;
  hash: HashTestService;
  check: FolderCheckService;
  targets: TargetsService;
  history: HistoryService;
  campaign: CampaignService;
}

/** The dispatcher's test services, their engine calls going to `host`. */
export function createTestServices(
  host: Pick<EngineHost, 'runTest' | 'runHash'> & Partial<Pick<EngineHost, 'onNotAnswering'>>,
  history = new HistoryService(),
): TestServices {
  const targets = new TargetsService();
  const common = { history: history.record, targets };
  const quick = new QuickTestService({ engine: host.runTest, ...common });
  // "The drive is not answering" goes to whichever screen or socket runs the job.
  host.onNotAnswering?.((e) => quick.slot.notAnswering(e));
  return {
    quick,
    detailed: new DetailedTestService({ engine: host.runTest, ...common }),
    hash: new HashTestService({ engine: { runHash: host.runHash, runTest: host.runTest }, ...common }),
    campaign: new CampaignService({ engine: host.runTest, ...common }),
    // The engine process runs one job at a time: the app's folder check hashes one file at a time
    // (the CLI, in process, runs N streams).
    check: new FolderCheckService({
      engine: { runHash: host.runHash },
      streamsCap: { max: 1, why: "the app's engine process hashes one file at a time" },
      ...common,
    }),
    targets,
    history,
  };
}

/** What a front door serves (the desktop app's main process, `diskdial serve`): the test
 *  services, the wizard under the door's erase rule, a whole-disk test proven by the wizard's own
 *  rules, and app.info with the engine's version asked of its process. */
export async function frontDoorServices(
  host: Pick<EngineHost, 'runTest' | 'runHash' | 'version'> & Partial<Pick<EngineHost, 'onNotAnswering'>>,
  erase: Pick<WizardDeps, 'authorizeErase' | 'eraseRefused'>,
  about: Pick<AppInfo, 'appVersion' | 'shell'>,
): Promise<TestServices & { wizard?: WizardService; appInfo: () => Promise<AppInfo> }> {
  const services = createTestServices(host);
  const { wizard } = await wizardService(host.runTest, services.history, erase);
  if (wizard) services.detailed.allowWholeDisks((d, n, i) => wizard.proveDevice(d, n, i));
  return {
    ...services,
    ...(wizard ? { wizard } : {}),
    appInfo: async () => ({
      ...about,
      engineVersion: await host.version().catch(() => 'not available'),
      platform: process.platform,
      ...(erase.eraseRefused ? { eraseRefused: erase.eraseRefused } : {}),
    }),
  };
}
