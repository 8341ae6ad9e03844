// `diskdial <command> --device DEV --confirm NAME` before it runs: the disk proven under the
// wizard's rules (services/wizard.ts proveForErase: a whole disk as listed now, offered — not the
// system's, not internal unless --internal, not read-only, not in use — and the name typed is its
// name), with the same words and refusals as `diskdial compare`. What it returns is what the
// runner writes to.
import type { DeviceTarget } from '../core/result.js';
import { HistoryService } from '../services/history.js';
import { wizardService } from '../services/wizard.js';
import type { DeviceCommand } from './args-device.js';
import { UsageError } from './usage-error.js';

export async function proveDevice(cmd: DeviceCommand): Promise<DeviceTarget> {
  // The engine opens whole disks (O_EXCL) on Linux only.
  if (process.platform !== 'linux')
    throw new UsageError(`diskdial ${cmd.word} --device runs on Linux only; on this system use diskdial run DIR`);
  const { runTest } = await import('../core/engine.js');
  const { wizard } = await wizardService(runTest, new HistoryService());
  if (!wizard) throw new UsageError(`diskdial ${cmd.word} --device needs the wizard's disk listing, which this system does not have`);
  return wizard.proveDevice(cmd.device, cmd.confirm, cmd.allowInternal);
}
