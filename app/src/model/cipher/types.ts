// The cipher ceiling as a result records it: how fast this machine encrypts from memory (the
// platform library's AES on one core and on all), and on Linux the kernel's own xts(aes) — the
// cipher fscrypt and dm-crypt use — with the driver the kernel picked and, where it can be
// measured, its rate.

/** One measured encryption rate. */
export interface CipherRate {
  bytes: number;
  seconds: number;
  /** bytes / seconds / 10^6 */
  mbps: number;
  threads: number;
}

/** One algorithm on one core and on all of them. */
export interface CipherPair {
  oneCore: CipherRate;
  allCores: CipherRate;
}

/** The kernel's xts(aes) (Linux): /proc/crypto's highest-priority driver, and what it means. */
export interface KernelCipher {
  /** "xts(aes)", or "aes" when no xts(aes) was instantiated yet. */
  name: string;
  /** "xts(ecb(aes-fixed-time))", "xts-aes-aesni", … */
  driver: string;
  priority: number;
  /** The AES underneath: "aes-fixed-time", "aesni", "aes-arm64-ce", … */
  aes: string;
  /** true: the CPU's AES instructions; false: software AES; absent: not known. */
  accelerated?: boolean;
  /** "software AES, no acceleration"; "hardware AES-NI". */
  meaning: string;
  /** Its real rate, where the kernel lets a program measure it. */
  rate?: CipherRate & { source: 'af_alg' | 'cryptsetup' };
  /** Why there is no rate, in plain words. */
  rateNote?: string;
  /** Where no rate could be measured and the kernel encrypts in software: its decryption as a test
   *  that read from the encrypted folder saw it (Linux: the fscrypt workers' CPU time). */
  observed?: ObservedDecryption;
}

/** The kernel's decryption seen during a timed read: the CPU it took and the CPU left idle. Its
 *  ceiling is the rate it reached scaled by (its CPU + idle CPU) / its CPU: what it could have
 *  decrypted with every cycle it had or could have had. */
export interface ObservedDecryption {
  /** The ceiling, MB/s. */
  mbps: number;
  /** MB/s per CPU-second of decryption: the cipher's own rate on one core. */
  perCoreMBps: number;
  bytes: number;
  seconds: number;
  cpuSeconds: number;
  idleSeconds: number;
}

export interface CipherSection {
  /** The library: "OpenSSL 3.0.22 … (libcrypto)", "CommonCrypto (macOS)", "Windows CNG (BCrypt)". */
  provider: string;
  /** Bytes per encrypt call (16 KiB, as `openssl speed`) and per XTS tweak (4096, as fscrypt). */
  blockBytes: number;
  dataUnit: number;
  seconds: number;
  /** AES-256-XTS (the disk-encryption mode of APFS, BitLocker, fscrypt, LUKS). */
  xts?: CipherPair;
  xtsNote?: string;
  /** AES-256-GCM, where the platform offers it to programs. */
  gcm?: CipherPair;
  gcmNote?: string;
  kernel?: KernelCipher;
}

/** How a target is encrypted, when DiskDial could tell. */
export interface TargetEncryption {
  /** fscrypt: a folder encrypted by the file system; the others: the whole volume. */
  kind: 'fscrypt' | 'dm-crypt' | 'apfs' | 'bitlocker';
  /** fscrypt: "AES_256_XTS" / "AES_256_CTS", policy version. */
  contents?: string;
  filenames?: string;
  policyVersion?: number;
}
