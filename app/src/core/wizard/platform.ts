// The wizard's provider for the platform DiskDial runs on, wired to the real system: commands run
// as argv through execFile (read-only listings) or the command runner (everything that writes).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createLinuxProvider, systemProbe } from './linux.js';
import type { WizardProvider } from './provider.js';

const execFileP = promisify(execFile);

/** Runs a read-only command (a listing) and returns its stdout. */
export async function readCommand(argv: string[]): Promise<string> {
  const { stdout } = await execFileP(argv[0]!, argv.slice(1), {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    timeout: 60_000,
    env: { ...process.env, LC_ALL: 'C' },
  });
  return stdout;
}

/** The provider for this platform, or undefined where the wizard has none. */
export async function platformProvider(platform: NodeJS.Platform = process.platform): Promise<WizardProvider | undefined> {
  if (platform === 'linux') return createLinuxProvider({ exec: readCommand, probe: systemProbe });
  // Command builders and parsers tested against recorded outputs; not yet run on real hardware.
  if (platform === 'darwin') return (await import('./darwin.js')).createDarwinProvider(readCommand);
  if (platform === 'win32') return (await import('./win.js')).createWinProvider(readCommand);
  return undefined;
}
