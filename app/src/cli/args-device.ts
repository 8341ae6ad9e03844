// `diskdial <command> --device DEV --confirm NAME`: a kind that runs on a whole unmounted disk
// (its `wholeDevice` hook names the command). Parsed here, checked against the disk as it is now
// by the wizard's rules when it runs (device-command.ts).
import { parseArgs } from 'node:util';
import { runKind, type TestKind } from '../model/kinds/registry.js';
import { parseSize } from '../model/units.js';
import { labelOption, usage } from './args-common.js';
import { parseOptions, UsageError } from './usage-error.js';

export interface DeviceCommand {
  command: 'device';
  /** The command's word (`diskdial <word> --device …`). */
  word: string;
  test: TestKind;
  device: string;
  confirm: string;
  /** --internal: an internal disk may be used (the wizard's "Show internal disks"). */
  allowInternal: boolean;
  /** --size: only the first N bytes of the device. */
  size?: number;
  label?: string;
  json: boolean;
  noSave?: boolean;
  wait?: boolean;
}

export function parseDeviceCommand(word: string, test: TestKind, argv: readonly string[]): DeviceCommand {
  const { values: v, positionals: p } = parseOptions(() =>
    parseArgs({
      args: [...argv],
      options: {
        device: { type: 'string' },
        confirm: { type: 'string' },
        internal: { type: 'boolean' },
        size: { type: 'string' },
        label: { type: 'string' },
        json: { type: 'boolean' },
        'no-save': { type: 'boolean' },
        wait: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    }),
  );
  const what = runKind(test).name;
  if (p.length)
    throw new UsageError(
      `unexpected argument "${p[0]}"; ${word} takes --device DEV (a whole disk, see diskdial disks); for a folder use diskdial run DIR --test ${test}`,
    );
  if (typeof v.device !== 'string' || v.device.trim() === '')
    throw new UsageError(`--device is required: the whole disk to ${what.toLowerCase()}, e.g. --device /dev/sdb (see diskdial disks)`);
  if (typeof v.confirm !== 'string' || v.confirm === '')
    throw new UsageError(
      "--confirm NAME is required: the disk's name as `diskdial disks` shows it; everything on the disk is overwritten, and nothing is written without it",
    );
  const cmd: DeviceCommand = {
    command: 'device',
    word,
    test,
    device: v.device,
    confirm: v.confirm,
    allowInternal: v.internal === true,
    json: v.json === true,
  };
  if (v.size !== undefined) cmd.size = usage(() => parseSize(v.size as string, '--size'));
  if (cmd.size === 0) throw new UsageError('--size must be above zero');
  if (v.label !== undefined) cmd.label = labelOption(v.label);
  if (v['no-save']) cmd.noSave = true;
  if (v.wait) cmd.wait = true;
  return cmd;
}
