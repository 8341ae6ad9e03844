// A test on an encrypted folder says whether the cipher is the limit: `diskdial run` on an
// fscrypt-encrypted folder of a real ext4 (-O encrypt, on a loop device) measures the cipher
// ceiling in the same run and adds the verdict as an info flag naming the kernel's AES driver
// (/proc/crypto). An unencrypted folder beside it gets neither. Root only.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';
import { rootOnly } from '../../helpers/loopfs.js';
import { mountFscrypt, type FscryptMount } from '../../helpers/fscrypt.js';

/** The driver this kernel picks for xts(aes): the highest priority entry of /proc/crypto. */
function kernelXtsDriver(): string | undefined {
  const entries = readFileSync('/proc/crypto', 'utf8').split('\n\n');
  const xts = entries
    .filter((e) => /^name\s+: xts\(aes\)$/m.test(e))
    .map((e) => ({ driver: /^driver\s+: (.+)$/m.exec(e)?.[1], priority: Number(/^priority\s+: (\d+)$/m.exec(e)?.[1] ?? 0) }))
    .sort((a, b) => b.priority - a.priority);
  return xts[0]?.driver;
}

describe.runIf(rootOnly())('a test on an fscrypt-encrypted folder', () => {
  let fs: FscryptMount;

  beforeAll(() => {
    buildCoreIfChanged();
    fs = mountFscrypt();
  }, 60_000);

  afterAll(() => fs?.cleanup());

  const run = (dir: string): ResultDocument => {
    const r = runCli(['run', dir, '--test', 'seq-write', '--size', '16MiB', '--no-save', '--json'], {
      cwd: fs.work,
      home: fs.work,
      timeout: 120_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout) as ResultDocument;
  };

  it('measures the cipher in the same run and says what it means for these figures', () => {
    const doc = run(fs.encrypted);
    expect(doc.target.encryption).toMatchObject({ kind: 'fscrypt' });
    expect(doc.cipher!.xts!.oneCore.mbps).toBeGreaterThan(0);
    const flag = doc.flags.find((f) => f.code === 'encrypted-target')!;
    expect(flag.severity).toBe('info');
    // The kernel's own driver for xts(aes), as /proc/crypto lists it, and its AES in words.
    expect(doc.cipher!.kernel!.driver).toBe(kernelXtsDriver());
    expect(flag.message).toContain(`(${doc.cipher!.kernel!.aes})`);
    expect(flag.message).toContain(doc.cipher!.kernel!.meaning);
    expect(flag.message).toMatch(/[\d,.]+ MB\/s write/);
    expect(flag.fix.length).toBeGreaterThan(20);
  });

  it('says nothing of encryption for the unencrypted folder beside it', () => {
    const doc = run(fs.plain);
    expect(doc.target.encryption).toBeUndefined();
    expect(doc.cipher).toBeUndefined();
    expect(doc.flags.map((f) => f.code)).not.toContain('encrypted-target');
  });
});
