// The trust verdict's law on generated results: any cache or plausibility flag, whatever severity
// a document gives it, makes the level warn and leaves the share card's cache dot not green, on
// every card layout and cache mode; with no warning at all, uncached results keep a green dot.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCardSvg } from '../../../../app/src/model/report/card.js';
import { COLOR } from '../../../../app/src/model/report/card-draw.js';
import type { ResultDocument, ResultFlag } from '../../../../app/src/model/result.js';
import { CACHE_FLAG_CODES, PLAUSIBILITY_FLAG_CODES, TRUST_RULE, trustOf } from '../../../../app/src/model/verdict/trust.js';

const fixtures = path.resolve(import.meta.dirname, '../../../fixtures/results');
const KINDS = ['cdm', 'files', 'hash', 'quick', 'small-files', 'sustained', 'sweep', 'video'] as const;
const docs = Object.fromEntries(
  KINDS.map((k) => [k, JSON.parse(readFileSync(path.join(fixtures, `${k}.json`), 'utf8')) as ResultDocument]),
);

const GATING = [...CACHE_FLAG_CODES, ...PLAUSIBILITY_FLAG_CODES];
const NOTES = ['network-fs', 'copy-on-write', 'machine-busy', 'engine-note', 'share-cache-off', 'disk-unknown'];

const flagOf = (codes: readonly string[]): fc.Arbitrary<ResultFlag> =>
  fc.record(
    { code: fc.constantFrom(...codes), message: fc.string(), fix: fc.string(), severity: fc.constantFrom('warning', 'info') },
    { requiredKeys: ['code', 'message', 'fix'] },
  );

/** The card's cache dot as drawn: the fill of the circle beside the method line. */
function dotFill(svg: string): string {
  const m = /<circle cx="33" cy="424\.5" r="4" fill="([^"]+)"\/>/.exec(svg);
  if (!m) throw new Error('no cache dot on the card');
  return m[1]!;
}

describe('the trust verdict', () => {
  it('law: a cache or plausibility flag means warn and a dot that is not green, on every card (1,000 cases)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        fc.constantFrom('direct', 'nocache', 'buffered-flushed', 'buffered'),
        fc.array(flagOf(NOTES), { maxLength: 3 }),
        fc.array(flagOf(GATING), { minLength: 1, maxLength: 3 }),
        (kind, cacheMode, notes, gating) => {
          const flags = [...notes, ...gating];
          const v = trustOf(flags);
          expect(v.level).toBe('warn');
          expect(v.outcome).toBe('warn');
          expect(v.warnings).toEqual(expect.arrayContaining(gating));
          expect(v.rule).toBe(TRUST_RULE);
          const doc = { ...docs[kind]!, cacheMode, flags };
          expect(dotFill(renderCardSvg(doc).svg)).not.toBe(COLOR.read);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('law: information flags alone keep the level ok and an uncached card green (1,000 cases)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        fc.array(
          flagOf(NOTES).map((f) => ({ ...f, severity: 'info' as const })),
          { maxLength: 4 },
        ),
        (kind, notes) => {
          expect(trustOf(notes).level).toBe('ok');
          expect(trustOf(notes).figures).toEqual({ warnings: 0, notes: notes.length });
          expect(dotFill(renderCardSvg({ ...docs[kind]!, flags: notes }).svg)).toBe(COLOR.read);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
