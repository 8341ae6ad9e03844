// The wizard's provider for the platform DiskDial runs on, wired to the real system: listings run
// through the read-only command, everything that writes through prepare()'s runner.
import { readCommand } from '../exec/commands.js';
import { createLinuxProvider, systemProbe } from './linux.js';
import type { WizardProvider } from './provider.js';
import { WIZARD_PLATFORMS } from './platforms.js';

/** The provider for this platform, or undefined where the wizard has none. */
export async function platformProvider(platform: NodeJS.Platform = process.platform): Promise<WizardProvider | undefined> {
  // The list the CLI's help reads: a platform missing there has no provider here either.
  if (!WIZARD_PLATFORMS.some((p) => p.platform === platform)) return undefined;
  if (platform === 'linux') return createLinuxProvider({ exec: readCommand, probe: systemProbe });
  // Command builders and parsers tested against recorded outputs; not yet run on real hardware.
  if (platform === 'darwin') return (await import('./darwin.js')).createDarwinProvider(readCommand);
  if (platform === 'win32') return (await import('./win.js')).createWinProvider(readCommand);
  return undefined;
}
