// The hash test: four rates for one file (uncached read, read + hash, hash in memory on one core
// and on all). Run by core/hash-run.ts, not the benchmark runner; here for what reports show.
import type { Metric } from '../report/figure-text.js';
import { sizeText } from '../report/figure-text.js';
import { hashFileBytes } from '../trust.js';
import type { HashRate, HashSection, ResultDocument } from '../result.js';
import type { HashAlgo } from '../engine-types.js';
import {
  aboutTarget,
  bottleneck,
  bottleneckText,
  boundOf,
  claimOf,
  targetCeilings,
  type Bottleneck,
  type TargetAbout,
} from '../verdict/bottleneck.js';
import { hashFigures } from './hash-card.js';
import type { KindModule } from './types.js';

const algoName = (doc: ResultDocument): string => (doc.hash?.algo === 'sha512' ? 'SHA-512' : 'SHA-256');

/** The hash section's names for the bottleneck: storage = the disk, cpu = hashing. */
const HASH_BOUND = { disk: 'storage', 'hash-cpu': 'cpu', cipher: 'cipher', link: 'link', balanced: 'balanced', none: 'none' } as const;

/** Which known ceiling held read + hash back: reading alone (the disk, and on an encrypted
 *  target the cipher in it), hashing on one core, the link, the cipher. */
export function hashBottleneck(read: HashRate, readHash: HashRate, memory: HashRate, algo: HashAlgo, about: TargetAbout = {}): Bottleneck {
  const label = algo === 'sha512' ? 'SHA-512' : 'SHA-256';
  const target = targetCeilings(about);
  // Reading an encrypted file contains the cipher: without the cipher's ceiling it names nothing.
  const opaque = about.encrypted === true && !target.some((c) => c.limit === 'cipher');
  return bottleneck({ mbps: readHash.mbps, what: 'read + hash' }, [
    {
      limit: 'disk',
      mbps: read.mbps,
      what: 'reading alone',
      includes: about.encrypted ? ['cipher', 'link'] : ['link'],
      ...(opaque ? { opaque } : {}),
    },
    { limit: 'hash-cpu', mbps: memory.mbps, what: `${label} in memory on one core` },
    ...target,
  ]);
}

/** The hash section's verdict: the bottleneck, with the factor between reading and hashing and
 *  how close the pipeline came to the slower of the two. */
export function hashVerdict(
  read: HashRate,
  readHash: HashRate,
  memory: HashRate,
  algo: HashAlgo,
  about: TargetAbout = {},
): HashSection['verdict'] {
  const b = hashBottleneck(read, readHash, memory, algo, about);
  const slower = Math.min(read.mbps, memory.mbps);
  return {
    bound: HASH_BOUND[boundOf(b)],
    claim: claimOf(b),
    factor: Math.max(read.mbps, memory.mbps) / Math.max(slower, 1e-9),
    efficiency: readHash.mbps / Math.max(slower, 1e-9),
    text: bottleneckText(b),
  };
}

/** The verdict hash results carry, from their mean figures (one result: its own figures), on the
 *  ceilings its target and its own cipher section give: what core/hash-run.ts stored, recomputed. */
export function rowHashBottleneck(docs: readonly ResultDocument[]): Bottleneck | undefined {
  const hs = docs.filter((d): d is ResultDocument & { hash: HashSection } => d.hash !== undefined);
  const first = hs[0];
  if (!first) return undefined;
  const mean = (pick: (h: HashSection) => HashRate): HashRate => {
    const avg = (f: (r: HashRate) => number): number => hs.reduce((a, d) => a + f(pick(d.hash)), 0) / hs.length;
    return { bytes: avg((r) => r.bytes), seconds: avg((r) => r.seconds), mbps: avg((r) => r.mbps) };
  };
  const about = aboutTarget(first.target, first.cipher);
  return hashBottleneck(
    mean((h) => h.read),
    mean((h) => h.readHash),
    mean((h) => h.memory),
    first.hash.algo,
    about,
  );
}

export const hash = {
  id: 'hash',
  name: 'Hash test',
  report: {
    titleParts: (doc) => (doc.hash ? [algoName(doc), sizeText(hashFileBytes(doc))] : undefined),
    metrics: (doc) => (doc.hash ? { metrics: hashMetrics(doc), only: true } : undefined),
    comparable: (doc, f) => {
      if (!doc.hash) return false;
      f.set('algorithm', algoName(doc));
      f.set('file size', sizeText(hashFileBytes(doc)));
      return true;
    },
    writes: false,
    bottleneck: rowHashBottleneck,
  },
  card: hashFigures,
} as const satisfies KindModule<'hash'>;

function hashMetrics(doc: ResultDocument): Metric[] {
  const h = doc.hash!;
  const algo = h.algo === 'sha512' ? 'SHA-512' : 'SHA-256';
  const m = (measure: string, label: string, value: number, primary: boolean): Metric => ({
    key: `Hash/${measure}`,
    label,
    group: 'Hash',
    measure,
    unit: 'MB/s',
    direction: 'higher',
    values: [value],
    primary,
  });
  return [
    m('read', 'Read (uncached)', h.read.mbps, true),
    m('readHash', `Read + ${algo}`, h.readHash.mbps, true),
    m('memory', `${algo} in memory, 1 core`, h.memory.mbps, true),
    m('memoryParallel', `${algo} in memory, ${h.memoryParallel.threads} cores`, h.memoryParallel.mbps, false),
  ];
}
