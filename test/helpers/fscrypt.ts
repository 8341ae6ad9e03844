// A real fscrypt-encrypted folder for tests: a sparse image on a loop device (by default with
// direct I/O, so the loop does not cache its image), ext4 made with -O encrypt, fscrypt set up with its own config
// file, and two folders beside each other: `encrypted` (a raw key) and `plain`. Root only.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FscryptMount {
  /** A scratch folder outside the mount (HOME for the CLI, the image, the key). */
  work: string;
  encrypted: string;
  plain: string;
  cleanup(): void;
}

/** directIo false: the loop reads its image through the host's page cache, a disk far faster than
 *  any software cipher (the ciphertext just written is still there). */
export function mountFscrypt(opts: { sizeMiB?: number; directIo?: boolean } = {}): FscryptMount {
  const sizeMiB = opts.sizeMiB ?? 256;
  const work = mkdtempSync(path.join(os.tmpdir(), 'dd-encrypted-'));
  const env = { ...process.env, FSCRYPT_CONF: path.join(work, 'fscrypt.conf') };
  const img = path.join(work, 'ext4.img');
  const mnt = path.join(work, 'mnt');
  let loop: string | undefined;
  const cleanup = (): void => {
    execFileSync('sh', ['-c', `umount ${mnt} 2>/dev/null; true`]);
    if (loop) execFileSync('losetup', ['-d', loop]);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    execFileSync('truncate', ['-s', `${sizeMiB}M`, img]);
    loop = execFileSync('losetup', ['--find', ...(opts.directIo === false ? [] : ['--direct-io=on']), '--show', img], {
      encoding: 'utf8',
    }).trim();
    execFileSync('mkfs.ext4', ['-q', '-O', 'encrypt', loop]);
    mkdirSync(mnt);
    execFileSync('mount', [loop, mnt]);
    // Raw-key protectors only: no passphrase hashing cost to calibrate (10 s of CPU otherwise).
    execFileSync('fscrypt', ['setup', '--force', '--quiet', '--time=1ms'], { env });
    execFileSync('fscrypt', ['setup', mnt, '--quiet'], { env });
    const encrypted = path.join(mnt, 'encrypted');
    const plain = path.join(mnt, 'plain');
    mkdirSync(encrypted);
    mkdirSync(plain, { mode: 0o1777 });
    const key = path.join(work, 'key');
    writeFileSync(key, randomBytes(32), { mode: 0o600 });
    execFileSync('fscrypt', ['encrypt', encrypted, '--source=raw_key', '--name=t', `--key=${key}`, '--quiet'], { env });
    return { work, encrypted, plain, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}
