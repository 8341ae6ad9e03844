// `diskdial campaign`: runs a setup campaign (core/campaign.ts) on the terminal. Before each
// setup it prints what to change and waits for a line on stdin (Enter: go on; "stop": stop, to be
// resumed); each test runs through RunService as `diskdial run` does, is saved to history with
// the setup's name, and the end prints the comparison report with one row per setup.
import { statfs, writeFile } from 'node:fs/promises';
import { CampaignStore, newCampaign, runCampaign } from '../core/campaign.js';
import { campaignProgress, parseSetups, setupPrompt, type CampaignState } from '../model/campaign.js';
import { campaignEstimateText, campaignSecondsLeft, durationText, planProblems, planText, testSeconds } from '../model/campaign-plan.js';
import type { PlanTarget } from '../model/kinds/plan.js';
import { renderFormatReport } from '../model/report/format-report.js';
import type { ResultDocument } from '../model/result.js';
import type { ExportFormat } from '../model/settings.js';
import { DiskDialError } from '../model/errors.js';
import { HistoryService } from '../services/history.js';
import { RunService } from '../services/run.js';
import { kindTakesFlag, parseCli, type RunCommand } from './args.js';
import { isTestKind } from '../model/kinds/registry.js';
import type { CampaignCommand } from './campaign-args.js';
import { createProgressLine } from './progress.js';
import { UsageError } from './usage-error.js';

export interface CampaignIo {
  out(text: string): void;
  err(line: string): void;
  /** The next line the person types; undefined at the end of input. */
  ask(): Promise<string | undefined>;
  signal: AbortSignal;
}

export interface CampaignDepsCli {
  store?: CampaignStore;
  history?: HistoryService;
}

/** The options as typed, each with its value: [['--runs', '3'], ['--wait']]. */
function optionGroups(runArgs: readonly string[]): string[][] {
  const groups: string[][] = [];
  for (const a of runArgs) {
    if (a.startsWith('-') || groups.length === 0) groups.push([a]);
    else groups[groups.length - 1]!.push(a);
  }
  return groups;
}

/** The flag of an option group: "--size=1GB" → "size". */
const flagOf = (g: readonly string[]): string => g[0]!.replace(/^--?/, '').split('=')[0]!;

/** Each kind's `diskdial run` command, every one checked before anything runs: the run parser
 *  reads its options and the kind builds its plan with them, and every problem of every test is
 *  listed in one error. A global option goes to the tests that take it (--files to small-files,
 *  --seconds to sweep) unless the test's own options (`--plan "quick:size=1GB"`) set it; one that
 *  no test of the plan takes is a mistake. */
export function campaignRunCommands(
  target: string,
  kinds: readonly string[],
  runArgs: readonly string[],
  testArgs: Readonly<Record<string, readonly string[]>> = {},
): Map<string, RunCommand> {
  const out = new Map<string, RunCommand>();
  // The plan's tests' problems ("cdm: …"), after those of the options given to every test.
  const global: string[] = [];
  const problems: string[] = [];
  const groups = optionGroups(runArgs);
  for (const g of groups) {
    if (!kinds.some((k) => isTestKind(k) && kindTakesFlag(flagOf(g), k)))
      global.push(`${g[0]!.split('=')[0]} applies to none of the plan's tests (${kinds.join(', ')})`);
  }
  for (const kind of kinds) {
    const ownGroups = optionGroups(testArgs[kind] ?? []);
    const ownFlags = new Set(ownGroups.map(flagOf));
    if (isTestKind(kind)) {
      const foreign = ownGroups.filter((g) => !kindTakesFlag(flagOf(g), kind));
      if (foreign.length > 0) {
        problems.push(`${kind}: ${listOf(foreign.map((g) => `--${flagOf(g)}`))} is not an option of this test`);
        continue;
      }
    }
    const global = isTestKind(kind) ? groups.filter((g) => kindTakesFlag(flagOf(g), kind) && !ownFlags.has(flagOf(g))) : groups;
    let cmd;
    try {
      cmd = parseCli(['run', target, '--test', kind, ...global.flat(), ...ownGroups.flat()]);
    } catch (err) {
      if (err instanceof DiskDialError) {
        problems.push(`${kind}: ${err.message}`);
        continue;
      }
      throw err;
    }
    if (cmd.command !== 'run') problems.push(`${kind} is not a test diskdial run makes`);
    // --runs 0 is the run command's --loop, which a campaign refuses by name.
    else if (cmd.loop)
      problems.push(`${kind}: --runs 0 runs until Ctrl-C; a campaign runs each test a set number of times (--runs 1 or more)`);
    else out.set(kind, cmd);
  }
  problems.push(...planProblems([...out].map(([kind, cmd]) => ({ kind, options: cmd }))));
  const all = [...global, ...problems.map((p) => `--plan's ${p}`)];
  if (all.length === 1) throw new UsageError(all[0]!);
  if (all.length > 1)
    throw new UsageError(`the plan cannot run as given, so nothing was tested. ${all.map((p, i) => `(${i + 1}) ${p}`).join('; ')}`);
  return out;
}

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The target's free space for the tests that size themselves to it; undefined when unreadable. */
async function freeSpace(target: string): Promise<PlanTarget | undefined> {
  try {
    const st = await statfs(target);
    return { freeBytes: st.bavail * st.bsize, totalBytes: st.blocks * st.bsize };
  } catch {
    return undefined;
  }
}

function id8(id: string): string {
  return id.slice(0, 8);
}

