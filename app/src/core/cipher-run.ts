// The cipher ceiling, measured: the platform library's AES-256-XTS and AES-256-GCM from memory on
// one core and on every core, and on Linux the kernel's xts(aes) — its driver from /proc/crypto
// and, where the kernel lets a program use it (AF_ALG), its real rate; `cryptsetup benchmark`
// when AF_ALG is not there but cryptsetup is.
import os from 'node:os';
import { cipherBench, engineVersion, isAbortError } from './engine.js';
import { hostInfo } from './host.js';
import { buildResult } from './result.js';
import type { ResultDocument, ResultFlag } from '../model/result.js';
import { execText, type Exec } from './fscrypt.js';
import { parseCryptsetupBenchmark, readKernelCipher } from './kernel-cipher.js';
import type { CipherAlgo, CipherEngineResult, CipherProgress, CipherSpec } from '../model/engine-types.js';
import type { CipherPair, CipherRate, CipherSection, KernelCipher, ObservedDecryption } from '../model/cipher/types.js';
import { encryptionVerdict, runRates, type EncryptionVerdict } from '../model/cipher/encryption-verdict.js';

export type CipherFn = (
  spec: CipherSpec,
  opts: { signal?: AbortSignal; onProgress?: (p: CipherProgress) => void },
) => Promise<CipherEngineResult>;

export interface MeasureCipherOptions {
  /** Seconds per measurement (default 1). */
  seconds?: number;
  /** Streams for the all-cores rate; default: the CPUs this process may use. */
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (stage: string, p: CipherProgress) => void;
  engine?: CipherFn;
  /** /proc/crypto (tests give a fixture). */
  procCrypto?: string;
  /** For `cryptsetup benchmark` (tests give recorded output). */
  exec?: Exec;
}

const rate = (r: CipherEngineResult): CipherRate => ({ bytes: r.bytes, seconds: r.seconds, mbps: r.mbps, threads: r.threads });

/** The engine's own words for a refusal: "E97: …, socket (the words)" → "the words". */
const why = (err: unknown): string => {
  const text = err instanceof Error ? err.message : String(err);
  return /\((.*)\)$/.exec(text)?.[1] ?? text;
};

export async function measureCipher(opts: MeasureCipherOptions = {}): Promise<CipherSection> {
  const run: CipherFn = opts.engine ?? cipherBench;
  const seconds = opts.seconds ?? 1;
  const threads = opts.threads ?? (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
  const bench = async (algo: CipherAlgo, t: number): Promise<CipherEngineResult> =>
    run(
      { algo, threads: t, seconds },
      {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onProgress ? { onProgress: (p: CipherProgress) => opts.onProgress!(`${algo} × ${t}`, p) } : {}),
      },
    );
  const pairOf = async (algo: CipherAlgo): Promise<{ pair?: CipherPair; provider?: string; note?: string }> => {
    try {
      const one = await bench(algo, 1);
      const all = await bench(algo, threads);
      return { pair: { oneCore: rate(one), allCores: rate(all) }, provider: one.provider };
    } catch (err) {
      if (isAbortError(err)) throw err;
      return { note: why(err) };
    }
  };
  const xts = await pairOf('aes-256-xts');
  const gcm = await pairOf('aes-256-gcm');
  const section: CipherSection = {
    provider: xts.provider ?? gcm.provider ?? 'unknown',
    blockBytes: 16384,
    dataUnit: 4096,
    seconds,
  };
  if (xts.pair) section.xts = xts.pair;
  if (xts.note) section.xtsNote = xts.note;
  if (gcm.pair) section.gcm = gcm.pair;
  if (gcm.note) section.gcmNote = gcm.note;
  const kernel = await readKernelCipher(opts.procCrypto);
  if (kernel) section.kernel = await kernelRate(kernel, bench, opts.exec ?? execText);
  return section;
}

