// `diskdial check`'s arguments: the folder, its manifest, and how its files are read and hashed.
import path from 'node:path';
import type { CacheRequest } from '../model/engine-types.js';
import type { CheckAlgo } from '../model/check-manifest.js';
import { CACHES, checkTargetFolder, integer, labelOption, oneOf, type OptionValues } from './args-common.js';
import { UsageError } from './usage-error.js';

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

const CHECK_OPTIONS = new Set(['manifest', 'algo', 'streams', 'cache', 'verify-only', 'update', 'label', 'json', 'no-save', 'wait']);
/** The options no other command takes (run and serve refuse them by name). */
export const CHECK_ONLY = ['manifest', 'streams', 'verify-only', 'update'] as const;

export function parseCheck(v: OptionValues, rest: readonly string[]): CheckCommand {
  const foreign = (Object.keys(v) as Array<keyof OptionValues>).find((k) => v[k] !== undefined && !CHECK_OPTIONS.has(k));
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
