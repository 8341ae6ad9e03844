// DiskDial hashing benchmark (not a test: it prints ratios against references measured in the same
// run, and never fails the build). `npm run bench:hash -- --help`; method and results in
// docs/benchmarks.md.
//
// 1. In-memory SHA-256 (and SHA-512) on one core, the engine vs `openssl speed -evp <algo>
//    -bytes 1048576 -seconds S` — OpenSSL hashing 1 MiB blocks on one core, the CPU's own
//    reference. Interleaved, N rounds. Target: engine / openssl >= 0.95.
// 2. The pipeline: on one file written for the purpose, per round the engine's uncached read
//    alone, read + hash (reader and hasher on two threads), and in-memory hashing on one core.
//    Target: read + hash >= 0.90 x min(read alone, in-memory hash) — the pipeline loses little
//    to whichever of the disk and the CPU is the limit. The in-memory figure is the app's (a 1 MiB
//    buffer hashed over and over: it stays in the CPU's cache, as in openssl speed). A file's bytes
//    come from RAM, not from the cache, so each round also hashes a 256 MiB buffer ("from RAM"),
//    reported with the ratio against it, for information: on a machine whose memory is slow next
//    to its SHA units the two differ, and the pipeline can only reach the second.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cryptoProvider, engineVersion, runHash, runTest } from '../app/src/core/engine.js';
import type { HashAlgo } from '../app/src/model/engine-types.js';
import { parseSize } from '../app/src/model/units.js';
import { f1, f3, layoutSpec, log, median, MiB, parseArgv, versusOpenssl } from './bench/common.js';

const MEMORY_TARGET = 0.95;
const PIPELINE_TARGET = 0.9;

const HELP = `usage: npm run bench:hash -- [options]

  --dir DIR        where the pipeline test writes its file (a fresh folder inside DIR,
                   removed at the end; default ${os.tmpdir()})
  --size SIZE      the pipeline test's file (default 2GiB)
  --rounds N       rounds (default 5, at least 3)
  --seconds S      length of each in-memory measurement, engine and openssl (default 3)
  --algo A         sha256, sha512 or both (default both)
  --no-pipeline    only the in-memory comparison
  --help`;

function parse(argv: string[]) {
  const o = { size: 2 * 1024 * MiB, rounds: 5, seconds: 3, algos: ['sha256', 'sha512'] as HashAlgo[], pipeline: true };
  const common = parseArgv(argv, HELP, o, {
    numbers: { '--rounds': 'rounds', '--seconds': 'seconds' },
    sizes: { '--size': 'size' },
    size: (text, flag) => Math.floor(parseSize(text, flag) / MiB) * MiB,
    off: { '--no-pipeline': 'pipeline' },
    custom: { '--algo': (v) => (o.algos = v === 'both' ? ['sha256', 'sha512'] : [v as HashAlgo]) },
  });
  return { ...o, dir: common.dir, rounds: Math.max(3, o.rounds) };
}

