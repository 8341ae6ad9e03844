// Turns argv into a checked command, or a UsageError in plain words. Everything the user can
// get wrong on the command line is caught here, before any disk is touched, so the CLI can
// answer with one line and exit code 2.
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CacheRequest, DataPattern, HashAlgo } from '../model/engine-types.js';
import { MAX_FILES, MIN_FILES, type FileSetOptions } from '../model/file-set.js';
import { isTestKind, validatePlanOptions } from '../model/presets.js';
import { plainMessage } from '../model/errors.js';
import { cleanLabel } from '../model/text.js';
import { parseSize } from '../model/units.js';
import { RUN_KINDS, runKind } from '../model/kinds/registry.js';
import type { KindFlag, RefusableFlag } from '../model/kinds/types.js';
import type { RunBenchmarkOptions } from '../core/runner.js';
import { UsageError } from './usage-error.js';
import { parseWizardCommand, WIZARD_COMMANDS, WIZARD_HELP, type WizardCommand, type WizardCommandName } from './wizard-args.js';
import { HISTORY_COMMANDS, HISTORY_HELP, parseHistoryCommand, type HistoryCommand, type HistoryCommandName } from './history-args.js';
import { CDM_MODES, TEST_KINDS, type TestKind } from '../model/plan.js';
import { DEFAULT_VIDEO_FPS } from '../model/video/will-it-work.js';
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
  /** --video [--fps N]: print the "Will it work?" table (and add it to --json) at this frame rate. */
  video?: { fps: number };
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
  label?: string;
  json: boolean;
  noSave?: boolean;
  wait?: boolean;
}

export type Command =
  { command: 'help' } | { command: 'version' } | RunCommand | ServeCommand | HashCommand | HistoryCommand | WizardCommand;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  test: { type: 'string', short: 't' },
  size: { type: 'string', short: 's' },
  bs: { type: 'string' },
  qd: { type: 'string' },
  threads: { type: 'string' },
  runs: { type: 'string', short: 'n' },
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
  rest: { type: 'string' },
  interval: { type: 'string' },
  json: { type: 'boolean' },
  port: { type: 'string', short: 'p' },
  'allow-erase': { type: 'boolean' },
  algo: { type: 'string' },
  verify: { type: 'string' },
  'no-save': { type: 'boolean' },
  wait: { type: 'boolean' },
  video: { type: 'boolean' },
  fps: { type: 'string' },
} as const;

/** Options of `run` only; `serve` takes its settings from the page. */
const RUN_ONLY = [
  'test',
  'size',
  'bs',
  'qd',
  'threads',
  'runs',
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
  'rest',
  'interval',
  'json',
  'no-save',
  'wait',
  'video',
  'fps',
] as const;

/** Options that belong to some tests only, and which: what each kind's module claims. */
const ONLY_FOR = new Map<KindFlag, TestKind[]>();
for (const k of RUN_KINDS) for (const flag of k.cli?.options ?? []) ONLY_FOR.set(flag, [...(ONLY_FOR.get(flag) ?? []), k.id]);

const PATTERNS: readonly DataPattern[] = ['random', 'zeros'];
const CACHES: readonly CacheRequest[] = ['auto', 'buffered-flushed', 'buffered'];

