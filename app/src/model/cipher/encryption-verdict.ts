// The encryption verdict, as the Hash test's: is an encrypted disk held back by its cipher? It
// puts the encrypted figures next to the unencrypted ones (when there are) and the cipher's own
// rate measured in the same run. Pure: the report, the CLI and the card all call it.
import { formatMBpsFigure } from '../units.js';
import type { CipherSection } from './types.js';

export interface RowRates {
  readMBps?: number;
  writeMBps?: number;
}

export interface EncryptionVerdict {
  /** cipher: encryption is the limit; disk: the cipher has room to spare; unclear: no way to tell. */
  bound: 'cipher' | 'disk' | 'unclear';
  /** The cipher rate the verdict rests on, MB/s per core, and what it is. */
  cipherMBps?: number;
  text: string;
}

const formatMBps = (x: number): string => `${formatMBpsFigure(x)} MB/s`;

const best = (r: RowRates | undefined): number | undefined => {
  const v = [r?.readMBps, r?.writeMBps].filter((x): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0);
  return v.length > 0 ? Math.max(...v) : undefined;
};

const pair = (r: RowRates): string => {
  const parts = [r.readMBps, r.writeMBps].map((x) => (typeof x === 'number' && Number.isFinite(x) ? formatMBps(x) : '–'));
  return `${parts[0]} read / ${parts[1]} write`;
};

const times = (x: number): string => (x >= 10 ? x.toFixed(0) : x.toFixed(1));

/**
 * The verdict for one encrypted row. The cipher rate is the kernel's own when it was measured
 * (fscrypt and dm-crypt encrypt in the kernel), else the library's AES-XTS on one core — but a
 * kernel that encrypts in software cannot reach the library's rate, and the verdict says so.
 */
export function encryptionVerdict(encrypted: RowRates, plain: RowRates | undefined, cipher: CipherSection): EncryptionVerdict {
  const k = cipher.kernel;
  const lib = cipher.xts?.oneCore.mbps;
  const libText =
    lib !== undefined
      ? `${cipher.provider.split(' (')[0]} AES-256-XTS runs at ${formatMBps(lib)} per core on this CPU (measured in the same run)`
      : undefined;
  const kernelRate = k?.rate?.mbps;
  const software = k?.accelerated === false;
  const cipherMBps = kernelRate ?? (software ? undefined : lib);
  const disk = best(plain);
  const enc = best(encrypted);
  const diskWords = plain && disk !== undefined ? `the unencrypted disk does ${pair(plain)}` : undefined;
  const who = k ? `this kernel encrypts` : 'the cipher runs';
  const how = k ? ` with ${k.meaning} (${k.aes})` : '';

  if (cipherMBps !== undefined) {
    const ref = disk ?? enc;
    if (ref === undefined) return { bound: 'unclear', cipherMBps, text: `${who} at ≈ ${formatMBps(cipherMBps)} per core${how}.` };
    if (cipherMBps < ref * 1.2) {
      const tail = diskWords ?? `the encrypted disk does ${pair(encrypted)}`;
      return { bound: 'cipher', cipherMBps, text: `Encryption-bound: ${who} at ≈ ${formatMBps(cipherMBps)} per core${how}; ${tail}.` };
    }
    const tail = diskWords ? ` (${diskWords})` : '';
    return {
      bound: 'disk',
      cipherMBps,
      text: `Encryption costs little here: the cipher runs at ${formatMBps(cipherMBps)}${how}, ${times(cipherMBps / ref)}× the disk${tail}.`,
    };
  }
  // A software kernel cipher whose rate could not be measured: the rows themselves tell.
  const why = k?.rateNote ? ` Its rate could not be measured directly: ${k.rateNote}.` : '';
  const libWords = libText ? ` ${libText}, but the kernel does not use the CPU's AES instructions.` : '';
  if (disk !== undefined && enc !== undefined && enc < disk * 0.5) {
    return {
      bound: 'cipher',
      text: `Encryption-bound: ${who}${how}, and encrypted reaches ${pair(encrypted)} where ${diskWords}.${libWords}${why}`,
    };
  }
  return {
    bound: 'unclear',
    text: `${who.charAt(0).toUpperCase()}${who.slice(1)}${how}; encrypted reaches ${pair(encrypted)}${diskWords ? ` and ${diskWords}` : ''}.${libWords}${why}`,
  };
}
