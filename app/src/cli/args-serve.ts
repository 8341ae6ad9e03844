// `diskdial serve`'s arguments: the port and the erase switch; test settings come from the page.
import { KIND_FLAGS } from '../model/kinds/registry.js';
import { integer, type OptionValues } from './args-common.js';
import { CHECK_ONLY } from './args-check.js';
import { UsageError } from './usage-error.js';

export interface ServeCommand {
  command: 'serve';
  /** 0: a free port chosen by the system. */
  port: number;
  /** --allow-erase: the wizard may erase disks from the page (off by default: a browser tab is
   *  not the desktop app's own confirmation). */
  allowErase?: true;
}

/** Options of `run` only (with every flag a kind claims); `serve` takes its settings from the page. */
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
  'rest',
  'interval',
  'json',
  'no-save',
  'wait',
] as const;

export function parseServe(v: OptionValues, rest: readonly string[]): ServeCommand {
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"; serve takes no folder (pick one in the page)`);
  const runOnly = [...RUN_ONLY, ...KIND_FLAGS.keys(), 'algo', 'verify', ...CHECK_ONLY].find(
    (k) => v[k as keyof OptionValues] !== undefined,
  );
  if (runOnly) throw new UsageError(`--${runOnly} does not apply to serve: choose test settings in the page`);
  const port = typeof v.port === 'string' ? integer('port', v.port, 0, 65535) : 0;
  return { command: 'serve', port, ...(v['allow-erase'] === true ? { allowErase: true as const } : {}) };
}
