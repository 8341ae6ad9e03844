// `diskdial hash`'s arguments: the file (or, with --size, the folder) and how to read and hash it.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { CacheRequest, HashAlgo } from '../model/engine-types.js';
import { plainMessage } from '../model/errors.js';
import { parseSize } from '../model/units.js';
import { CACHES, integer, labelOption, oneOf, type OptionValues } from './args-common.js';
import { UsageError } from './usage-error.js';

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

const HASH_OPTIONS = new Set(['algo', 'verify', 'size', 'threads', 'cache', 'label', 'json', 'no-save', 'wait']);

export function parseHash(v: OptionValues, rest: readonly string[]): HashCommand {
  const foreign = (Object.keys(v) as Array<keyof OptionValues>).find((k) => v[k] !== undefined && !HASH_OPTIONS.has(k));
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
