// Every surface of a result shows each timed figure's 95 % interval, in one wording ("± 1.8 %"),
// and under the stop rule how each test ended; a result made before intervals were kept still
// reads and shows no interval.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineResult } from '../../../../app/src/model/engine-types.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { summarize } from '../../../../app/src/model/analysis.js';
import { toResultTest } from '../../../../app/src/model/result-tests.js';
import { checkResult } from '../../../../app/src/model/result-parse.js';
import { renderExport } from '../../../../app/src/model/report/export.js';
import { renderCardSvg } from '../../../../app/src/model/report/card.js';
import { figureWithInterval, intervalText, settleText } from '../../../../app/src/model/report/figure-text.js';
import { resultMetrics } from '../../../../app/src/model/report/metrics.js';
import { parseCsv } from '../../../helpers/csv.js';

const FIXTURES = path.join(import.meta.dirname, '../../..', 'fixtures', 'results');
const load = (kind: string): ResultDocument => JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;

/** The fixture's CrystalDiskMark grid, one run, the first test settled at ± 1.8 % in 1.4 s, the
 *  second not settled within 5 s at ± 9 %, the rest ± 2.5 %. */
function withIntervals(): ResultDocument {
  const doc = load('cdm');
  doc.tests = doc.tests.filter((t) => t.run === 1);
  doc.settings.runs = 1;
  delete doc.summary;
  doc.tests.forEach((t, i) => {
    const relative = i === 0 ? 0.018 : i === 1 ? 0.09 : 0.025;
    t.interval = { halfWidth: relative * t.mbps, relative, method: 'series', n: 12, batchLength: 1 };
    if (i === 0) Object.assign(t, { seconds: 1.4, settle: { precision: 0.03, settled: true } });
    if (i === 1) Object.assign(t, { seconds: 5.003, settle: { precision: 0.03, settled: false } });
  });
  return doc;
}

describe('the interval formatter', () => {
  it('words a figure, its interval and how the stop rule ended', () => {
    expect(figureWithInterval(1412.3, 'MB/s', { relative: 0.0182 })).toBe('1,412 MB/s ± 1.8 %');
    expect(intervalText({ relative: 0.093 })).toBe('± 9.3 %');
    expect(intervalText({ relative: 0.123 })).toBe('± 12 %');
    expect(intervalText(undefined)).toBe('');
    expect(settleText({ seconds: 1.43, settle: { precision: 0.03, settled: true }, interval: { relative: 0.021 } })).toBe(
      'settled in 1.4 s: ± 2.1 %',
    );
    expect(settleText({ seconds: 5.004, settle: { precision: 0.03, settled: false }, interval: { relative: 0.09 } })).toBe(
      'did not settle within 5 s: ± 9.0 %',
    );
  });
});

describe('a result carries its intervals', () => {
  it('keeps a step’s interval from its series, and the runs’ interval in the summary', () => {
    // 100 ms buckets alternating 990/1010: their lag-1 correlation is negative, so batches stay one
    // bucket long and nothing widens them: t(0.975, 19) · sd / √20, sd² = 20 · 100 / 19.
    const series = Array.from({ length: 20 }, (_, i) => ({ t: (i + 1) / 10, mbps: i % 2 ? 1010 : 990 }));
    const r = {
      rw: 'read',
      bs: 4096,
      qd: 1,
      threads: 1,
      mbps: 1000,
      series,
      latencyUs: {},
      spec: { path: '/x' },
    } as unknown as EngineResult;
    const t = toResultTest('SEQ', r, 1);
    expect(t.interval?.method).toBe('series');
    expect(t.interval?.halfWidth).toBeCloseTo((2.0930241 * Math.sqrt((20 * 100) / 19)) / Math.sqrt(20), 3);
    const [s] = summarize([
      { ...t, mbps: 990 },
      { ...t, mbps: 1010, run: 2 },
    ]);
    // t(0.975, 1) = 12.706205; sd of 990, 1010 = 14.142; / √2 → 127.06.
    expect(s!.mbpsInterval?.halfWidth).toBeCloseTo(12.706205 * 10, 2);
  });

  it('parses a document with intervals, and one made before them (no interval column then)', () => {
    const doc = withIntervals();
    expect(checkResult(JSON.parse(JSON.stringify(doc))).tests[0]!.interval?.relative).toBe(0.018);
    const old = load('cdm');
    expect(checkResult(old).tests.every((t) => t.interval === undefined)).toBe(true);
    expect(renderExport([old], 'md').text).not.toContain('95 % interval');
  });
});

describe('every surface shows the interval', () => {
  const doc = withIntervals();
  it('Markdown and HTML: an interval column with how each test ended', () => {
    const md = renderExport([doc], 'md').text;
    expect(md).toContain('| 95 % interval |');
    expect(md).toContain('settled in 1.4 s: ± 1.8 %');
    expect(md).toContain('did not settle within 5 s: ± 9.0 %');
    expect(md).toContain('± 2.5 %');
    const html = renderExport([doc], 'html').text;
    expect(html).toContain('95 % interval');
    expect(html).toContain('settled in 1.4 s: ± 1.8 %');
  });

  it('CSV: the half-width in MB/s and whether the test settled', () => {
    const rows = parseCsv(renderExport([doc], 'csv').text);
    const head = rows[0]!;
    const first = rows[1]!;
    expect(Number(first[head.indexOf('mbps_ci95')])).toBeCloseTo(0.018 * doc.tests[0]!.mbps, 9);
    expect(first[head.indexOf('settled')]).toBe('true');
    expect(rows[2]![head.indexOf('settled')]).toBe('false');
    expect(rows[3]![head.indexOf('settled')]).toBe('');
  });

  it('text (CrystalDiskMark’s layout) and JSON', () => {
    const txt = renderExport([doc], 'txt').text;
    expect(txt).toMatch(/MB\/s .*settled in 1\.4 s: ± 1\.8 %/);
    expect(txt).toContain('did not settle within 5 s: ± 9.0 %');
    const json = JSON.parse(renderExport([doc], 'json').text) as ResultDocument | ResultDocument[];
    const back = Array.isArray(json) ? json[0]! : json;
    expect(back.tests[0]!.interval?.relative).toBe(0.018);
    expect(back.tests[1]!.settle?.settled).toBe(false);
  });

  it('the card’s small print gives the range of the intervals', () => {
    const { svg } = renderCardSvg(doc);
    expect(svg).toContain('95 %: ± 1.8–9.0 %');
    expect(resultMetrics(doc).find((m) => m.key === 'SEQ1M Q8T1 Read/mbps')?.interval?.relative).toBe(0.018);
  });
});
