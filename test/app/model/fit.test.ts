import { describe, expect, it } from 'vitest';
import { defaultReserve, FREE_SPACE_RESERVE, fitTest, roundDownSize, sizeLimitsText } from '../../../app/src/model/fit.js';
import { parseTypedSize } from '../../../app/src/model/units.js';
import { fitPlan, MiB } from '../../../app/src/model/presets.js';

describe('fitTest: the one rule for "will this test fit"', () => {
  it('a 1 GB test does not fit in 52 MB free: the reason says what it needs, what it keeps free and why, and the largest that fits', () => {
    const f = fitTest({ needBytes: 1e9, freeBytes: 52.7e6, totalBytes: 1.1e9, sizing: 'fixed', minBytes: 16 * MiB });
    expect(f.fits).toBe(false);
    expect(f.reserveBytes).toBe(FREE_SPACE_RESERVE);
    expect(f.largestBytes).toBe(35e6); // 52.7 MB − 16.8 MB, whole MB
    expect(f.reason).toBe(
      "Not enough free space: this test needs 1 GB and keeps 16.8 MB free for the file system's own bookkeeping and other programs writing meanwhile; 52.7 MB is free. The largest that fits is 35 MB.",
    );
  });

  it('fits when the file plus the head-room is free, and not one byte less', () => {
    const need = 100e6;
    expect(fitTest({ needBytes: need, freeBytes: need + FREE_SPACE_RESERVE, totalBytes: 1e9, sizing: 'fixed' }).fits).toBe(true);
    expect(fitTest({ needBytes: need, freeBytes: need + FREE_SPACE_RESERVE - 1, totalBytes: 1e9, sizing: 'fixed' }).fits).toBe(false);
  });

  it('offers nothing when not even the smallest test fits', () => {
    const f = fitTest({ needBytes: 1e9, freeBytes: 20e6, totalBytes: 1e9, sizing: 'fixed', minBytes: 16 * MiB, where: '/mnt/x' });
    expect(f.largestBytes).toBe(0);
    expect(f.reason).toMatch(/^Not enough free space on \/mnt\/x: .* Free some space or choose another drive\.$/);
  });

  it('a sized test keeps max(512 MiB, 5 %) and says why', () => {
    const f = fitTest({ needBytes: 64 * MiB, freeBytes: 300e6, totalBytes: 1.1e9, sizing: 'sized' });
    expect(f.reserveBytes).toBe(defaultReserve(1.1e9));
    expect(f.fits).toBe(false);
    expect(f.reserveText).toBe('keeps 537 MB free so the system and other apps keep working (5 % of the volume, at least 537 MB)');
  });

  it('rounds offers to sizes people type', () => {
    expect(roundDownSize(1.2345e9)).toBe(1.2e9);
    expect(roundDownSize(987.6e6)).toBe(987e6);
    expect(roundDownSize(-5)).toBe(0);
  });
});

describe('fitPlan: each test kind through the same rule', () => {
  const small = { freeBytes: 52.7e6, totalBytes: 1.1e9 };
  it('Quick and CrystalDiskMark need their file', () => {
    expect(fitPlan('quick', { size: 1e9 }, small)).toMatchObject({ fits: false, largestBytes: 35e6 });
    expect(fitPlan('quick', { size: 30e6 }, small).fits).toBe(true);
    expect(fitPlan('cdm', { size: 1024 * MiB }, small)).toMatchObject({ fits: false, largestBytes: 35e6 });
  });
  it('sustained and many files shrink to what is free less their reserve, and say when even the least does not fit', () => {
    const s = fitPlan('sustained', {}, small);
    expect(s.fits).toBe(false);
    expect(s.reason).toMatch(/keeps 537 MB free so the system and other apps keep working/);
    expect(fitPlan('files', { preset: 'quick' }, small).fits).toBe(false);
    expect(fitPlan('sustained', {}, { freeBytes: 2e9, totalBytes: 4e9 }).fits).toBe(true);
    // A scaled set keeps 40 files, the same spread, smaller (down to 4 KiB for the smallest).
    expect(fitPlan('files', { preset: 'quick', reserveBytes: 0 }, small).fits).toBe(true);
    expect(fitPlan('files', { preset: 'quick', reserveBytes: 0 }, { freeBytes: 5e6, totalBytes: 1.1e9 }).fits).toBe(false);
  });
});

describe('sizeLimitsText: the limits in the unit the size was typed in', () => {
  it('answers a size typed in MB or GB in whole MB and GB inside the contract, and one typed in MiB or GiB in them', () => {
    for (const typed of ['8 MB', '100 GB', '70', '8 m', '']) expect(sizeLimitsText(typed), typed).toBe('Between 17 MB and 68 GB.');
    for (const typed of ['8 MiB', '100 GiB', '100gib']) expect(sizeLimitsText(typed), typed).toBe('Between 16 MiB and 64 GiB.');
    // Every size in the decimal range is one the contract takes (16 MiB … 64 GiB), its ends included.
    expect(parseTypedSize('17 MB')!).toBeGreaterThanOrEqual(16 * MiB);
    expect(parseTypedSize('16 MB')!).toBeLessThan(16 * MiB);
    expect(parseTypedSize('68 GB')!).toBeLessThanOrEqual(64 * 1024 * MiB);
    expect(parseTypedSize('69 GB')!).toBeGreaterThan(64 * 1024 * MiB);
  });
});
