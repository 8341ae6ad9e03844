// `diskdial cipher`'s arguments: how long and on how many threads to measure the cipher ceiling.
import { integer, labelOption, seconds, type OptionValues } from './args-common.js';
import { UsageError } from './usage-error.js';

export interface CipherCommand {
  command: 'cipher';
  seconds?: number;
  threads?: number;
  label?: string;
  json: boolean;
  noSave?: boolean;
}

/** A cipher ceiling settles within seconds; past ten minutes a run is a mistake, not a measurement. */
const MAX_CIPHER_SECONDS = 600;

const CIPHER_OPTIONS = new Set(['seconds', 'threads', 'label', 'json', 'no-save']);

export function parseCipher(v: OptionValues, rest: readonly string[]): CipherCommand {
  const foreign = (Object.keys(v) as Array<keyof OptionValues>).find((k) => v[k] !== undefined && !CIPHER_OPTIONS.has(k));
  if (foreign) throw new UsageError(`--${foreign} does not apply to diskdial cipher`);
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"; cipher measures memory and takes no folder`);
  const cmd: CipherCommand = { command: 'cipher', json: v.json === true };
  if (v['no-save'] === true) cmd.noSave = true;
  if (typeof v.seconds === 'string') cmd.seconds = seconds('seconds', v.seconds, false, MAX_CIPHER_SECONDS);
  if (typeof v.threads === 'string') cmd.threads = integer('threads', v.threads, 1, 256);
  if (typeof v.label === 'string') cmd.label = labelOption(v.label);
  return cmd;
}
