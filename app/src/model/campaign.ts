// "Compare setups": the same plan of tests run in turns on setups a person names ("Direct to the
// Mac", "Through the hub", "Over Wi-Fi"), pausing between setups while the person changes the
// cable, the port or the network, and ending in the comparison report with one row per setup.
// Nothing is erased: every test runs in a folder the person chose. The state is saved after
// every step so a stopped campaign resumes at its first unfinished step.
// Browser-safe: no node:* imports.
import { z } from 'zod';
import { inputError } from './errors.js';
import { RESULT_ID_RE } from './result-id.js';
import { TEST_KINDS } from './kinds/registry.js';
import { cleanLabel, LABEL_MAX, messageString, plainString } from './text.js';

export interface CampaignSetup {
  /** Stable key for the report's rows: "setup-1", "setup-2"… */
  key: string;
  /** What the person called it: "GigE", "Over Wi-Fi". */
  name: string;
}

export type CampaignStatus = 'running' | 'waiting' | 'stopped' | 'failed' | 'done';

export interface CampaignStep {
  setup: number;
  /** The test kind this step runs (one of the runner's kinds). */
  kind: string;
  resultId?: string;
}

export interface CampaignState {
  schema: 1;
  id: string;
  createdAt: string;
  updatedAt: string;
  status: CampaignStatus;
  /** The process running it (a 'running' campaign whose process is gone was interrupted). */
  pid?: number;
  /** The folder every step tests. */
  target: string;
  setups: CampaignSetup[];
  kinds: string[];
  /** The `diskdial run` options every step takes (--runs, --size, --seconds…), as typed. */
  runArgs: string[];
  /** Each test's own options (`--plan "quick:size=1GB"`), by kind, as run arguments: they
   *  override runArgs for that test. Absent in campaigns saved before tests had their own. */
  testArgs?: Record<string, string[]>;
  /** Setup by setup, the plan's kinds in order. */
  steps: CampaignStep[];
  /** Why it stopped or failed, in words. */
  reason?: string;
}

export const MAX_SETUPS = 12;

/** "GigE, Over Wi-Fi" → two setups. Names are labels (plain, ≤ 200 characters), distinct, at
 *  least two: one setup compares nothing. */
export function parseSetups(list: string): CampaignSetup[] {
  const names = list
    .split(',')
    .map((s) => cleanLabel(s))
    .filter((s) => s !== '');
  if (names.length < 2) throw inputError(`Name at least two setups to compare, separated by commas (e.g. "GigE,Wi-Fi").`, 'ERR_USAGE');
  if (names.length > MAX_SETUPS)
    throw inputError(`A campaign compares at most ${MAX_SETUPS} setups; ${names.length} were named.`, 'ERR_USAGE');
  const seen = new Set<string>();
  for (const n of names) {
    const k = n.toLowerCase();
    if (seen.has(k)) throw inputError(`Two setups are both called "${n}": give each its own name.`, 'ERR_USAGE');
    seen.add(k);
  }
  return names.map((name, i) => ({ key: `setup-${i + 1}`, name }));
}

/** Every step of a new campaign: each setup runs every kind of the plan, in order. */
export function campaignSteps(setups: number, kinds: readonly string[]): CampaignStep[] {
  return Array.from({ length: setups }, (_, setup) => kinds.map((kind) => ({ setup, kind }))).flat();
}

/** The first step without a result, or undefined when every step has one. */
export function nextStep(state: Pick<CampaignState, 'steps'>): number | undefined {
  const i = state.steps.findIndex((s) => s.resultId === undefined);
  return i < 0 ? undefined : i;
}

/** Does step `i` start a setup (so the person must be asked to change to it first)? Also true for
 *  the first step of a resumed campaign: nobody knows what is plugged in now. */
export function startsSetup(state: Pick<CampaignState, 'steps'>, i: number, resumed: boolean): boolean {
  const step = state.steps[i];
  if (!step) return false;
  if (resumed) return true;
  return i === 0 || state.steps[i - 1]?.setup !== step.setup;
}

/** What the person is asked before a setup's first test. */
export function setupPrompt(state: Pick<CampaignState, 'setups' | 'id'>, setup: number): string {
  const s = state.setups[setup];
  const n = state.setups.length;
  return (
    `Setup ${setup + 1} of ${n}: "${s?.name ?? '?'}". Change to it now (cable, port, network…), then press Enter to test; ` +
    `type "stop" to stop here (resume with diskdial campaign --resume ${state.id.slice(0, 8)}).`
  );
}

/** Where a campaign stands, in a line: "GigE done (2 tests), Wi-Fi 1 of 2 tests". */
export function campaignProgress(state: Pick<CampaignState, 'setups' | 'steps'>): string {
  return state.setups
    .map((s, i) => {
      const own = state.steps.filter((st) => st.setup === i);
      const done = own.filter((st) => st.resultId !== undefined).length;
      return done === own.length
        ? `${s.name} done (${own.length} test${own.length === 1 ? '' : 's'})`
        : `${s.name} ${done} of ${own.length} tests`;
    })
    .join(', ');
}

// A saved campaign is read back from a file anyone could have edited: every text it shows is
// plain (no escapes reach a terminal), every step names a setup and a kind that exist, and the
// counts are bounded.
const campaignStateSchema = z
  .object({
    schema: z.literal(1),
    id: z.string().regex(RESULT_ID_RE),
    createdAt: plainString(40),
    updatedAt: plainString(40),
    status: z.enum(['running', 'waiting', 'stopped', 'failed', 'done']),
    pid: z.number().int().positive().optional(),
    target: plainString(4096).min(1),
    setups: z
      .array(z.object({ key: plainString(40), name: plainString(LABEL_MAX).min(1) }))
      .min(2)
      .max(MAX_SETUPS),
    kinds: z.array(z.enum(TEST_KINDS)).min(1).max(TEST_KINDS.length),
    runArgs: z.array(plainString(4096)).max(64),
    testArgs: z.partialRecord(z.enum(TEST_KINDS), z.array(plainString(4096)).max(64)).optional(),
    steps: z
      .array(z.object({ setup: z.number().int().min(0), kind: z.enum(TEST_KINDS), resultId: z.string().regex(RESULT_ID_RE).optional() }))
      .max(MAX_SETUPS * TEST_KINDS.length),
    reason: messageString(2000).optional(),
  })
  .refine((c) => c.steps.every((st) => st.setup < c.setups.length), 'a step names a setup the campaign does not have');

/** A campaign state read from disk, or undefined when it is not a sound one (skipped, as an
 *  unreadable file is). */
export function parseCampaignState(raw: unknown): CampaignState | undefined {
  const r = campaignStateSchema.safeParse(raw);
  if (!r.success) return undefined;
  const state: CampaignState = r.data; // the schema and the type say the same: a compile error otherwise
  return state;
}
