// DiskDial folder-check benchmark (not a test: ratios measured in the same run, never fails the
// build). `npm run bench:check -- --help`; method and results in docs/benchmarks.md.
//
// On one tree (scripts/bench/file-tree.ts: 1,000 files, 0 B – 64 MiB, ≈ 0.6 GiB), per round and
// alternating which goes first:
//   1. `diskdial check <tree> --streams N` writing a new manifest (every file hashed, uncached);
//   2. `sha256sum` over the same files (find | xargs), one process — the reference users know;
//   3. the same with `xargs -P N`, N processes at once — what a user gets in parallel.
// sha256sum reads through the page cache, so before each of its runs every file's cached pages
// are dropped (posix_fadvise DONTNEED, which changes nothing in the files): all three read from
// the disk. Wall times; diskdial's includes Node's start and its 1 s in-memory ceiling measurement,
// so its hashing time (from its JSON) is reported too.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { f2, f3, log, makeBenchDir, median, parseArgv, ROOT, runMain, table } from './bench/common.js';
import { makeFileTree } from './bench/file-tree.js';

const HELP = `usage: npm run bench:check -- [options]

  --dir DIR        where the tree is written (a fresh folder inside DIR, removed at the end;
                   default ${os.tmpdir()})
  --files N        files in the tree (default 1000, about 0.6 GiB)
  --rounds N       rounds (default 3)
  --streams N      diskdial's streams and xargs -P (default: the CPUs, ${os.availableParallelism()})
  --json           the figures as JSON on stdout
  --help`;

interface Options {
  files: number;
  rounds: number;
  streams: number;
}

/** Drops every file's cached pages, so the next reader reads from the disk. */
function dropCache(tree: string): void {
  const py = `import os,sys
for d,_,fs in os.walk(sys.argv[1]):
  for f in fs:
    fd=os.open(os.path.join(d,f),os.O_RDONLY)
    os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)
    os.close(fd)`;
  const r = spawnSync('python3', ['-c', py, tree], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`dropping the cache failed: ${r.stderr}`);
}

function timed(cmd: string, args: string[], cwd: string): { seconds: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(0, 500)}`);
  return { seconds, stdout: r.stdout };
}

async function main(): Promise<number> {
  const o: Options = { files: 1000, rounds: 3, streams: os.availableParallelism() };
  const common = parseArgv(process.argv.slice(2), HELP, o, {
    numbers: { '--files': 'files', '--rounds': 'rounds', '--streams': 'streams' },
  });
  const dir = makeBenchDir(common.dir);
  const tree = path.join(dir, 'tree');
  log(`writing ${o.files} files in ${tree}…`);
  const made = await makeFileTree(tree, o.files);
  const bin = path.join(ROOT, 'bin/diskdial.js');
  // Its own data folder: the bench never touches the user's history or locks.
  process.env.DISKDIAL_HOME = path.join(dir, 'home');
  const sha = `sha256sum --version | head -1`;
  const shaVersion = spawnSync('sh', ['-c', sha], { encoding: 'utf8' }).stdout.trim();
  const rows: string[][] = [];
  const figures: Array<{ diskdial: number; hashing: number; sha256sum: number; parallel: number; bound: string }> = [];
  for (let r = 0; r < o.rounds; r++) {
    const runDiskdial = (): { seconds: number; hashing: number; bound: string } => {
      const manifest = path.join(dir, `round-${r}.sums`);
      const t = timed(
        process.execPath,
        [bin, 'check', tree, '--manifest', manifest, '--streams', String(o.streams), '--json', '--no-save'],
        dir,
      );
      const c = (JSON.parse(t.stdout) as { check: { seconds: number; bound?: { bound: string } } }).check;
      return { seconds: t.seconds, hashing: c.seconds, bound: c.bound?.bound ?? '-' };
    };
    const runSha = (parallel: boolean): number => {
      dropCache(tree);
      const xargs = parallel ? `xargs -0 -n 64 -P ${o.streams} sha256sum` : 'xargs -0 sha256sum';
      return timed('sh', ['-c', `find . -type f -print0 | ${xargs} > /dev/null`], tree).seconds;
    };
    let d: ReturnType<typeof runDiskdial>;
    let s1: number;
    let sN: number;
    if (r % 2 === 0) {
      d = runDiskdial();
      s1 = runSha(false);
      sN = runSha(true);
    } else {
      sN = runSha(true);
      s1 = runSha(false);
      d = runDiskdial();
    }
    figures.push({ diskdial: d.seconds, hashing: d.hashing, sha256sum: s1, parallel: sN, bound: d.bound });
    rows.push([String(r + 1), f2(d.seconds), f2(d.hashing), d.bound, f2(s1), f2(sN), f3(s1 / d.seconds), f3(sN / d.seconds)]);
    log(`round ${r + 1}: diskdial ${f2(d.seconds)} s, sha256sum ${f2(s1)} s, sha256sum -P ${o.streams} ${f2(sN)} s`);
  }
  const gb = made.bytes / 1e9;
  const out = [
    'DiskDial folder check vs sha256sum',
    `  tree       ${o.files} files, ${f3(gb)} GB, in ${tree}`,
    `  streams    diskdial --streams ${o.streams}; xargs -P ${o.streams}`,
    `  reference  ${shaVersion}, page cache dropped before each of its runs (posix_fadvise DONTNEED)`,
    '',
    table(
      ['round', 'diskdial s', 'hashing s', 'bound', 'sha256sum s', `-P ${o.streams} s`, 'sha256sum/diskdial', `-P ${o.streams}/diskdial`],
      rows,
      [true, true, true, false, true, true, true, true],
    ),
    '',
    `median: diskdial ${f2(median(figures.map((f) => f.diskdial)))} s (${f2(o.files / median(figures.map((f) => f.hashing)))} files/s, ${f3(gb / median(figures.map((f) => f.hashing)))} GB/s hashing), ` +
      `sha256sum ${f2(median(figures.map((f) => f.sha256sum)))} s, -P ${o.streams} ${f2(median(figures.map((f) => f.parallel)))} s`,
    `median ratio (> 1: diskdial faster): vs sha256sum ${f3(median(figures.map((f) => f.sha256sum / f.diskdial)))}, vs -P ${o.streams} ${f3(median(figures.map((f) => f.parallel / f.diskdial)))}`,
  ];
  process.stdout.write(
    common.json
      ? `${JSON.stringify({ benchmark: 'check', files: o.files, bytes: made.bytes, streams: o.streams, rounds: figures }, null, 2)}\n`
      : `${out.join('\n')}\n`,
  );
  return 0;
}

void runMain(main);
