// Turns argv into a checked command, or a UsageError in plain words. Everything the user can
// get wrong on the command line is caught here, before any disk is touched, so the CLI can
// answer with one line and exit code 2. Here: the dispatch to each command's parser and `run`'s.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DataPattern } from '../model/engine-types.js';
import { isTestKind, MAX_BS, validatePlanOptions } from '../model/presets.js';
import { parseSize } from '../model/units.js';
import { DEVICE_COMMANDS, KIND_FLAGS, runKind, TEST_KINDS, type KindFlag, type TestKind } from '../model/kinds/registry.js';
import type { RefusableFlag } from '../model/kinds/types.js';
import type { RunBenchmarkOptions } from '../core/runner.js';
import { UsageError } from './usage-error.js';
import { commandHelp, fullHelp } from './help.js';
import { parseWizardCommand, WIZARD_COMMANDS, type WizardCommand, type WizardCommandName } from './wizard-args.js';
import { HISTORY_COMMANDS, parseHistoryCommand, type HistoryCommand, type HistoryCommandName } from './history-args.js';
import { parseCampaignCommand, type CampaignCommand } from './campaign-args.js';
import { CDM_MODES } from '../model/plan.js';
import { CACHES, checkTargetFolder, integer, labelOption, oneOf, OPTIONS, seconds, usage } from './args-common.js';
import { parseHash, type HashCommand } from './args-hash.js';
import { CHECK_ONLY, parseCheck, type CheckCommand } from './args-check.js';
import { parseCipher, type CipherCommand } from './args-cipher.js';
import { parseServe, type ServeCommand } from './args-serve.js';
import { parseDeviceCommand, type DeviceCommand } from './args-device.js';

export { UsageError };

export const MAX_RUNS = 100;

/** The runner's own options, as `diskdial run` sets them (core/runner.ts says what each does). */
type RunFigures = Omit<RunBenchmarkOptions, 'target' | 'test' | 'runs' | 'signal' | `on${string}`>;

export interface RunCommand extends RunFigures {
  command: 'run';
  target: string;
  test: TestKind;
  runs: number;
  json: boolean;
  /** --no-save: keep the result out of history. */
  noSave?: boolean;
  /** --wait: wait for another DiskDial test on the drive to end instead of failing. */
  wait?: boolean;
  /** --loop (or --runs 0): run the plan again and again until Ctrl-C, the cycles saved as runs. */
  loop?: true;
  /** --video [--fps N] (the quick kind's flags): print the "Will it work?" table (and add it to
   *  --json) at this frame rate. */
  willItWork?: { fps: number };
}

/** `text`: what to print, the full help or one command's. */
export type Command =
  | { command: 'help'; text: string }
  | { command: 'version' }
  | RunCommand
  | ServeCommand
  | HashCommand
  | CheckCommand
  | CipherCommand
  | HistoryCommand
  | WizardCommand
  | CampaignCommand
  | DeviceCommand;

/** Does `diskdial run --test <kind>` take `--<flag>`? (No when another kind claims it, or the
 *  kind refuses it.) A campaign passes each of its options to the tests that take it. */
export function kindTakesFlag(flag: string, kind: TestKind): boolean {
  const claimed = KIND_FLAGS.get(flag as KindFlag)?.kinds;
  if (claimed && !claimed.includes(kind)) return false;
  return !(flag in (runKind(kind).cli?.refuse ?? {}));
}

const PATTERNS: readonly DataPattern[] = ['random', 'zeros'];

/** The full help (help.ts writes every command's). */
export const HELP = fullHelp();

