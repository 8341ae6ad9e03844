// Like for like or no finding: a report or a compare of rows measured in different cache modes
// prints the figures and the reason, never a Δ between them; a row that tripped a cache flag is
// never a finding; with the wizard's common-mode pass, the encrypted row is judged against the
// baseline format's own row in its mode, and the report says so. The case is issue 17's: ext4
// uncached at ~1,500/1,800 MB/s, ext4 + fscrypt through the page cache at ~7 % of that.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CacheMode } from '../../../../app/src/model/engine-types.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { compareResults } from '../../../../app/src/model/report/compare.js';
import { buildFormatReport, renderFormatReport } from '../../../../app/src/model/report/format-report.js';
import { renderExport } from '../../../../app/src/model/report/export.js';

const FIXTURE = path.join(import.meta.dirname, '../../..', 'fixtures', 'results', 'quick.json');

function doc(format: string, label: string, o: { mode?: CacheMode; scale?: number; common?: boolean; flag?: string } = {}): ResultDocument {
  const d = JSON.parse(readFileSync(FIXTURE, 'utf8')) as ResultDocument;
  d.id = `p1-${format}${o.common ? '-common' : ''}`;
  delete d.label;
  d.campaign = { planId: 'p1', format, formatLabel: label, ...(o.common ? { pass: 'common' as const } : {}) };
  const mode = o.mode ?? 'direct';
  d.cacheMode = mode;
  d.tests.forEach((t, i) => {
    t.cacheMode = mode;
    t.mbps *= (o.scale ?? 1) * (1 + 0.01 * ((i % 3) - 1));
  });
  if (o.flag) d.flags = [{ code: o.flag, message: `${o.flag} fired`, fix: 'do something' }];
  return d;
}

const ext4 = () => doc('ext4', 'ext4');
const fscrypt = () => doc('ext4-fscrypt', 'ext4 (fscrypt encrypted)', { mode: 'buffered-flushed', scale: 0.07 });
const xfs = () => doc('xfs', 'XFS', { scale: 0.8 });

describe('rows measured in different cache modes', () => {
  it('the report prints the figures and says why, with no Δ finding between an uncached and a flushed row', () => {
    const docs = [ext4(), fscrypt(), xfs()];
    const r = buildFormatReport(docs);
    expect(r.variants.map((v) => v.cacheClass)).toEqual(['uncached', 'flushed', 'uncached']);
    expect(r.variants[1]!.notCompared).toBe(
      'ext4 (fscrypt encrypted) was measured through the page cache, flushed; the others uncached: not compared.',
    );
    // Its cells are figures only: no delta, no verdict against ext4.
    for (const cell of r.cells[1]!) expect(cell).toMatchObject({ verdict: 'n/a' });
    for (const cell of r.cells[1]!) expect(cell!.claim).toBeUndefined();
    expect(r.findings).toContain(
      'ext4 (fscrypt encrypted) was measured through the page cache, flushed; the others uncached: not compared.',
    );
    expect(r.findings.filter((f) => f.startsWith('ext4 (fscrypt encrypted):'))).toEqual([]);
    // The like rows still are: XFS against ext4, both uncached.
    expect(r.findings).toContain('XFS: read −20 %, CI −29 to −9.2 % at 1 GiB; write −20 %, CI −26 to −14 % at 1 GiB — vs ext4.');
    // Every export says the same: no "−93 %" anywhere.
    for (const format of ['md', 'txt', 'csv', 'json', 'html'] as const) {
      const text = renderFormatReport(docs, format).text;
      expect(text, format).not.toMatch(/−93 %/);
      // CSV has no sentences: its cells say n/a, with no delta.
      expect(text, format).toMatch(format === 'csv' ? /^ext4 \(fscrypt encrypted\),Read 1 GiB,.*,,,,n\/a,$/m : /not compared/);
    }
  });

  it('two rows only: the reason names the other row', () => {
    const r = buildFormatReport([ext4(), fscrypt()]);
    expect(r.findings).toEqual(['ext4 (fscrypt encrypted) was measured through the page cache, flushed; ext4 uncached: not compared.']);
  });

  it("History's compare view and its exports follow the same rule", () => {
    const docs = [ext4(), fscrypt(), xfs()];
    const c = compareResults(docs);
    const read = c.rows.find((row) => row.key === 'Read/mbps')!;
    expect(read.cells[1]).toMatchObject({ verdict: 'n/a' });
    expect(read.cells[1]!.claim).toBeUndefined();
    expect(read.cells[2]).toMatchObject({ verdict: 'worse' });
    expect(c.findings.some((f) => /not compared/.test(f))).toBe(true);
    expect(c.findings.join('\n')).not.toMatch(/−93 %/);
    for (const format of ['md', 'txt', 'csv', 'json', 'html'] as const)
      expect(renderExport(docs, format).text, format).not.toMatch(/−93 %/);
  });
});

