import { describe, expect, it } from 'vitest';
import {
  diffManifest,
  escapeName,
  formatManifest,
  isInsideName,
  ManifestError,
  parseManifest,
} from '../../../app/src/model/check-manifest.js';
import { checkBottleneck, checkBound, checkIntegrity, type CheckSection } from '../../../app/src/model/check.js';
import { resultStatements, resultTables } from '../../../app/src/model/report/tables.js';
import type { ResultDocument } from '../../../app/src/model/result.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('checksum manifests', () => {
  it('reads sha256sum lines in text and binary mode, names taken byte for byte after the separator', () => {
    const m = parseManifest(`${A}  plain.txt\n${B} *binary.bin\n${A}   lead space\n${B}  trail space \n${A}  ./dot/slash\n`);
    expect(m.algo).toBe('sha256');
    expect(m.format).toBe('gnu');
    expect(m.entries).toEqual([
      { name: 'plain.txt', hex: A },
      { name: 'binary.bin', hex: B },
      { name: ' lead space', hex: A },
      { name: 'trail space ', hex: B },
      { name: 'dot/slash', hex: A },
    ]);
    expect(m.badLines).toEqual([]);
  });

  it('unescapes names as coreutils 9 escapes them (\\\\, \\n, \\r on a line starting with a backslash)', () => {
    const m = parseManifest(`\\${A}  a\\nb\\\\c\\rd\n${B}  not\\nescaped\n`);
    expect(m.entries.map((e) => e.name)).toEqual(['a\nb\\c\rd', 'not\\nescaped']);
    expect(() => parseManifest(`\\${A}  bad\\q\n`)).toThrow(ManifestError);
  });

  it('tells the algorithm by the digest length: MD5, SHA-256, SHA-512; refuses a mix', () => {
    expect(parseManifest(`${'0'.repeat(32)}  x\n`).algo).toBe('md5');
    expect(parseManifest(`${'0'.repeat(128)} *x\n`).algo).toBe('sha512');
    expect(() => parseManifest(`${'0'.repeat(32)}  x\n${A}  y\n`)).toThrow(/line 2 holds a SHA-256 digest but the lines before it are MD5/);
    expect(() => parseManifest('hello\n')).toThrow(/no SHA-256, SHA-512 or MD5 digest line/);
  });

  it('reads the BSD tag form, and notes lines that are not digest lines', () => {
    const m = parseManifest(`SHA256 (with (parens).txt) = ${A}\r\nSHA256 (x) = ${'0'.repeat(32)}\n# comment\n\ngarbage line\n`);
    expect(m.format).toBe('bsd');
    expect(m.entries).toEqual([{ name: 'with (parens).txt', hex: A }]);
    expect(m.badLines).toEqual([2, 5]);
    expect(parseManifest(`MD5 (f) = ${'1'.repeat(32)}\n`).algo).toBe('md5');
  });

  it('writes sorted sha256sum lines, escaping only names that need it, and reads back what it wrote', () => {
    const entries = [
      { name: 'z', hex: A },
      { name: 'a\nb', hex: B },
      { name: 'back\\slash', hex: A },
      { name: 'größe datei', hex: B },
    ];
    const text = formatManifest(entries);
    expect(text).toBe(`\\${B}  a\\nb\n\\${A}  back\\\\slash\n${B}  größe datei\n${A}  z\n`);
    expect(parseManifest(text).entries).toEqual([...entries].sort((x, y) => (x.name < y.name ? -1 : 1)));
    expect(escapeName('plain')).toEqual({ escaped: false, text: 'plain' });
  });

  it('a file listed twice: the same digest is read once, two digests refuse the manifest as sha256sum -c fails it', () => {
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    expect(parseManifest(`${a}  x\n${a}  ./x\n`).entries).toEqual([{ name: 'x', hex: a }]);
    expect(() => parseManifest(`${a}  x\n${b}  y\n${b}  x\n`)).toThrow(
      'lines 1 and 3 list x with different digests: the manifest contradicts itself',
    );
  });

  it('knows a name inside the folder from one outside it', () => {
    expect(isInsideName('a/b/c')).toBe(true);
    expect(isInsideName('..a/b')).toBe(true);
    expect(isInsideName('../etc/passwd')).toBe(false);
    expect(isInsideName('a/../../b')).toBe(false);
    expect(isInsideName('/etc/passwd')).toBe(false);
    expect(isInsideName('C:\\x')).toBe(false);
  });

  it('diffs a manifest against the folder: unchanged, changed, missing, new', () => {
    const d = diffManifest(
      [
        { name: 'same', hex: A },
        { name: 'edited', hex: A },
        { name: 'gone', hex: A },
      ],
      new Map([
        ['same', A],
        ['edited', B],
        ['fresh', undefined],
      ]),
    );
    expect(d).toEqual({ unchanged: ['same'], changed: ['edited'], missing: ['gone'], added: ['fresh'] });
  });
});

