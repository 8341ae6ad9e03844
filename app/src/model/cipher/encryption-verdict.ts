// The encryption verdict: is an encrypted disk held back by its cipher? A view of the bottleneck
// verdict (model/verdict/bottleneck.ts): the encrypted figures measured against the cipher's
// ceiling measured in the same run and the unencrypted figures (when there are). Pure: the report,
// the CLI and the card all call it.
import { formatMBpsFigure } from '../units.js';
import { bottleneck, bottleneckText, cipherCeiling, roomToSpare, type Bottleneck, type Ceiling } from '../verdict/bottleneck.js';
import type { ResultDocument } from '../result.js';
import type { CipherSection } from './types.js';

export interface RowRates {
  readMBps?: number;
  writeMBps?: number;
}

export interface EncryptionVerdict {
  /** cipher: encryption is the limit; disk: the cipher has room to spare; unclear: no way to tell. */
  bound: 'cipher' | 'disk' | 'unclear';
  /** The cipher ceiling the verdict rests on, MB/s. */
  cipherMBps?: number;
  /** The bottleneck verdict it is a view of. */
  bottleneck: Bottleneck;
  text: string;
}

const best = (r: RowRates | undefined): number | undefined => {
  const v = [r?.readMBps, r?.writeMBps].filter((x): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0);
  return v.length > 0 ? Math.max(...v) : undefined;
};

const pair = (r: RowRates): string => {
  const parts = [r.readMBps, r.writeMBps].map((x) => (typeof x === 'number' && Number.isFinite(x) ? `${formatMBpsFigure(x)} MB/s` : '–'));
  return `${parts[0]} read / ${parts[1]} write`;
};

/** What a run's own encryption verdict is about: its best read and its best write, each the mean
 *  of one test's runs (pooled by test name across the results given; a mixed test is neither). */
export function runRates(docs: ReadonlyArray<Pick<ResultDocument, 'tests'>>): RowRates {
  const runs = new Map<string, { read: boolean; mbps: number[] }>();
  for (const t of docs.flatMap((d) => d.tests ?? [])) {
    const read = t.rw === 'read' || t.rw === 'randread';
    if ((!read && t.rw !== 'write' && t.rw !== 'randwrite') || !(t.mbps > 0)) continue;
    const key = `${t.rw}:${t.name}`;
    const k = runs.get(key) ?? runs.set(key, { read, mbps: [] }).get(key)!;
    k.mbps.push(t.mbps);
  }
  const out: RowRates = {};
  for (const { read, mbps } of runs.values()) {
    const mean = mbps.reduce((a, x) => a + x, 0) / mbps.length;
    const key = read ? 'readMBps' : 'writeMBps';
    out[key] = Math.max(out[key] ?? 0, mean);
  }
  return out;
}

/** The verdict for encrypted figures: the bottleneck among the cipher's ceiling and the unencrypted
 *  disk's figures, said once; where the kernel's cipher could not be measured, what it is. */
export function encryptionVerdict(encrypted: RowRates, plain: RowRates | undefined, cipher: CipherSection): EncryptionVerdict {
  const c = cipherCeiling(cipher);
  const disk = best(plain);
  const ceilings: Ceiling[] = [
    ...(c ? [c] : []),
    ...(plain && disk !== undefined ? [{ limit: 'disk' as const, mbps: disk, what: `the unencrypted disk's best` }] : []),
  ];
  const enc = best(encrypted) ?? Number.NaN;
  const b = bottleneck({ mbps: enc, what: `encrypted (best of ${pair(encrypted)})` }, ceilings);
  return encryptionView(b, cipher);
}

/** What a bottleneck verdict on an encrypted target says of its cipher: named, with room to spare
 *  (the verdict's own edge: roomToSpare), or unclear — and, where the kernel's cipher could not be
 *  measured, what it is. */
export function encryptionView(b: Bottleneck, cipher: CipherSection): EncryptionVerdict {
  const c = b.ceilings.find((x) => x.limit === 'cipher');
  const k = cipher.kernel;
  const lib = cipher.xts?.oneCore.mbps;
  const libWords = lib
    ? ` ${cipher.provider.split(' (')[0]} AES-256-XTS runs at ${formatMBpsFigure(lib)} MB/s per core on this CPU (measured in the same run), but the kernel does not use the CPU's AES instructions.`
    : '';
  const unmeasured =
    !c && k
      ? ` This kernel encrypts with ${k.meaning} (${k.aes}); its rate could not be measured${k.rateNote ? `: ${k.rateNote}` : ''}.${k.accelerated === false ? libWords : ''}`
      : '';
  const bound = b.outcome === 'cipher' ? 'cipher' : roomToSpare(b, 'cipher') ? 'disk' : 'unclear';
  return { bound, ...(c ? { cipherMBps: c.mbps } : {}), bottleneck: b, text: `${bottleneckText(b)}${unmeasured}` };
}