describe('a row that tripped a cache flag', () => {
  for (const flag of ['loop-cached', 'reads-implausibly-fast', 'writes-implausibly-fast', 'above-interface-ceiling']) {
    it(`never produces a finding (${flag}), nor serves as the reference of one`, () => {
      const fast = doc('btrfs', 'Btrfs', { scale: 6, flag });
      const r = buildFormatReport([ext4(), fast, xfs()]);
      expect(r.findings.find((f) => f.startsWith('Btrfs'))).toMatch(/^Btrfs: not compared — its figures tripped a cache flag \(.+\)/);
      expect(r.findings.join('\n')).not.toMatch(/\+500 %|Fastest/);
      const c = compareResults([ext4(), fast]);
      expect(c.findings).toEqual([expect.stringMatching(/not compared — its figures tripped a cache flag/)]);
      // As the baseline, nothing is judged against it.
      const asBase = buildFormatReport([fast, ext4()]);
      expect(asBase.findings).toEqual([expect.stringMatching(/^ext4: not compared — Btrfs, its reference, tripped a cache flag/)]);
    });
  }
});

describe('the common-mode pass', () => {
  it('judges the encrypted row against ext4 as applications see it, and says so', () => {
    const docs = [
      ext4(),
      fscrypt(),
      xfs(),
      doc('ext4', 'ext4', { mode: 'buffered-flushed', scale: 1, common: true }),
      doc('xfs', 'XFS', { mode: 'buffered-flushed', scale: 0.8, common: true }),
    ];
    const r = buildFormatReport(docs);
    expect(r.variants.map((v) => v.label)).toEqual([
      'ext4',
      'ext4 (fscrypt encrypted)',
      'XFS',
      'ext4 · as applications see it',
      'XFS · as applications see it',
    ]);
    expect(r.variants.map((v) => v.reference)).toEqual([0, 3, 0, 3, 3]);
    expect(r.likeRows).toBe(true);
    expect(r.findings).toEqual([
      'ext4 (fscrypt encrypted): read −93 %, CI −94 to −92 % at 1 GiB; write −93 %, CI −93 to −92 % at 1 GiB — vs ext4 · as applications see it.',
      'XFS: read −20 %, CI −29 to −9.2 % at 1 GiB; write −20 %, CI −26 to −14 % at 1 GiB — vs ext4.',
      'XFS · as applications see it: read −20 %, CI −29 to −9.2 % at 1 GiB; write −20 %, CI −26 to −14 % at 1 GiB — vs ext4 · as applications see it.',
      'Compared like for like: ext4 (fscrypt encrypted) and XFS · as applications see it against ext4 · as applications see it (both through the page cache, flushed); XFS against ext4 (both uncached). Rows measured in different modes are not set against each other.',
    ]);
    expect(renderFormatReport(docs, 'md').text).toContain('Compared like for like');
  });
});
