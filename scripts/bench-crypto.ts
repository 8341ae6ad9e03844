// DiskDial encryption benchmark (not a test: it prints ratios against a reference measured in the
// same run, and never fails the build). `npm run bench:crypto -- --help`; method and results in
// docs/benchmarks.md.
//
// The engine's in-memory AES (cipherBench: 16 KiB blocks encrypted in place, a new XTS tweak every
// 4096 B as fscrypt) on one core vs `openssl speed -elapsed -evp <algo> -bytes 16384 -seconds S`,
// interleaved (the order alternates each round), N rounds. Both are wall-clock rates: openssl's
// default is CPU time, which on a busy machine reads higher than what a program gets in the same
// seconds. Target: engine / openssl >= 0.95 for aes-256-xts. Also prints the engine on every core
// and the kernel's xts(aes) driver, for information.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { cipherBench, engineVersion } from '../app/src/core/engine.js';
import { readKernelCipher } from '../app/src/core/kernel-cipher.js';
import type { CipherAlgo } from '../app/src/model/engine-types.js';
import { f1, f3, median, parseArgv, versusOpenssl } from './bench/common.js';

const TARGET = 0.95;
const HELP = `usage: npm run bench:crypto -- [options]

  --rounds N       rounds (default 5, at least 3)
  --seconds S      length of each measurement, engine and openssl, whole seconds (default 3)
  --algo A         aes-256-xts, aes-256-gcm or both (default both)
  --help`;

type Algo = Extract<CipherAlgo, 'aes-256-xts' | 'aes-256-gcm'>;

function parse(argv: string[]): { rounds: number; seconds: number; algos: Algo[] } {
  const o = { rounds: 5, seconds: 3, algos: ['aes-256-xts', 'aes-256-gcm'] as Algo[] };
  parseArgv(argv, HELP, o, {
    numbers: { '--rounds': 'rounds', '--seconds': 'seconds' },
    custom: { '--algo': (v) => (o.algos = v === 'both' ? ['aes-256-xts', 'aes-256-gcm'] : [v as Algo]) },
  });
  o.rounds = Math.max(3, o.rounds);
  // openssl speed takes whole seconds; the engine gets the same.
  o.seconds = Math.max(1, Math.round(o.seconds));
  return o;
}

/** OpenSSL's own wall-clock, single-core figure for 16 KiB blocks, MB/s. */
function opensslSpeed(algo: Algo, seconds: number): number {
  const r = spawnSync('openssl', ['speed', '-elapsed', '-evp', algo, '-bytes', '16384', '-seconds', String(seconds)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl speed failed: ${r.stderr}`);
  // The last line: "AES-256-XTS    4255861.03k" — thousands of bytes per second.
  const m = /^\S+\s+([\d.]+)k\s*$/m.exec(r.stdout.trim().split('\n').pop() ?? '');
  if (!m) throw new Error(`cannot read openssl speed's output:\n${r.stdout}`);
  return (Number(m[1]) * 1000) / 1e6;
}

async function main(): Promise<number> {
  const o = parse(process.argv.slice(2));
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const version = spawnSync('openssl', ['version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`bench:crypto — engine ${engineVersion()}, reference ${version}, ${cores} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
  let below = false;
  for (const algo of o.algos) {
    const ratios: number[] = [];
    let provider = '';
    for (let r = 1; r <= o.rounds; r++) {
      const engine = async (): Promise<number> => {
        const res = await cipherBench({ algo, threads: 1, seconds: o.seconds });
        provider = res.provider;
        return res.mbps;
      };
      const { eng, ssl } = await versusOpenssl(algo, r, engine, () => opensslSpeed(algo, o.seconds));
      ratios.push(eng / ssl);
    }
    const ratio = median(ratios);
    const all = await cipherBench({ algo, threads: cores, seconds: o.seconds });
    console.log(
      `${algo} (${provider}): median ratio engine/openssl ${f3(ratio)}  target >= ${TARGET}: ${ratio >= TARGET ? 'ok' : 'BELOW'}`,
    );
    console.log(`  engine on ${cores} cores: ${f1(all.mbps)} MB/s`);
    if (algo === 'aes-256-xts' && ratio < TARGET) below = true;
  }
  const k = await readKernelCipher();
  if (k) {
    const line = `kernel ${k.name}: ${k.driver} (priority ${k.priority}) — ${k.meaning}`;
    const rate = await cipherBench({ algo: 'kernel-xts', threads: 1, seconds: o.seconds }).then(
      (x) => `${f1(x.mbps)} MB/s on 1 core (AF_ALG)`,
      (err: unknown) => `rate not measurable: ${err instanceof Error ? err.message : String(err)}`,
    );
    console.log(`${line}; ${rate}`);
  }
  return below ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(`bench:crypto: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
