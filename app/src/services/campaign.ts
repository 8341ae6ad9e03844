// "Compare setups" as a job in the shared slot: core/campaign.ts's order of things, with the
// person's "I have changed to the next setup" arriving as a request (campaign.continue) and
// every test's progress sent to the window or socket that started it. The campaign holds the slot
// while it waits: a test started meanwhile would measure a setup nobody chose.
import { expandPath } from './targets.js';
import { CampaignStore, newCampaign, runCampaign } from '../core/campaign.js';
import { runBenchmark, type RunProgress } from '../core/runner.js';
import { campaignProgress, parseSetups, type CampaignState } from '../model/campaign.js';
import { DiskDialError } from '../model/errors.js';
import { isTestKind, runKind } from '../model/kinds/registry.js';
import { timedOf } from '../model/progress.js';
import type { CampaignSettings } from '../model/settings.js';
import type { EngineFn } from '../core/engine.js';
import { SlotService, type JobRun, type SlotServiceDeps } from './job-slot.js';

export interface CampaignServiceDeps extends SlotServiceDeps {
  engine: EngineFn;
  store?: CampaignStore;
  /** Least time between two forwarded progress events (default 100 ms). */
  progressIntervalMs?: number;
}

type Sink = Parameters<SlotService<CampaignState>['start']>[1];

export class CampaignService extends SlotService<CampaignState> {
  readonly store: CampaignStore;
  readonly #engine: EngineFn;
  readonly #interval: number;
  /** The answer the running campaign waits for, by campaign id. */
  readonly #waiting = new Map<string, (go: boolean) => void>();
  #running: string | undefined;

  constructor(deps: CampaignServiceDeps) {
    super(deps);
    this.#engine = deps.engine;
    this.store = deps.store ?? new CampaignStore();
    this.#interval = deps.progressIntervalMs ?? 100;
  }

  /** A new campaign; the setups follow the CLI's rules (distinct plain names). */
  async request(asked: CampaignSettings, sink: Sink): Promise<{ jobId: string; campaignId: string }> {
    const settings = { ...asked, target: expandPath(asked.target) };
    const state = newCampaign({
      target: settings.target,
      setups: parseSetups(settings.setups.join(',')),
      kinds: settings.kinds,
      runArgs: ['--runs', String(settings.runs), ...(settings.sizeBytes ? ['--size', String(settings.sizeBytes)] : [])],
    });
    const { jobId } = await this.startChecked(state, sink, () => this.targets.assertStartable(settings.target));
    return { jobId, campaignId: state.id };
  }

  /** An unfinished campaign, from its first unfinished test (its setup is asked for first). */
  async requestResume(campaignId: string, sink: Sink): Promise<{ jobId: string; campaignId: string }> {
    const state = await this.store.get(campaignId);
    if (!state || state.status === 'done')
      throw new DiskDialError('That campaign has finished or is no longer saved.', { code: 'ERR_NOT_FOUND', category: 'input' });
    // A campaign started on the command line may carry any of diskdial run's options; the app
    // would run its tests differently, so it is resumed where it was started.
    const foreign = state.runArgs.filter((a) => a.startsWith('-') && !['--runs', '--size'].includes(a.split('=')[0]!));
    if (foreign.length > 0)
      throw new DiskDialError(
        `This campaign was started with ${foreign.join(', ')}, which the app does not offer: resume it with diskdial campaign --resume ${campaignId.slice(0, 8)}.`,
        { code: 'ERR_USAGE', category: 'input' },
      );
    const { jobId } = await this.startChecked(state, sink, () => this.targets.assertStartable(state.target));
    return { jobId, campaignId };
  }

  /** The person has changed to the setup asked for (go) or stops here (resumable). */
  continue(campaignId: string, go: boolean): boolean {
    const answer = this.#waiting.get(campaignId);
    if (!answer) return false;
    this.#waiting.delete(campaignId);
    answer(go);
    return true;
  }

  /** Campaigns that did not finish, the running one left out. */
  unfinished(): Promise<CampaignState[]> {
    return this.store.unfinished(this.#running);
  }

  discard(campaignId: string): Promise<boolean> {
    return this.store.delete(campaignId);
  }

  protected async run(run: JobRun, state: CampaignState): Promise<void> {
    const { signal, emit, watch } = run;
    const jobId = run.job.id;
    this.#running = state.id;
    const resumed = state.steps.some((s) => s.resultId !== undefined);
    // The app's campaigns carry only these two run options (the CLI's any of diskdial run's).
    const option = (flag: string): number | undefined => {
      const i = state.runArgs.indexOf(flag);
      return i < 0 ? undefined : Number(state.runArgs[i + 1]) || undefined;
    };
    const runs = option('--runs') ?? 1;
    const size = option('--size');
    const due = run.throttle(this.#interval);
    const resultIds = (): string[] => state.steps.flatMap((s) => (s.resultId ? [s.resultId] : []));
    // Stop while waiting: the answer is "stop", so the state is saved as stopped.
    const onAbort = (): void => void this.continue(state.id, false);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const end = await runCampaign(
        state,
        {
          store: this.store,
          ready: (s, setup) =>
            new Promise<boolean>((resolve) => {
              if (signal.aborted) return resolve(false);
              this.#waiting.set(s.id, resolve);
              emit('campaign.waiting', {
                jobId,
                campaignId: s.id,
                setup,
                setupCount: s.setups.length,
                setupName: s.setups[setup]?.name ?? '',
                progress: campaignProgress(s),
              });
            }),
          run: async (kind, s, step) => {
            if (!isTestKind(kind)) throw new DiskDialError(`This build has no test "${kind}".`, { code: 'ERR_USAGE', category: 'input' });
            const setupName = s.setups[s.steps[step]!.setup]?.name ?? '';
            const sized = size !== undefined && !runKind(kind).sized && !runKind(kind).cli?.refuse?.size;
            return runBenchmark({
              target: s.target,
              test: kind,
              runs,
              ...(sized ? { size } : {}),
              restSeconds: 0,
              handleSignals: false,
              engine: this.#engine,
              signal,
              onProgress: (p: RunProgress) => {
                watch();
                if (!due(`${step}/${p.run}/${p.testIndex}/${p.phase}`)) return;
                emit('campaign.progress', {
                  jobId,
                  campaignId: s.id,
                  step,
                  stepCount: s.steps.length,
                  setupName,
                  kind,
                  testName: p.testName,
                  run: p.run,
                  runs: p.runs,
                  ...timedOf(p),
                });
              },
            });
          },
          save: async (doc) => {
            const { saved } = await this.record(doc);
            return saved && 'id' in saved ? saved.id : undefined;
          },
        },
        resumed,
      );
      if (end.status === 'done') run.finish('campaign.done', { jobId, outcome: 'finished', campaignId: state.id, resultIds: resultIds() });
      else
        run.finish('campaign.done', {
          jobId,
          outcome: 'stopped',
          campaignId: state.id,
          resultIds: resultIds(),
          ...(end.reason ? { reason: end.reason } : {}),
        });
    } catch (err) {
      run.finish('campaign.done', { jobId, ...run.ended(err, { path: state.target }), campaignId: state.id, resultIds: resultIds() });
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.#waiting.delete(state.id);
      this.#running = undefined;
    }
  }
}
