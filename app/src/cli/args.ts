// Turns argv into a checked command, or a UsageError in plain words. Everything the user can
// get wrong on the command line is caught here, before any disk is touched, so the CLI can
// answer with one line and exit code 2.
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CacheRequest, DataPattern, HashAlgo } from '../model/engine-types.js';
import type { CheckAlgo } from '../model/check-manifest.js';
import { isTestKind, MAX_BS, validatePlanOptions } from '../model/presets.js';
import { plainMessage } from '../model/errors.js';
import { cleanLabel } from '../model/text.js';
import { parseChoice, parseSize, parseWholeNumber } from '../model/units.js';
import { RUN_KINDS, runKind, TEST_KINDS, type TestKind } from '../model/kinds/registry.js';
import type { KindFlag, RefusableFlag } from '../model/kinds/types.js';
import type { RunBenchmarkOptions } from '../core/runner.js';
import { UsageError } from './usage-error.js';
import { commandHelp, fullHelp } from './help.js';
import { parseWizardCommand, WIZARD_COMMANDS, type WizardCommand, type WizardCommandName } from './wizard-args.js';
import { HISTORY_COMMANDS, parseHistoryCommand, type HistoryCommand, type HistoryCommandName } from './history-args.js';
import { parseCampaignCommand, type CampaignCommand } from './campaign-args.js';
import { CDM_MODES } from '../model/plan.js';
import { DEFAULT_VIDEO_FPS } from '../model/verdict/will-it-work.js';
import { fpsOption } from './export-options.js';

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
  /** --video [--fps N]: print the "Will it work?" table (and add it to --json) at this frame rate. */
  videoTable?: { fps: number };
}

export interface ServeCommand {
  command: 'serve';
  /** 0: a free port chosen by the system. */
  port: number;
  /** --allow-erase: the wizard may erase disks from the page (off by default: a browser tab is
   *  not the desktop app's own confirmation). */
  allowErase?: true;
}

export interface HashCommand {
  command: 'hash';
  /** A file to hash (read-only), or with `size` a folder to write a test file in. */
  path: string;
  size?: number;
  algo?: HashAlgo;
  verify?: string;
  threads?: number;
  /** As run's --cache: how the file is read. */
  cache?: CacheRequest;
  label?: string;
  json: boolean;
  noSave?: boolean;
  wait?: boolean;
}

export interface CheckCommand {
  command: 'check';
  /** The folder whose files are hashed (only read); the manifest is the one thing written. */
  folder: string;
  manifest?: string;
  algo?: CheckAlgo;
  streams?: number;
  /** As run's --cache: how the files are read. */
  cache?: CacheRequest;
  verifyOnly?: true;
  update?: true;
  label?: string;
  json: boolean;
  noSave?: boolean;
  wait?: boolean;
}

