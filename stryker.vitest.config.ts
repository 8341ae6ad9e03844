import { defineConfig } from 'vitest/config';
import { aliases } from './renderer/vite.config.js';

// The tests StrykerJS runs against each mutant of app/src/model (stryker.config.mjs): the model's
// own tests, which are pure and fast. result-schema.test.ts is left out: it runs the engine and the
// CLI, seconds a run, and the model tests beside it cover the same code.
export default defineConfig({
  resolve: { alias: aliases },
  test: {
    include: ['test/app/model/**/*.test.ts'],
    exclude: ['test/app/model/result-schema.test.ts'],
    testTimeout: 60_000,
  },
});
