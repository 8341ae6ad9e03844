// A many-file fit whose intercept falls below zero (Theil–Sen or least squares through noisy
// per-file times) is not a negative time: every view prints it as 0 ms and says why, while the
// document keeps the fit's own intercept. The CLI's line is checked in cli-report.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderCardSvg } from '../../../../app/src/model/report/card.js';
import { renderExport } from '../../../../app/src/model/report/export.js';
import { resultMetrics } from '../../../../app/src/model/report/metrics.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { OVERHEAD_BELOW_ZERO, shownOverhead } from '../../../../app/src/model/trust.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/results');
function belowZeroDoc(): ResultDocument {
  const doc = JSON.parse(readFileSync(path.join(fixtures, 'files.json'), 'utf8')) as ResultDocument;
  doc.files!.runs[0]!.read.theilSen!.overheadMs = -0.98;
  return doc;
}

describe('a per-file overhead below zero', () => {
  it('is shown as 0 with the flag; an overhead above zero is kept', () => {
    expect(shownOverhead(-0.98)).toEqual({ ms: 0, belowZero: true });
    expect(shownOverhead(1.8)).toEqual({ ms: 1.8, belowZero: false });
    expect(shownOverhead(0)).toEqual({ ms: 0, belowZero: false });
  });

  it('compares as 0 ms (history, compare view), while the document keeps −0.98', () => {
    const doc = belowZeroDoc();
    const m = resultMetrics(doc).find((x) => x.key === 'Files Read/overheadMs');
    expect(m?.values).toEqual([0]);
    expect(resultMetrics(doc).find((x) => x.key === 'Files Write/overheadMs')?.values[0]).toBeCloseTo(1.796, 2);
    expect(doc.files!.runs[0]!.read.theilSen!.overheadMs).toBe(-0.98);
  });

  it('Markdown and text exports print 0 with the reason, never −0.98', () => {
    const md = renderExport([belowZeroDoc()], 'md').text;
    expect(md).toMatch(new RegExp(`\\| 0(\\.0+)? \\(${OVERHEAD_BELOW_ZERO.replace(/[().]/g, '\\$&')}\\)`));
    expect(md).not.toMatch(/[−-]0\.98/);
    const txt = renderExport([belowZeroDoc()], 'txt').text;
    expect(txt).toMatch(/Read fit +: +[\d.]+ MB\/s \+ 0\.00 ms per file \(Theil–Sen; the fit's intercept is below zero/);
    expect(txt).not.toMatch(/[−-]0\.98/);
  });

  it('the share card says "too small to measure" instead of a negative or bare 0 ms', () => {
    const { svg } = renderCardSvg(belowZeroDoc());
    expect(svg).toContain('overhead too small to measure (Theil–Sen)');
    expect(svg).not.toMatch(/[−-]0\.98/);
    // The write pass's fit is above zero and keeps its figure.
    expect(svg).toMatch(/\+1\.8\d? ms per file \(Theil–Sen\)/);
  });
});
