// The wizard's provider for the platform DiskDial runs on, wired to the real system: listings run
// through the read-only command, everything that writes through prepare()'s runner.
import { readCommand } from '../exec/commands.js';
import { createLinuxProvider, systemProbe } from './linux.js';
import type { WizardProvider } from './provider.js';

/** The provider for this platform, or undefined where the wizard has none. */
export async function platformProvider(platform: NodeJS.Platform = process.platform): Promise<WizardProvider | undefined> {
  if (platform === 'linux') return createLinuxProvider({ exec: readCommand, probe: systemProbe });
  // Command builders and parsers tested against recorded outputs; not yet run on real hardware.
  if (platform === 'darwin') return (await import('./darwin.js')).createDarwinProvider(readCommand);
  if (platform === 'win32') return (await import('./win.js')).createWinProvider(readCommand);
  return undefined;
}
