// `diskdial campaign` with two setups as a person runs it: Enter at the first setup's prompt,
// the change of setup (the test's `between`) at the second's, then Enter again.
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { bin } from './cli.js';

/** Runs `diskdial ...args` (a campaign of the setups `first` and `second`) with $DISKDIAL_HOME
 *  `home`; `between` runs while it waits before `second`. Its stdout; it must exit 0. */
export async function twoSetupCampaign(
  args: string[],
  home: string,
  [first, second]: [string, string],
  between: () => Promise<void>,
  setupTimeoutMs: number,
): Promise<string> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, DISKDIAL_HOME: home }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const exit = new Promise<number | null>((r) => child.on('close', r));
  try {
    await expect.poll(() => err, { timeout: 60_000 }).toContain(`Setup 1 of 2: "${first}"`);
    child.stdin.write('\n');
    await expect.poll(() => err, { timeout: setupTimeoutMs, interval: 500 }).toContain(`Setup 2 of 2: "${second}"`);
    await between();
    child.stdin.write('\n');
    expect(await exit, err).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
  return out;
}
