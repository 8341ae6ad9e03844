// `diskdial cipher` as a user runs it: the ceiling table on this machine (the compiled CLI, the
// real engine), the result saved and --json; usage mistakes before anything runs.
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../../app/src/cli/args.js';
import { kernelCipher, parseProcCrypto } from '../../../app/src/core/kernel-cipher.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';

let home: string;
beforeAll(async () => {
  buildCoreIfChanged();
  home = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cipher-cli-'));
});
afterAll(async () => {
  await fsp.rm(home, { recursive: true, force: true });
});

describe('diskdial cipher', () => {
  it('parses its options and refuses the others', () => {
    expect(parseCli(['cipher', '--seconds', '0.5', '--threads', '2', '--json'])).toEqual({
      command: 'cipher',
      seconds: 0.5,
      threads: 2,
      json: true,
    });
    expect(() => parseCli(['cipher', '--size', '1GB'])).toThrow('--size does not apply to diskdial cipher');
    expect(() => parseCli(['cipher', '/media/x'])).toThrow('unexpected argument "/media/x"; cipher measures memory and takes no folder');
    expect(() => parseCli(['cipher', '--threads', '0'])).toThrow(/--threads/);
  });

  it('prints the ceiling table with the kernel driver and saves the result', () => {
    const r = runCli(['cipher', '--seconds', '0.3', '--threads', '2'], { cwd: home, home, timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Cipher ceiling — OpenSSL .* \(libcrypto\), 16 KiB blocks, XTS tweak every 4096 B \(as fscrypt\)$/m);
    expect(r.stdout).toMatch(/^ {2}AES-256-XTS +[\d,.]+ MB\/s on 1 core +[\d,.]+ MB\/s on 2 cores$/m);
    expect(r.stdout).toMatch(/^ {2}AES-256-GCM +[\d,.]+ MB\/s on 1 core +[\d,.]+ MB\/s on 2 cores$/m);
    const k = kernelCipher(parseProcCrypto(readFileSync('/proc/crypto', 'utf8')))!;
    expect(r.stdout).toContain(`  Kernel ${k.name}: ${k.driver} (priority ${k.priority}) — ${k.aes}: ${k.meaning}`);
    expect(r.stdout).toMatch(/^Saved to history as [0-9a-f]{8} /m);
    const listed = runCli(['history'], { cwd: home, home, timeout: 30_000 });
    expect(listed.stdout).toMatch(/Cipher ceiling/);
  });

  it('--json is the saved result document with its cipher section', () => {
    const r = runCli(['cipher', '--seconds', '0.3', '--threads', '1', '--json', '--no-save'], { cwd: home, home, timeout: 60_000 });
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as ResultDocument;
    expect(doc.kind).toBe('cipher');
    expect(doc.cipher).toMatchObject({ blockBytes: 16384, dataUnit: 4096, xts: { oneCore: { threads: 1 }, allCores: { threads: 1 } } });
    expect(doc.cipher!.xts!.oneCore.mbps).toBeGreaterThan(0);
    expect(doc.cipher!.xts!.oneCore.seconds).toBeGreaterThanOrEqual(0.3);
  });
});
