// The comparison report of a setup campaign: rows are the setups a person named, the first column
// says "Setup", and each setup gets one verdict sentence against the baseline with its evidence.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { buildFormatReport, renderFormatReport } from '../../../../app/src/model/report/format-report.js';

const FIXTURE = path.join(import.meta.dirname, '../../..', 'fixtures', 'results', 'quick.json');

/** The Quick Test fixture (3 runs) as setup `n` of campaign c1, every MB/s times `scale`. */
function setupDoc(n: number, name: string, scale: number, runs?: number): ResultDocument {
  const d = JSON.parse(readFileSync(FIXTURE, 'utf8')) as ResultDocument;
  d.id = `c1-${n}`;
  d.label = name;
  d.campaign = { planId: 'c1', format: `setup-${n}`, formatLabel: name, of: 'setups' };
  d.tests = d.tests.filter((t) => runs === undefined || t.run <= runs);
  d.tests.forEach((t, i) => (t.mbps *= scale * (1 + 0.01 * ((i % 3) - 1))));
  return d;
}

describe('a setup campaign’s report', () => {
  it('has a Setup column, the setups as rows, and calls the slow one worse with its p-value', () => {
    const docs = [setupDoc(1, 'GigE', 1), setupDoc(2, 'Wi-Fi', 0.2)];
    const md = renderFormatReport(docs, 'md').text;
    expect(md).toContain('## GigE vs Wi-Fi on ');
    expect(md).toMatch(/\n\| Setup \| /);
    expect(md).toMatch(/\n\| GigE \(baseline\) \| /);
    const r = buildFormatReport(docs);
    const n = r.columns.length;
    expect(r.findings.at(-1)).toMatch(
      new RegExp(
        `^Wi-Fi is worse than GigE: worse on all ${n} figures, each beyond run-to-run noise \\(Welch's t-test, p < 0\\.05: (every p < 0\\.001|the largest p = 0\\.0\\d\\d)\\)\\.$`,
      ),
    );
  });

  it('says better, mixed, or single runs without a p-value', () => {
    const faster = buildFormatReport([setupDoc(1, 'Hub', 1), setupDoc(2, 'Direct', 1.5)]);
    expect(faster.findings.at(-1)).toMatch(/^Direct is better than Hub: better on all \d+ figures/);
    const single = buildFormatReport([setupDoc(1, 'A', 1, 1), setupDoc(2, 'B', 0.5, 1)]);
    expect(single.findings.at(-1)).toMatch(
      /^B is worse than A: worse on all \d+ figures, each by at least 10 % \(single runs: no p-value\)\.$/,
    );
    const same = buildFormatReport([setupDoc(1, 'A', 1), setupDoc(2, 'B', 1)]);
    expect(same.findings.some((f) => / is (worse|better|mixed) /.test(f))).toBe(false);
  });

  it('a wizard plan’s report keeps its Format column and no setup sentence', () => {
    const docs = [setupDoc(1, 'ext4', 1), setupDoc(2, 'XFS', 0.2)];
    for (const d of docs) delete d.campaign!.of;
    expect(renderFormatReport(docs, 'md').text).toMatch(/\n\| Format \| /);
    expect(buildFormatReport(docs).findings.some((f) => f.includes(' is worse than '))).toBe(false);
  });
});
