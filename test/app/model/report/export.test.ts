import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { compareResults } from '../../../../app/src/model/report/compare.js';
import { cdmLine, exportFilename, renderExport } from '../../../../app/src/model/report/export.js';
import { parseCsv } from '../../../helpers/csv.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
const KINDS = ['quick', 'cdm', 'sustained', 'files', 'hash'] as const;
function load(kind: string): ResultDocument {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;
}

const EVIL = '<script>alert(1)</script> & "x"';

/** The fixtures' quick result and a copy 10 % slower on writes, labelled as asked. */
function pair(label = 'Encrypted'): ResultDocument[] {
  const a = load('quick');
  a.label = 'Plain';
  const b = structuredClone(a);
  b.id = 'enc-1';
  b.label = label;
  b.startedAt = '2026-12-03T09:00:00.000Z';
  b.tests.forEach((t, i) => {
    if (t.rw === 'write') t.mbps *= 0.9 * (1 + 0.003 * ((i % 3) - 1));
  });
  return [a, b];
}

/** Table rows of a Markdown text: lines starting with '|', split on unescaped '|'. */
function mdTables(md: string): string[][][] {
  const tables: string[][][] = [];
  let cur: string[][] | undefined;
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) {
      const cells = line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      if (!cur) tables.push((cur = []));
      cur.push(cells);
    } else cur = undefined;
  }
  return tables;
}

describe('file names and types', () => {
  it('names one result by kind and day, several by count and the newest day', () => {
    expect(renderExport([load('quick')], 'md')).toMatchObject({
      filename: 'diskdial-quick-2026-11-22.md',
      mime: 'text/markdown;charset=utf-8',
    });
    expect(renderExport([load('cdm')], 'txt')).toMatchObject({ filename: 'diskdial-cdm-2026-11-22.txt', mime: 'text/plain;charset=utf-8' });
    expect(renderExport([load('hash')], 'csv')).toMatchObject({ filename: 'diskdial-hash-2026-11-22.csv', mime: 'text/csv;charset=utf-8' });
    expect(renderExport([load('files')], 'json')).toMatchObject({
      filename: 'diskdial-files-2026-11-22.json',
      mime: 'application/json;charset=utf-8',
    });
    expect(renderExport(pair(), 'html')).toMatchObject({
      filename: 'diskdial-compare-2-results-2026-12-03.html',
      mime: 'text/html;charset=utf-8',
    });
    const odd = load('quick');
    odd.kind = '../weird kind';
    expect(exportFilename([odd], 'md')).toBe('diskdial-weird-kind-2026-11-22.md');
  });

  it('refuses an empty list', () => {
    expect(() => renderExport([], 'md')).toThrow(RangeError);
  });
});

