// fscrypt detection's parsers: lsattr's E flag and fscrypt status's policy options.
import { describe, expect, it } from 'vitest';
import { fscryptOf, lsattrEncrypted, parseFscryptStatus } from '../../../app/src/core/fscrypt.js';

describe('fscrypt detection', () => {
  it("reads lsattr's E flag", () => {
    expect(lsattrEncrypted('--------------e-------E-- /mnt/x/encrypted\n')).toBe(true);
    expect(lsattrEncrypted('--------------e---------- /mnt/x/plain\n')).toBe(false);
    expect(lsattrEncrypted('lsattr: Operation not supported While reading flags on /mnt/E\n')).toBe(false);
  });

  it("reads fscrypt status's ciphers and policy version", () => {
    const text = `"/mnt/x/encrypted" is encrypted with fscrypt.\n\nPolicy:   7d0c2b4c0e5c3f1a\nOptions:  padding:32 contents:AES_256_XTS filenames:AES_256_CTS policy_version:2\nUnlocked: Yes\n`;
    expect(parseFscryptStatus(text)).toEqual({ contents: 'AES_256_XTS', filenames: 'AES_256_CTS', policyVersion: 2 });
    expect(parseFscryptStatus('fscrypt status: file or directory "/x" is not encrypted')).toEqual({});
  });

  it('asks fscrypt only about a folder lsattr calls encrypted, and tolerates it failing', async () => {
    const asked: string[][] = [];
    const exec = (out: Record<string, string>) => async (argv: string[]) => {
      asked.push(argv);
      if (!(argv[0]! in out)) throw new Error(`${argv[0]}: not found`);
      return out[argv[0]!]!;
    };
    expect(await fscryptOf('/p', exec({ lsattr: '-------------- /p' }))).toBeUndefined();
    expect(asked).toEqual([['lsattr', '-d', '/p']]);
    expect(await fscryptOf('/e', exec({ lsattr: '----E---- /e' }))).toEqual({ kind: 'fscrypt' });
    expect(await fscryptOf('/e', exec({ lsattr: '----E---- /e', fscrypt: 'Options: contents:AES_256_XTS policy_version:2' }))).toEqual({
      kind: 'fscrypt',
      contents: 'AES_256_XTS',
      policyVersion: 2,
    });
  });
});