/** A rest: a plain number is minutes (as the wizard's --rest MIN); 90s, 5m, 1h say their unit. */
export function parseRest(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--rest must be minutes, or a time like 90s, 5m, 1h; not "${text}"`);
  const unit = (m[2] ?? 'm').toLowerCase();
  const seconds = Number(m[1]) * (unit.startsWith('s') ? 1 : unit === 'h' ? 3600 : 60);
  if (seconds > 24 * 3600) throw new UsageError('--rest is at most 24 hours');
  return seconds;
}

/** `--seconds -1` as `--seconds=-1`: parseArgs takes a value starting with '-' for an option and
 *  says the flag "needs a value"; a negative number is a value, refused in words by its own check. */
function glueNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    if (name !== undefined && OPTIONS[name as keyof typeof OPTIONS]?.type === 'string' && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

// parseArgs explains itself in several sentences; we want one line.
function parseArgsError(err: unknown): UsageError {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const flag = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${flag}; see diskdial --help`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return new UsageError(
        message.includes('does not take an argument') ? `option ${flag} does not take a value` : `option ${flag} needs a value`,
      );
    default:
      return new UsageError(message.split('\n')[0] ?? 'invalid arguments');
  }
}

export function parseCli(argv: readonly string[]): Command {
  const at = argv.findIndex((a) => !a.startsWith('-'));
  const first = at >= 0 ? argv[at]! : undefined;
  // `diskdial <command> --help` and `diskdial help <command>`: that command's own help.
  if (at === 0 && first === 'help') {
    const topic = argv.slice(at + 1).find((a) => !a.startsWith('-'));
    return { command: 'help', text: topic === undefined ? fullHelp() : commandHelp(topic) };
  }
  // Options before the command (`diskdial --json run …`) get the full help.
  if (argv.includes('--help') || argv.includes('-h')) return { command: 'help', text: at === 0 ? commandHelp(first!) : fullHelp() };
  // history, export, share and import have options of their own.
  if (at === 0 && (HISTORY_COMMANDS as readonly string[]).includes(first!)) {
    return parseHistoryCommand(first as HistoryCommandName, argv.slice(1));
  }
  if (at === 0 && (WIZARD_COMMANDS as readonly string[]).includes(first!)) {
    return parseWizardCommand(first as WizardCommandName, argv.slice(1));
  }
  if (at === 0 && first === 'campaign') return parseCampaignCommand(argv.slice(1));
  const deviceKind = at === 0 ? DEVICE_COMMANDS.get(first!) : undefined;
  if (deviceKind) return parseDeviceCommand(first!, deviceKind, argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({ args: glueNegativeValues(argv), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw parseArgsError(err);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { command: 'help', text: fullHelp() };
  if (v.version) return { command: 'version' };

  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError('missing command; try diskdial run <dir>, or diskdial --help');
  if (command === 'version') return { command: 'version' };
  if (command === 'serve') return parseServe(v, rest);
  if (command === 'hash') return parseHash(v, rest);
  if (command === 'check') return parseCheck(v, rest);
  if (command === 'cipher') return parseCipher(v, rest);
  if (
    (HISTORY_COMMANDS as readonly string[]).includes(command) ||
    (WIZARD_COMMANDS as readonly string[]).includes(command) ||
    DEVICE_COMMANDS.has(command) ||
    command === 'campaign'
  )
    throw new UsageError(`options go after "${command}": diskdial ${command} …`);
  if (command !== 'run')
    throw new UsageError(
      `unknown command "${command}"; try diskdial run <dir>, diskdial hash <file>, diskdial check <folder>, diskdial cipher, diskdial history, or diskdial --help`,
    );
  if (v.port !== undefined || v['allow-erase'] !== undefined)
    throw new UsageError(`--${v.port !== undefined ? 'port' : 'allow-erase'} applies to diskdial serve only`);
  if (v.algo !== undefined || v.verify !== undefined)
    throw new UsageError(`--${v.algo !== undefined ? 'algo' : 'verify'} applies to diskdial hash only`);
  const checkOnly = CHECK_ONLY.find((k) => v[k] !== undefined);
  if (checkOnly) throw new UsageError(`--${checkOnly} applies to diskdial check only`);
  const [dir, ...extra] = rest;
  if (dir === undefined) throw new UsageError('missing <dir>: which folder should be tested? e.g. diskdial run /media/me/SSD');
  // path.resolve('') is the working directory: an empty argument (an unset shell variable) must
  // not quietly test whatever folder the command was started in.
  if (dir.trim() === '') throw new UsageError('<dir> is empty: which folder should be tested? e.g. diskdial run /media/me/SSD');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"; run takes one folder`);

  const test = v.test === undefined ? 'quick' : v.test;
  if (!isTestKind(test)) throw new UsageError(`--test must be one of ${TEST_KINDS.join(', ')}, not "${test}"`);

  // Options that belong to some tests only: what each kind's module claims.
  for (const [flag, { kinds }] of KIND_FLAGS) {
    if (v[flag] !== undefined && !kinds.includes(test)) {
      throw new UsageError(`--${flag} applies to --test ${kinds.join(' or ')} only`);
    }
  }
  const kind = runKind(test);
  for (const [flag, why] of Object.entries(kind.cli?.refuse ?? {}) as Array<[RefusableFlag, string]>) {
    if (v[flag] !== undefined) throw new UsageError(why);
  }

  const cmd: RunCommand = { command: 'run', target: path.resolve(dir), test, runs: 1, json: v.json ?? false };
  if (v['no-save']) cmd.noSave = true;
  if (v.wait) cmd.wait = true;
  try {
    if (v.size !== undefined) cmd.size = parseSize(v.size, '--size');
    if (v.bs !== undefined) cmd.bs = parseSize(v.bs, '--bs');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (cmd.size === 0) throw new UsageError('--size must be above zero');
  if (v.qd !== undefined) cmd.qd = integer('qd', v.qd, 1, 64);
  if (v.threads !== undefined) cmd.threads = integer('threads', v.threads, 1, 64);
  if (v.runs !== undefined) cmd.runs = integer('runs', v.runs, 0, MAX_RUNS);
  if (v.loop && v.runs !== undefined && cmd.runs !== 0)
    throw new UsageError('--loop runs until Ctrl-C: drop --runs (or use --runs 0 alone)');
  if (v.loop || cmd.runs === 0) {
    if (kind.sized)
      throw new UsageError(`--loop repeats a test of one fixed-size file; --test ${test} fills the drive, use --runs N instead`);
    cmd.loop = true;
    cmd.runs = 1;
  }
  if (v.pattern !== undefined) cmd.pattern = oneOf('pattern', v.pattern, PATTERNS);
  if (v.cache !== undefined) cmd.cache = oneOf('cache', v.cache, CACHES);
  if (v.seconds !== undefined) cmd.seconds = seconds('seconds', v.seconds, false);
  if (v.warmup !== undefined) cmd.warmupSeconds = seconds('warmup', v.warmup, true);
  if (v.label !== undefined) cmd.label = labelOption(v.label);
  if (v.preset !== undefined) {
    cmd.preset = oneOf('preset', v.preset, kind.cli?.presets ?? []) as RunCommand['preset'];
  }
  if (v.mode !== undefined) cmd.mode = oneOf('mode', v.mode, CDM_MODES);
  if (v.rwmixread !== undefined) cmd.rwmixread = integer('rwmixread', v.rwmixread, 0, 100);
  if (v.rest !== undefined) cmd.restSeconds = parseRest(v.rest);
  if (v.interval !== undefined) cmd.intervalSeconds = seconds('interval', v.interval, true);
  if (v.reserve !== undefined) cmd.reserveBytes = usage(() => parseSize(v.reserve as string, '--reserve'));
  // The kind's own flags (the Quick Test's Will-it-work table, the video format, the many-file
  // set, the sweep's range, the small-file set), as its module reads them.
  const given = (flag: string): boolean => v[flag as keyof typeof v] !== undefined;
  Object.assign(
    cmd,
    usage(() => kind.cli?.parse?.((flag) => v[flag as keyof typeof v] as string | undefined, given)),
  );
  if (cmd.bs !== undefined && !(cmd.bs >= 512 && cmd.bs <= MAX_BS && Number.isInteger(Math.log2(cmd.bs)))) {
    throw new UsageError(`--bs must be a power of two from 512 B to 128 MiB (e.g. 4KiB, 1MiB), not ${v.bs}`);
  }
  try {
    validatePlanOptions(cmd);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  checkTargetFolder(cmd.target);
  return cmd;
}
