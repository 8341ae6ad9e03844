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

/** The sweep fixture as setup `n` of campaign c2 with three runs: each run's top speeds and the
 *  transfer sizes (KiB) at which it reached 90 % of them. */
function sweepSetup(n: number, name: string, top: [number, number, number], kib: [number, number, number]): ResultDocument {
  const d = JSON.parse(readFileSync(path.join(path.dirname(FIXTURE), 'sweep.json'), 'utf8')) as ResultDocument;
  d.id = `c2-${n}`;
  d.label = name;
  d.settings.runs = 3;
  d.campaign = { planId: 'c2', format: `setup-${n}`, formatLabel: name, of: 'setups' };
  const run = d.sweep!.runs[0]!;
  d.sweep!.runs = top.map((mbps, k) => ({
    ...structuredClone(run),
    run: k + 1,
    fullSpeedWrite: { bs: kib[k]! * 1024, topMBps: mbps },
    fullSpeedRead: { bs: kib[k]! * 1024, topMBps: mbps * 1.001 },
  }));
  return d;
}

describe('a setup campaign’s report', () => {
  it('has a Setup column, the setups as rows, and calls the slow one worse with each change and its interval', () => {
    const docs = [setupDoc(1, 'GigE', 1), setupDoc(2, 'Wi-Fi', 0.2)];
    const md = renderFormatReport(docs, 'md').text;
    expect(md).toContain('## GigE vs Wi-Fi on ');
    expect(md).toMatch(/\n\| Setup \| /);
    expect(md).toMatch(/\n\| GigE \(baseline\) \| /);
    const r = buildFormatReport(docs);
    expect(r.findings).toEqual([
      'Wi-Fi: read −80 %, CI −82 to −77 % at 1 GiB; write −80 %, CI −81 to −78 % at 1 GiB — vs GigE.',
      'Wi-Fi is worse than GigE: worse on all 2 throughput figures (Read 1 GiB −80 %; Write 1 GiB −80 %).',
    ]);
  });

  it('says better, and inconclusive (never better, worse or mixed) without an interval or within the spread', () => {
    const faster = buildFormatReport([setupDoc(1, 'Hub', 1), setupDoc(2, 'Direct', 1.5)]);
    expect(faster.findings.at(-1)).toBe(
      'Direct is better than Hub: better on all 2 throughput figures (Read 1 GiB +50 %; Write 1 GiB +50 %).',
    );
    const single = buildFormatReport([setupDoc(1, 'A', 1, 1), setupDoc(2, 'B', 0.5, 1)]);
    expect(single.findings.at(-1)).toBe('B against A is inconclusive on all 2 throughput figures — one run each: no interval.');
    const same = buildFormatReport([setupDoc(1, 'A', 1), setupDoc(2, 'B', 1)]);
    expect(same.findings.some((f) => / is (worse|better|mixed) /.test(f))).toBe(false);
  });

  it("issue 29's second seed: a transfer size that falls with the link's speed never votes (GigE vs a 200 Mbit/s link)", () => {
    // The slow link reaches its own, lower top speed at smaller transfers: a real change of a
    // figure without a direction. The old rule counted it "better" and called the link mixed.
    const docs = [
      sweepSetup(1, 'GigE', [122.8, 123.1, 123.2], [512, 1024, 1024]),
      sweepSetup(2, 'Wi-Fi', [24.6, 24.61, 24.59], [64, 64, 128]),
    ];
    const r = buildFormatReport(docs);
    expect(r.columns.map((c) => [c.label, c.direction])).toEqual([
      ['Write · top speed', 'higher'],
      ['Write · reaches 90 % of top at', 'none'],
      ['Read · top speed', 'higher'],
      ['Read · reaches 90 % of top at', 'none'],
    ]);
    expect(r.cells[1]!.map((c) => c?.verdict)).toEqual(['worse', 'lower', 'worse', 'lower']);
    expect(r.findings.at(-1)).toBe(
      'Wi-Fi is worse than GigE: worse on all 2 throughput figures (Write · top speed −80 %; Read · top speed −80 %).',
    );
    expect(r.findings.join(' ')).not.toMatch(/mixed|better/);
  });

  it('mixed only when real changes of throughputs point both ways', () => {
    const up = setupDoc(2, 'Cache', 1);
    for (const t of up.tests) t.mbps *= t.rw === 'read' ? 3 : 0.3;
    const r = buildFormatReport([setupDoc(1, 'Plain', 1), up]);
    expect(r.findings.at(-1)).toBe(
      'Cache is mixed against Plain: worse on 1 of 2 throughput figures, better on 1 (Read 1 GiB +200 %; Write 1 GiB −70 %).',
    );
  });

  it('a wizard plan’s report keeps its Format column and no setup sentence', () => {
    const docs = [setupDoc(1, 'ext4', 1), setupDoc(2, 'XFS', 0.2)];
    for (const d of docs) delete d.campaign!.of;
    expect(renderFormatReport(docs, 'md').text).toMatch(/\n\| Format \| /);
    expect(buildFormatReport(docs).findings.some((f) => f.includes(' is worse than '))).toBe(false);
  });
});
