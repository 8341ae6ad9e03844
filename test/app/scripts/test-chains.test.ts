// `npm test` runs vitest twice at once (scripts/test.ts): a project in neither chain would never
// run in CI, and one in both would run twice.
import { afterEach, describe, expect, it, vi } from 'vitest';
import config from '../../../vitest.config.js';
import { CHAIN_PROJECTS, CHAINS, runChain, SOLO_CHAIN } from '../../../scripts/test.js';

describe('the chains of npm test', () => {
  it('run every vitest project exactly once, and every check', () => {
    const projects = (config.test?.projects ?? []).map((p) => (p as { test: { name: string } }).test.name);
    expect(projects.length).toBeGreaterThan(3);
    const chained = Object.values(CHAIN_PROJECTS).flat();
    expect([...chained].sort()).toEqual([...projects].sort());
    const steps = [...CHAINS, SOLO_CHAIN].flatMap((c) => c.steps.map((s) => s.join(' ')));
    for (const check of ['npm run typecheck', 'npm run lint', 'npm run test:native', 'npm run check:cross', 'npm run test:wine']) {
      expect(steps).toContain(check);
    }
    // The I/O projects share one vitest run (one file at a time), never the CPU chain's.
    const io = CHAINS.find((c) => c.name === 'io')!.steps.map((s) => s.join(' '));
    expect(io).toContain('npx vitest run --project native --project app');
    expect(SOLO_CHAIN.steps.map((s) => s.join(' '))).toEqual(['npx vitest run --project solo']);
  });

  describe('a step this machine cannot run (no zig, no Wine, not root)', () => {
    afterEach(() => vi.unstubAllEnvs());
    const chain = { name: 't', steps: [['node', '-e', 'process.exit(3)']] };
    const needs = { 'node -e process.exit(3)': () => 'it needs a tool this machine lacks' };

    it('fails the run under CI=true, without running it', async () => {
      vi.stubEnv('CI', 'true');
      const r = await runChain(chain, needs);
      expect(r.failed).toEqual(['node -e process.exit(3) (CI=true and it needs a tool this machine lacks)']);
    });

    it('is reported and not run elsewhere, as root-only tests skip', async () => {
      vi.stubEnv('CI', '');
      const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      const r = await runChain(chain, needs);
      const said = out.mock.calls.map((c) => String(c[0])).join('');
      out.mockRestore();
      expect(r.failed).toEqual([]);
      expect(said).toContain('[t] node -e process.exit(3): not run here: it needs a tool this machine lacks');
    });

    it('runs, and fails the chain on its exit code, when the machine can', async () => {
      const r = await runChain(chain, {});
      expect(r.failed).toEqual(['node -e process.exit(3) (exit 3)']);
      // Each step's seconds are kept for the run's summary (a node start takes more than 0 s).
      expect(r.steps).toEqual([{ step: 'node -e process.exit(3)', seconds: expect.any(Number) }]);
      expect(r.steps[0]!.seconds).toBeGreaterThan(0);
    });
  });
});
