// `diskdial campaign`'s arguments. Its own flags are read here; every other option is a
// `diskdial run` option for each test of the plan, passed on as typed and checked by the run
// parser for each kind before anything runs (campaign-command.ts).
import path from 'node:path';
import { parsePlanText } from '../model/campaign-plan.js';
import { UsageError } from './usage-error.js';

export type CampaignCommand =
  | { command: 'campaign'; action: 'list'; json: boolean }
  | { command: 'campaign'; action: 'resume'; ref: string; json: boolean; report?: string }
  | {
      command: 'campaign';
      action: 'run';
      target: string;
      setups: string;
      kinds: string[];
      runArgs: string[];
      /** Each test's own options from --plan ("quick:size=1GB"), as run arguments; they override
       *  the global ones for that test. Absent when no test has any. */
      testArgs?: Record<string, string[]>;
      json: boolean;
      report?: string;
    };

/** Run options a campaign sets itself, with the reason a user reads. */
const REFUSED: Record<string, string> = {
  '--test': 'a campaign runs the tests of --plan (e.g. --plan quick,sweep), not --test',
  '-t': 'a campaign runs the tests of --plan (e.g. --plan quick,sweep), not --test',
  '--label': "a campaign labels each result with its setup's name",
  '--loop': 'a campaign runs each test once per setup; --loop runs until Ctrl-C',
  '--no-save': 'a campaign keeps its results in history, so it can be resumed and reported',
  '--video': 'the Will-it-work table belongs to diskdial run --video',
};

const VALUED = new Set(['--setups', '--plan', '--resume', '--report']);

export function parseCampaignCommand(argv: readonly string[]): CampaignCommand {
  const own = new Map<string, string | true>();
  const runArgs: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (REFUSED[name]) throw new UsageError(REFUSED[name]!);
    if (VALUED.has(name)) {
      const value = eq > 0 && a.startsWith('--') ? a.slice(eq + 1) : argv[++i];
      if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new UsageError(`${name} needs a value`);
      own.set(name, value);
    } else if (a === '--json' || a === '--list') own.set(a, true);
    else if (a.startsWith('-')) {
      // A run option, passed on with its value (--wait is the one that takes none).
      runArgs.push(a);
      const next = argv[i + 1];
      if (eq < 0 && a !== '--wait' && next !== undefined && !next.startsWith('-')) runArgs.push(argv[++i]!);
    } else positionals.push(a);
  }
  const json = own.get('--json') === true;
  const report = typeof own.get('--report') === 'string' ? path.resolve(own.get('--report') as string) : undefined;
  if (report && !/\.(md|csv|json|html|txt)$/i.test(report)) throw new UsageError('--report must end in .md, .csv, .json, .html or .txt');
  if (own.get('--list')) return { command: 'campaign', action: 'list', json };
  const resume = own.get('--resume');
  if (typeof resume === 'string') {
    if (positionals.length || own.has('--setups') || own.has('--plan') || runArgs.length)
      throw new UsageError('--resume goes on with the campaign as it was planned: give no folder, setups, plan or options');
    return { command: 'campaign', action: 'resume', ref: resume, json, ...(report ? { report } : {}) };
  }
  const [dir, ...extra] = positionals;
  if (dir === undefined || dir.trim() === '')
    throw new UsageError('missing <dir>: which folder should each setup test? e.g. diskdial campaign /Volumes/NAS --setups "GigE,Wi-Fi"');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"; a campaign tests one folder`);
  const setups = own.get('--setups');
  if (typeof setups !== 'string') throw new UsageError('--setups is needed: the setups to compare, e.g. --setups "GigE,Wi-Fi"');
  const plan = typeof own.get('--plan') === 'string' ? (own.get('--plan') as string) : 'quick';
  let tests;
  try {
    tests = parsePlanText(plan);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const kinds = tests.map((t) => t.kind);
  const testArgs: Record<string, string[]> = {};
  for (const t of tests) {
    for (const a of t.args) if (REFUSED[a]) throw new UsageError(`${t.kind}:${a.slice(2)} — ${REFUSED[a]}`);
    if (t.args.length > 0) testArgs[t.kind] = t.args;
  }
  return {
    command: 'campaign',
    action: 'run',
    target: path.resolve(dir),
    setups,
    kinds,
    runArgs,
    ...(Object.keys(testArgs).length > 0 ? { testArgs } : {}),
    json,
    ...(report ? { report } : {}),
  };
}