/** OpenSSL's own single-core figure for 1 MiB blocks, MB/s. */
function opensslSpeed(algo: HashAlgo, seconds: number): number {
  const r = spawnSync('openssl', ['speed', '-evp', algo, '-bytes', String(MiB), '-seconds', String(seconds)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl speed failed: ${r.stderr}`);
  // The last line: "sha256   1910738.49k" — thousands of bytes per second.
  const m = new RegExp(`^${algo}\\s+([\\d.]+)k\\s*$`, 'm').exec(r.stdout);
  if (!m) throw new Error(`cannot read openssl speed's output:\n${r.stdout}`);
  return (Number(m[1]) * 1000) / 1e6;
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' }).stdout.trim();
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const out: string[] = [];
  const say = (s = ''): void => void out.push(s);
  say('DiskDial hashing benchmark');
  say(`  date       ${new Date().toISOString()}`);
  say(`  host       ${cpu}, ${os.cpus().length} cores, ${os.type()} ${os.release()}`);
  say(`  engine     ${engineVersion()}, hashing with ${cryptoProvider()}`);
  say(`  reference  ${openssl}: openssl speed -evp ALGO -bytes 1048576 -seconds ${o.seconds} (one core)`);
  say(`  rounds     ${o.rounds}, engine and openssl alternating which goes first`);
  say();

  // 1. In memory, one core.
  for (const algo of o.algos) {
    const rows: Array<[number, number, number]> = [];
    for (let r = 1; r <= o.rounds; r++) {
      const engine = async (): Promise<number> =>
        (await runHash({ mode: 'memory', algo, threads: 1, seconds: o.seconds, memoryBytes: MiB })).mbps;
      const { eng, ssl } = await versusOpenssl(algo, r, engine, () => opensslSpeed(algo, o.seconds));
      rows.push([r, eng, ssl]);
    }
    const ratio = median(rows.map(([, e, s]) => e / s));
    say(`In-memory ${algo.toUpperCase()}, one core, 1 MiB buffers (MB = 10^6 bytes):`);
    say('round  engine MB/s  openssl MB/s  ratio');
    for (const [r, e, s] of rows) say(`${String(r).padStart(5)}  ${f1(e).padStart(11)}  ${f1(s).padStart(12)}  ${f3(e / s)}`);
    say(`median ratio ${f3(ratio)}  target >= ${MEMORY_TARGET}: ${ratio >= MEMORY_TARGET ? 'ok' : 'BELOW'}`);
    say();
  }

  // 2. The pipeline on a real file.
  if (o.pipeline) {
    const st = statfsSync(o.dir);
    if (st.bavail * st.bsize < o.size + 1024 * MiB) throw new Error(`not enough free space in ${o.dir} for a ${o.size} B file`);
    const work = mkdtempSync(path.join(o.dir, 'diskdial-bench-hash-'));
    const cleanup = (): void => rmSync(work, { recursive: true, force: true });
    process.once('SIGINT', () => {
      cleanup();
      process.exit(130);
    });
    try {
      const file = path.join(work, 'hash.dat');
      log(`writing ${o.size} B to ${file}...`);
      await runTest(layoutSpec(file, o.size));
      for (const algo of o.algos) {
        const rows: Array<{ r: number; read: number; rh: number; mem: number; cold: number; rw: number; hw: number; cache: string }> = [];
        for (let r = 1; r <= o.rounds; r++) {
          spawnSync('sync');
          const read = await runHash({ mode: 'read', algo, path: file });
          const rh = await runHash({ mode: 'read-hash', algo, path: file });
          const mem = await runHash({ mode: 'memory', algo, threads: 1, seconds: o.seconds });
          const cold = await runHash({ mode: 'memory', algo, threads: 1, seconds: o.seconds, memoryBytes: 256 * MiB });
          rows.push({
            r,
            read: read.mbps,
            rh: rh.mbps,
            mem: mem.mbps,
            cold: cold.mbps,
            rw: rh.readerWaitSeconds ?? 0,
            hw: rh.hasherWaitSeconds ?? 0,
            cache: read.cacheMode ?? '?',
          });
          log(
            `  ${algo} pipeline round ${r}: read ${f1(read.mbps)}, read+hash ${f1(rh.mbps)}, memory ${f1(mem.mbps)}, from RAM ${f1(cold.mbps)} MB/s`,
          );
        }
        const ratio = median(rows.map((x) => x.rh / Math.min(x.read, x.mem)));
        say(`Pipeline ${algo.toUpperCase()} on a ${(o.size / 1e9).toFixed(2)} GB file (${rows[0]!.cache} I/O, 1 MiB chunks, 4 in flight):`);
        say(
          'round  read MB/s  read+hash MB/s  memory MB/s  min(read, memory)  ratio  from RAM MB/s  ratio vs from RAM  reader waited s  hasher waited s',
        );
        for (const x of rows) {
          say(
            `${String(x.r).padStart(5)}  ${f1(x.read).padStart(9)}  ${f1(x.rh).padStart(14)}  ${f1(x.mem).padStart(11)}  ${f1(Math.min(x.read, x.mem)).padStart(17)}  ${f3(x.rh / Math.min(x.read, x.mem))}  ${f1(x.cold).padStart(13)}  ${f3(x.rh / Math.min(x.read, x.cold)).padStart(17)}  ${x.rw.toFixed(2).padStart(15)}  ${x.hw.toFixed(2).padStart(15)}`,
          );
        }
        say(`median ratio ${f3(ratio)}  target >= ${PIPELINE_TARGET}: ${ratio >= PIPELINE_TARGET ? 'ok' : 'BELOW'}`);
        say(
          `informational: read + hash / min(read, hashing from RAM): median ${f3(median(rows.map((x) => x.rh / Math.min(x.read, x.cold))))}`,
        );
        say();
      }
    } finally {
      cleanup();
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((err: unknown) => {
  console.error(`bench:hash: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
