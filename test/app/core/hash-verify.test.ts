// Verifying digests: pasted hex in its usual dresses, checksum files as sha256sum, shasum --tag
// and openssl dgst write them, the algorithm from the digest's length, and plain-words refusals.
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseAlgo, resolveExpected, verification } from '../../../app/src/core/hash-verify.js';
import { algoOfHex, parseChecksumFile, parsePastedDigest } from '../../../app/src/model/digest.js';
import { hashVerdict } from '../../../app/src/model/kinds/hash.js';

// FIPS 180-2 "abc".
const ABC256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const ABC512 =
  'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f';

let dir: string;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-verify-'));
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('pasted digests', () => {
  it('accepts hex in upper or lower case, grouped with spaces or colons, labelled or not', () => {
    expect(parsePastedDigest(ABC256)).toEqual({ hex: ABC256, algo: 'sha256' });
    expect(parsePastedDigest(`  ${ABC256.toUpperCase()}\n`)).toEqual({ hex: ABC256, algo: 'sha256' });
    expect(parsePastedDigest(`sha256:${ABC256}`)).toEqual({ hex: ABC256, algo: 'sha256' });
    expect(parsePastedDigest(`SHA-512: ${ABC512}`)).toEqual({ hex: ABC512, algo: 'sha512' });
    expect(parsePastedDigest(ABC256.match(/.{8}/g)!.join(' '))).toEqual({ hex: ABC256, algo: 'sha256' });
    expect(parsePastedDigest(ABC256.match(/../g)!.join(':'))).toEqual({ hex: ABC256, algo: 'sha256' });
    // A line copied from sha256sum's output or shasum --tag: its digest.
    expect(parsePastedDigest(`${ABC256}  debian-13.iso`)).toEqual({ hex: ABC256, algo: 'sha256' });
    expect(parsePastedDigest(`SHA512 (debian-13.iso) = ${ABC512}`)).toEqual({ hex: ABC512, algo: 'sha512' });
  });
  it('refuses other lengths and non-hex', () => {
    expect(parsePastedDigest(ABC256.slice(1))).toBeUndefined();
    expect(parsePastedDigest(`${ABC256.slice(1)}g`)).toBeUndefined();
    expect(parsePastedDigest('d41d8cd98f00b204e9800998ecf8427e')).toBeUndefined(); // MD5: 32 digits
    expect(parsePastedDigest('/home/me/SHA256SUMS')).toBeUndefined();
    expect(algoOfHex('a'.repeat(64))).toBe('sha256');
    expect(algoOfHex('a'.repeat(128))).toBe('sha512');
    expect(algoOfHex('a'.repeat(96))).toBeUndefined(); // SHA-384 is not offered
  });
});

describe('checksum files', () => {
  it('reads GNU (text and binary mode), BSD/shasum --tag and OpenSSL 3 dgst lines; skips the rest', () => {
    const text = [
      '# made by hand',
      `${ABC256}  abc.txt`,
      `${ABC512} *abc binary.bin`,
      `SHA256 (other file.iso) = ${ABC256}`,
      `SHA2-512(x.tar)= ${ABC512}`,
      'not a digest line',
      `${'0'.repeat(40)}  sha1.txt`, // SHA-1: not ours
      '',
    ].join('\r\n');
    expect(parseChecksumFile(text)).toEqual([
      { hex: ABC256, algo: 'sha256', name: 'abc.txt' },
      { hex: ABC512, algo: 'sha512', name: 'abc binary.bin' },
      { hex: ABC256, algo: 'sha256', name: 'other file.iso' },
      { hex: ABC512, algo: 'sha512', name: 'x.tar' },
    ]);
    expect(parseChecksumFile(`\\${ABC256}  new\\nline.txt`)).toEqual([{ hex: ABC256, algo: 'sha256', name: 'new\nline.txt' }]);
    expect(parseChecksumFile(ABC256)).toEqual([{ hex: ABC256, algo: 'sha256' }]);
  });

  it('finds the line for the file by name, in what sha256sum itself wrote', async () => {
    const file = path.join(dir, 'abc.txt');
    await fsp.writeFile(file, 'abc');
    const { execFileSync } = await import('node:child_process');
    const sums = path.join(dir, 'SHA256SUMS');
    await fsp.writeFile(sums, `${ABC512}  elsewhere.bin\n${execFileSync('sha256sum', ['abc.txt'], { cwd: dir, encoding: 'utf8' })}`);
    expect(await resolveExpected(sums, file)).toEqual({ hex: ABC256, algo: 'sha256', source: sums });
    // A download's one-line "file.iso.sha256" holding only the digest.
    const bare = path.join(dir, 'abc.txt.sha512');
    await fsp.writeFile(bare, `${ABC512}\n`);
    expect(await resolveExpected(bare, file)).toEqual({ hex: ABC512, algo: 'sha512', source: bare });
    expect(await resolveExpected(`  ${ABC256} `, file)).toEqual({ hex: ABC256, algo: 'sha256', source: 'pasted' });
  });

  it('says plainly what is wrong', async () => {
    const file = path.join(dir, 'mine.iso');
    const sums = path.join(dir, 'SUMS');
    await fsp.writeFile(sums, `${ABC256}  a.iso\n${ABC256}  b.iso\n`);
    // The file's other lines are never echoed back (a page could point this at any file).
    expect(((await resolveExpected(sums, file).catch((e: unknown) => e)) as Error).message).toBe(`${sums} has no line for mine.iso`);
    await expect(resolveExpected('12345', file)).rejects.toMatchObject({
      category: 'input',
      message:
        '"12345" is neither a SHA-256 or SHA-512 digest (64 or 128 hex digits) nor a checksum file that can be read. Paste the digest itself, or give the path of a readable checksum file.',
    });
    await expect(resolveExpected(dir, file)).rejects.toThrow(/is a folder, not a checksum file\./);
    // A FIFO named as the checksum file is refused at once, not waited on.
    const fifo = path.join(dir, 'fifo.sha256');
    execFileSync('mkfifo', [fifo]);
    await expect(resolveExpected(fifo, file)).rejects.toThrow(
      /is not a regular file \(a pipe, a device or a socket\), so it cannot be a checksum file/,
    );
    const empty = path.join(dir, 'empty.txt');
    await fsp.writeFile(empty, 'nothing here\n');
    await expect(resolveExpected(empty, file)).rejects.toThrow(/holds no SHA-256 or SHA-512 digest/);
  });
});

