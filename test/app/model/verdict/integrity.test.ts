// The integrity verdict of a folder check (model/verdict/integrity.ts): intact only when every
// file is unchanged, failed with the counts otherwise, recorded for a first manifest; the CLI's
// exit code follows it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integrity, integrityText, INTEGRITY_EXIT } from '../../../../app/src/model/verdict/integrity.js';

const zero = { unchanged: 0, changed: 0, missing: 0, added: 0, unreadable: 0 };

describe('the integrity verdict', () => {
  it('1 changed and 1 missing file fail the check, with the counts', () => {
    const v = integrity({ ...zero, unchanged: 38, changed: 1, missing: 1 }, 'verify', 39);
    expect(v).toMatchObject({ family: 'integrity', outcome: 'failed', figures: { changed: 1, missing: 1, unchanged: 38 } });
    expect(integrityText(v)).toBe('Failed: 1 changed, 1 missing; 38 unchanged.');
    expect(INTEGRITY_EXIT[v.outcome]).toBe(1);
  });

  it('is intact only when every file is unchanged', () => {
    const v = integrity({ ...zero, unchanged: 1000 }, 'verify', 1000);
    expect(v.outcome).toBe('intact');
    expect(integrityText(v)).toBe('All 1,000 files unchanged.');
    expect(INTEGRITY_EXIT.intact).toBe(0);
  });

  it('a new, an unreadable file fails; a first manifest is recorded unless a file could not be read', () => {
    expect(integrityText(integrity({ ...zero, unchanged: 3, added: 1 }, 'update', 4))).toBe('Failed: 1 new; 3 unchanged.');
    expect(integrity({ ...zero, unreadable: 1 }, 'verify', 1).outcome).toBe('failed');
    const made = integrity(zero, 'create', 40);
    expect(made.outcome).toBe('recorded');
    expect(integrityText(made)).toBe('40 files hashed; manifest written.');
    expect(INTEGRITY_EXIT.recorded).toBe(0);
    const unread = integrity({ ...zero, unreadable: 2 }, 'create', 40);
    expect(unread.outcome).toBe('failed');
    expect(integrityText(unread)).toBe('Failed: 2 files could not be read; the manifest leaves them out.');
  });

  it('law: intact exactly when nothing changed, went missing, was unreadable or new', () => {
    const n = fc.nat({ max: 5 });
    fc.assert(
      fc.property(
        fc.record({ unchanged: fc.nat(), changed: n, missing: n, added: n, unreadable: n }),
        fc.constantFrom('verify', 'update'),
        (c, mode) => {
          const v = integrity(c, mode, c.unchanged + c.changed + c.added);
          const clean = c.changed + c.missing + c.added + c.unreadable === 0;
          expect(v.outcome).toBe(clean ? 'intact' : 'failed');
          expect(integrityText(v).startsWith(clean ? 'All ' : 'Failed: ')).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