describe('Markdown', () => {
  it('gives one result a title, context lines and a well-formed table', () => {
    const md = renderExport([load('quick')], 'md').text;
    expect(md.startsWith('## Boot disk — Quick Test · 1 GiB · 3 runs\n')).toBe(true);
    expect(md).toContain('**Drive:** virtio (virtual disk) · ext4 · 271 GB');
    expect(md).toContain('**Method:** uncached (direct I/O) · random data · writes flushed\n');
    expect(md).toContain('Runs: 3.');
    expect(md.trimEnd().endsWith('Measured with DiskDial 0.1.0 (engine 0.3.0)')).toBe(true);
    const [table] = mdTables(md);
    expect(table?.[0]).toEqual(['Test', 'MB/s', 'IOPS', 'Mean latency (µs)', 'p99 latency (µs)']);
    // Write runs: 1763.56, 1816.13, 1725.91 → mean 1,769 ± 45
    expect(table?.[2]?.[0]).toBe('Write');
    expect(table?.[2]?.[1]).toBe('1,769 ± 45');
    expect(table?.[3]?.[1]).toBe('1,450 ± 87');
  });

  it('keeps every table row as wide as its header, for every kind and a comparison', () => {
    const texts = [...KINDS.map((k) => renderExport([load(k)], 'md').text), renderExport(pair('Pipe | label'), 'md').text];
    for (const md of texts) {
      const tables = mdTables(md);
      expect(tables.length).toBeGreaterThan(0);
      for (const t of tables) {
        const width = t[0]?.length;
        expect(t[1]?.every((c) => /^-+:?$/.test(c))).toBe(true);
        for (const row of t) expect(row).toHaveLength(width!);
      }
    }
  });

  it('shows the kind-specific figures', () => {
    const cdm = renderExport([load('cdm')], 'md').text;
    expect(cdm).toContain('| SEQ1M Q8T1 Read | 1,648 ± 30 |');
    const sus = renderExport([load('sustained')], 'md').text;
    expect(sus).toContain('No slowdown within 2 GB: 2,936 MB/s throughout');
    expect(sus).toContain('| Sustained write · average | 2,640 MB/s |');
    const files = renderExport([load('files')], 'md').text;
    expect(files).toContain('| Write | 24 | 1.36 GB | 1,739 |');
    const hash = renderExport([load('hash')], 'md').text;
    expect(hash).toContain('`e32fd5da63f182bc8c5d8e425ee7730dcf7f0620f580c9de5947a364622758c3`');
    expect(hash).toContain('| Read (uncached) | 2,218 |');
    expect(hash).toContain('CPU-bound by 1.2×');
    expect(hash).toContain('- ℹ The file is small');
  });

  it('lists flags with their marks', () => {
    const doc = load('quick');
    doc.flags = [
      { code: 'over-ceiling', message: 'Read is above the link.', fix: 'Check the cable.' },
      { code: 'small', message: 'Small test.', fix: '', severity: 'info' },
    ];
    const md = renderExport([doc], 'md').text;
    expect(md).toContain('- ⚠ Read is above the link. Check the cable.');
    expect(md).toContain('- ℹ Small test.');
  });

  it('compares several: changes with their intervals, inconclusive marks, findings, warnings and the rule', () => {
    const docs = pair('Pipe | label');
    const md = renderExport(docs, 'md').text;
    const [head] = mdTables(md);
    expect(head?.[0]).toEqual(['Metric', 'Plain (baseline)', 'Pipe \\| label']);
    const write = head?.find((r) => r[0] === 'Write (MB/s)');
    expect(write?.[1]).toBe('1,769 ± 45');
    expect(write?.[2]).toMatch(/^1,59\d ± \d+ \(−10 %\)$/);
    // Equal reads whose runs spread 6 %: inconclusive, marked with a question, not as the same.
    expect(head?.find((r) => r[0] === 'Read (MB/s)')?.[2]).toBe('1,450 ± 87 (0 %?)');
    expect(md).toMatch(/- Pipe \| label \(vs Plain, 3 runs each\): Write −10 %, CI −1\d to −[3-5](\.\d)? %/);
    expect(md).toContain("_Rule: Each change is the ratio of the runs' geometric means");
    // Baseline by id.
    const md2 = renderExport(docs, 'md', { baseline: 'enc-1' }).text;
    expect(mdTables(md2)[0]?.[0]).toEqual(['Metric', 'Plain', 'Pipe \\| label (baseline)']);
    expect(md2).toContain('(+11 %)');
    // Mixed kinds warn.
    expect(renderExport([load('quick'), load('cdm')], 'md').text).toContain(
      '- ⚠ These results are different tests (Quick Test, CrystalDiskMark grid)',
    );
  });

  it('keeps a label from opening an HTML tag', () => {
    const doc = load('quick');
    doc.label = EVIL;
    const md = renderExport([doc], 'md').text;
    expect(md).not.toMatch(/(?<!\\)<script>/);
    expect(md).toContain('\\<script>alert(1)\\</script> & "x"');
  });
});

