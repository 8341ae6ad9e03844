// How every view names a result and its figures (model/report/metrics.ts), on the real documents
// in test/fixtures/results.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  formatFigure,
  hostLine,
  methodLine,
  resultMetrics,
  resultName,
  resultTitle,
  sizeText,
  targetLine,
} from '../../../../app/src/model/report/metrics.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixture = (kind: string): ResultDocument =>
  JSON.parse(readFileSync(path.join(root, 'test/fixtures/results', `${kind}.json`), 'utf8')) as ResultDocument;
const KINDS = ['quick', 'cdm', 'sustained', 'files', 'hash'] as const;

describe('result metrics', () => {
  it('every figure of every kind has a unique key and one value per run', () => {
    for (const kind of KINDS) {
      const doc = fixture(kind);
      const metrics = resultMetrics(doc);
      expect(new Set(metrics.map((m) => m.key)).size).toBe(metrics.length);
      for (const m of metrics) {
        expect(m.values.length).toBe(kind === 'hash' ? 1 : doc.settings.runs);
        for (const v of m.values) expect(Number.isFinite(v)).toBe(true);
      }
      expect(metrics.some((m) => m.primary)).toBe(true);
    }
  });

  it('takes the values from the document, run by run', () => {
    const quick = fixture('quick');
    const write = resultMetrics(quick).find((m) => m.key === 'Write/mbps')!;
    expect(write.values).toEqual(
      quick.tests
        .filter((t) => t.name === 'Write')
        .sort((a, b) => a.run - b.run)
        .map((t) => t.mbps),
    );
    const p99 = resultMetrics(quick).find((m) => m.key === 'Read/p99Us')!;
    expect(p99).toMatchObject({ unit: 'µs', direction: 'lower', primary: false });
    const files = fixture('files');
    const agg = resultMetrics(files).find((m) => m.key === 'Files Read/mbps')!;
    expect(agg).toMatchObject({ primary: true, values: [files.files!.runs[0]!.read.mbps] });
    const hash = fixture('hash');
    expect(resultMetrics(hash).find((m) => m.key === 'Hash/readHash')!.values).toEqual([hash.hash!.readHash.mbps]);
  });

  it('names results and their method in plain words', () => {
    const quick = fixture('quick');
    expect(resultTitle(quick)).toBe('Quick Test · 1 GiB · 3 runs');
    expect(resultName(quick)).toBe('Boot disk');
    // Unlabelled: the folder, the minute it started (UTC) and the size — not "/ · 2026-11-22".
    expect(resultName({ ...quick, label: '  ' })).toBe('tmp · Nov 22 02:39 · 1 GiB');
    expect(resultName({ ...quick, label: undefined, target: { ...quick.target, path: '/' } })).toMatch(/^\/ · Nov 22 02:39 · 1 GiB$/);
    expect(resultName({ ...quick, label: undefined, target: { ...quick.target, path: '/media/me/Footage/' } })).toBe(
      'Footage · Nov 22 02:39 · 1 GiB',
    );
    // A hash of a generated file names the folder chosen, not DiskDial's hidden workspace in it.
    expect(resultName({ ...quick, label: undefined, target: { ...quick.target, path: '/media/me/.diskdial-8y4daM8S' } })).toBe(
      'me · Nov 22 02:39 · 1 GiB',
    );
    expect(resultTitle(fixture('cdm'))).toBe('CrystalDiskMark grid · Default · 64 MiB · 2 runs');
    expect(resultTitle(fixture('hash'))).toMatch(/^Hash test · SHA-256 · 64 MiB$/);
    expect(targetLine(quick)).toBe(`virtio (virtual disk) · ${quick.target.fs} · ${sizeText(quick.target.totalBytes, true)}`);
    expect(methodLine(quick)).toBe('uncached (direct I/O) · random data · writes flushed');
    expect(methodLine({ ...quick, cacheMode: 'buffered', dataPattern: 'zeros', settings: { ...quick.settings, runs: 1 } })).toBe(
      'CACHED (page cache) · zeros (compressible) · writes flushed',
    );
    expect(hostLine(quick)).toContain(`DiskDial ${quick.app.version} (engine ${quick.app.engine})`);
  });

  it('rounds figures to the precision their size deserves', () => {
    expect(formatFigure(1764.4)).toBe('1,764');
    expect(formatFigure(123.45)).toBe('123.5');
    expect(formatFigure(12.345)).toBe('12.3');
    expect(formatFigure(1.2345)).toBe('1.23');
    expect(formatFigure(0.12345)).toBe('0.123');
    expect(formatFigure(12.4, 'GB')).toBe('12.4');
    expect(formatFigure(NaN)).toBe('—');
    expect(sizeText(1024 ** 3)).toBe('1 GiB');
    expect(sizeText(64 * 1024 ** 2)).toBe('64 MiB');
    expect(sizeText(5e9)).toBe('5 GB');
    expect(sizeText(953 * 1024 ** 2)).toBe('1 GB'); // "1 GB" aligned down to whole MiB, named as chosen
    expect(sizeText(900 * 1024 ** 2)).toBe('900 MiB');
  });

  // A size is named as it was chosen (settings.size is the size asked): a decimal choice in GB/MB,
  // a binary one in MiB/GiB, never a guess at the round size it might have been aligned from.
  it('names a size as chosen: binary choices in MiB/GiB, decimal ones in MB/GB', () => {
    for (const [mib, named] of [
      [47, '47 MiB'], // was "50 MB": read as a 50 MB choice aligned down
      [95, '95 MiB'], // was "100 MB"
      [143, '143 MiB'], // was "150 MB"
      [19, '19 MiB'], // was "20 MB"
      [715, '715 MiB'], // was "750 MB"
      [48, '48 MiB'],
      [100, '100 MiB'],
      [16, '16 MiB'],
      [256, '256 MiB'],
      [512, '512 MiB'],
      [1536, '1.5 GiB'],
    ] as const)
      expect(sizeText(mib * 1024 ** 2), `${mib} MiB`).toBe(named);
    // "1.1 GiB" as the size box reads it (rounded to the byte).
    expect(sizeText(Math.round(1.1 * 1024 ** 3))).toBe('1.1 GiB');
    for (const [bytes, named] of [
      [20e6, '20 MB'],
      [250e6, '250 MB'],
      [256e6, '256 MB'],
      [750e6, '750 MB'],
      [1e9, '1 GB'],
      [1.5e9, '1.5 GB'],
      [4e9, '4 GB'],
      [10e9, '10 GB'],
      [16e9, '16 GB'],
    ] as const)
      expect(sizeText(bytes), `${bytes} B`).toBe(named);
    // A size nobody chose (a volume, bytes moved) in decimal units.
    expect(sizeText(128 * 1024 ** 2, true)).toBe('134 MB');
    expect(sizeText(1e12, true)).toBe('1 TB');
  });
});
