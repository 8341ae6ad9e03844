// The kernel's xts(aes) driver from /proc/crypto: this machine's real listing (a kernel with no
// AES-NI driver, so xts(ecb(aes-fixed-time))), and listings of other drivers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { innerDriver, kernelCipher, parseCryptsetupBenchmark, parseProcCrypto } from '../../../app/src/core/kernel-cipher.js';
import { SOFTWARE_KERNEL } from '../../helpers/cipher.js';

const fixture = (name: string): string => readFileSync(path.join(import.meta.dirname, '../../fixtures/cipher', name), 'utf8');

const block = (name: string, driver: string, priority: number, type = 'skcipher', extra = ''): string =>
  `name         : ${name}\ndriver       : ${driver}\nmodule       : kernel\npriority     : ${priority}\nrefcnt       : 1\nselftest     : passed\ninternal     : no\ntype         : ${type}\n${extra}`;

describe('kernelCipher', () => {
  it('names software AES on a kernel without an AES-NI driver (real /proc/crypto)', () => {
    const k = kernelCipher(parseProcCrypto(fixture('proc-crypto-aes-fixed-time.txt')));
    expect(k).toMatchObject(SOFTWARE_KERNEL);
  });

  it('picks the highest-priority driver: AES-NI over the generic one', () => {
    const text = [
      block('xts(aes)', 'xts(ecb(aes-generic))', 100),
      block('xts(aes)', 'xts-aes-aesni', 401),
      block('__xts(aes)', '__xts-aes-aesni', 401, 'skcipher', 'internal     : yes'),
    ].join('\n\n');
    expect(kernelCipher(parseProcCrypto(text))).toMatchObject({ driver: 'xts-aes-aesni', accelerated: true, meaning: 'hardware AES-NI' });
  });

  it('skips internal and failed entries, and knows VAES and ARMv8 drivers', () => {
    const internal = block('xts(aes)', 'xts-aes-vaes-avx10_512', 800).replace('internal     : no', 'internal     : yes');
    const failed = block('xts(aes)', 'xts-aes-broken', 900).replace('passed', 'failed');
    const vaes = block('xts(aes)', 'xts-aes-vaes-avx2', 600);
    expect(kernelCipher(parseProcCrypto([internal, failed, vaes].join('\n\n')))).toMatchObject({
      driver: 'xts-aes-vaes-avx2',
      accelerated: true,
      meaning: 'hardware AES (VAES vector instructions)',
    });
    const arm = [block('xts(aes)', 'xts-aes-ce', 300), block('xts(aes)', 'xts-aes-neonbs', 250)].join('\n\n');
    expect(kernelCipher(parseProcCrypto(arm))).toMatchObject({ aes: 'xts-aes-ce', accelerated: true });
    expect(kernelCipher(parseProcCrypto(block('xts(aes)', 'xts-aes-neonbs', 250)))).toMatchObject({ accelerated: false });
  });

  it('falls back to the plain aes cipher when no xts(aes) was made yet', () => {
    const text = [block('aes', 'aes-generic', 100, 'cipher'), block('aes', 'aes-arm64-ce', 300, 'cipher')].join('\n\n');
    expect(kernelCipher(parseProcCrypto(text))).toMatchObject({ name: 'aes', aes: 'aes-arm64-ce', accelerated: true });
  });

  it('says so when it does not know a driver, and returns nothing without AES at all', () => {
    const k = kernelCipher(parseProcCrypto(block('xts(aes)', 'xts-aes-mystery', 500)));
    expect(k?.accelerated).toBeUndefined();
    expect(k?.meaning).toBe('the xts-aes-mystery driver (acceleration not known to DiskDial)');
    expect(kernelCipher(parseProcCrypto(block('sha256', 'sha256-generic', 100, 'shash')))).toBeUndefined();
  });

  it('unwraps templates to the AES underneath', () => {
    expect(innerDriver('xts(ecb(aes-fixed-time))')).toBe('aes-fixed-time');
    expect(innerDriver('xts-aes-aesni')).toBe('xts-aes-aesni');
  });

  it("reads cryptsetup benchmark's aes-xts 512-bit encryption rate", () => {
    const out = `# Tests are approximate using memory only (no storage IO).\n#     Algorithm |       Key |      Encryption |      Decryption\n        aes-cbc        128b      1234.5 MiB/s      3456.7 MiB/s\n        aes-xts        256b      2890.1 MiB/s      2901.0 MiB/s\n        aes-xts        512b      2345.0 MiB/s      2350.2 MiB/s\n`;
    expect(parseCryptsetupBenchmark(out)).toBeCloseTo((2345 * 1048576) / 1e6, 3);
    expect(parseCryptsetupBenchmark('cryptsetup: command not found')).toBeUndefined();
  });
});
