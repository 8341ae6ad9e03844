// What every command's own argument parser shares: the one option table parseArgs reads (all
// commands but history, wizard and campaign share it) and the checks that say a bad value in words.
import { statSync } from 'node:fs';
import type { CacheRequest } from '../model/engine-types.js';
import { plainMessage } from '../model/errors.js';
import { KIND_FLAGS, type KindFlag, type KindFlagTypes } from '../model/kinds/registry.js';
import { cleanLabel } from '../model/text.js';
import { parseChoice, parseWholeNumber } from '../model/units.js';
import { UsageError } from './usage-error.js';

const COMMON_OPTIONS = {
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
} as const;

/** The table parseArgs reads: the commands' own options, and each flag a kind claims (its module's
 *  `cli.flags`, through the registry). */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  ...Object.fromEntries([...KIND_FLAGS].map(([flag, { type }]) => [flag, { type }])),
} as typeof COMMON_OPTIONS & { [F in KindFlag]: { type: KindFlagTypes[F] } };

/** The values parseArgs read from OPTIONS, as each command's parser takes them. */
export type OptionValues = { [K in keyof typeof OPTIONS]?: string | boolean | undefined };

export const CACHES: readonly CacheRequest[] = ['auto', 'buffered-flushed', 'buffered'];

/** --label as history keeps it: plain text, at most LABEL_MAX characters (the same rule as
 *  `history label` and import). */
export function labelOption(text: string): string {
  try {
    return cleanLabel(text);
  } catch (err) {
    throw new UsageError(`--label: ${(err as Error).message}`);
  }
}

export function integer(flag: string, text: string, min: number, max: number): number {
  return usage(() => parseWholeNumber(text, flag, min, max));
}

/** A model check's plain-words error, said as a usage error. */
export function usage<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The engine's own bound on a timed step (spec.seconds). */
const MAX_SECONDS = 10_000_000;

export function seconds(flag: string, text: string, allowZero: boolean, max = MAX_SECONDS): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new UsageError(`--${flag} must be a number of seconds${allowZero ? '' : ' above zero'}, not "${text}"`);
  }
  if (n > max) throw new UsageError(`--${flag} is at most ${max.toLocaleString('en-US')} seconds, not ${text}`);
  return n;
}

export function oneOf<T extends string>(flag: string, text: string, allowed: readonly T[]): T {
  return usage(() => parseChoice(text, flag, allowed));
}

/** The folder must exist and be a folder: both are input mistakes, reported before any I/O. */
export function checkTargetFolder(dir: string): void {
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
