// bench:engine's options: its flags, their help text and their checks (scripts/bench-engine.ts).
import os from 'node:os';
import { GiB, MiB, parseArgv } from './common.js';

export interface Options {
  dir: string;
  size: number;
  rounds: number;
  progressRounds: number;
  seconds: number;
  rssSize: number;
  rss: boolean;
  progress: boolean;
  grid: boolean;
  json: boolean;
}

export const HELP = `usage: npm run bench:engine -- [options]

  --dir DIR         file system to test: a fresh folder is made (and removed) inside DIR
                    (default: ${os.tmpdir()})
  --size SIZE       test file size for the grid and progress tests (default 1GiB; K/M/G = KiB/MiB/GiB,
                    or plain bytes such as 5e9)
  --rounds N        rounds of engine/fio pairs (default 3, at least 3)
  --progress-rounds N
                    rounds of the progress-cost test (default 5, at least 3): the effect looked for
                    (1 %) is far below this kind of disk's run-to-run noise, so it needs more pairs
  --seconds S       length of every timed run (default 3)
  --rss-size SIZE   bytes written then read in the memory test (default 5e9)
  --no-rss          skip the memory test
  --no-progress     skip the progress-cost test
  --no-grid         skip the engine-vs-fio grid
  --json            print a JSON document on stdout; the human report goes to stderr
  --help`;

export function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)\s*([kmgt]?)(i?b?)$/i.exec(s.trim());
  if (!m) throw new Error(`not a size: ${s}`);
  const unit = (m[2] ?? '').toLowerCase();
  const mult = unit === 'k' ? 1024 : unit === 'm' ? MiB : unit === 'g' ? GiB : unit === 't' ? GiB * 1024 : 1;
  return Math.floor(Number(m[1]) * mult);
}

export function parseArgs(argv: string[]): Options {
  const own = {
    size: GiB,
    rounds: 3,
    progressRounds: 5,
    seconds: 3,
    rssSize: 5e9,
    rss: true,
    progress: true,
    grid: true,
  };
  const common = parseArgv(argv, HELP, own, {
    numbers: { '--rounds': 'rounds', '--progress-rounds': 'progressRounds', '--seconds': 'seconds' },
    sizes: { '--size': 'size', '--rss-size': 'rssSize' },
    size: parseSize,
    off: { '--no-rss': 'rss', '--no-progress': 'progress', '--no-grid': 'grid' },
  });
  const o: Options = { ...own, dir: common.dir, json: common.json };
  const quick = common.quick;
  if (!Number.isInteger(o.rounds) || o.rounds < (quick ? 1 : 3)) throw new Error('--rounds must be an integer >= 3');
  if (!Number.isInteger(o.progressRounds) || o.progressRounds < (quick ? 1 : 3))
    throw new Error('--progress-rounds must be an integer >= 3');
  if (!(o.seconds > 0)) throw new Error('--seconds must be > 0');
  o.size -= o.size % MiB; // a whole number of 1 MiB blocks, so both tools cover the same region
  if (o.size < 64 * MiB) throw new Error('--size must be at least 64 MiB');
  o.rssSize -= o.rssSize % MiB;
  return o;
}
