// The encryption verdict: a software kernel cipher that cannot be measured, a measured kernel
// cipher slower than the disk, and a cipher with room to spare.
import { describe, expect, it } from 'vitest';
import { encryptionVerdict } from '../../../../app/src/model/cipher/encryption-verdict.js';
import type { CipherSection, KernelCipher } from '../../../../app/src/model/cipher/types.js';

const rate = (mbps: number, threads = 1) => ({ bytes: mbps * 1e6, seconds: 1, mbps, threads });
const section = (xts: number, kernel?: Partial<KernelCipher>): CipherSection => ({
  provider: 'OpenSSL 3.0.22 25 Aug 2026 (libcrypto)',
  blockBytes: 16384,
  dataUnit: 4096,
  seconds: 1,
  xts: { oneCore: rate(xts), allCores: rate(xts * 2, 2) },
  ...(kernel
    ? {
        kernel: {
          name: 'xts(aes)',
          driver: 'xts(ecb(aes-fixed-time))',
          priority: 101,
          aes: 'aes-fixed-time',
          accelerated: false,
          meaning: 'software AES, no acceleration',
          ...kernel,
        },
      }
    : {}),
});

describe('encryptionVerdict', () => {
  it('calls a measured software kernel cipher slower than the disk encryption-bound', () => {
    const v = encryptionVerdict(
      { readMBps: 51, writeMBps: 100 },
      { readMBps: 1497, writeMBps: 2081 },
      section(2100, { rate: { ...rate(110), source: 'af_alg' } }),
    );
    expect(v.bound).toBe('cipher');
    expect(v.cipherMBps).toBe(110);
    expect(v.text).toBe(
      'Encryption-bound: this kernel encrypts at ≈ 110 MB/s per core with software AES, no acceleration (aes-fixed-time); the unencrypted disk does 1,497 MB/s read / 2,081 MB/s write.',
    );
  });

  it('with no kernel rate, rests on the rows and names the library rate measured in the same run', () => {
    const v = encryptionVerdict(
      { readMBps: 51, writeMBps: 100 },
      { readMBps: 1497, writeMBps: 2081 },
      section(2100, { rateNote: 'this kernel does not let programs use its ciphers (no AF_ALG), and cryptsetup is not installed' }),
    );
    expect(v.bound).toBe('cipher');
    expect(v.cipherMBps).toBeUndefined();
    expect(v.text).toContain('Encryption-bound: this kernel encrypts with software AES, no acceleration (aes-fixed-time)');
    expect(v.text).toContain('OpenSSL 3.0.22 25 Aug 2026 AES-256-XTS runs at 2,100 MB/s per core on this CPU (measured in the same run)');
    expect(v.text).toContain('no AF_ALG');
  });

  it('says encryption costs little when the cipher is well above the disk', () => {
    const v = encryptionVerdict({ readMBps: 1900, writeMBps: 1800 }, { readMBps: 2000, writeMBps: 1950 }, section(6000));
    expect(v).toMatchObject({ bound: 'disk', cipherMBps: 6000 });
    expect(v.text).toBe(
      'Encryption costs little here: the cipher runs at 6,000 MB/s, 3.0× the disk (the unencrypted disk does 2,000 MB/s read / 1,950 MB/s write).',
    );
  });

  it('an accelerated kernel cipher without a rate uses the library rate', () => {
    const v = encryptionVerdict(
      { readMBps: 400 },
      undefined,
      section(4000, { driver: 'xts-aes-aesni', aes: 'xts-aes-aesni', accelerated: true, meaning: 'hardware AES-NI' }),
    );
    expect(v.bound).toBe('disk');
    expect(v.text).toContain('with hardware AES-NI (xts-aes-aesni), 10× the disk');
  });
});
