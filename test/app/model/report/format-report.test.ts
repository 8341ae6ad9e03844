import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { compareResults } from '../../../../app/src/model/report/compare.js';
import { COMPARE_RULE } from '../../../../app/src/model/verdict/compare-words.js';
import { buildFormatReport, renderFormatReport, type FormatReport } from '../../../../app/src/model/report/format-report.js';
import { formatFigure } from '../../../../app/src/model/report/metrics.js';
import { parseCsv } from '../../../helpers/csv.js';
import { CDM_TEST_NAMES } from '../../../helpers/cdm.js';
import { EXT4, GB, load, mdTable, plan, saved, type Variant } from '../../../helpers/format-report-docs.js';

function cellOf(r: FormatReport, variantKey: string, columnLabel: string) {
  const i = r.variants.findIndex((v) => v.key === variantKey);
  const j = r.columns.findIndex((c) => c.label === columnLabel);
  expect(i, variantKey).toBeGreaterThanOrEqual(0);
  expect(j, columnLabel).toBeGreaterThanOrEqual(0);
  return r.cells[i]?.[j];
}

describe('rows and columns', () => {
  it('groups a wizard plan by format, in first-seen order, with Read before Write per stress size ascending', () => {
    const r = buildFormatReport(plan());
    expect(r.variants.map((v) => v.key)).toEqual(['ext4', 'ext4-fscrypt', 'xfs']);
    expect(r.variants.map((v) => v.label)).toEqual(['ext4', 'ext4 (fscrypt encrypted)', 'XFS']);
    expect(r.variants[1]?.resultIds).toEqual(['p1-ext4-fscrypt-5gb', 'p1-ext4-fscrypt-1gb']);
    expect(r.variants[0]?.drive).toContain('Samsung T7');
    expect(r.variants[0]?.method).toContain('uncached');
    expect(r.columns.map((c) => c.label)).toEqual(['Read 1 GB', 'Write 1 GB', 'Read 5 GB', 'Write 5 GB']);
    expect(r.columns.map((c) => c.sizeBytes)).toEqual([GB, GB, 5 * GB, 5 * GB]);
    expect(r.columns.map((c) => c.metricKey)).toEqual(['Read/mbps', 'Write/mbps', 'Read/mbps', 'Write/mbps']);
    expect(r.columns.map((c) => c.figure)).toEqual(['Read', 'Write', 'Read', 'Write']);
    expect(r.columns.every((c) => c.unit === 'MB/s' && c.direction === 'higher')).toBe(true);
    expect(new Set(r.columns.map((c) => c.key)).size).toBe(4);
    expect(r.cells).toHaveLength(3);
    expect(r.cells.every((row) => row.length === 4 && row.every((c) => c?.values.length === 3))).toBe(true);
    expect(r.rule).toBe(COMPARE_RULE);
    expect(r.warnings).toEqual([]);
  });

  it('titles a plan by its formats and disk, and carries the interface ceiling every result shares', () => {
    const docs = plan();
    const r = buildFormatReport(docs);
    expect(r.title).toBe('ext4 vs ext4 (fscrypt encrypted) vs XFS on Samsung T7 (USB 3.2 Gen 2)');
    expect(r.ceilingMBps).toBe(2000);
    docs[3]!.target.device.linkInfo = { ...docs[3]!.target.device.linkInfo!, ceilingMBps: 1000 };
    expect(buildFormatReport(docs).ceilingMBps).toBeUndefined();
    delete docs[3]!.target.device.linkInfo;
    expect(buildFormatReport(docs).ceilingMBps).toBeUndefined();
  });

  it('groups saved results by name: "direct to the port" vs "through the hub"', () => {
    const docs = [
      saved('Direct to the port', 'a', GB),
      saved('Through the hub', 'b', GB, 'USB 2.0 (480 Mb/s)'),
      saved('Direct to the port', 'c', 5 * GB),
    ];
    const r = buildFormatReport(docs);
    expect(r.title).toBe('Comparison of 3 results');
    expect(r.variants.map((v) => [v.key, v.label, v.resultIds])).toEqual([
      ['Direct to the port', 'Direct to the port', ['a', 'c']],
      ['Through the hub', 'Through the hub', ['b']],
    ]);
    expect(r.columns.map((c) => c.label)).toEqual(['Read 1 GB', 'Write 1 GB', 'Read 5 GB', 'Write 5 GB']);
    // The hub was tested at 1 GB only; its runs equal the port's, which spread 6 %: inconclusive.
    expect(r.cells[1]?.slice(2)).toEqual([undefined, undefined]);
    expect(r.cells[1]?.[0]?.verdict).toBe('inconclusive');
    expect(r.warnings.join('\n')).toMatch(
      /different drives or connections \(Direct to the port: Samsung T7 · USB 3\.2 Gen 2 · .*; Through the hub: Samsung T7 · USB 2\.0 \(480 Mb\/s\)/,
    );
    expect(r.warnings.join('\n')).toContain('That is the point when comparing ports, hubs or cables');
    // The same connection twice: no drive warning.
    const same = buildFormatReport([saved('Direct to the port', 'a'), saved('Again', 'b')]);
    expect(same.warnings.some((w) => w.includes('different drives'))).toBe(false);
  });

  it('never merges separate unlabelled results, even when their names read alike', () => {
    const a = saved('', 'a');
    const b = saved('', 'b');
    delete a.label;
    delete b.label;
    b.startedAt = a.startedAt; // one volume, one minute: the same automatic name
    const r = buildFormatReport([a, b]);
    expect(r.variants.map((v) => v.resultIds)).toEqual([['a'], ['b']]);
    expect(r.variants[1]!.label).toBe(`${r.variants[0]!.label} (2)`);
    expect(r.warnings.some((w) => /pooled/.test(w))).toBe(false);
  });

  it('pools two results of one row at one size, and says so', () => {
    const r = buildFormatReport([saved('Port', 'a'), saved('Port', 'b'), saved('Hub', 'c')]);
    expect(r.variants).toHaveLength(2);
    expect(r.cells[0]?.[0]?.values).toHaveLength(6);
    expect(r.warnings).toEqual(['Port has 2 Quick Test results at 1 GB: their runs are pooled.']);
  });

  it('takes the union of columns of different tests, with a warning', () => {
    const cdm = load('cdm');
    cdm.label = 'Grid';
    const r = buildFormatReport([saved('Quick', 'q'), cdm]);
    expect(r.columns.map((c) => c.label)).toEqual(['Read 1 GB', 'Write 1 GB', ...CDM_TEST_NAMES]);
    expect(r.columns[2]?.sizeBytes).toBeUndefined();
    expect(r.cells[1]?.[0]).toBeUndefined();
    expect(r.cells[1]?.[2]?.verdict).toBe('n/a');
    expect(r.warnings[0]).toBe(
      'Not every row ran the same tests (Quick: no CrystalDiskMark grid; Grid: no Quick Test): each column compares only the rows that have it.',
    );
    expect(r.findings[0]).toBe('Grid: no figure in common with Quick.');
  });

  it('gives the many-file, sustained and hash tests their headline columns', () => {
    const label = (kind: string) => buildFormatReport([load(kind)]).columns.map((c) => `${c.label} (${c.unit})`);
    expect(label('files')).toEqual(['Files Read (MB/s)', 'Files Write (MB/s)']);
    expect(label('sustained')).toEqual(['Sustained write (MB/s)']);
    expect(label('hash')).toEqual(['Read (uncached) (MB/s)', 'Read + SHA-256 (MB/s)', 'SHA-256 in memory, 1 core (MB/s)']);
  });

  it('warns about results through the cache and different run counts', () => {
    const docs = plan();
    docs[4]!.cacheMode = 'buffered';
    const single = docs[1]!;
    single.tests = single.tests.filter((t) => t.run === 1);
    single.settings.runs = 1;
    const w = buildFormatReport(docs).warnings;
    expect(w).toContain("XFS was measured through the page cache: its figures are not the disk's.");
    expect(
      w.some(
        (x) =>
          x.startsWith('The rows have different numbers of runs (3 runs: ext4, ext4 (fscrypt encrypted), XFS; 1 run: ext4)') &&
          x.includes("one run on one side, the other side's spread stands in for it"),
      ),
    ).toBe(true);
    expect(w.some((x) => x.startsWith('The rows were measured differently'))).toBe(true);
  });
});

describe('cells, by the rule verdict/compare.ts states', () => {
  it("marks a 10 % slower write as worse, and a variant equal within the runs' 3–6 % spread as inconclusive", () => {
    const r = buildFormatReport(plan());
    for (const col of ['Read 1 GB', 'Write 1 GB', 'Read 5 GB', 'Write 5 GB']) {
      const base = cellOf(r, 'ext4', col)!;
      expect(base.verdict).toBe('baseline');
      expect(base.claim).toBeUndefined();
      expect(base.spread.n).toBe(3);
      // Equal within 1 %, but three runs spread 3–6 % cannot show the difference is within ±5 %.
      expect(cellOf(r, 'xfs', col)).toMatchObject({ verdict: 'inconclusive', claim: { reasons: ['wide'] } });
    }
    for (const col of ['Write 1 GB', 'Write 5 GB']) {
      const enc = cellOf(r, 'ext4-fscrypt', col)!;
      expect(enc.verdict).toBe('worse');
      expect(enc.claim?.change).toBeCloseTo(-0.1, 2);
      expect(enc.claim?.high).toBeLessThan(0);
    }
    // Reads are 10 % slower too, but the fixture's reads spread 6 % run to run: with three runs
    // the interval reaches past 0.
    expect(cellOf(r, 'ext4-fscrypt', 'Read 1 GB')).toMatchObject({ verdict: 'inconclusive' });
    expect(cellOf(r, 'ext4-fscrypt', 'Read 1 GB')?.claim?.high).toBeGreaterThan(0);
  });

  it('agrees with compareResults cell for cell', () => {
    const docs = plan();
    const r = buildFormatReport(docs);
    r.columns.forEach((col, j) => {
      const base = docs.find((d) => d.campaign?.format === 'ext4' && d.settings.size === col.sizeBytes)!;
      for (const key of ['ext4-fscrypt', 'xfs']) {
        const other = docs.find((d) => d.campaign?.format === key && d.settings.size === col.sizeBytes)!;
        const row = compareResults([base, other]).rows.find((x) => x.key === col.metricKey)!;
        const mine = r.cells[r.variants.findIndex((v) => v.key === key)]?.[j];
        expect(mine).toEqual(row.cells[1]);
      }
    });
  });

  it('switches the baseline by key, index, label or result id', () => {
    const docs = plan();
    const byKey = buildFormatReport(docs, { baseline: 'ext4-fscrypt' });
    expect(byKey.baseline).toBe(1);
    expect(cellOf(byKey, 'ext4-fscrypt', 'Write 1 GB')?.verdict).toBe('baseline');
    expect(cellOf(byKey, 'ext4', 'Write 1 GB')?.verdict).toBe('better');
    expect(cellOf(byKey, 'ext4', 'Write 1 GB')?.claim?.change).toBeCloseTo(1 / 0.9 - 1, 2);
    expect(byKey.findings[0]).toBe('ext4: write +11 %, CI +3.9 to +19 % at 1 GB and 5 GB — vs ext4 (fscrypt encrypted).');
    expect(buildFormatReport(docs, { baseline: 2 }).baseline).toBe(2);
    expect(buildFormatReport(docs, { baseline: 'XFS' }).baseline).toBe(2);
    expect(buildFormatReport(docs, { baseline: 'p1-xfs-1gb' }).baseline).toBe(2);
    expect(buildFormatReport(docs, { baseline: 'nope' }).baseline).toBe(0);
    expect(buildFormatReport(docs, { baseline: 7 }).baseline).toBe(0);
  });
});

describe('findings', () => {
  it('says in plain words what changed with its interval, and what the runs cannot tell, with why', () => {
    const r = buildFormatReport(plan());
    expect(r.findings).toEqual([
      'ext4 (fscrypt encrypted): write −10 %, CI −16 to −3.7 % at 1 GB and 5 GB — vs ext4.',
      // A 10 % change the rule cannot confirm is said as such, never as "no difference".
      'ext4 (fscrypt encrypted): inconclusive on read −10 % at 1 GB and 5 GB — the interval spans 0 and reaches past ±5 %; more runs would tell.',
      'XFS: inconclusive on read 0 % at 1 GB and 5 GB, write 0 % at 1 GB and 5 GB — the interval spans 0 and reaches past ±5 %; more runs would tell.',
    ]);
    // Steadier runs (±0.5 %) show XFS equal to ext4: no difference, the whole interval within ±5 %.
    const steady = plan().map((d) => {
      d.tests.forEach(
        (t) => (t.mbps = (t.rw === 'write' ? 1700 : 1400) * (1 + 0.005 * (t.run - 2)) * (d.campaign?.format === 'ext4-fscrypt' ? 0.9 : 1)),
      );
      return d;
    });
    expect(buildFormatReport(steady).findings).toContain('XFS: no difference from ext4 on any figure (each 95 % interval within ±5 %).');
  });

  it('lists sizes separately when they differ, and names the fastest when it is ahead of all', () => {
    const late: Variant = { format: 'btrfs', label: 'Btrfs', scale: 0.85, jitter: 0.01, writeOnly: true, onlyAt: 5 * GB };
    const fast: Variant = { format: 'xfs', label: 'XFS', scale: 1.25, jitter: 0.01 };
    const r = buildFormatReport(plan([EXT4, late, fast]));
    // The largest change first: XFS's +25 % before Btrfs's −15 %.
    expect(r.findings[0]).toBe(
      'XFS: read +25 %, CI +9.5 to +43 % at 1 GB and 5 GB; write +25 %, CI +17 to +34 % at 1 GB and 5 GB — vs ext4.',
    );
    expect(r.findings[1]).toBe('Btrfs: write −15 %, CI −21 to −9.1 % at 5 GB — vs ext4.');
    expect(r.findings).toContain(
      'Btrfs: inconclusive on read 0 % at 1 GB and 5 GB, write 0 % at 1 GB — the interval spans 0 and reaches past ±5 %; more runs would tell.',
    );
    expect(r.findings).toContain('Fastest read: XFS — ahead of every other format by a real change.');
    expect(r.findings).toContain('Fastest write: XFS — ahead of every other format by a real change.');
  });

  it('a one-format report says nothing is compared, in the report and in every export', () => {
    const docs = plan([EXT4]);
    const nothing = "One format only (ext4): nothing is compared — these are ext4's figures alone.";
    expect(buildFormatReport(docs).findings).toEqual([nothing]);
    // One saved result: the same, with its own noun.
    const one = buildFormatReport([saved('Direct', 'a')]);
    expect(one.findings).toEqual(["One result only (Direct): nothing is compared — these are Direct's figures alone."]);
    expect(one.title).toBe('Report of 1 result: Direct');
    const out = (f: 'md' | 'txt' | 'html' | 'csv' | 'json') => renderFormatReport(docs, f).text;
    for (const f of ['md', 'txt', 'html'] as const) {
      expect(out(f), f).toContain(nothing.replace("'", f === 'html' ? '&#39;' : "'"));
      // (The rule under the report defines "no difference"; nothing else may say it.)
      const said = out(f)
        .split('\n')
        .filter((l) => !l.includes('Rule:'))
        .join('\n');
      expect(said, f).not.toMatch(/\(baseline\)|Baseline|no measurable difference|no difference/);
    }
    expect((JSON.parse(out('json')) as { report: FormatReport }).report.findings).toEqual([nothing]);
    // The CSV has no findings; its verdict column stays empty rather than "baseline".
    const rows = parseCsv(out('csv'));
    const own = rows.slice(1).filter((row) => !row[rows[0]!.indexOf('figure')]!.startsWith('Will it work'));
    expect(own.map((row) => row[rows[0]!.indexOf('verdict')])).toEqual(['', '', '', '']);
  });

  it('names no fastest when the top two are not apart by a real change', () => {
    const r = buildFormatReport(plan());
    expect(r.findings.some((f) => f.startsWith('Fastest'))).toBe(false);
  });
});

describe('Markdown', () => {
  it("is a forum table whose numbers are the report's means", () => {
    const docs = plan();
    const r = buildFormatReport(docs);
    const file = renderFormatReport(docs, 'md');
    expect(file.filename).toBe('diskdial-report-2026-12-04.md');
    expect(file.mime).toBe('text/markdown;charset=utf-8');
    const md = file.text;
    expect(md.startsWith(`## ${r.title}\n`)).toBe(true);
    expect(md).toContain(
      '**Drive:** Samsung T7 (USB 3.2 Gen 2) · **Method:** uncached (direct I/O) · random data · writes flushed · **Runs:** 3 per figure · **Rest:** 5 min between runs · **Baseline:** ext4',
    );
    const rows = mdTable(md);
    expect(rows[0]).toEqual(['Format', 'Read 1 GB (MB/s)', 'Write 1 GB (MB/s)', 'Read 5 GB (MB/s)', 'Write 5 GB (MB/s)']);
    expect(rows[1]).toEqual(['---', '---:', '---:', '---:', '---:']);
    expect(rows).toHaveLength(2 + r.variants.length);
    for (const row of rows) expect(row).toHaveLength(rows[0]!.length);
    expect(rows.slice(2).map((row) => row[0])).toEqual(['ext4 (baseline)', 'ext4 (fscrypt encrypted)', 'XFS']);
    rows.slice(2).forEach((row, i) => {
      row.slice(1).forEach((text, j) => {
        const cell = r.cells[i]![j]!;
        const m = /^([\d,.]+) ± ([\d,.]+)( \((?:(?:−|\+)?[\d.]+ %\??|≈)\))?$/.exec(text);
        expect(m, text).not.toBeNull();
        expect(m![1]).toBe(formatFigure(cell.spread.mean, 'MB/s'));
        if (i === 0) expect(m![3]).toBeUndefined();
        if (cell.verdict === 'inconclusive') expect(m![3]).toMatch(/^ \((−10|0) %\?\)$/);
        if (cell.verdict === 'worse') expect(m![3]).toBe(' (−10 %)');
      });
    });
    expect(md).toContain(`**Findings**\n\n${r.findings.map((f) => `- ${f}`).join('\n')}\n`);
    expect(md).toContain(`_Rule: ${COMPARE_RULE}_`);
    expect(md.trimEnd().endsWith('Measured with DiskDial 0.1.0 (engine 0.3.0)')).toBe(true);
  });

  it('keeps its columns when a label holds a pipe or markup', () => {
    const docs = [saved('Port | direct', 'a'), saved('<b>hub</b>', 'b')];
    const md = renderFormatReport(docs, 'md').text;
    const rows = mdTable(md);
    expect(rows[0]).toEqual(['Result', 'Read 1 GB (MB/s)', 'Write 1 GB (MB/s)']);
    for (const row of rows) expect(row).toHaveLength(3);
    expect(rows[2]?.[0]).toBe('Port \\| direct (baseline)');
    expect(md).not.toMatch(/(?<!\\)<b>/);
    expect(md).toContain('\\<b>hub\\</b>');
  });
});

describe('CSV, JSON and text', () => {
  it('writes a CSV row per row × column whose means read back exactly', () => {
    const docs = plan();
    const r = buildFormatReport(docs);
    const text = renderFormatReport(docs, 'csv').text;
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]!.join(',')).toBe('variant,label,figure,size_bytes,unit,n,mean,stdev,min,max,delta,ci_low,ci_high,verdict,why');
    const at = (name: string, row: string[]) => row[rows[0]!.indexOf(name)] as string;
    const own = rows.slice(1).filter((row) => !at('figure', row).startsWith('Will it work'));
    expect(own).toHaveLength(r.variants.length * r.columns.length);
    own.forEach((row, k) => {
      const i = Math.floor(k / r.columns.length);
      const j = k % r.columns.length;
      const cell = r.cells[i]![j]!;
      expect(at('variant', row)).toBe(r.variants[i]!.label);
      expect(at('label', row)).toBe(r.columns[j]!.label);
      expect(Number(at('size_bytes', row))).toBe(r.columns[j]!.sizeBytes);
      expect(Number(at('n', row))).toBe(3);
      expect(Number(at('mean', row))).toBe(cell.spread.mean);
      expect(Number(at('stdev', row))).toBe(cell.spread.stdev);
      expect(at('verdict', row)).toBe(cell.verdict);
      const num = (name: string) => (at(name, row) === '' ? undefined : Number(at(name, row)));
      expect(num('delta')).toBe(cell.claim?.change);
      expect(num('ci_low')).toBe(cell.claim?.low);
      expect(num('ci_high')).toBe(cell.claim?.high);
      if (cell.verdict === 'inconclusive') expect(at('why', row)).toBe('the interval spans 0 and reaches past ±5 %');
    });
  });

  it('guards CSV text against spreadsheet formulas and leaves missing cells empty', () => {
    const docs = [saved('=cmd|x', 'a'), saved('Hub', 'b', 5 * GB)];
    const rows = parseCsv(renderFormatReport(docs, 'csv').text);
    expect(rows[1]?.[0]).toBe("'=cmd|x");
    const missing = rows.find((row) => row[0] === 'Hub' && row[1] === 'Read 1 GB')!;
    expect(missing.slice(5)).toEqual(['0', '', '', '', '', '', '', '', '', '']);
  });

  it('writes the report and its results as JSON that reads back', () => {
    const docs = plan();
    const r = buildFormatReport(docs);
    const back = JSON.parse(renderFormatReport(docs, 'json').text) as {
      format: string;
      schema: number;
      report: FormatReport;
      results: ResultDocument[];
    };
    expect(back.format).toBe('diskdial-format-report');
    expect(back.schema).toBe(1);
    expect(back.report).toEqual(JSON.parse(JSON.stringify(r)));
    expect(back.report.cells[1]?.[1]?.spread.mean).toBe(r.cells[1]?.[1]?.spread.mean);
    expect(back.results.map((d) => d.id)).toEqual(docs.map((d) => d.id));
    expect(back.results[0]?.campaign).toEqual({ planId: 'p1', format: 'ext4', formatLabel: 'ext4' });
  });

  it('writes the table as fixed-width text too', () => {
    const txt = renderFormatReport(plan(), 'txt').text;
    expect(txt).toMatch(/^Format +Read 1 GB \(MB\/s\) +Write 1 GB \(MB\/s\)/m);
    expect(txt).toMatch(/^ext4 \(fscrypt encrypted\) .*\(−10 %\)$/m);
  });

  it('throws on no results', () => {
    expect(() => renderFormatReport([], 'md')).toThrow(RangeError);
  });
});

