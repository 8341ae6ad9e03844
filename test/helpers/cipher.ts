// Cipher sections for model tests: this machine's kind of kernel (software AES, aes-fixed-time)
// and a library measured at a given rate on one core and on two.
import type { CipherSection, KernelCipher } from '../../app/src/model/cipher/types.js';

/** The kernel's xts(aes) as /proc/crypto names it on a kernel without an AES-NI driver. */
export const SOFTWARE_KERNEL: KernelCipher = {
  name: 'xts(aes)',
  driver: 'xts(ecb(aes-fixed-time))',
  priority: 101,
  aes: 'aes-fixed-time',
  accelerated: false,
  meaning: 'software AES, no acceleration',
};

const rate = (mbps: number, threads = 1) => ({ bytes: mbps * 1e6, seconds: 1, mbps, threads });

/** A cipher section whose library AES-256-XTS runs at `xts` MB/s on one core; `kernel` patches
 *  the software kernel cipher (absent: no kernel section). */
export function cipherSection(xts: number, kernel?: Partial<KernelCipher>): CipherSection {
  return {
    provider: 'OpenSSL 3.0.22 25 Aug 2026 (libcrypto)',
    blockBytes: 16384,
    dataUnit: 4096,
    seconds: 1,
    xts: { oneCore: rate(xts), allCores: rate(xts * 2, 2) },
    ...(kernel ? { kernel: { ...SOFTWARE_KERNEL, ...kernel } } : {}),
  };
}
