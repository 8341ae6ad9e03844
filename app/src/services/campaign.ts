// "Compare setups" as a job in the shared slot: core/campaign.ts's order of things, with the
// person's "I have changed to the next setup" arriving as a request (campaign.continue) and
// every test's progress sent to the window or socket that started it. The campaign holds the slot
// while it waits: a test started meanwhile would measure a setup nobody chose.
import { expandPath } from './targets.js';
import { CampaignStore, newCampaign, runCampaign } from '../core/campaign.js';
import { runBenchmark, type RunProgress } from '../core/runner.js';
import { campaignProgress, nextStep, parseSetups, type CampaignState } from '../model/campaign.js';
import { DiskDialError } from '../model/errors.js';
import { isTestKind } from '../model/kinds/registry.js';
import { timedOf } from '../model/progress.js';
import type { CampaignSettings } from '../model/settings.js';
import type { EngineFn } from '../core/engine.js';
import { campaignSecondsLeft, kindTakesSize, planProblems, testSeconds } from '../model/campaign-plan.js';
import { jobFraction } from '../model/eta.js';
import { statfs } from 'node:fs/promises';
import { SlotService, type JobRun, type SlotServiceDeps } from './job-slot.js';

export interface CampaignServiceDeps extends SlotServiceDeps {
  engine: EngineFn;
  store?: CampaignStore;
  /** Least time between two forwarded progress events (default 100 ms). */
  progressIntervalMs?: number;
}

type Sink = Parameters<SlotService<CampaignState>['start']>[1];

/** The two run options the app's campaigns carry (the CLI's carry any of diskdial run's): the
 *  runs, and the size where the kind takes one (a test's own size first). */
function appTestOptions(state: CampaignState, kind: string): { runs: number; size?: number } {
  const option = (args: readonly string[] | undefined, flag: string): number | undefined => {
    const i = args?.indexOf(flag) ?? -1;
    return i < 0 ? undefined : Number(args![i + 1]) || undefined;
  };
  const runs = option(state.runArgs, '--runs') ?? 1;
  const size = option(state.testArgs?.[kind], '--size') ?? option(state.runArgs, '--size');
  const sized = size !== undefined && isTestKind(kind) && kindTakesSize(kind);
  return { runs, ...(sized ? { size } : {}) };
}

/** `{ [key]: value }`, or nothing for undefined (exactOptionalPropertyTypes). */
const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, V>);

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

  /** A new campaign; the setups follow the CLI's rules (distinct plain names). Every test's
   *  options are checked first, every problem named at once. */
  async request(asked: CampaignSettings, sink: Sink): Promise<{ jobId: string; campaignId: string }> {
    const settings = { ...asked, target: expandPath(asked.target) };
    const testArgs: Record<string, string[]> = {};
    for (const [kind, bytes] of Object.entries(settings.testSizes ?? {})) if (bytes) testArgs[kind] = ['--size', String(bytes)];
    const state = newCampaign({
      target: settings.target,
      setups: parseSetups(settings.setups.join(',')),
      kinds: settings.kinds,
      runArgs: ['--runs', String(settings.runs), ...(settings.sizeBytes ? ['--size', String(settings.sizeBytes)] : [])],
      testArgs,
    });
    const problems = planProblems(state.kinds.map((kind) => ({ kind, options: appTestOptions(state, kind) })));
    if (problems.length > 0)
      throw new DiskDialError(`The plan cannot run as chosen, so nothing was tested: ${problems.join('; ')}.`, {
        code: 'ERR_USAGE',
        category: 'input',
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
    const foreign = [...state.runArgs, ...Object.values(state.testArgs ?? {}).flat()].filter(
      (a) => a.startsWith('-') && !['--runs', '--size'].includes(a.split('=')[0]!),
    );
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
    const due = run.throttle(this.#interval);
    const resultIds = (): string[] => state.steps.flatMap((s) => (s.resultId ? [s.resultId] : []));
    // The time each test takes at the stated rates, scaled as the steps of this session finish.
    const free = await statfs(state.target).then(
      (st) => ({ freeBytes: st.bavail * st.bsize, totalBytes: st.blocks * st.bsize }),
      () => undefined,
    );
    const perTest = testSeconds(
      state.kinds.flatMap((kind) =>
        isTestKind(kind) ? [{ kind, options: appTestOptions(state, kind), runs: appTestOptions(state, kind).runs }] : [],
      ),
      free,
    );
    const measured = { actual: 0, estimated: 0 };
    const left = (step: number, fractionOfFirst = 0): number | undefined =>
      campaignSecondsLeft(perTest, state.steps.length, step, { fractionOfFirst, measured });
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
                ...optional('secondsLeft', left(nextStep(s) ?? s.steps.length)),
              });
            }),
          run: async (kind, s, step) => {
            if (!isTestKind(kind)) throw new DiskDialError(`This build has no test "${kind}".`, { code: 'ERR_USAGE', category: 'input' });
            const setupName = s.setups[s.steps[step]!.setup]?.name ?? '';
            const { runs, size } = appTestOptions(s, kind);
            const began = performance.now();
            const at = s.kinds.indexOf(kind);
            const done = (): void => {
              if (perTest[at] === undefined) return;
              measured.actual += (performance.now() - began) / 1000;
              measured.estimated += perTest[at];
            };
            const doc = await runBenchmark({
              target: s.target,
              test: kind,
              runs,
              ...(size !== undefined ? { size } : {}),
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
                  ...optional('secondsLeft', left(step, jobFraction({ ...p, stage: p.phase }))),
                });
              },
            });
            done();
            return doc;
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