export interface CipherCommand {
  command: 'cipher';
  seconds?: number;
  threads?: number;
  label?: string;
  json: boolean;
  noSave?: boolean;
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
  | CampaignCommand;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  test: { type: 'string', short: 't' },
  size: { type: 'string', short: 's' },
  bs: { type: 'string' },
  qd: { type: 'string' },
  threads: { type: 'string' },
  runs: { type: 'string', short: 'n' },
  loop: { type: 'boolean' },
  pattern: { type: 'string' },
  seconds: { type: 'string' },
  warmup: { type: 'string' },
  cache: { type: 'string' },
  label: { type: 'string' },
  preset: { type: 'string' },
  mode: { type: 'string' },
  rwmixread: { type: 'string' },
  reserve: { type: 'string' },
  files: { type: 'string' },
  'min-size': { type: 'string' },
  'max-size': { type: 'string' },
  seed: { type: 'string' },
  format: { type: 'string' },
  layout: { type: 'string' },
  buffer: { type: 'string' },
  rest: { type: 'string' },
  interval: { type: 'string' },
  json: { type: 'boolean' },
  port: { type: 'string', short: 'p' },
  'allow-erase': { type: 'boolean' },
  algo: { type: 'string' },
  verify: { type: 'string' },
  'no-save': { type: 'boolean' },
  wait: { type: 'boolean' },
  manifest: { type: 'string' },
  streams: { type: 'string' },
  'verify-only': { type: 'boolean' },
  update: { type: 'boolean' },
  video: { type: 'boolean' },
  fps: { type: 'string' },
  'file-size': { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
} as const;

/** Options of `run` only; `serve` takes its settings from the page. */
const RUN_ONLY = [
  'test',
  'size',
  'bs',
  'qd',
  'threads',
  'runs',
  'loop',
  'pattern',
  'seconds',
  'warmup',
  'cache',
  'label',
  'preset',
  'mode',
  'rwmixread',
  'reserve',
  'files',
  'min-size',
  'max-size',
  'seed',
  'format',
  'layout',
  'buffer',
  'rest',
  'interval',
  'json',
  'no-save',
  'wait',
  'video',
  'fps',
  'file-size',
  'from',
  'to',
] as const;

/** Options that belong to some tests only, and which: what each kind's module claims. */
const ONLY_FOR = new Map<KindFlag, TestKind[]>();
for (const k of RUN_KINDS) for (const flag of k.cli?.options ?? []) ONLY_FOR.set(flag, [...(ONLY_FOR.get(flag) ?? []), k.id]);

/** Does `diskdial run --test <kind>` take `--<flag>`? (No when another kind claims it, or the
 *  kind refuses it.) A campaign passes each of its options to the tests that take it. */
export function kindTakesFlag(flag: string, kind: TestKind): boolean {
  const claimed = ONLY_FOR.get(flag as KindFlag);
  if (claimed && !claimed.includes(kind)) return false;
  return !(flag in (runKind(kind).cli?.refuse ?? {}));
}

const PATTERNS: readonly DataPattern[] = ['random', 'zeros'];
const CACHES: readonly CacheRequest[] = ['auto', 'buffered-flushed', 'buffered'];

/** The full help (help.ts writes every command's). */
export const HELP = fullHelp();

/** --label as history keeps it: plain text, at most LABEL_MAX characters (the same rule as
 *  `history label` and import). */
function labelOption(text: string): string {
  try {
    return cleanLabel(text);
  } catch (err) {
    throw new UsageError(`--label: ${(err as Error).message}`);
  }
}

function integer(flag: string, text: string, min: number, max: number): number {
  return usage(() => parseWholeNumber(text, flag, min, max));
}

/** A model check's plain-words error, said as a usage error. */
function usage<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A cipher ceiling settles within seconds; past ten minutes a run is a mistake, not a measurement. */
const MAX_CIPHER_SECONDS = 600;
/** The engine's own bound on a timed step (spec.seconds). */
const MAX_SECONDS = 10_000_000;

function seconds(flag: string, text: string, allowZero: boolean, max = MAX_SECONDS): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new UsageError(`--${flag} must be a number of seconds${allowZero ? '' : ' above zero'}, not "${text}"`);
  }
  if (n > max) throw new UsageError(`--${flag} is at most ${max.toLocaleString('en-US')} seconds, not ${text}`);
  return n;
}

/** A rest: a plain number is minutes (as the wizard's --rest MIN); 90s, 5m, 1h say their unit. */
export function parseRest(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(s|sec|m|min|h)?$/i.exec(text.trim());
  if (!m) throw new UsageError(`--rest must be minutes, or a time like 90s, 5m, 1h; not "${text}"`);
  const unit = (m[2] ?? 'm').toLowerCase();
  const seconds = Number(m[1]) * (unit.startsWith('s') ? 1 : unit === 'h' ? 3600 : 60);
  if (seconds > 24 * 3600) throw new UsageError('--rest is at most 24 hours');
  return seconds;
}