export async function runCampaignCommand(cmd: CampaignCommand, io: CampaignIo, deps: CampaignDepsCli = {}): Promise<number> {
  const store = deps.store ?? new CampaignStore();
  const history = deps.history ?? new HistoryService();
  if (cmd.action === 'list') {
    const open = await store.unfinished();
    if (cmd.json) io.out(`${JSON.stringify(open, null, 2)}\n`);
    else if (open.length === 0) io.out('No unfinished campaign.\n');
    else
      io.out(
        open
          .map((c) => `${id8(c.id)}  ${c.status.padEnd(8)} ${c.target}  ${planText(c.kinds, c.testArgs)}  ${campaignProgress(c)}\n`)
          .join(''),
      );
    return 0;
  }

  let state: CampaignState;
  let resumed = false;
  if (cmd.action === 'resume') {
    const found = await store.find(cmd.ref);
    if (!found) throw new UsageError(`no campaign "${cmd.ref}"; diskdial campaign --list shows the unfinished ones`);
    if (found.status === 'done') throw new UsageError(`campaign ${id8(found.id)} has finished; its results are in diskdial history`);
    state = found;
    resumed = true;
  } else {
    state = newCampaign({
      target: cmd.target,
      setups: parseSetups(cmd.setups),
      kinds: cmd.kinds,
      runArgs: cmd.runArgs,
      testArgs: cmd.testArgs,
    });
  }
  const commands = campaignRunCommands(state.target, state.kinds, state.runArgs, state.testArgs);

  const runs = new RunService({ history });
  const docs = new Map<string, ResultDocument>();
  const total = state.steps.length;
  // How long it takes, said before the first question; while it runs, each step says what is
  // left, scaled by how this disk compared with the estimate on the steps done so far.
  const perTest = testSeconds(
    state.kinds.map((kind) => {
      const c = commands.get(kind)!;
      return { kind: c.test, options: c, runs: c.runs, restSeconds: c.restSeconds ?? 0 };
    }),
    await freeSpace(state.target),
  );
  const first = state.steps.findIndex((st) => st.resultId === undefined);
  const ahead = campaignSecondsLeft(perTest, total, Math.max(0, first));
  io.err(campaignEstimateText(ahead, total - Math.max(0, first), state.setups.length));
  const measured = { actual: 0, estimated: 0 };
  let finished: CampaignState;
  try {
    finished = await runCampaign(
      state,
      {
        store,
        ready: async (s, setup) => {
          io.err(setupPrompt(s, setup));
          const answer = await io.ask();
          return answer !== undefined && !/^\s*(stop|q|quit)\s*$/i.test(answer);
        },
        run: async (kind, s, step) => {
          const { command: _c, json: _j, noSave: _n, loop: _l, willItWork: _w, ...opts } = commands.get(kind)!;
          const setup = s.setups[s.steps[step]!.setup]!;
          const left = campaignSecondsLeft(perTest, total, step, { measured });
          io.err(`[${step + 1}/${total}] ${setup.name}: ${kind}${left === undefined ? '' : ` · ${durationText(left)} of testing left`}`);
          const progress = createProgressLine(process.stderr, opts.restSeconds);
          const began = performance.now();
          try {
            const doc = await runs.run(
              { kind: 'benchmark', options: { ...opts, ...(progress ? { onProgress: (p) => progress.update(p) } : {}) } },
              io.signal,
            );
            const estimated = perTest[state.kinds.indexOf(kind)];
            if (estimated !== undefined) {
              measured.actual += (performance.now() - began) / 1000;
              measured.estimated += estimated;
            }
            return doc;
          } finally {
            progress?.clear();
          }
        },
        save: async (doc) => {
          const note = await runs.save(doc);
          if (note && 'error' in note) io.err(note.error.message);
          docs.set(doc.id, doc);
          return note && 'id' in note ? note.id : undefined;
        },
      },
      resumed,
    );
  } catch (err) {
    io.err(`campaign ${id8(state.id)} stopped: ${state.reason ?? String(err)} Resume with diskdial campaign --resume ${id8(state.id)}`);
    throw err;
  }
  if (finished.status !== 'done') {
    io.err(
      `${finished.reason ?? 'Stopped.'} So far: ${campaignProgress(finished)}. Resume with diskdial campaign --resume ${id8(finished.id)}`,
    );
    if (cmd.json) io.out(`${JSON.stringify({ campaign: finished }, null, 2)}\n`);
    return 1;
  }

  // Every setup's results, the ones of earlier sessions read back from history.
  const all: ResultDocument[] = [];
  for (const step of finished.steps) {
    const id = step.resultId!;
    const doc = docs.get(id) ?? (await history.get(id).catch(() => undefined));
    if (doc) all.push(doc);
    else
      io.err(
        `the result of ${finished.setups[step.setup]?.name ?? 'a setup'}'s ${step.kind} is no longer in history; the report leaves it out`,
      );
  }
  if (cmd.report) {
    const ext = cmd.report.slice(cmd.report.lastIndexOf('.') + 1).toLowerCase() as ExportFormat;
    await writeFile(cmd.report, renderFormatReport(all, ext).text);
    io.err(`wrote ${cmd.report}`);
  }
  if (cmd.json) {
    const report = JSON.parse(renderFormatReport(all, 'json').text).report;
    io.out(`${JSON.stringify({ campaign: finished, report, results: all }, null, 2)}\n`);
  } else io.out(renderFormatReport(all, 'md').text);
  return 0;
}
