// Sizes named as chosen (issue 33, screen item 3): the sustained write's and the verify test's
// titles and comparisons name the size the user asked for ("100 GiB", "10 GB") when that is what
// ran, not the MiB-aligned bytes read back as a guess ("107 GB" for 100 GiB, "68.7 GB" for 64 GiB),
// and a size free space set, which nobody chose, in GB.
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../../app/src/model/presets.js';
import { sustained } from '../../../../app/src/model/kinds/sustained/index.js';
import { verify } from '../../../../app/src/model/kinds/verify/index.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { hash } from '../../../../app/src/model/kinds/hash.js';
import { hashFileBytes, smallHashFileNote } from '../../../../app/src/model/trust.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const target = { freeBytes: 1000e9, totalBytes: 2000e9 };
const small = { freeBytes: 30e9, totalBytes: 100e9 };

function sustainedDoc(size: number, on = target): ResultDocument {
  const plan = buildPlan('sustained', { size }, on);
  const s = plan.sustained!;
  const section = {
    requestedBytes: s.requestedBytes,
    plannedBytes: plan.fileSize,
    limitedBy: s.limitedBy,
    reserveBytes: s.reserveBytes,
    runs: [],
  };
  return { kind: 'sustained', sustained: section, settings: { ...plan.settings, runs: 1 }, flags: [] } as unknown as ResultDocument;
}

function verifyDoc(size: number | undefined, on = target): ResultDocument {
  const plan = buildPlan('verify', size !== undefined ? { size } : {}, on);
  const v = plan.verify!;
  const section = {
    ...(v.requestedBytes !== undefined ? { requestedBytes: v.requestedBytes } : {}),
    plannedBytes: plan.fileSize,
    limitedBy: v.limitedBy,
  };
  return { kind: 'verify', verify: section, settings: { ...plan.settings, runs: 1 }, flags: [] } as unknown as ResultDocument;
}

const facet = (report: { comparable?: (d: ResultDocument, f: Map<string, string>) => boolean }, doc: ResultDocument, key: string) => {
  const f = new Map<string, string>();
  report.comparable!(doc, f);
  return f.get(key);
};

describe('the sustained write names its size as chosen', () => {
  it.each([
    [50e9, '50 GB'],
    [10e9, '10 GB'],
    [100 * GiB, '100 GiB'],
    [1.5 * GiB, '1.5 GiB'],
    [700 * MiB, '700 MiB'],
  ])('%d B asked: "up to %s"', (size, named) => {
    const doc = sustainedDoc(size);
    expect(sustained.report.titleParts!(doc)).toEqual([`up to ${named}`]);
    expect(facet(sustained.report, doc, 'amount written')).toBe(named);
  });

  it('a size free space set is in GB; the note names the size asked as chosen', () => {
    const doc = sustainedDoc(100 * GiB, small);
    expect(doc.sustained!.limitedBy).toBe('free-space');
    expect(sustained.report.titleParts!(doc)).toEqual(['up to 25 GB']);
    expect(sustained.report.statements!(doc).map((s) => s.text)).toContain('Limited by free space to 25 GB (asked for 100 GiB).');
  });
});

describe('the verify test names its size as chosen', () => {
  it.each([
    [10e9, '10 GB'],
    [64 * GiB, '64 GiB'],
    [700 * MiB, '700 MiB'],
  ])('%d B asked: "%s written and read back"', (size, named) => {
    const doc = verifyDoc(size);
    expect(verify.report.titleParts!(doc)).toEqual([`${named} written and read back`]);
    expect(facet(verify.report, doc, 'amount verified')).toBe(named);
  });

  it('all of the free space, which nobody chose as a size, in GB', () => {
    const doc = verifyDoc(undefined, small);
    expect(verify.report.titleParts!(doc)).toEqual(['25 GB written and read back']);
  });
});

describe('the hash test names a generated file by the size asked', () => {
  // A "100 MB" test file is written as 95 whole MiB: named "100 MB" (title, comparison, card,
  // the small-file note), where the bytes alone would read "95 MiB". A user's own file keeps its bytes.
  const hashDoc = (asked: number, bytes: number, generated: boolean): ResultDocument =>
    ({
      kind: 'hash',
      settings: { size: asked, pattern: 'random', cache: 'direct', runs: 1 },
      hash: { algo: 'sha256', file: { path: '/t/f', bytes, generated } },
      flags: [],
    }) as unknown as ResultDocument;

  it('a generated file as asked, a user file by its bytes', () => {
    const asked = hashDoc(100e6, 95 * MiB, true);
    expect(hashFileBytes(asked)).toBe(100e6);
    expect(hash.report.titleParts(asked)).toEqual(['SHA-256', '100 MB']);
    expect(facet(hash.report, asked, 'file size')).toBe('100 MB');
    expect(smallHashFileNote(95 * MiB, 100e6)).toContain('(100 MB)');
    const own = hashDoc(95 * MiB, 95 * MiB, false);
    expect(hash.report.titleParts(own)).toEqual(['SHA-256', '95 MiB']);
  });
});
