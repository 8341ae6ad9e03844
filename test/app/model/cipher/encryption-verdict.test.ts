// The encryption verdict, a view of the bottleneck verdict: a software kernel cipher that cannot
// be measured (no ceiling: no limit is named), a measured kernel cipher slower than the disk, and a
// cipher with room to spare.
import { describe, expect, it } from 'vitest';
import { encryptionVerdict, runRates } from '../../../../app/src/model/cipher/encryption-verdict.js';
import type { ResultTest } from '../../../../app/src/model/result.js';
import { cipherSection } from '../../../helpers/cipher.js';

const rate = (mbps: number, threads = 1) => ({ bytes: mbps * 1e6, seconds: 1, mbps, threads });
const section = cipherSection;

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
      "Encryption-bound: encrypted (best of 51.0 MB/s read / 100 MB/s write) at 100 MB/s is within 10 % of the kernel's AES-XTS on one core, software AES, no acceleration (aes-fixed-time) (110 MB/s); the unencrypted disk's best 2,081 MB/s (21×).",
    );
  });

  it('with no kernel rate names no limit (no ceiling is within 15 %), says what the kernel is and the library rate', () => {
    const v = encryptionVerdict(
      { readMBps: 51, writeMBps: 100 },
      { readMBps: 1497, writeMBps: 2081 },
      section(2100, { rateNote: 'this kernel does not let programs use its ciphers (no AF_ALG), and cryptsetup is not installed' }),
    );
    // Without a cipher ceiling the law forbids naming the cipher: 21× below the disk says only
    // that the disk is not the limit.
    expect(v.bound).toBe('unclear');
    expect(v.bottleneck.outcome).toBe('none');
    expect(v.cipherMBps).toBeUndefined();
    expect(v.text).toMatch(/^No single limit: encrypted \(best of 51\.0 MB\/s read \/ 100 MB\/s write\) at 100 MB\/s/);
    expect(v.text).toContain('This kernel encrypts with software AES, no acceleration (aes-fixed-time)');
    expect(v.text).toContain('OpenSSL 3.0.22 25 Aug 2026 AES-256-XTS runs at 2,100 MB/s per core on this CPU (measured in the same run)');
    expect(v.text).toContain('no AF_ALG');
  });

  it('says encryption costs little when the cipher is well above the disk', () => {
    const v = encryptionVerdict({ readMBps: 1900, writeMBps: 1800 }, { readMBps: 2000, writeMBps: 1950 }, section(6000));
    expect(v).toMatchObject({ bound: 'disk', cipherMBps: 6000, bottleneck: { outcome: 'disk' } });
    expect(v.text).toBe(
      "Storage-bound: encrypted (best of 1,900 MB/s read / 1,800 MB/s write) at 1,900 MB/s is within 5 % of the unencrypted disk's best (2,000 MB/s); OpenSSL 3.0.22 25 Aug 2026 AES-256-XTS on one core 6,000 MB/s (3.2×).",
    );
  });

  it('an accelerated kernel cipher without a rate uses the library rate', () => {
    const v = encryptionVerdict(
      { readMBps: 400 },
      undefined,
      section(4000, { driver: 'xts-aes-aesni', aes: 'xts-aes-aesni', accelerated: true, meaning: 'hardware AES-NI' }),
    );
    expect(v.bound).toBe('disk');
    expect(v.text).toContain('AES-256-XTS on one core, hardware AES-NI (xts-aes-aesni) 4,000 MB/s (10×)');
  });

  it("a run's figure is its best test's mean across runs, never its best single run; a mix is neither", () => {
    const t = (name: string, rw: ResultTest['rw'], mbps: number) => ({ name, rw, mbps }) as ResultTest;
    const tests = [t('Read', 'read', 100), t('Read', 'read', 140), t('RND4K Read', 'randread', 30), t('Write', 'write', 90)];
    expect(runRates([{ tests: [...tests, t('Mix', 'randrw', 500)] }])).toEqual({ readMBps: 120, writeMBps: 90 });
    // Pooled by test name across results: a row of two runs of one test.
    expect(runRates([{ tests: [t('Read', 'read', 100)] }, { tests: [t('Read', 'read', 200)] }])).toEqual({ readMBps: 150 });
  });
});
