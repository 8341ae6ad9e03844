// The one trust rule (model/trust.ts) and its users: the share card and every export state the
// same verdict — or withhold the same contradicted one — as the screens.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderCardSvg } from '../../../app/src/model/report/card.js';
import { renderExport } from '../../../app/src/model/report/export.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { hashVerdictText, kneeWithheld, smallHashFileNote } from '../../../app/src/model/trust.js';
import { sustainedVerdictText } from '../../../app/src/model/kinds/sustained/report.js';
import { trustOf } from '../../../app/src/model/verdict/trust.js';
import { cow, loopCached } from '../../helpers/flags.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as ResultDocument;

describe('trustOf', () => {
  it('is green only when no warning fired; info flags keep it green', () => {
    expect(trustOf([]).level).toBe('ok');
    expect(trustOf([cow]).level).toBe('ok');
  });
  it('a warning turns it amber and names the flag', () => {
    const t = trustOf([cow, loopCached]);
    expect(t.level).toBe('warn');
    expect(t.named).toBe('loop device over the page cache');
    expect(t.warnings).toEqual([loopCached]);
    expect(t.title).toContain(loopCached.message);
  });
});

/** The hash fixture with read + hash faster than the plain read (681 vs 1,851 MB/s). */
function contradictedHash(): ResultDocument {
  const doc = load('hash');
  doc.hash!.read.mbps = 681;
  doc.hash!.readHash.mbps = 1851;
  doc.hash!.verdict = {
    ...doc.hash!.verdict,
    bound: 'storage',
    factor: 3.1,
    text: 'Storage-bound by 3.1×: one core could hash 3.1× what the disk delivers.',
  };
  return doc;
}

/** The sustained fixture with a knee found, on a loop device over the page cache. */
function cachedKnee(): ResultDocument {
  const doc = load('sustained');
  const run = doc.sustained!.runs[0]!;
  run.verdict = { kind: 'knee', kneeBytes: 487e6, beforeMBps: 2900, afterMBps: 600, change: -0.79 } as unknown as typeof run.verdict;
  run.summary = 'Fast cache ≈ 487 MB, then 600 MB/s (−79 %)';
  doc.flags = [loopCached];
  return doc;
}

describe('verdicts the figures contradict are withheld everywhere', () => {
  it('hash: read + hash > 1.1 × read withholds "Storage-bound" on the card and in every export', () => {
    const doc = contradictedHash();
    const said = hashVerdictText(doc)!;
    expect(said).toMatch(/^No verdict: read \+ hash \(1,851 MB\/s\) was faster than reading alone \(681 MB\/s\)/);
    expect(renderCardSvg(doc).svg).not.toContain('Storage-bound');
    for (const format of ['md', 'txt', 'html', 'csv', 'json'] as const) {
      const text = renderExport([doc], format).text;
      if (format !== 'json' && format !== 'csv') expect(text, format).toContain('No verdict: read + hash');
      if (format !== 'json') expect(text, format).not.toContain('Storage-bound by 3.1');
    }
    // The hasher is part of read + hash as well: beating one core's in-memory rate is withheld too.
    const busy = load('hash');
    busy.hash!.readHash.mbps = 266;
    busy.hash!.read.mbps = 491;
    busy.hash!.memory.mbps = 203;
    expect(hashVerdictText(busy)).toMatch(
      /^No verdict: read \+ hash \(266 MB\/s\) was faster than hashing in memory on one core \(203 MB\/s\)/,
    );
    expect(renderCardSvg(busy).svg).not.toContain(busy.hash!.verdict.text.slice(0, 20));
    // Figures that agree keep their verdict.
    expect(hashVerdictText(load('hash'))).toBe(load('hash').hash!.verdict.text);
  });

  it('sustained: a knee on a target flagged cached is withheld on the card and in the exports', () => {
    const doc = cachedKnee();
    const run = doc.sustained!.runs[0]!;
    expect(kneeWithheld(run.verdict, doc.flags)).toMatch(
      /^No fast-cache verdict: the target is flagged \(loop device over the page cache\)/,
    );
    expect(sustainedVerdictText(run, [])).toBe(run.summary);
    const svg = renderCardSvg(doc).svg;
    expect(svg).not.toContain('Fast cache');
    expect(svg).not.toContain('knee at');
    expect(renderExport([doc], 'md').text).toContain('No fast-cache verdict');
    expect(renderExport([doc], 'txt').text).not.toContain('Fast cache ≈ 487 MB');
  });
});

describe('the small-file note on a hash test', () => {
  it('is written in the units the file size is: MiB for a test file asked in MiB, MB otherwise', () => {
    const MiB = 1024 * 1024;
    expect(smallHashFileNote(64 * MiB)).toBe(
      'The file is small (64 MiB): start-up costs weigh on its read rates; a file of 1 GiB or more gives steadier figures.',
    );
    // A whole-MiB file is named in MiB: sizes are named from what was asked, never guessed from
    // bytes (95 MiB asked is not "100 MB"); a hash file named as asked needs the asked size stored.
    expect(smallHashFileNote(95 * MiB)).toMatch(/^The file is small \(95 MiB\): .* a file of 1 GiB or more/);
    expect(smallHashFileNote(100e6)).toMatch(/^The file is small \(100 MB\): .* a file of 1 GB or more/);
    expect(smallHashFileNote(8 * MiB + 123)).toMatch(/^The file is small \(8\.39 MB\)/);
    expect(smallHashFileNote(256 * MiB)).toBeUndefined();
  });
});
