import { describe, expect, it } from 'vitest';
import {
  askedInBinary,
  blockLabel,
  formatBytes,
  formatBytesBinary,
  formatBytesShort,
  formatLatencyUs,
  formatMBps,
  formatMBpsFigure,
  parseSize,
  parseTypedSize,
} from '../../../app/src/model/units.js';

describe('parseSize', () => {
  it.each([
    ['4096', 4096],
    ['4096B', 4096],
    ['512MiB', 512 * 2 ** 20],
    ['1GiB', 2 ** 30],
    ['4KiB', 4096],
    ['4Ki', 4096],
    ['1GB', 1e9],
    ['500MB', 5e8],
    ['4kB', 4000],
    // fio/dd convention: a bare unit letter is binary.
    ['4k', 4096],
    ['1M', 2 ** 20],
    ['1G', 2 ** 30],
    ['1.5GiB', 1.5 * 2 ** 30],
    [' 2 GiB ', 2 * 2 ** 30],
  ])('%s → %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['abc', '', '1X', 'GiB', '-1M', '1.2.3', '1i', '0.3k'])('rejects %j with a plain-words input error', (text) => {
    let err: unknown;
    try {
      parseSize(text, '--size');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect((err as { category: string }).category).toBe('input');
    expect((err as Error).message).toMatch(/--size/);
  });
});

describe('formatting', () => {
  it('uses decimal MB/GB unless labelled binary', () => {
    expect(formatBytes(2 ** 30)).toBe('1.07 GB');
    expect(formatBytes(512e6)).toBe('512 MB');
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytesBinary(512 * 2 ** 20)).toBe('512 MiB');
    expect(formatBytesBinary(1.5 * 2 ** 30)).toBe('1.5 GiB');
  });
  it('shows MB/s with precision that suits its size', () => {
    expect(formatMBps(1234.56)).toBe('1234.6 MB/s');
    expect(formatMBps(45.678)).toBe('45.68 MB/s');
  });
  it('labels blocks like CrystalDiskMark and latencies in µs or ms', () => {
    expect(blockLabel(2 ** 20)).toBe('1M');
    expect(blockLabel(4096)).toBe('4K');
    expect(blockLabel(512)).toBe('512');
    expect(formatLatencyUs(85.24)).toBe('85.2 µs');
    expect(formatLatencyUs(1234)).toBe('1.23 ms');
  });
});

describe('screen formats (one decimal, figures without units) and typed sizes', () => {
  it('keeps one decimal on screen where documents keep two, and says "—" for no figure', () => {
    expect(formatBytesShort(1_073_741_824)).toBe('1.1 GB');
    expect(formatBytes(1_073_741_824)).toBe('1.07 GB');
    expect(formatBytesShort(512e6)).toBe('512 MB');
    expect(formatBytesShort(900)).toBe('900 B');
    expect(formatBytesShort(Number.NaN)).toBe('—');
    expect(formatLatencyUs(-1)).toBe('—');
  });

  it('gives a readout its figure alone', () => {
    expect(formatMBpsFigure(1234.4)).toBe('1,234');
    expect(formatMBpsFigure(42.46)).toBe('42.5');
    expect(formatMBpsFigure(0)).toBe('0');
    expect(formatMBps(1234.4)).toBe('1234.4 MB/s');
  });

  it('reads a typed size: bare numbers are GB, binary only where labelled', () => {
    expect(parseTypedSize('750 MB')).toBe(750e6);
    expect(parseTypedSize('1.5')).toBe(1.5e9);
    expect(parseTypedSize('2 GiB')).toBe(2 * 1024 ** 3);
    expect(parseTypedSize('lots')).toBeNull();
  });
});

describe('the unit system a size was asked in', () => {
  it('binary sizes are whole KiB and never whole kB; decimal ones are whole kB', () => {
    expect(askedInBinary(4 * 1024 ** 2, 1024 ** 3)).toBe(true);
    expect(askedInBinary(64 * 1024)).toBe(true);
    // 16 MB is a whole number of KiB too (15,625 of them), and still decimal.
    expect(askedInBinary(16e6)).toBe(false);
    expect(askedInBinary(2e6, 6e8)).toBe(false);
    // Mixed: shown in the decimal default.
    expect(askedInBinary(4 * 1024 ** 2, 2e9)).toBe(false);
    expect(askedInBinary()).toBe(false);
  });
});
