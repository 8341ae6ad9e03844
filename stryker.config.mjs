// Mutation testing of the model (npm run test:mutation): StrykerJS plants small bugs in
// app/src/model and runs the model's tests (stryker.vitest.config.ts) against each; a mutant no
// test notices is a test that cannot fail. Slow (tens of minutes), so not part of `npm test`.
// Narrow it with --mutate, e.g. npm run test:mutation -- --mutate 'app/src/model/verdict/**/*.ts'.
// The scores and the goal are in docs/testing.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'stryker.vitest.config.ts', related: false },
  mutate: [
    'app/src/model/verdict/**/*.ts',
    'app/src/model/report/**/*.ts',
    'app/src/model/kinds/**/*.ts',
    'app/src/model/knee.ts',
    'app/src/model/stats.ts',
  ],
  coverageAnalysis: 'perTest',
  // A mutant in a module-level constant runs every test; those few are left out for a run in
  // minutes, not hours (Stryker counts them as ignored, not as killed).
  ignoreStatic: true,
  // Two cores: one mutant per core. Incremental: a rerun tests only the mutants whose code or
  // covering tests changed since the last run (the file is kept out of git).
  concurrency: 2,
  incremental: true,
  incrementalFile: 'test-artifacts/stryker-incremental.json',
  ignorePatterns: ['native', 'dist', 'test-artifacts', 'build', '.zig-cache', 'test/e2e', 'test/wine', 'test/native', 'docs/screenshots'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'test-artifacts/mutation/index.html' },
  jsonReporter: { fileName: 'test-artifacts/mutation/mutation.json' },
  thresholds: { high: 85, low: 70, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
