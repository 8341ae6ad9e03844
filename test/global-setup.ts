// Removes the throwaway data folder vitest.config.ts gave every test process (DISKDIAL_HOME),
// with whatever results the tests saved in it.
import { rmSync } from 'node:fs';
import os from 'node:os';

export default function setup(): () => void {
  return () => {
    const home = process.env.DISKDIAL_HOME;
    if (home && home.startsWith(os.tmpdir()) && home.includes('diskdial-test-home-')) rmSync(home, { recursive: true, force: true });
  };
}
