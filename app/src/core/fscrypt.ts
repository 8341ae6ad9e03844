// Is a folder fscrypt-encrypted? lsattr's E flag (FS_ENCRYPT_FL) says so on ext4 and f2fs without
// needing fscrypt's own settings; `fscrypt status` adds the policy's ciphers where it can read them.
import { execFile } from 'node:child_process';
import type { TargetEncryption } from '../model/cipher/types.js';

export type Exec = (argv: string[]) => Promise<string>;

/** A short query's output; a missing tool fails at once (ENOENT), a hung one after 10 s. */
export const execText: Exec = (argv) =>
  new Promise((resolve, reject) =>
    execFile(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: 10_000, env: { ...process.env, LC_ALL: 'C' } }, (err, out) =>
      err ? reject(err) : resolve(out),
    ),
  );

/** `lsattr -d <dir>`'s flags: "----------I--e----E-- /mnt/x" → true when E is among them. */
export function lsattrEncrypted(text: string): boolean {
  const flags = text.trim().split(/\s+/)[0] ?? '';
  return /^[-A-Za-z]+$/.test(flags) && flags.includes('E');
}

/** `fscrypt status <dir>`'s "Options: padding:32 contents:AES_256_XTS filenames:AES_256_CTS policy_version:2". */
export function parseFscryptStatus(text: string): Omit<TargetEncryption, 'kind'> {
  const out: Omit<TargetEncryption, 'kind'> = {};
  const opt = (k: string): string | undefined => new RegExp(`\\b${k}:(\\S+)`).exec(text)?.[1];
  const contents = opt('contents');
  const filenames = opt('filenames');
  const version = opt('policy_version');
  if (contents) out.contents = contents;
  if (filenames) out.filenames = filenames;
  if (version && /^\d+$/.test(version)) out.policyVersion = Number(version);
  return out;
}

/** The folder's fscrypt encryption, or undefined when it is not encrypted (or cannot be told). */
export async function fscryptOf(dir: string, exec: Exec = execText): Promise<TargetEncryption | undefined> {
  const attrs = await exec(['lsattr', '-d', dir]).catch(() => undefined);
  if (attrs === undefined || !lsattrEncrypted(attrs)) return undefined;
  const status = await exec(['fscrypt', 'status', dir]).catch(() => '');
  return { kind: 'fscrypt', ...parseFscryptStatus(status) };
}
