// The claims audit on every result fixture: each verdict it states holds against its own figures,
// it renders in every export format, and compared with a copy of itself (the same runs, and the
// runs halved) each cell's claim holds against the cells' runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../../../app/src/model/report/compare.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { parseResultText } from '../../../../app/src/model/result-parse.js';
import { resultClaims } from '../../../../app/src/model/verdict/claims.js';
import { auditComparison, auditRenders, auditResult } from '../../../helpers/claims-audit.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/results');
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, parseResultText(readFileSync(path.join(dir, f), 'utf8'))] as const);

/** The same result with every figure scaled: a slower (or faster) copy of it. */
function scaled(doc: ResultDocument, k: number, id: string): ResultDocument {
  return { ...doc, id, tests: doc.tests.map((t) => ({ ...t, mbps: t.mbps * k, iops: t.iops * k })) };
}

describe('the claims audit', () => {
  it('has fixtures of every kind that states verdicts', () => {
    expect(fixtures.map(([f]) => f)).toEqual(expect.arrayContaining(['quick.json', 'hash.json', 'video.json', 'cdm.json']));
  });

  it.each(fixtures)('%s: every stated claim holds against its figures, and it renders in every format', (_f, doc) => {
    expect(resultClaims(doc).length).toBeGreaterThan(0);
    expect(auditResult(doc)).toEqual([]);
    expect(auditRenders(doc)).toEqual([]);
  });

  it.each(fixtures)('%s: against itself and at half speed, every cell claim holds against the runs', (_f, doc) => {
    for (const k of [1, 0.5, 3]) {
      const cmp = compareResults([doc, scaled(doc, k, `${doc.id}-x${k}`)]);
      expect(auditComparison(cmp)).toEqual([]);
    }
  });

  // The audit itself can fail: a claim changed to contradict its figures is caught.
  it('catches a will-it-work ✓ that its figures contradict, and a "same" across a 2× gap', () => {
    const quick = fixtures.find(([f]) => f === 'quick.json')![1];
    const slow = scaled(quick, 0.001, 'slow');
    expect(auditResult(slow)).toEqual([]);
    const cmp = compareResults([quick, scaled(quick, 0.25, 'quarter')]);
    const cell = cmp.rows[0]!.cells[1]!;
    cell.claim = { ...cell.claim!, outcome: 'same' };
    expect(auditComparison(cmp).join('\n')).toMatch(/the runs differ 0\.25×/);
  });
});