/** The kernel cipher's rate on one core: AF_ALG through the engine, else cryptsetup's benchmark. */
async function kernelRate(
  k: KernelCipher,
  bench: (a: CipherAlgo, t: number) => Promise<CipherEngineResult>,
  exec: Exec,
): Promise<KernelCipher> {
  let afAlg: string;
  try {
    const r = await bench('kernel-xts', 1);
    return { ...k, rate: { ...rate(r), source: 'af_alg' } };
  } catch (err) {
    if (isAbortError(err)) throw err;
    afAlg = /AF_ALG/.test(String(err)) ? 'this kernel does not let programs use its ciphers (no AF_ALG)' : why(err);
  }
  const text = await exec(['cryptsetup', 'benchmark', '-c', 'aes-xts-plain64', '-s', '512']).catch(() => undefined);
  const mbps = text === undefined ? undefined : parseCryptsetupBenchmark(text);
  if (mbps !== undefined) return { ...k, rate: { bytes: 0, seconds: 0, mbps, threads: 1, source: 'cryptsetup' } };
  return { ...k, rateNote: `${afAlg}, and cryptsetup is not installed` };
}

/** `diskdial cipher`: the ceiling as a result document of its own (no disk: the target is memory). */
export async function runCipherBenchmark(opts: MeasureCipherOptions & { label?: string } = {}): Promise<ResultDocument> {
  const startedAt = new Date();
  const section = await measureCipher(opts);
  const doc = buildResult({
    kind: 'cipher',
    ...(opts.label !== undefined ? { label: opts.label } : {}),
    startedAt,
    finishedAt: new Date(),
    engineVersion: engineVersion(),
    host: hostInfo(),
    target: {
      path: 'memory',
      volume: 'memory',
      mountPoint: 'memory',
      fs: 'none',
      mountOptions: [],
      totalBytes: 0,
      freeBytes: 0,
      device: { model: 'memory (no disk)', bus: 'none' },
    },
    // size: the block each stream encrypts over and over.
    settings: { size: section.blockBytes, pattern: 'random', cache: 'auto', runs: 1 },
    tests: [],
  });
  doc.cipher = section;
  return doc;
}

/** For a test that only reads (hash, check) on an encrypted folder: the cipher section as run
 *  measures it, with the kernel's decryption as the timed read saw it where the kernel encrypts in
 *  software and let no program measure its rate. */
export async function readCipher(observed: ObservedDecryption | undefined, signal?: AbortSignal): Promise<CipherSection> {
  const c = await measureCipher({ seconds: 0.5, ...(signal ? { signal } : {}) });
  if (c.kernel && !c.kernel.rate && c.kernel.accelerated === false && observed) c.kernel.observed = observed;
  return c;
}

/** The encrypted-target flag: the encryption verdict on a test's own figures, and what to do. */
export function encryptedTargetFlag(verdict: { bound: EncryptionVerdict['bound']; text: string }): ResultFlag {
  return {
    code: 'encrypted-target',
    severity: 'info',
    message: verdict.text,
    fix:
      verdict.bound === 'cipher'
        ? "These figures are the cipher's more than the disk's: test an unencrypted folder on the same disk (or run the format wizard with and without encryption) to see what encryption costs."
        : verdict.bound === 'disk'
          ? 'Nothing to do: the cipher has room to spare; encryption is not what holds these figures back.'
          : 'To see what encryption costs here, test an unencrypted folder on the same disk the same way (same --cache).',
  };
}

/** A test on an encrypted folder carries the cipher ceiling measured in the same run and the
 *  verdict on its own figures (is the cipher the limit?) as an info flag, as the Hash test's. */
export async function addEncryptionVerdict(doc: ResultDocument, measure: () => Promise<CipherSection>): Promise<void> {
  const cipher = await measure();
  doc.cipher = cipher;
  const verdict = encryptionVerdict(runRates([doc]), undefined, cipher);
  doc.flags.push(encryptedTargetFlag(verdict));
}
