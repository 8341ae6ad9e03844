// `npm test`: every check and every test, as three chains side by side (one after the other with
// DISKDIAL_TEST_SERIAL=1), then the `solo` files alone. On a 2-core machine the I/O chain runs the
// tests that do real I/O (loop devices, FUSE, network namespaces) one file at a time; the CPU
// chain the model's laws, the renderer in jsdom and the UI in Chromium; the wait chain the files
// that spend their time waiting on a throttled or stalled device (vitest.config.ts WAIT), which
// need almost no CPU. The builds and checks (Wine, C++ tests, cross compile, lint, types) are
// shared: the I/O and CPU chains take them, one at a time, once their own tests are done.
// Each chain runs its steps in order and goes on after a failure; the run fails if any step did.
// The compiled core and the UI are built once, first, so the chains never build them at once.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from '../test/e2e/helpers/harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Why a step cannot run on this machine, or null. Outside CI such a step is reported and not
 *  run (as root-only tests skip); under CI=true it fails the run. */
export const NEEDS: Record<string, () => string | null> = {
  'npm run check:cross': () =>
    spawnSync('python3', ['-m', 'ziglang', 'version'], { stdio: 'ignore' }).status === 0
      ? null
      : 'zig is not installed (pip install ziglang)',
  'npm run test:wine': () =>
    process.platform !== 'linux'
      ? 'Wine runs the Windows engine on Linux only'
      : process.getuid?.() !== 0
        ? 'it needs root (it mounts a small ext4)'
        : ['/usr/lib/wine/wine64', '/usr/bin/wine64'].some((p) => existsSync(p)) || process.env.WINE64
          ? null
          : 'wine64 is not installed',
};

/** The vitest projects of each chain: together they must be every project in vitest.config.ts
 *  (test/app/scripts/test-chains.test.ts checks it). */
export const CHAIN_PROJECTS = {
  io: ['native', 'app', 'app-isolated'],
  cpu: ['model', 'renderer', 'renderer-mocks', 'e2e'],
  wait: ['wait'],
  solo: ['solo'],
} as const;

const vitest = (chain: keyof typeof CHAIN_PROJECTS): string[] => [
  'npx',
  'vitest',
  'run',
  ...CHAIN_PROJECTS[chain].flatMap((p) => ['--project', p]),
];

export interface Chain {
  name: string;
  /** Commands run in order: [program, ...args], program resolved on PATH. */
  steps: string[][];
  /** After its own steps, it takes steps from SHARED_STEPS until none is left. */
  takesShared?: boolean;
}

/** The builds and checks, taken in this order by whichever CPU-using chain is free first: the
 *  longest on a cold cache first (Wine's Windows build from a cold zig cache ~5 min, the C++ unit
 *  tests without ccache ~2 min, the cross compile ~2 min, lint ~1.5), so that the two chains end
 *  together on a cold cache as on a warm one (each is under a minute warm). */
export const SHARED_STEPS: readonly string[][] = [
  ['npm', 'run', 'test:wine'],
  ['npm', 'run', 'test:native'],
  ['npm', 'run', 'check:cross'],
  ['npm', 'run', 'lint'],
  ['npm', 'run', 'typecheck'],
];

export const CHAINS: Chain[] = [
  { name: 'io', steps: [vitest('io')], takesShared: true },
  { name: 'cpu', steps: [vitest('cpu')], takesShared: true },
  // Not the builds: this chain's files must keep waiting cheaply, not compete for a core.
  { name: 'wait', steps: [vitest('wait')] },
];
/** Runs after the chains, alone. */
export const SOLO_CHAIN: Chain = { name: 'solo', steps: [vitest('solo')] };

/** Runs one command with every output line prefixed by the chain's name; resolves its exit code. */
function run(chain: string, argv: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A chain has one core: the cross compile must not take the other chain's.
      env: { ...process.env, DISKDIAL_TEST_CHAIN: chain, DD_CROSS_JOBS: '1' },
    });
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      let rest = '';
      from.on('data', (b: Buffer) => {
        const lines = (rest + b.toString()).split('\n');
        rest = lines.pop()!;
        for (const line of lines) to.write(`[${chain}] ${line}\n`);
      });
      from.on('end', () => rest && to.write(`[${chain}] ${rest}\n`));
    }
    child.on('error', (err) => {
      process.stderr.write(`[${chain}] could not start ${argv.join(' ')}: ${err.message}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

export interface ChainResult {
  name: string;
  failed: string[];
  seconds: number;
  /** Each step's command and seconds (0 for a step not run here). */
  steps: { step: string; seconds: number }[];
}

/** Runs the chain's steps, then (when it takes them) steps from `shared` until it is empty. The
 *  chains share one array: a step taken by one is gone for the others. */
export async function runChain(chain: Chain, needs = NEEDS, shared: string[][] = []): Promise<ChainResult> {
  const t0 = Date.now();
  const failed: string[] = [];
  const steps: ChainResult['steps'] = [];
  const next = (i: number): string[] | undefined => chain.steps[i] ?? (chain.takesShared ? shared.shift() : undefined);
  for (let i = 0, argv = next(0); argv; argv = next(++i)) {
    const step = argv.join(' ');
    const cannot = needs[step]?.();
    if (cannot) {
      process.stdout.write(`[${chain.name}] ${step}: not run here: ${cannot}\n`);
      if (process.env.CI === 'true') failed.push(`${step} (CI=true and ${cannot})`);
      steps.push({ step, seconds: 0 });
      continue;
    }
    const s0 = Date.now();
    const code = await run(chain.name, argv);
    steps.push({ step, seconds: (Date.now() - s0) / 1000 });
    if (code !== 0) failed.push(`${step} (exit ${code})`);
  }
  return { name: chain.name, failed, seconds: (Date.now() - t0) / 1000, steps };
}

async function main(): Promise<number> {
  mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
  buildIfNeeded();
  const shared = SHARED_STEPS.map((s) => [...s]);
  const serial = process.env.DISKDIAL_TEST_SERIAL === '1';
  const results = serial ? [] : await Promise.all(CHAINS.map((c) => runChain(c, NEEDS, shared)));
  if (serial) for (const chain of CHAINS) results.push(await runChain(chain, NEEDS, shared));
  results.push(await runChain(SOLO_CHAIN));
  process.stdout.write('\n');
  for (const r of results) {
    process.stdout.write(
      `==== chain ${r.name}: ${r.seconds.toFixed(0)} s, ${r.failed.length ? `FAILED: ${r.failed.join('; ')}` : 'passed'}\n`,
    );
    for (const s of r.steps) process.stdout.write(`${s.seconds.toFixed(0).padStart(6)}  ${s.step}\n`);
  }
  return results.some((r) => r.failed.length) ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main().then((code) => process.exit(code));
}