describe('HTML', () => {
  it('is one self-contained, printable page with a chart per stress size', () => {
    const html = renderFormatReport(plan(), 'html').text;
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('@media print');
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toContain('//');
    expect(html).not.toMatch(/\bsrc\s*=/i);
    expect(html).not.toMatch(/\bhref\s*=\s*["']?(?!#)/i);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|url\(|@import/i);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain('Stress size 1 GB: MB&#47;s, mean ± SD');
    expect(html).toContain('Stress size 5 GB: MB&#47;s, mean ± SD');
    // Error bars and value labels.
    expect(html).toContain('stroke="#222"');
    expect(html).toContain('>1,769<');
    expect(html).toMatch(/<td class="num worse">1,59\d ± \d+ \(−10 %\)<\/td>/);
    expect(html).toContain('<th scope="row">ext4 (baseline)</th>');
    expect(html).toContain('<h2>Findings</h2>');
    expect(html).toContain('Each change is the ratio of the runs&#39; geometric means');
    expect(html).toContain('<footer>Measured with DiskDial 0.1.0 (engine 0.3.0)</footer>');
  });

  it('draws the interface ceiling when known and within 1.5× of the largest bar', () => {
    const docs = plan();
    const html = renderFormatReport(docs, 'html').text;
    expect(html.match(/interface ceiling 2,000 MB&#47;s/g)).toHaveLength(2);
    expect(html).toContain('stroke-dasharray="6 4"');
    for (const d of docs) d.target.device.linkInfo = { ...d.target.device.linkInfo!, ceilingMBps: 5000 };
    expect(renderFormatReport(docs, 'html').text).not.toContain('interface ceiling');
  });

  it('escapes every label', () => {
    const evil = '<b>&"</b>';
    const docs = plan([EXT4, { format: 'x', label: evil, scale: 0.9 }]);
    const html = renderFormatReport(docs, 'html').text;
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;b&gt;&amp;&quot;&lt;&#47;b&gt;');
    const port = renderFormatReport([saved(evil, 'a'), saved('Hub', 'b')], 'html').text;
    expect(port).not.toContain('<b>');
    expect(port).toContain('<h1>Comparison of 2 results</h1>');
  });

  it('draws one chart for results without a stress size, figures as rows when there are many', () => {
    const a = load('cdm');
    const b = structuredClone(a);
    b.id = 'hub';
    b.label = 'Through the hub';
    const html = renderFormatReport([a, b], 'html').text;
    expect(html.match(/<svg /g)).toHaveLength(1);
    expect(html).toContain('<th class="num" scope="col">Through the hub</th>');
    expect(html).toContain('<th scope="row">SEQ1M Q8T1 Read (MB&#47;s)</th>');
  });
});
