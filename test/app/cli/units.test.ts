// Issue 14, point 9, on the CLI: one unit system per report, the one the test was asked in. A
// 1 GB Quick Test (which the engine runs as 953 MiB) reads "1 GB", never "953 MiB"; a test asked
// in MiB reads MiB throughout, its sustained verdict included.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { askedSizes, unitsOf } from '../../../app/src/model/size-units.js';
import { formatHashReport, formatReport } from '../../../app/src/cli/table.js';
import type { ResultDocument } from '../../../app/src/model/result.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as ResultDocument;
const MiB = 1024 * 1024;

/** Every size in a report (MB/s figures are speeds, not sizes). */
const sizes = (text: string): string[] => [...text.matchAll(/\b[\d.,]+ (?:[kMGT]i?B|KiB)\b(?!\/s)/g)].map((m) => m[0]);

describe('the unit system a test was asked in', () => {
  it('decimal unless every asked size was binary', () => {
    expect(unitsOf([1e9])).toBe('decimal');
    expect(unitsOf([953 * MiB])).toBe('decimal'); // "1 GB" aligned down to whole MiB
    expect(unitsOf([750e6])).toBe('decimal'); // "750 MB", as settings.size keeps it
    expect(unitsOf([715 * MiB])).toBe('binary'); // 715 MiB asked: never guessed as "750 MB" aligned
    expect(unitsOf([512e6])).toBe('decimal');
    expect(unitsOf([512 * MiB])).toBe('binary');
    expect(unitsOf([16 * MiB])).toBe('binary');
    expect(unitsOf([1.5 * 1024 * MiB])).toBe('binary');
    expect(unitsOf([4096, 64 * MiB])).toBe('binary');
    expect(unitsOf([4096, 64e6])).toBe('decimal');
    expect(unitsOf([])).toBe('decimal');
  });

  it('a Quick Test asked as 1 GB reads 1 GB, with no MiB anywhere', () => {
    const doc = load('quick');
    doc.settings.size = 953 * MiB; // what a 1 GB test runs
    expect(askedSizes(doc)).toEqual([953 * MiB]);
    const text = formatReport(doc);
    expect(text).toMatch(/, test file 1 GB$/m);
    expect(text).not.toMatch(/MiB|GiB/);
  });

  it('a Quick Test asked as 1 GiB reads 1 GiB, with no decimal size beside it', () => {
    const text = formatReport(load('quick'));
    expect(text).toMatch(/, test file 1 GiB$/m);
    expect(sizes(text)).toEqual(['1 GiB']);
  });

  it('a sustained write asked as 2 GB reads GB and MB throughout; asked in GiB, GiB and MiB throughout', () => {
    const decimal = formatReport(load('sustained'));
    expect(sizes(decimal).filter((s) => /iB/.test(s))).toEqual([]);
    expect(decimal).toMatch(/119 slices of 16\.8 MB\)$/m);

    const doc = load('sustained');
    const run = doc.sustained!.runs[0]!;
    doc.sustained!.requestedBytes = 2 * 1024 * MiB;
    doc.settings.size = 2 * 1024 * MiB;
    const binary = formatReport(doc);
    expect(binary).toMatch(/^Sustained write: up to 2 GiB asked, 1\.86 GiB written per run/m);
    // The verdict, saved in decimal words, is said again in binary.
    expect(binary).toMatch(/^No slowdown within 1\.86 GiB: 2,936 MB\/s throughout$/m);
    expect(binary).toMatch(new RegExp(`\\(0 – 1\\.86 GiB, peak \\d+ MB/s, ${run.curve.length} slices of 16 MiB\\)$`, 'm'));
    expect(sizes(binary).filter((s) => !/iB/.test(s))).toEqual([]);
  });

  it('the hash report names its generated file as asked', () => {
    const text = formatHashReport(load('hash'));
    expect(text).toMatch(/^DiskDial hash test of a 64 MiB test file in /m);
    expect(sizes(text.split('\n')[0]!)).toEqual(['64 MiB']);
  });
});