describe('algorithm and verdicts', () => {
  it('chooses the algorithm: asked, else the digest’s, else SHA-256; refuses a mismatch', () => {
    const e512 = { hex: ABC512, algo: 'sha512' as const, source: 'pasted' };
    expect(chooseAlgo(undefined, undefined)).toBe('sha256');
    expect(chooseAlgo(undefined, e512)).toBe('sha512');
    expect(chooseAlgo('sha512', e512)).toBe('sha512');
    expect(() => chooseAlgo('sha256', e512)).toThrow(
      'The expected digest is SHA-512 (128 hex digits) but SHA-256 was asked for; choose SHA-512.',
    );
  });

  it('verification says match or mismatch, and where the digest came from', () => {
    expect(verification({ hex: ABC256, algo: 'sha256', source: '/d/SHA256SUMS' }, ABC256.toUpperCase(), 'sha256')).toEqual({
      expected: ABC256,
      source: '/d/SHA256SUMS',
      match: true,
      text: 'Matches the SHA-256 in SHA256SUMS.',
    });
    const bad = verification({ hex: ABC256, algo: 'sha256', source: 'pasted' }, '0'.repeat(64), 'sha256');
    expect(bad.match).toBe(false);
    expect(bad.text).toBe('Does NOT match the SHA-256 you gave: the file differs from the one that digest was made from.');
  });

  it('hashVerdict: the bottleneck within 15 % of read + hash, with the factor and the pipeline’s efficiency', () => {
    const r = (mbps: number) => ({ bytes: 1e9, seconds: 1e9 / mbps / 1e6, mbps });
    // The published Thunderbolt 5 case: read 6.5 GB/s, SHA-256 2.6 GB/s.
    const cpu = hashVerdict(r(6500), r(2550), r(2600), 'sha256');
    expect(cpu).toMatchObject({ bound: 'cpu' });
    expect(cpu.factor).toBeCloseTo(2.5, 9);
    expect(cpu.efficiency).toBeCloseTo(2550 / 2600, 9);
    expect(cpu.text).toBe(
      'CPU-bound: read + hash at 2,550 MB/s is within 2 % of SHA-256 in memory on one core (2,600 MB/s); reading alone 6,500 MB/s (2.5×).',
    );
    const storage = hashVerdict(r(480), r(470), r(1900), 'sha512');
    expect(storage).toMatchObject({ bound: 'storage' });
    expect(storage.text).toBe(
      'Storage-bound: read + hash at 470 MB/s is within 2 % of reading alone (480 MB/s); SHA-512 in memory on one core 1,900 MB/s (4.0×).',
    );
    // Read + hash 15 % below both: neither reached, so neither is named.
    expect(hashVerdict(r(2000), r(1700), r(2100), 'sha256')).toMatchObject({ bound: 'none' });
    expect(hashVerdict(r(100), r(99), r(5000), 'sha256').text).toMatch(/^Storage-bound: .*5,000 MB\/s \(51×\)\.$/);
  });
});
