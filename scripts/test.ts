// `npm test`: every check and every test, as two chains side by side (one after the other with
// DISKDIAL_TEST_SERIAL=1). On a 2-core machine the
// tests that do real I/O (loop devices, FUSE, network namespaces, throttled disks) run one file
// at a time and spend much of it waiting on devices and links; the CPU-bound checks (types, lint,
// the model's laws, the renderer in jsdom, the UI in Chromium) fill that time on the other core.
// Each chain runs its steps in order and goes on after a failure; the run fails if any step did.
// Then the files that need the CPU to themselves (vitest.config.ts SOLO) run alone.
// The compiled core and the UI are built once, first, so the chains never build them at once.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from '../test/e2e/helpers/harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Chain {
  name: string;
  /** Commands run in order: [program, ...args], program resolved on PATH. */
  steps: string[][];
}

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
  io: ['native', 'app'],
  cpu: ['model', 'renderer', 'e2e'],
  solo: ['solo'],
} as const;

const vitest = (chain: keyof typeof CHAIN_PROJECTS): string[] => [
  'npx',
  'vitest',
  'run',
  ...CHAIN_PROJECTS[chain].flatMap((p) => ['--project', p]),
];

// Balanced on a cold cache (clean-clone CI, 2 cores): the Wine tests build the Windows addon with
// zig first (~4 min of CPU while zig's cache is cold) on the CPU chain; the cross compile (~1.5 min
// cold) goes before the I/O tests, whose chain was the shorter one by 3.5 min.
export const CHAINS: Chain[] = [
  { name: 'io', steps: [['npm', 'run', 'test:native'], ['npm', 'run', 'check:cross'], vitest('io')] },
  { name: 'cpu', steps: [['npm', 'run', 'typecheck'], ['npm', 'run', 'lint'], vitest('cpu'), ['npm', 'run', 'test:wine']] },
];
/** Runs after both chains, alone. */
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

export async function runChain(chain: Chain, needs = NEEDS): Promise<ChainResult> {
  const t0 = Date.now();
  const failed: string[] = [];
  const steps: ChainResult['steps'] = [];
  for (const argv of chain.steps) {
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
  const results = process.env.DISKDIAL_TEST_SERIAL === '1' ? [] : await Promise.all(CHAINS.map((c) => runChain(c)));
  if (results.length === 0) for (const chain of CHAINS) results.push(await runChain(chain));
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