describe('the check in words', () => {
  it('summarises what changed, or that nothing did, from the integrity verdict', () => {
    const zero = { unchanged: 0, changed: 0, missing: 0, added: 0, unreadable: 0, skipped: 0 };
    expect(checkIntegrity({ ...zero, unchanged: 1000 }, 'verify', 1000)).toMatchObject({ ok: true, summary: 'All 1,000 files unchanged.' });
    expect(checkIntegrity({ ...zero, unchanged: 997, changed: 1, missing: 1, added: 1 }, 'verify', 998)).toMatchObject({
      ok: false,
      summary: 'Failed: 1 changed, 1 missing, 1 new; 997 unchanged.',
    });
    expect(checkIntegrity(zero, 'create', 1)).toMatchObject({ ok: true, summary: '1 file hashed; manifest written.' });
  });

  it('names hashing when the rate is within 15 % of the in-memory ceiling, no single limit far below it', () => {
    expect(checkBound(checkBottleneck(900, 1000, 2, 'SHA-256')).bound).toBe('cpu');
    const far = checkBound(checkBottleneck(300, 1000, 2, 'SHA-256'));
    expect(far.bound).toBe('none');
    expect(far.text).toBe(
      'No single limit: read + hashed at 300 MB/s is not within 15 % of any known ceiling — SHA-256 in memory on 2 streams 1,000 MB/s (3.3×).',
    );
  });
});

describe('a saved folder check in reports', () => {
  it('exports its figures as one table and its outcome and verdict in words', () => {
    const check = {
      algo: 'sha256',
      streams: 2,
      files: 10,
      bytes: 5e6,
      mbps: 400,
      filesPerSecond: 800,
      ceilingMBps: 1000,
      summary: '1 changed; 9 unchanged.',
      bound: { bound: 'disk', text: 'Disk-bound: reading was the limit.' },
    } as unknown as CheckSection;
    const doc = { kind: 'check', tests: [], check } as unknown as ResultDocument;
    const [table] = resultTables(doc);
    expect(table!.rows.map((r) => r.map((cell) => (typeof cell === 'string' ? cell : cell.text)))).toEqual([
      ['Read + SHA-256, 2 streams', '400.0 MB/s'],
      ['Files per second', '800.0 files/s'],
      ['SHA-256 in memory, 2 streams', '1,000 MB/s'],
    ]);
    // One stream is one stream, not "1 streams".
    const one = resultTables({ ...doc, check: { ...check, streams: 1 } } as unknown as ResultDocument)[0]!;
    expect(one.rows.map((r) => (typeof r[0] === 'string' ? r[0] : r[0]!.text))).toEqual([
      'Read + SHA-256, 1 stream',
      'Files per second',
      'SHA-256 in memory, 1 stream',
    ]);
    expect(resultStatements(doc)).toEqual([
      { label: 'Result', text: '1 changed; 9 unchanged.' },
      { label: 'Verdict', text: 'Disk-bound: reading was the limit.' },
    ]);
  });
});