describe('CrystalDiskMark-style text', () => {
  it('prints the grid in CrystalDiskMark 8 layout, best run per test', () => {
    const txt = renderExport([load('cdm')], 'txt').text;
    const lines = txt.split('\n');
    expect(lines[0]).toBe('-'.repeat(78));
    expect(lines[1]).toBe('DiskDial 0.1.0 (engine 0.2.0)');
    expect(txt).toContain('* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]');
    const read = lines.indexOf('[Read]');
    const write = lines.indexOf('[Write]');
    expect(read).toBeGreaterThan(0);
    expect(write).toBeGreaterThan(read);
    // Best of the two runs: 1669.666 (run 1) over 1627.163.
    expect(lines[read + 1]).toBe('  SEQ    1MiB (Q=  8, T= 1):  1669.666 MB/s [   1592.3 IOPS] <  4994.46 us>');
    expect(lines[read + 3]).toBe('  RND    4KiB (Q= 32, T= 1):   471.967 MB/s [ 115226.3 IOPS] <   234.57 us>');
    // RND4K Q1T1 Write: run 2 (62.489) beats run 1 (56.411).
    expect(lines[write + 4]).toBe('  RND    4KiB (Q=  1, T= 1):    62.489 MB/s [  15256.1 IOPS] <    65.19 us>');
    const cdmRe = /^ {2}(SEQ|RND) +\d+(MiB|KiB) \(Q= *\d+, T= *\d+\): +\d+\.\d{3} MB\/s \[ *\d+\.\d IOPS\] < *\d+\.\d{2} us>$/;
    expect(lines.filter((l) => cdmRe.test(l))).toHaveLength(8);
    expect(txt).toContain('Profile: Default');
    expect(txt).toContain('   Test: 64 MiB (x2) [/ ');
    expect(txt).toContain('   Date: 2026/11/22 0:21:50 UTC');
    expect(txt).toContain('     OS: Debian GNU/Linux 12 (bookworm)');
  });

  it('formats a line like CrystalDiskMark', () => {
    expect(
      cdmLine({ rw: 'randread', bs: 4096, qd: 32, threads: 16, mbps: 2046.5061, iops: 499635.31, latencyUs: { mean: 1022.254 } }),
    ).toBe('  RND    4KiB (Q= 32, T=16):  2046.506 MB/s [ 499635.3 IOPS] <  1022.25 us>');
    expect(cdmLine({ rw: 'read', bs: 128 * 1024, qd: 32, threads: 1, mbps: 3444.932, iops: 26282.7, latencyUs: { mean: 1216.04 } })).toBe(
      '  SEQ  128KiB (Q= 32, T= 1):  3444.932 MB/s [  26282.7 IOPS] <  1216.04 us>',
    );
  });

  it('uses the same look for the other kinds', () => {
    const quick = renderExport([load('quick')], 'txt').text;
    expect(quick.indexOf('[Write]')).toBeLessThan(quick.indexOf('[Read]'));
    expect(quick).toContain('  SEQ    1MiB (Q=  8, T= 1):  1816.129 MB/s');
    expect(quick).toContain('Comment: Boot disk');
    const sus = renderExport([load('sustained')], 'txt').text;
    expect(sus).toContain('[Sustained write]');
    expect(sus).toMatch(/Average: +2639\.677 MB\/s/);
    expect(sus).toContain('No slowdown within 2 GB');
    const files = renderExport([load('files')], 'txt').text;
    expect(files).toMatch(/Write +: +1738\.520 MB\/s aggregate \(24 files/);
    expect(files).toMatch(/Read fit +: +1434\.461 MB\/s \+ 0\.89 ms per file/);
    const hash = renderExport([load('hash')], 'txt').text;
    expect(hash).toMatch(/Read \(uncached\) +: +2217\.805 MB\/s/);
    expect(hash).toMatch(/SHA-256 in memory, 2 cores: +3506\.277 MB\/s/);
    expect(hash).toContain('e32fd5da63f182bc8c5d8e425ee7730dcf7f0620f580c9de5947a364622758c3');
  });

  it('puts one block per result and a fixed-width comparison', () => {
    const txt = renderExport(pair(), 'txt').text;
    expect(txt.match(/^=== /gm)).toHaveLength(2);
    expect(txt).toContain('=== Plain (baseline) — Quick Test · 1 GiB · 3 runs ===');
    expect(txt).toContain('[Comparison]');
    const lines = txt.split('\n');
    const head = lines.find((l) => l.startsWith('  Metric'))!;
    const write = lines.find((l) => l.startsWith('  Write (MB/s)'))!;
    expect(write.length).toBe(head.length);
    expect(write).toContain('(−10 %)');
    expect(txt).toContain("Rule: Each change is the ratio of the runs' geometric means");
  });
});

describe('CSV', () => {
  it('writes RFC 4180 with one row per test per run, and reads back exactly', () => {
    for (const kind of ['quick', 'cdm', 'sustained'] as const) {
      const doc = load(kind);
      const text = renderExport([doc], 'csv').text;
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
      const rows = parseCsv(text);
      const head = rows[0]!;
      expect(head.join(',')).toBe(
        'result_id,label,kind,started_at,drive,volume,fs,cache_mode,data_pattern,test,run,rw,block_bytes,queue_depth,threads,bytes,seconds,mbps,iops,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_p999_us,lat_max_us,mbps_ci95,settled,format,resolution,fps,needs_mbps,write_ok,read_ok,write_fps,read_fps,decided_by,averaged_sizes,share_verdict,server_memory_mbps,server_disk_read_mbps,small_file_verdict,small_file_ms,rtt_ms',
      );
      const col = (name: string): number => head.indexOf(name);
      // A Quick Test's "Will it work?" rows are checked in video-export.test.ts.
      const body = rows.slice(1).filter((r) => r[col('test')] !== 'will it work');
      expect(body).toHaveLength(doc.tests.length);
      for (const t of doc.tests) {
        const r = body.find((x) => x[col('test')] === t.name && Number(x[col('run')]) === t.run)!;
        expect(Math.abs(Number(r[col('mbps')]) - t.mbps) / t.mbps).toBeLessThan(1e-6);
        expect(Number(r[col('iops')])).toBeCloseTo(t.iops, 6);
        expect(Number(r[col('lat_p99_us')])).toBe(t.latencyUs.p99);
        expect(Number(r[col('block_bytes')])).toBe(t.bs);
        expect(r[col('kind')]).toBe(kind);
        expect(r[col('cache_mode')]).toBe('direct');
        for (const cell of r) expect(cell).not.toMatch(/^\d{1,3}(,\d{3})+/);
      }
    }
  });

  it('writes the hash stages and the per-file figures', () => {
    const hash = parseCsv(renderExport([load('hash')], 'csv').text);
    const head = hash[0]!;
    const tests = hash.slice(1).map((r) => r[head.indexOf('test')]);
    expect(tests).toEqual(['read', 'read+hash', 'memory', 'memory-parallel']);
    expect(Number(hash[1]![head.indexOf('mbps')])).toBeCloseTo(2217.8054689609385, 9);
    expect(hash[1]![head.indexOf('lat_mean_us')]).toBe('');
    const doc = load('files');
    const files = parseCsv(renderExport([doc], 'csv').text);
    const t = files[0]!.indexOf('test');
    const item = doc.files!.runs[0]!.items[0]!;
    const row = files.find((r) => r[t] === `file ${item.name} read`)!;
    expect(Number(row[files[0]!.indexOf('mbps')])).toBeCloseTo(item.read!.mbps, 9);
    expect(Number(row[files[0]!.indexOf('bytes')])).toBe(item.bytes);
    // Two test rows plus a write and a read row per file.
    expect(files.length - 1).toBe(2 + 2 * doc.files!.runs[0]!.items.length);
  });

  it('quotes what needs quoting and guards text against formulas', () => {
    const doc = load('quick');
    doc.label = '=HYPERLINK("http://x","y"), and more';
    const rows = parseCsv(renderExport([doc], 'csv').text);
    const label = rows[1]![rows[0]!.indexOf('label')];
    expect(label).toBe(`'=HYPERLINK("http://x","y"), and more`);
    for (const bad of ['+1', '-1', '@SUM(A1)']) {
      doc.label = bad;
      expect(parseCsv(renderExport([doc], 'csv').text)[1]![1]).toBe(`'${bad}`);
    }
    doc.label = 'line one\nline two';
    expect(parseCsv(renderExport([doc], 'csv').text)[1]![1]).toBe('line one\nline two');
  });

  it('puts several results under one header', () => {
    const docs = [load('quick'), load('cdm'), load('hash')];
    const rows = parseCsv(renderExport(docs, 'csv').text);
    expect(rows.filter((r) => r[0] === 'result_id')).toHaveLength(1);
    expect(rows.filter((r) => r[9] !== 'will it work').length - 1).toBe(6 + 16 + 4);
  });
});

describe('JSON', () => {
  it('round-trips one result exactly', () => {
    for (const kind of KINDS) {
      const doc = load(kind);
      const text = renderExport([doc], 'json').text;
      // A Quick Test gains its derived "Will it work?" verdicts (video-export.test.ts); the rest is the document.
      const { willItWork, ...rest } = JSON.parse(text) as ResultDocument & { willItWork?: unknown };
      expect(willItWork === undefined, kind).toBe(kind !== 'quick');
      expect(text).toBe(JSON.stringify({ ...doc, ...(willItWork ? { willItWork } : {}) }, null, 2) + '\n');
      expect(rest).toEqual(doc);
    }
  });

  it('wraps several results with their comparison', () => {
    const docs = pair();
    const parsed = JSON.parse(renderExport(docs, 'json', { baseline: 'enc-1' }).text);
    expect(parsed.format).toBe('diskdial-comparison');
    expect(parsed.schema).toBe(1);
    expect(parsed.results.map(({ willItWork: _, ...d }: { willItWork?: unknown }) => d)).toEqual(docs);
    expect(parsed.comparison).toEqual(JSON.parse(JSON.stringify(compareResults(docs, { baseline: 'enc-1' }))));
    expect(parsed.comparison.baseline).toBe(1);
  });
});

describe('HTML', () => {
  const pages = (): string[] => [...KINDS.map((k) => renderExport([load(k)], 'html').text), renderExport(pair(), 'html').text];

  it('is one self-contained page with no external references and no script', () => {
    for (const html of pages()) {
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html).toContain('<style>');
      expect(html).toContain('@media print');
      expect(html).not.toMatch(/https?:/i);
      expect(html).not.toContain('//');
      expect(html).not.toMatch(/\bsrc\s*=/i);
      expect(html).not.toMatch(/\bhref\s*=\s*["']?(?!#)/i);
      expect(html).not.toMatch(/<script|<link|<img|<iframe|url\(|@import/i);
      expect(html).toContain('<svg');
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
    }
  });

  it('escapes every text', () => {
    const doc = load('quick');
    doc.label = EVIL;
    doc.flags = [{ code: 'x', message: 'a <b> flag', fix: 'fix "it"' }];
    const html = renderExport([doc], 'html').text;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;&#47;script&gt; &amp; &quot;x&quot;');
    const [a, b] = pair(EVIL);
    const many = renderExport([a!, b!], 'html').text;
    expect(many).not.toContain('<script>');
    expect(many).toContain('&lt;script&gt;alert(1)');
  });

  it('shows the figures, the chart and the findings', () => {
    const one = renderExport([load('cdm')], 'html').text;
    expect(one).toContain('<td class="num">1,648 ± 30</td>');
    expect(one).toMatch(/<rect [^>]*fill="#2f5d8a"/);
    expect(one.match(/<rect /g)).toHaveLength(8);
    const html = renderExport(pair(), 'html').text;
    expect(html).toContain('1,769 ± 45');
    expect(html).toMatch(/<td class="num worse">1,59\d ± \d+ \(−10 %\)<\/td>/);
    expect(html).toContain('<td class="num inconclusive">1,450 ± 87 (0 %?)</td>');
    expect(html).toMatch(/Encrypted \(vs Plain, 3 runs each\): Write −10 %, CI −1\d to −[3-5](\.\d)? %/);
    expect(html).toContain('Each change is the ratio of the runs&#39; geometric means');
    expect(html).toContain('<footer>Measured with DiskDial 0.1.0 (engine 0.3.0)</footer>');
  });

  it('draws the interface ceiling when it fits the scale', () => {
    const [a, b] = pair();
    a!.target.device.linkInfo = { kind: 'usb', label: 'USB 3.2 Gen 2 (10 Gb/s)', ceilingMBps: 2000, source: 'sysfs' };
    const html = renderExport([a!, b!], 'html').text;
    expect(html).toContain('stroke-dasharray');
    expect(html).toContain('interface ceiling 2,000 MB&#47;s');
    a!.target.device.linkInfo.ceilingMBps = 40000;
    expect(renderExport([a!, b!], 'html').text).not.toContain('interface ceiling');
  });
});

describe('control characters from an imported result', () => {
  // A label as an imported file can carry it (saved files are not cleaned), and a model name too:
  // colour, clear screen, a window title (OSC), the one-byte CSI, a bell and a NUL.
  const HOSTILE = '\x1b[2J\x1b[31mRed\x1b[0m \x1b]0;pwned\x07\x9b6nname\x07\x00';
  // eslint-disable-next-line no-control-regex -- the test looks for control characters
  const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

  function hostile(kind: string): ResultDocument {
    const doc = load(kind);
    doc.label = HOSTILE;
    doc.target.device.model = `Disk${HOSTILE}`;
    doc.flags = [...doc.flags, { code: 'x', severity: 'warning', message: `Flag${HOSTILE}`, fix: HOSTILE }];
    return doc;
  }

  for (const format of ['md', 'txt', 'csv', 'html'] as const) {
    it(`${format}: no control character reaches the file, one result or several`, () => {
      for (const kind of KINDS) {
        const one = renderExport([hostile(kind)], format).text;
        expect(one, `${format} ${kind}`).not.toMatch(CONTROL);
        expect(one).toContain('Red');
      }
      const b = hostile('cdm');
      b.id = 'other';
      const many = renderExport([hostile('quick'), b], format).text;
      expect(many).not.toMatch(CONTROL);
    });
  }

  it('json keeps the document as it is: JSON escapes control characters itself', () => {
    const text = renderExport([hostile('quick')], 'json').text;
    expect(text).not.toMatch(CONTROL);
    expect((JSON.parse(text) as ResultDocument).label).toBe(HOSTILE);
  });

  it("the text and Markdown show the words, without the escapes' leftovers", () => {
    const txt = renderExport([hostile('quick')], 'txt').text;
    expect(txt).toContain('Comment: Red name');
    const md = renderExport([hostile('quick')], 'md').text;
    expect(md).toContain('## Red name — ');
  });
});