export const HELP = `diskdial — honest disk speed tests (uncached, timed I/O)

Usage:
  diskdial run <dir> [options]   test the disk holding folder <dir>
  diskdial hash <file> [options] how fast a file streams in and gets its SHA-256/512:
                                 disk-bound or CPU-bound? (the file is only read)
  diskdial hash <dir> --size S   the same on a test file of size S written in <dir>
  diskdial serve [--port N] [--allow-erase]
                                 the DiskDial app in your browser, on this machine only
  diskdial --help                show this help
  diskdial --version             show the app and engine versions

Tests (--test):
  quick       Blackmagic-style: write then read one stress file, 1 MiB blocks, QD8
              (--size: Blackmagic offers 1, 2, 3 or 5 GB; default 1GB)
  cdm         CrystalDiskMark grid, 5 s per test, reads then writes (--size 16MiB-64GiB,
              default 1GiB). --preset default: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1,
              RND4K Q1T1; nvme: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1;
              peak: SEQ1M Q8T1, RND4K Q32T1; realworld: SEQ1M Q1T1, RND4K Q1T1.
              --mode readwrite (default), read, write, mix (70/30), all
  sustained   write one file of up to --size (default 50GB), or free space less
              --reserve, and find where the drive's fast cache runs out
  files       Stibium-style many-file test: files of log-uniform sizes written in
              random order, then read in random order. --preset quick (40 files,
              2-600 MB, ~5 GB; default), standard (160 files, 2 MB-2 GB, ~53 GB),
              or custom with --files N --min-size SIZE --max-size SIZE [--seed N]
  seq-write   sequential write (default 1MiB blocks, QD8)
  seq-read    sequential read
  rand-read   random read (default 4KiB blocks, QD32, 5 s)
  rand-write  random write
  mix         random 70% read / 30% write

Options:
  -t, --test NAME        one of the tests above (default quick)
  -s, --size SIZE        test file size (default 1GB for quick, 1GiB otherwise)
      --bs SIZE          block size, a power of two from 512 to 64MiB
      --qd N             outstanding I/Os per thread, 1-64
      --threads N        worker threads, 1-64
  -n, --runs N           repeat the whole test N times (default 1); the report
                         gives mean, spread and best of the runs
      --rest TIME        rest between runs so a drive's cache can drain: minutes,
                         or with a unit: 90s, 5m (default 0)
      --interval S       seconds to pause between the tests of a run (default 0)
      --preset NAME      cdm: default, nvme, peak, realworld; files: quick,
                         standard, custom
      --mode MODE        cdm: readwrite, read, write, mix, all
      --rwmixread N      mixed tests: percentage of reads (default 70)
      --reserve SIZE     sustained, files: free space to leave untouched
                         (default the larger of 512MiB and 5% of the volume)
      --files N          files: how many files (2-10000)
      --min-size SIZE    files: the smallest file (default 2MB)
      --max-size SIZE    files: the largest file (default 2GB; quick 600MB)
      --seed N           files: draw a different set (same seed, same set)
      --pattern P        random (default) or zeros
      --seconds S        measure each test for S seconds (looping over the file)
      --warmup S         seconds of I/O before measuring
      --cache MODE       auto (default: uncached, falls back when refused),
                         buffered-flushed, buffered
      --label TEXT       a name to store with the result
      --json             print the result document as JSON on stdout
      --video            quick: "Will it work?" for video formats after the result
      --fps N            quick, with --video: the frame rate (default 29.97)
      --no-save          do not keep the result in history
      --wait             when another DiskDial test is running on the drive, wait
                         for it to end (default: fail with exit 1)

Hash test (hash): four rates for one file — uncached read alone, read + hash
pipelined (reading and hashing on two threads), hashing in memory on one core, and
on every core — with the digest and a verdict: storage-bound or CPU-bound, by how much.
      --algo A           sha256 or sha512 (default: the --verify digest's, else sha256)
      --verify X         an expected digest (hex), or a .sha256 / .sha512 / SHA256SUMS
                         file with a line for the file; exit 1 when it does not match
      --size SIZE        with a folder: write a test file of SIZE there (removed after)
      --threads N        streams for the all-cores rate (default: the CPUs available)
      --label TEXT, --json, --no-save, --wait

${HISTORY_HELP}
${WIZARD_HELP}
Browser mode (serve):
  -p, --port N           port on 127.0.0.1 (default: a free one). Open the printed
                         URL; it carries a one-time token, and only pages from that
                         address may use it. Ctrl-C stops it and any running test.
      --allow-erase      let the format-and-compare wizard erase disks from the page
                         (without it, the wizard's erase steps are refused)

Sizes: 4KiB, 512MiB, 1GiB are binary; 1GB, 500MB are decimal (10^9, 10^6);
4k, 1M, 1G without B are binary, as in fio and dd. Speeds are MB/s (10^6 bytes/s).

Test files go in one hidden folder (.diskdial-*) inside <dir> and are removed when the
test ends, fails or is cancelled (Ctrl-C). Exit codes: 0 ok, 1 failed, 2 bad input,
130 cancelled.
`;

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
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`--${flag} must be from ${min} to ${max}, not ${n}`);
  return n;
}