function oneOf<T extends string>(flag: string, text: string, allowed: readonly T[]): T {
  return usage(() => parseChoice(text, flag, allowed));
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

  for (const [flag, kinds] of ONLY_FOR) {
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
  if (v.fps !== undefined && !v.video) throw new UsageError('--fps sets the frame rate of the --video table; add --video');
  if (v.video) cmd.videoTable = { fps: v.fps === undefined ? DEFAULT_VIDEO_FPS : fpsOption(v.fps) };
  if (v.reserve !== undefined) cmd.reserveBytes = usage(() => parseSize(v.reserve as string, '--reserve'));
  // The kind's own flags (the video format, the many-file set, the sweep's range, the small-file
  // set), as its module reads them.
  Object.assign(
    cmd,
    usage(() => kind.cli?.parse?.((flag) => v[flag] as string | undefined)),
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

const CIPHER_OPTIONS = new Set(['seconds', 'threads', 'label', 'json', 'no-save']);

function parseCipher(v: { [K in keyof typeof OPTIONS]?: string | boolean | undefined }, rest: readonly string[]): CipherCommand {
  const foreign = (Object.keys(v) as Array<keyof typeof OPTIONS>).find((k) => v[k] !== undefined && !CIPHER_OPTIONS.has(k));
  if (foreign) throw new UsageError(`--${foreign} does not apply to diskdial cipher`);
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"; cipher measures memory and takes no folder`);
  const cmd: CipherCommand = { command: 'cipher', json: v.json === true };
  if (v['no-save'] === true) cmd.noSave = true;
  if (typeof v.seconds === 'string') cmd.seconds = seconds('seconds', v.seconds, false, MAX_CIPHER_SECONDS);
  if (typeof v.threads === 'string') cmd.threads = integer('threads', v.threads, 1, 256);
  if (typeof v.label === 'string') cmd.label = labelOption(v.label);
  return cmd;
}

const HASH_OPTIONS = new Set(['algo', 'verify', 'size', 'threads', 'cache', 'label', 'json', 'no-save', 'wait']);

function parseHash(v: { [K in keyof typeof OPTIONS]?: string | boolean | undefined }, rest: readonly string[]): HashCommand {
  const foreign = (Object.keys(v) as Array<keyof typeof OPTIONS>).find((k) => v[k] !== undefined && !HASH_OPTIONS.has(k));
  if (foreign) throw new UsageError(`--${foreign} does not apply to diskdial hash`);
  const [target, ...extra] = rest;
  if (target === undefined) throw new UsageError('missing <file>: which file should be hashed? e.g. diskdial hash ~/Downloads/debian.iso');
  if (target.trim() === '') throw new UsageError('<file> is empty: which file should be hashed? e.g. diskdial hash ~/Downloads/debian.iso');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"; hash takes one file`);
  const cmd: HashCommand = { command: 'hash', path: path.resolve(target), json: v.json === true };
  if (v['no-save'] === true) cmd.noSave = true;
  if (v.wait === true) cmd.wait = true;
  if (typeof v.algo === 'string') cmd.algo = oneOf('algo', v.algo, ['sha256', 'sha512'] as const);
  if (typeof v.verify === 'string') cmd.verify = v.verify;
  if (typeof v.label === 'string') cmd.label = labelOption(v.label);
  if (typeof v.threads === 'string') cmd.threads = integer('threads', v.threads, 1, 256);
  if (typeof v.cache === 'string') cmd.cache = oneOf('cache', v.cache, CACHES);
  if (typeof v.size === 'string') {
    try {
      cmd.size = parseSize(v.size, '--size');
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (cmd.size < 1024 * 1024) throw new UsageError('--size must be at least 1MiB');
  }
  let st;
  try {
    st = statSync(cmd.path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'ENOENT';
    if (code === 'ENOENT') throw new UsageError(plainMessage('ENOENT', cmd.path, { subject: 'file' })!, 'ENOENT');
    return cmd; // EACCES and friends: the hash test reports them in its own words
  }
  if (st.isDirectory() && cmd.size === undefined) {
    throw new UsageError(
      `${cmd.path} is a folder, not a file: give a file to hash, or --size to have DiskDial write a test file there`,
      'EISDIR',
    );
  }
  if (!st.isDirectory() && cmd.size !== undefined)
    throw new UsageError('--size applies to a folder (to write a test file in); a file is hashed as it is');
  return cmd;
}

const CHECK_OPTIONS = new Set(['manifest', 'algo', 'streams', 'cache', 'verify-only', 'update', 'label', 'json', 'no-save', 'wait']);
const CHECK_ONLY = ['manifest', 'streams', 'verify-only', 'update'] as const;

function parseCheck(v: { [K in keyof typeof OPTIONS]?: string | boolean | undefined }, rest: readonly string[]): CheckCommand {
  const foreign = (Object.keys(v) as Array<keyof typeof OPTIONS>).find((k) => v[k] !== undefined && !CHECK_OPTIONS.has(k));
  if (foreign) throw new UsageError(`--${foreign} does not apply to diskdial check`);
  const [folder, ...extra] = rest;
  if (folder === undefined || folder.trim() === '')
    throw new UsageError(
      `${folder === undefined ? 'missing' : 'empty'} <folder>: which folder should be checked? e.g. diskdial check /media/me/CARD`,
    );
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"; check takes one folder`);
  const cmd: CheckCommand = { command: 'check', folder: path.resolve(folder), json: v.json === true };
  if (v['no-save'] === true) cmd.noSave = true;
  if (v.wait === true) cmd.wait = true;
  if (v['verify-only'] === true && v.update === true) throw new UsageError('--verify-only and --update contradict each other: choose one');
  if (v['verify-only'] === true) cmd.verifyOnly = true;
  if (v.update === true) cmd.update = true;
  if (typeof v.algo === 'string') cmd.algo = oneOf('algo', v.algo, ['sha256', 'sha512', 'md5'] as const);
  if (typeof v.manifest === 'string') {
    if (v.manifest.trim() === '') throw new UsageError('--manifest is empty: give the manifest file, e.g. --manifest SHA256SUMS');
    cmd.manifest = path.resolve(v.manifest);
  }
  if (typeof v.streams === 'string') cmd.streams = integer('streams', v.streams, 1, 256);
  if (typeof v.cache === 'string') {
    cmd.cache = oneOf('cache', v.cache, CACHES);
    if (cmd.algo === 'md5') throw new UsageError('--cache applies to sha256 and sha512: md5 always reads through the page cache');
  }
  if (typeof v.label === 'string') cmd.label = labelOption(v.label);
  checkTargetFolder(cmd.folder);
  return cmd;
}

function parseServe(v: { [K in keyof typeof OPTIONS]?: string | boolean | undefined }, rest: readonly string[]): ServeCommand {
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"; serve takes no folder (pick one in the page)`);
  const runOnly = [...RUN_ONLY, 'algo', 'verify', ...CHECK_ONLY].find((k) => v[k as keyof typeof OPTIONS] !== undefined);
  if (runOnly) throw new UsageError(`--${runOnly} does not apply to serve: choose test settings in the page`);
  const port = typeof v.port === 'string' ? integer('port', v.port, 0, 65535) : 0;
  return { command: 'serve', port, ...(v['allow-erase'] === true ? { allowErase: true as const } : {}) };
}

/** The folder must exist and be a folder: both are input mistakes, reported before any I/O. */
function checkTargetFolder(dir: string): void {
  let st;
  try {
    st = statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'ENOENT';
    if (code === 'ENOENT') throw new UsageError(plainMessage('ENOENT', dir)!, 'ENOENT');
    if (code === 'ENOTDIR')
      throw new UsageError(`${dir} is not a folder: part of the path is a file. Check the path, or choose another folder.`, 'ENOTDIR');
    return; // EACCES and friends are for the workspace to report in its own words.
  }
  if (!st.isDirectory()) throw new UsageError(plainMessage('ENOTDIR', dir)!, 'ENOTDIR');
}
