// How long the `diskdial` command takes to start: `--help`, `--version` and `history --json`
// (an empty DISKDIAL_HOME) from the built dist/, each run N times, beside `node -e 0` measured in
// the same run so the figures compare across machines as a ratio; `--help` and `history` also from
// the unbundled modules (dist/cli/main.js), what the bundle saves. Wall time and the CPU the
// process used (user + system, from /usr/bin/time). The method is in docs/benchmarks.md.
//   npm run build:ts && npm run bench:cli [-- --rounds 10]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin/diskdial.js');
const TIME = '/usr/bin/time';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const n = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of 1 or more`);
  return n;
}

interface Sample {
  wall: number;
  cpu: number;
}

/** One start: wall seconds, and CPU seconds (user + system) when /usr/bin/time is there. */
function once(args: string[], env: NodeJS.ProcessEnv): Sample {
  const timed = existsSync(TIME);
  const cmd = timed ? TIME : process.execPath;
  const argv = timed ? ['-f', '%U %S', process.execPath, ...args] : args;
  const t0 = performance.now();
  const r = spawnSync(cmd, argv, { env, encoding: 'utf8' });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').at(-1)}`);
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const [user, sys] = last.split(' ').map(Number);
  return { wall, cpu: timed && Number.isFinite(user) && Number.isFinite(sys) ? user! + sys! : NaN };
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** `node` arguments that run the CLI from the unbundled modules, as bin/diskdial.js did before the
 *  bundle (the compile cache on, as there). */
const unbundled = (...args: string[]): string[] => [
  '--input-type=module',
  '-e',
  `import m from 'node:module'; m.enableCompileCache?.(); const c = await import(${JSON.stringify(path.join(root, 'dist/cli/main.js'))}); process.exitCode = await c.main(process.argv.slice(1));`,
  '--',
  ...args,
];

function main(): void {
  if (!existsSync(path.join(root, 'dist/cli/main.js'))) throw new Error('dist/ is not built: npm run build:ts');
  const rounds = arg('--rounds', 10);
  const home = mkdtempSync(path.join(os.tmpdir(), 'diskdial-bench-cli-'));
  try {
    const env = { ...process.env, DISKDIAL_HOME: home };
    const cases: Array<[string, string[]]> = [
      ['node -e 0 (reference)', ['-e', '0']],
      ['diskdial --help', [cli, '--help']],
      ['diskdial --version', [cli, '--version']],
      ['diskdial history --json', [cli, 'history', '--json']],
      ['unbundled --help', unbundled('--help')],
      ['unbundled history --json', unbundled('history', '--json')],
    ];
    const samples = new Map<string, Sample[]>(cases.map(([name]) => [name, []]));
    once([cli, '--help'], env); // the first start warms the file cache; it is not counted
    // Interleaved, so a burst of load elsewhere falls on every case alike.
    for (let i = 0; i < rounds; i++) for (const [name, args] of cases) samples.get(name)!.push(once(args, env));
    const ref = samples.get(cases[0]![0])!;
    const refWall = mean(ref.map((s) => s.wall));
    const refCpu = mean(ref.map((s) => s.cpu));
    process.stdout.write(`node ${process.version}, ${os.cpus().length} CPUs, ${rounds} rounds; means\n`);
    process.stdout.write(
      `${'command'.padEnd(26)} ${'wall s'.padStart(7)} ${'cpu s'.padStart(7)} ${'wall ×ref'.padStart(10)} ${'cpu ×ref'.padStart(9)}\n`,
    );
    for (const [name] of cases) {
      const s = samples.get(name)!;
      const wall = mean(s.map((x) => x.wall));
      const cpu = mean(s.map((x) => x.cpu));
      const f = (x: number, d: number): string => (Number.isFinite(x) ? x.toFixed(d) : '-');
      process.stdout.write(
        `${name.padEnd(26)} ${f(wall, 3).padStart(7)} ${f(cpu, 3).padStart(7)} ${f(wall / refWall, 2).padStart(10)} ${f(cpu / refCpu, 2).padStart(9)}\n`,
      );
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

main();
