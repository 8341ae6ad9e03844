// `npm test` runs three vitest runs at once (scripts/test.ts): a project in no chain would never
// run in CI, and one in two would run twice. The builds and checks are shared by two chains.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import config from '../../../vitest.config.js';
import { CHAIN_PROJECTS, CHAINS, runChain, SHARED_STEPS, SOLO_CHAIN } from '../../../scripts/test.js';

describe('the chains of npm test', () => {
  it('run every vitest project exactly once, and every check', () => {
    const projects = (config.test?.projects ?? []).map((p) => (p as { test: { name: string } }).test.name);
    expect(projects.length).toBeGreaterThan(3);
    const chained = Object.values(CHAIN_PROJECTS).flat();
    expect([...chained].sort()).toEqual([...projects].sort());
    const steps = [...CHAINS, SOLO_CHAIN]
      .flatMap((c) => c.steps)
      .concat(SHARED_STEPS)
      .map((s) => s.join(' '));
    expect(new Set(steps).size).toBe(steps.length);
    for (const check of ['npm run typecheck', 'npm run lint', 'npm run test:native', 'npm run check:cross', 'npm run test:wine']) {
      expect(steps).toContain(check);
    }
    // The I/O projects share one vitest run (one file at a time), never the CPU chain's.
    const io = CHAINS.find((c) => c.name === 'io')!.steps.map((s) => s.join(' '));
    expect(io).toContain('npx vitest run --project native --project app --project app-isolated');
    expect(SOLO_CHAIN.steps.map((s) => s.join(' '))).toEqual(['npx vitest run --project solo']);
    // The wait chain's files need almost no CPU; the builds go to the two chains that use a core.
    expect(CHAINS.filter((c) => c.takesShared).map((c) => c.name)).toEqual(['io', 'cpu']);
  });

  it('shares one module graph only among files that mock no module (native, app, model and renderer, less the files that change the process)', () => {
    const projects = (config.test?.projects ?? []).map(
      (p) => (p as { test: { name: string; isolate?: boolean; include?: string[]; exclude?: string[] } }).test,
    );
    expect(projects.filter((t) => t.isolate === false).map((t) => t.name)).toEqual(['native', 'app', 'model', 'renderer']);
    const mocks = (dir: string) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.test\.tsx?$/.test(f))
        .map((f) => path.posix.join(dir, f))
        .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(f, 'utf8')));
    expect(readdirSync('test/app/model', { recursive: true }).length).toBeGreaterThan(40);
    expect(mocks('test/app/model')).toEqual([]);
    // The renderer's mocking files run in a project of their own, isolated, and only there.
    const mocking = mocks('test/renderer');
    expect(mocking.length).toBeGreaterThan(0);
    const renderer = projects.find((t) => t.name === 'renderer')!;
    const isolated = projects.find((t) => t.name === 'renderer-mocks')!;
    expect(isolated.isolate).not.toBe(false);
    expect([...(isolated.include ?? [])].sort()).toEqual([...mocking].sort());
    expect([...(renderer.exclude ?? [])].sort()).toEqual([...mocking].sort());
    // The app's and the engine's files that mock, spy, fake timers or change the environment run
    // isolated, and only there.
    const app = projects.find((t) => t.name === 'app')!;
    const appIsolated = projects.find((t) => t.name === 'app-isolated')!;
    expect(appIsolated.isolate).not.toBe(false);
    expect(appIsolated.include).toContain('test/app/main/ipc.test.ts'); // vi.mock('electron')
    expect(appIsolated.include).toContain('test/app/core/wizard/erase-gate.test.ts'); // vi.spyOn
    expect(appIsolated.include).toContain('test/app/services/quick-test.test.ts'); // sets process.env
    for (const f of appIsolated.include ?? []) expect(app.exclude).toContain(f);
  });

  it('gives each shared step to exactly one chain, the one free first, in the shared order', async () => {
    const sleep = (s: number) => ['node', '-e', `setTimeout(() => {}, ${s * 1000})`];
    const shared = [
      ['node', '-e', '1'],
      ['node', '-e', '2'],
      ['node', '-e', '3'],
    ];
    const quick = { name: 'quick', steps: [sleep(0)], takesShared: true };
    const slow = { name: 'slow', steps: [sleep(1.5)], takesShared: true };
    const apart = { name: 'apart', steps: [sleep(0)] };
    const [q, s, a] = await Promise.all([runChain(quick, {}, shared), runChain(slow, {}, shared), runChain(apart, {}, shared)]);
    expect(shared).toEqual([]);
    // Each shared step ran once, in order; the first went to the chain free first (the other
    // slept 1.5 s longer); the chain that does not take them took none.
    const taken = (r: typeof q) => r!.steps.slice(1).map((x) => x.step);
    expect(taken(q)[0]).toBe('node -e 1');
    expect([...taken(q), ...taken(s)].sort()).toEqual(['node -e 1', 'node -e 2', 'node -e 3']);
    expect(taken(q)).toEqual([...taken(q)].sort());
    expect(taken(s)).toEqual([...taken(s)].sort());
    expect(a!.steps.map((x) => x.step)).toEqual([sleep(0).join(' ')]);
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
