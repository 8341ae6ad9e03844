// `diskdial campaign`: runs a setup campaign (core/campaign.ts) on the terminal. Before each
// setup it prints what to change and waits for a line on stdin (Enter: go on; "stop": stop, to be
// resumed); each test runs through RunService as `diskdial run` does, is saved to history with
// the setup's name, and the end prints the comparison report with one row per setup.
import { writeFile } from 'node:fs/promises';
import { CampaignStore, newCampaign, runCampaign } from '../core/campaign.js';
import { campaignProgress, parseSetups, setupPrompt, type CampaignState } from '../model/campaign.js';
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

/** Each kind's `diskdial run` command, checked by the run parser before anything runs. An option
 *  goes to the tests that take it (--files to small-files, --seconds to sweep); one that no test
 *  of the plan takes is a mistake. */
function runCommands(target: string, kinds: readonly string[], runArgs: readonly string[]): Map<string, RunCommand> {
  const out = new Map<string, RunCommand>();
  const groups = optionGroups(runArgs);
  const flagOf = (g: string[]): string => g[0]!.replace(/^--?/, '').split('=')[0]!;
  for (const g of groups) {
    if (!kinds.some((k) => isTestKind(k) && kindTakesFlag(flagOf(g), k)))
      throw new UsageError(`${g[0]!.split('=')[0]} applies to none of the plan's tests (${kinds.join(', ')})`);
  }
  for (const kind of kinds) {
    const own = isTestKind(kind) ? groups.filter((g) => kindTakesFlag(flagOf(g), kind)).flat() : [...runArgs];
    let cmd;
    try {
      cmd = parseCli(['run', target, '--test', kind, ...own]);
    } catch (err) {
      if (err instanceof DiskDialError) throw new UsageError(`--plan's ${kind}: ${err.message}`);
      throw err;
    }
    if (cmd.command !== 'run') throw new UsageError(`--plan's ${kind} is not a test diskdial run makes`);
    out.set(kind, cmd);
  }
  return out;
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
      io.out(open.map((c) => `${id8(c.id)}  ${c.status.padEnd(8)} ${c.target}  ${c.kinds.join(',')}  ${campaignProgress(c)}\n`).join(''));
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
    state = newCampaign({ target: cmd.target, setups: parseSetups(cmd.setups), kinds: cmd.kinds, runArgs: cmd.runArgs });
  }
  const commands = runCommands(state.target, state.kinds, state.runArgs);

  const runs = new RunService({ history });
  const docs = new Map<string, ResultDocument>();
  const total = state.steps.length;
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
          io.err(`[${step + 1}/${total}] ${setup.name}: ${kind}`);
          const progress = createProgressLine(process.stderr, opts.restSeconds);
          try {
            return await runs.run(
              { kind: 'benchmark', options: { ...opts, ...(progress ? { onProgress: (p) => progress.update(p) } : {}) } },
              io.signal,
            );
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
