import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { aliases } from './renderer/vite.config.js';

// Every test process saves results into a throwaway data folder, never the user's history
// (~/.local/share/diskdial): the services save every finished test. test/global-setup.ts removes it.
process.env.DISKDIAL_HOME ??= mkdtempSync(path.join(os.tmpdir(), 'diskdial-test-home-'));
// Drive locks are machine-wide (/run/lock/diskdial): a test run keeps its own, so that two runs on
// one machine do not refuse each other's tests. The lock tests clear it to use the real folder.
process.env.DISKDIAL_LOCK_DIR ??= path.join(process.env.DISKDIAL_HOME, 'locks');

// CI keeps a JSON report too, one per chain of `npm test` (scripts/test.ts): .ci/run prints the
// slowest files from them.
const chain = process.env.DISKDIAL_TEST_CHAIN;
const jsonReport = `test-artifacts/vitest${chain ? `-${chain}` : ''}.json`;

// Files whose figures depend on having the CPU to themselves (frame lateness of a free disk, the
// cipher's share of a core, a FUSE client at 1 Gbit/s, a cache flag from a write/read ratio on
// the shared disk): `npm test` runs them after the other chains, alone. Each still states its
// margin under load.
export const SOLO = [
  'test/app/cli/video-paced.test.ts',
  'test/app/cli/hash-check-encrypted.test.ts',
  'test/app/cli/campaign-network.test.ts',
  'test/app/cli/cli-json.test.ts',
  // ±3 % of a 10 MB/s throttle per run: 0.84 with two more test jobs on the machine (load 9).
  'test/app/cli/throughput-truth.test.ts',
  // A shaped link within 30 % of its rate, through CPU-bound FUSE clients and servers.
  'test/app/core/network-shares-rate.test.ts',
  // The share test's ceiling within 10 % of a 100 Mbit/s link, and a round trip within 2 ms.
  'test/app/core/share-limits-link.test.ts',
  'test/app/core/share-limits-disk.test.ts',
];

// Files that spend their time waiting on a throttled or stalled device, or a timer, and use a
// third of a core or less (measured with a cpuacct cgroup, docs/testing.md): `npm test` runs them
// in a chain of their own beside the I/O and CPU chains. Each passed 20 runs in a row under
// `stress-ng --cpu 2` and a 50 MB/s fio job (scripts/test-loaded.sh): two busy cores and disk
// writes, as the other two chains make.
export const WAIT = [
  'test/app/cli/sweep-small-files.test.ts',
  'test/app/cli/video-paced-throttled.test.ts',
  'test/app/cli/campaign.test.ts',
  'test/app/services/detailed-test.test.ts',
  'test/app/cli/serve-stop-stalled.test.ts',
  'test/app/cli/stop-stalled.test.ts',
  'test/app/core/detailed-runs.test.ts',
  'test/app/services/faultfs.test.ts',
  'test/app/core/check-ceiling.test.ts',
  'test/app/core/wizard/in-use.test.ts',
  'test/app/core/share-cache-fixed.test.ts',
  'test/app/core/wizard/cipher-verdict.test.ts',
  'test/app/core/workspace.test.ts',
  'test/app/cli/loop.test.ts',
  // The share test against a server disk throttled to 20 and 5 MB/s: its cold reads wait.
];

const here = path.dirname(fileURLToPath(import.meta.url));
/** The test files under `dir` whose source matches `re`. */
const filesMatching = (dir: string, re: RegExp): string[] =>
  readdirSync(path.join(here, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    .filter((f) => re.test(readFileSync(path.join(here, f), 'utf8')));

/** The renderer's test files that mock a module (vi.mock): a module graph of their own each. */
export const RENDERER_MOCKING = filesMatching('test/renderer', /\bvi\.(mock|doMock)\(/);

/** The app and native test files that change the process for whatever runs after them in it —
 *  a mocked module, spies, fake timers, the environment, the working folder, process listeners —
 *  each run in a fresh one; the others share one module graph. */
export const APP_ISOLATED = ['test/app', 'test/native']
  .flatMap((dir) =>
    filesMatching(
      dir,
      /\bvi\.(mock|doMock|stubEnv|stubGlobal|resetModules|spyOn|useFakeTimers|fn)\(|process\.env\.\w+ *=[^=]|process\.env\[[^\]]+\] *=[^=]|delete process\.env|process\.chdir|process\.exitCode|process\.on\(/,
    ),
  )
  .filter((f) => !f.startsWith('test/app/model/') && !SOLO.includes(f) && !WAIT.includes(f));

// One config, a project per runtime. One vitest run takes one file at a time: native and app
// tests do real I/O on real file systems, and throttled or timed ones must not share the disk.
// `npm test` (scripts/test.ts) runs the I/O projects, the CPU-bound ones and `wait` as three runs at once.
export default defineConfig({
  resolve: { alias: aliases },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    globalSetup: ['test/global-setup.ts'],
    reporters: process.env.CI === 'true' ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    projects: [
      // Real I/O, one file at a time. One module graph for all the files that leave the process as
      // they found it (~1 s of start-up and imports a file), a fresh process for APP_ISOLATED.
      {
        extends: true,
        test: { name: 'native', include: ['test/native/**/*.test.ts'], exclude: APP_ISOLATED, isolate: false },
      },
      { extends: true, test: { name: 'solo', include: SOLO, setupFiles: ['test/helpers/claims-audit-hook.ts'] } },
      { extends: true, test: { name: 'wait', include: WAIT, setupFiles: ['test/helpers/claims-audit-hook.ts'] } },
      // Every result an app test writes goes through the claims audit (test/helpers/claims-audit-hook.ts).
      // The model's tests are CPU-bound laws and renders: `npm test` runs them beside the I/O ones.
      {
        extends: true,
        test: {
          name: 'app',
          include: ['test/app/**/*.test.ts'],
          exclude: ['test/app/model/**', ...SOLO, ...WAIT, ...APP_ISOLATED],
          setupFiles: ['test/helpers/claims-audit-hook.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'app-isolated', include: APP_ISOLATED, setupFiles: ['test/helpers/claims-audit-hook.ts'] },
      },
      {
        extends: true,
        // Pure functions and their laws: one module graph for all its files, not one per file
        // (46 files' imports and setup, ~40 s of the CPU chain); none mocks a module.
        test: {
          name: 'model',
          include: ['test/app/model/**/*.test.ts'],
          setupFiles: ['test/helpers/claims-audit-hook.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        // The React UI in jsdom: components, stores, the arithmetic behind the dials and tables.
        // One module graph and one jsdom for all its files (~50 s of the CPU chain's imports and
        // set-ups): each test cleans the DOM and resets the stores; two shuffled orders pass.
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          exclude: RENDERER_MOCKING,
          environment: 'jsdom',
          setupFiles: ['test/renderer/helpers/setup.tsx'],
          isolate: false,
        },
      },
      {
        extends: true,
        // The files that mock a module: a mock replaces a module only for a fresh module graph.
        test: {
          name: 'renderer-mocks',
          include: RENDERER_MOCKING,
          environment: 'jsdom',
          setupFiles: ['test/renderer/helpers/setup.tsx'],
        },
      },
      // The real UI in Debian's Chromium, driven by playwright-core, against `diskdial serve`.
      // Tests wait for states with expect.poll; its 1 s default is less than a page on a loaded
      // CI machine may take to show one (a poll ends as soon as the state is there).
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts', 'test/e2e/helpers/build.ts', 'test/e2e/helpers/chromium-server.ts'],
          setupFiles: ['test/helpers/claims-audit-hook.ts'],
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
