// Runs a setup campaign (model/campaign.ts) step by step: before each setup's first test it asks
// the person to change to that setup, runs the step's test through the caller's runner, saves the
// result with the setup's name and the campaign's id (so the report puts it in that setup's row),
// and saves the campaign's state after every step. The caller supplies the runner and the asking,
// so the CLI and the app share this order of things.
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { defaultDataDir } from './history.js';
import { StateStore } from './state-store.js';
import { campaignSteps, nextStep, parseCampaignState, startsSetup, type CampaignSetup, type CampaignState } from '../model/campaign.js';
import type { ResultDocument } from '../model/result.js';

export function campaignsDir(dataDir = defaultDataDir()): string {
  return path.join(dataDir, 'campaigns');
}

export class CampaignStore extends StateStore<CampaignState> {
  constructor(dir: string = campaignsDir()) {
    super(dir, parseCampaignState);
  }
}

export function newCampaign(o: {
  target: string;
  setups: CampaignSetup[];
  kinds: string[];
  runArgs: string[];
  testArgs?: Record<string, string[]> | undefined;
}): CampaignState {
  const now = new Date().toISOString();
  return {
    schema: 1,
    id: randomUUID(),
    createdAt: now,
    updatedAt: now,
    status: 'running',
    target: o.target,
    setups: o.setups,
    kinds: o.kinds,
    runArgs: o.runArgs,
    ...(o.testArgs && Object.keys(o.testArgs).length > 0 ? { testArgs: o.testArgs } : {}),
    steps: campaignSteps(o.setups.length, o.kinds),
  };
}

export interface CampaignDeps {
  store: CampaignStore;
  /** Asks the person to change to `setup` (0-based); false: stop here, resumable. */
  ready: (state: CampaignState, setup: number) => Promise<boolean>;
  /** Runs one test of the plan; throws on failure (AbortError when cancelled). */
  run: (kind: string, state: CampaignState, step: number) => Promise<ResultDocument>;
  /** Keeps a result; its id, or undefined when it could not be saved. */
  save: (doc: ResultDocument) => Promise<string | undefined>;
  onStep?: (state: CampaignState, step: number, doc: ResultDocument) => void;
}

/** Runs the campaign from its first unfinished step; resolves with its state when it is done or
 *  the person stopped it. A failed or cancelled step leaves it resumable and rethrows. */
export async function runCampaign(state: CampaignState, deps: CampaignDeps, resumed = false): Promise<CampaignState> {
  state.status = 'running';
  state.pid = process.pid;
  delete state.reason;
  await deps.store.save(state);
  let first = true;
  for (let i = nextStep(state); i !== undefined; i = nextStep(state)) {
    const step = state.steps[i]!;
    if (startsSetup(state, i, resumed && first)) {
      state.status = 'waiting';
      await deps.store.save(state);
      if (!(await deps.ready(state, step.setup))) {
        state.status = 'stopped';
        state.reason = `Stopped before ${state.setups[step.setup]?.name ?? 'the next setup'}.`;
        await deps.store.save(state);
        return state;
      }
      state.status = 'running';
      await deps.store.save(state);
    }
    first = false;
    let doc: ResultDocument;
    try {
      doc = await deps.run(step.kind, state, i);
    } catch (err) {
      // Ctrl-C stops it as a person's "stop" does; anything else is a failure. Both resume.
      const cancelled = err instanceof Error && err.name === 'AbortError';
      state.status = cancelled ? 'stopped' : 'failed';
      state.reason = cancelled ? 'Cancelled during a test.' : err instanceof Error ? err.message : String(err);
      await deps.store.save(state);
      throw err;
    }
    const setup = state.setups[step.setup]!;
    doc.label = setup.name;
    doc.campaign = { planId: state.id, format: setup.key, formatLabel: setup.name, of: 'setups' };
    const id = await deps.save(doc);
    // A result that could not be saved still ends its step: the report is made from what the
    // runner returned, and the campaign does not run the test again.
    step.resultId = id ?? (typeof doc.id === 'string' ? doc.id : `unsaved-${i}`);
    await deps.store.save(state);
    deps.onStep?.(state, i, doc);
  }
  state.status = 'done';
  delete state.pid;
  await deps.store.save(state);
  return state;
}
