// `npm test` runs vitest twice at once (scripts/test.ts): a project in neither chain would never
// run in CI, and one in both would run twice.
import { describe, expect, it } from 'vitest';
import config from '../../../vitest.config.js';
import { CHAIN_PROJECTS, CHAINS, SOLO_CHAIN } from '../../../scripts/test.js';

describe('the chains of npm test', () => {
  it('run every vitest project exactly once, and every check', () => {
    const projects = (config.test?.projects ?? []).map((p) => (p as { test: { name: string } }).test.name);
    expect(projects.length).toBeGreaterThan(3);
    const chained = Object.values(CHAIN_PROJECTS).flat();
    expect([...chained].sort()).toEqual([...projects].sort());
    const steps = [...CHAINS, SOLO_CHAIN].flatMap((c) => c.steps.map((s) => s.join(' ')));
    for (const check of ['npm run typecheck', 'npm run lint', 'npm run test:native']) expect(steps).toContain(check);
    // The I/O projects share one vitest run (one file at a time), never the CPU chain's.
    const io = CHAINS.find((c) => c.name === 'io')!
      .steps.at(-1)!
      .join(' ');
    expect(io).toBe('npx vitest run --project native --project app');
    expect(SOLO_CHAIN.steps.map((s) => s.join(' '))).toEqual(['npx vitest run --project solo']);
  });
});