function seconds(flag: string, text: string, allowZero: boolean): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new UsageError(`--${flag} must be a number of seconds${allowZero ? '' : ' above zero'}, not "${text}"`);
  }
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
  if (!(allowed as readonly string[]).includes(text)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not "${text}"`);
  }
  return text as T;
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
  // history, export, share and import have options of their own.
  const at = argv.findIndex((a) => !a.startsWith('-'));
  const first = at >= 0 ? argv[at]! : undefined;
  if (at === 0 && (HISTORY_COMMANDS as readonly string[]).includes(first!) && !argv.includes('--help') && !argv.includes('-h')) {
    return parseHistoryCommand(first as HistoryCommandName, argv.slice(1));
  }
  if (at === 0 && (WIZARD_COMMANDS as readonly string[]).includes(first!) && !argv.includes('--help') && !argv.includes('-h')) {
    return parseWizardCommand(first as WizardCommandName, argv.slice(1));
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw parseArgsError(err);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { command: 'help' };
  if (v.version) return { command: 'version' };

  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError('missing command; try diskdial run <dir>, or diskdial --help');
  if (command === 'help') return { command: 'help' };
  if (command === 'version') return { command: 'version' };
  if (command === 'serve') return parseServe(v, rest);
  if (command === 'hash') return parseHash(v, rest);
  if ((HISTORY_COMMANDS as readonly string[]).includes(command) || (WIZARD_COMMANDS as readonly string[]).includes(command))
    throw new UsageError(`options go after "${command}": diskdial ${command} …`);
  if (command !== 'run')
    throw new UsageError(
      `unknown command "${command}"; try diskdial run <dir>, diskdial hash <file>, diskdial history, or diskdial --help`,
    );
  if (v.port !== undefined || v['allow-erase'] !== undefined)
    throw new UsageError(`--${v.port !== undefined ? 'port' : 'allow-erase'} applies to diskdial serve only`);
  if (v.algo !== undefined || v.verify !== undefined)
    throw new UsageError(`--${v.algo !== undefined ? 'algo' : 'verify'} applies to diskdial hash only`);
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
  if (v.runs !== undefined) cmd.runs = integer('runs', v.runs, 1, MAX_RUNS);
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
  if (v.video) cmd.video = { fps: v.fps === undefined ? DEFAULT_VIDEO_FPS : fpsOption(v.fps) };
  try {
    if (v.reserve !== undefined) cmd.reserveBytes = parseSize(v.reserve, '--reserve');
    const files: Partial<FileSetOptions> = {};
    if (v.files !== undefined) files.count = integer('files', v.files, MIN_FILES, MAX_FILES);
    if (v['min-size'] !== undefined) files.minBytes = parseSize(v['min-size'], '--min-size');
    if (v['max-size'] !== undefined) files.maxBytes = parseSize(v['max-size'], '--max-size');
    if (v.seed !== undefined) files.seed = integer('seed', v.seed, 0, Number.MAX_SAFE_INTEGER);
    if (Object.keys(files).length > 0) {
      if (cmd.preset !== undefined && cmd.preset !== 'custom' && (files.count ?? files.minBytes ?? files.maxBytes) !== undefined) {
        throw new UsageError(`--files, --min-size and --max-size make a custom set; drop --preset ${cmd.preset} or use --preset custom`);
      }
      cmd.files = files;
      if (cmd.preset === undefined && (files.count ?? files.minBytes ?? files.maxBytes) !== undefined) cmd.preset = 'custom';
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError((err as Error).message);
  }
  if (cmd.bs !== undefined && !(cmd.bs >= 512 && cmd.bs <= 64 * 1024 * 1024 && Number.isInteger(Math.log2(cmd.bs)))) {
    throw new UsageError(`--bs must be a power of two from 512 B to 64 MiB (e.g. 4KiB, 1MiB), not ${v.bs}`);
  }
  try {
    validatePlanOptions(cmd);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  checkTargetFolder(cmd.target);
  return cmd;
}

const HASH_OPTIONS = new Set(['algo', 'verify', 'size', 'threads', 'label', 'json', 'no-save', 'wait']);

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

function parseServe(v: { [K in keyof typeof OPTIONS]?: string | boolean | undefined }, rest: readonly string[]): ServeCommand {
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"; serve takes no folder (pick one in the page)`);
  const runOnly = [...RUN_ONLY, 'algo', 'verify'].find((k) => v[k as keyof typeof OPTIONS] !== undefined);
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
