// The format report's verdicts on many-file results. Issue 29's wizard seed: Stibium Standard,
// plain ext4 vs ext4 + fscrypt, two runs each — the seed's report headlined "no measurable
// difference on any figure" above a table showing −96 % and −90 % (raw-value Welch, p ≈ 0.14 with
// df ≈ 1); on the log scale the drop is real. And one run each: no interval, however large.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { buildFormatReport, renderFormatReport } from '../../../../app/src/model/report/format-report.js';

const FIXTURE = path.join(import.meta.dirname, '../../..', 'fixtures', 'results', 'files.json');

/** The many-file fixture as one format of a Stibium plan, a run per aggregate MB/s given. */
function stibium(format: string, label: string, write: number[], read: number[]): ResultDocument {
  const d = JSON.parse(readFileSync(FIXTURE, 'utf8')) as ResultDocument;
  d.id = `s-${format}`;
  delete d.label;
  d.cacheMode = 'buffered-flushed';
  d.settings.runs = write.length;
  d.campaign = { planId: 'stibium', format, formatLabel: label };
  const run = d.files!.runs[0]!;
  d.files!.runs = write.map((_, k) => ({
    ...structuredClone(run),
    run: k + 1,
    write: { ...run.write, mbps: write[k]! },
    read: { ...run.read, mbps: read[k]! },
  }));
  return d;
}

describe('plain ext4 vs fscrypt, Stibium, 2 runs each', () => {
  it('−96 % / −90 % is a real drop with its interval, never "no difference"', () => {
    const docs = [
      stibium('ext4', 'ext4', [1932, 1268], [1500, 1100]),
      stibium('ext4-fscrypt', 'ext4 (fscrypt encrypted)', [63, 65], [126, 134]),
    ];
    const r = buildFormatReport(docs);
    expect(r.columns.map((c) => c.label)).toEqual(['Files Read', 'Files Write']);
    expect(r.cells[1]!.map((c) => c?.verdict)).toEqual(['worse', 'worse']);
    // Welch on log values, df ≈ 1.0: t(0.975) ≈ 12.6 still leaves the interval below 0.
    expect(r.findings[0]).toBe(
      'ext4 (fscrypt encrypted): Files Read −90 %, CI −98 to −45 %; Files Write −96 %, CI −99.7 to −44 % (the runs of ext4 vary by a CV of 29 %) — vs ext4.',
    );
    expect(r.findings.join(' ')).not.toMatch(/no measurable difference|no difference/);
    expect(renderFormatReport(docs, 'md').text).toMatch(
      /\| ext4 \(fscrypt encrypted\) \| 130\.0 ± 5\.7 \(−90 %\) \| 64\.0 ± 1\.4 \(−96 %\) \|/,
    );
  });

  it('one run each: no interval, so inconclusive however large the change, and said so', () => {
    const docs = [stibium('ext4', 'ext4', [1900], [1500]), stibium('ext4-fscrypt', 'ext4 (fscrypt encrypted)', [64], [130])];
    const r = buildFormatReport(docs);
    for (const cell of r.cells[1]!)
      expect(cell).toMatchObject({ verdict: 'inconclusive', claim: { test: 'none', reasons: ['one-run-each'] } });
    expect(r.cells[1]![0]!.claim!.low).toBeUndefined();
    expect(r.findings).toContain(
      'ext4 (fscrypt encrypted): inconclusive on Files Read −91 %, Files Write −97 % — one run each: no interval; more runs would tell.',
    );
    expect(renderFormatReport(docs, 'md').text).toContain('(−97 %?)');
  });
});
