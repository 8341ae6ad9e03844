// The many-file test's set: seeded, log-uniform, reproducible, and scaled to free space honestly.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILES_SEED, FILES_PRESET_OPTIONS, fitFileSet, makeFileSet, prng, roundFileSize } from '../../../app/src/model/file-set.js';

const MiB = 1024 * 1024;

describe('prng', () => {
  it('is deterministic per seed and uniform enough on [0, 1)', () => {
    const a = prng(7);
    const b = prng(7);
    const xs = Array.from({ length: 10000 }, () => a());
    expect(Array.from({ length: 10000 }, () => b())).toEqual(xs);
    expect(prng(8)()).not.toBe(xs[0]);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    // Each tenth of [0, 1) holds 1000 ± 4 sigma (sigma = sqrt(10000 · 0.1 · 0.9) = 30).
    const bins = new Array<number>(10).fill(0);
    for (const x of xs) {
      const b = Math.floor(x * 10);
      bins[b] = (bins[b] ?? 0) + 1;
    }
    for (const n of bins) expect(Math.abs(n - 1000)).toBeLessThan(120);
  });
});

describe('makeFileSet', () => {
  it('is the same set for the same options, a different one for another seed', () => {
    const o = { ...FILES_PRESET_OPTIONS.quick, seed: DEFAULT_FILES_SEED };
    expect(makeFileSet(o)).toEqual(makeFileSet(o));
    expect(makeFileSet({ ...o, seed: 1 }).entries.map((e) => e.bytes)).not.toEqual(makeFileSet(o).entries.map((e) => e.bytes));
  });

  it('draws sizes log-uniformly: as many files per decade at the small end as at the large', () => {
    const set = makeFileSet({ count: 3000, minBytes: 2e6, maxBytes: 2e9, seed: 1 });
    // Three decades (2–20 MB, 20–200 MB, 200 MB–2 GB): a third each, within ±4 sigma (sigma ≈ 26).
    const decades = [0, 0, 0];
    for (const e of set.entries) {
      const d = Math.min(2, Math.floor(Math.log10(e.bytes / 2e6)));
      decades[d] = (decades[d] ?? 0) + 1;
    }
    for (const n of decades) expect(Math.abs(n - 1000)).toBeLessThan(104);
    for (const e of set.entries) {
      expect(e.bytes).toBeGreaterThanOrEqual(2 * MiB);
      expect(e.bytes).toBeLessThanOrEqual(2e9);
      expect(e.bytes % MiB).toBe(0);
      expect(e.bs).toBe(MiB);
    }
  });

  it('names files in draw order, and both orders are permutations of the set', () => {
    const set = makeFileSet({ count: 50, minBytes: 4096, maxBytes: 8 * MiB, seed: 3 });
    expect(set.entries[0]!.name).toBe('file-0001.dat');
    expect(set.entries[49]!.name).toBe('file-0050.dat');
    expect([...set.writeOrder].sort((a, b) => a - b)).toEqual(set.entries.map((e) => e.index));
    expect([...set.readOrder].sort((a, b) => a - b)).toEqual(set.entries.map((e) => e.index));
    expect(set.writeOrder).not.toEqual(set.readOrder);
    expect(set.totalBytes).toBe(set.entries.reduce((a, e) => a + e.bytes, 0));
    // Small files: whole 4 KiB units, and the largest power-of-two block that divides them.
    for (const e of set.entries) {
      expect(e.bytes % e.bs).toBe(0);
      expect(e.bs).toBeGreaterThanOrEqual(4096);
      expect(e.bs).toBeLessThanOrEqual(MiB);
    }
  });

  it('rounds sizes to units uncached I/O can use', () => {
    expect(roundFileSize(2e6)).toBe(2 * MiB); // 1.907 MiB → 2 MiB
    expect(roundFileSize(1.4 * MiB)).toBe(MiB);
    expect(roundFileSize(10000)).toBe(8192); // 2.44 × 4 KiB → 2 units
    expect(roundFileSize(100)).toBe(4096);
  });

  it.each([
    [{ count: 1 }, /file count/],
    [{ count: 10001 }, /file count/],
    [{ minBytes: 100 }, /at least 4 KiB/],
    [{ maxBytes: 1e6, minBytes: 2e6 }, /at least as large/],
    [{ seed: -1 }, /seed/],
  ])('rejects %j', (over, message) => {
    expect(() => makeFileSet({ count: 10, minBytes: 2e6, maxBytes: 2e9, seed: 1, ...over })).toThrow(message);
  });
});

describe('fitFileSet', () => {
  const o = { ...FILES_PRESET_OPTIONS.quick, seed: DEFAULT_FILES_SEED };

  it('keeps the whole set when it fits, with no note', () => {
    const { set, note } = fitFileSet(o, 1e12);
    expect(set).toEqual(makeFileSet(o));
    expect(note).toBeUndefined();
  });

  it('keeps the first files of the same sequence while at least 40 of them fit', () => {
    const std = { ...FILES_PRESET_OPTIONS.standard, seed: DEFAULT_FILES_SEED };
    const full = makeFileSet(std);
    const { set, note } = fitFileSet(std, 20e9);
    expect(set.totalBytes).toBeLessThanOrEqual(20e9);
    expect(set.entries.length).toBeGreaterThanOrEqual(40);
    expect(set.entries.map((e) => e.bytes)).toEqual(full.entries.slice(0, set.entries.length).map((e) => e.bytes));
    // As many as fit: the next file of the sequence would not.
    expect(set.totalBytes + full.entries[set.entries.length]!.bytes).toBeGreaterThan(20e9);
    expect(note).toMatch(/^Free space \(20 GB usable\) is short of the 160 files/);
  });

  it('keeps 40 files with the same spread, smaller, where fewer would fit at full size', () => {
    // Stibium Standard on a 1.5–3 GB volume used to shrink to 8–9 files: a fit on 8 points.
    const std = { ...FILES_PRESET_OPTIONS.standard, seed: DEFAULT_FILES_SEED };
    for (const room of [1.5e9, 3e9, 5e8]) {
      const { set, note } = fitFileSet(std, room);
      expect(set.entries).toHaveLength(40);
      expect(set.totalBytes).toBeLessThanOrEqual(room);
      // Filling at least 90 % of the room: the factor steps by 3 %.
      expect(set.totalBytes).toBeGreaterThan(0.9 * room);
      // The same log-uniform spread: largest over smallest drawn as in the full set (1000×).
      expect(set.options.maxBytes / set.options.minBytes).toBeCloseTo(1000, -1);
      expect(note).toMatch(/scaled down to 40 files of .* the same spread of sizes, smaller\.$/);
    }
  });

  it('refuses in plain words when not even 40 files from 4 KiB fit', () => {
    expect(() => fitFileSet(o, 5e6)).toThrow(
      /Not enough free space for a many-file test: 5 MB usable, and 40 files .* of at least 4 KiB each/,
    );
  });
});
