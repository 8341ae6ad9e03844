// The Detailed screen's pure helpers: formatting, the settings payload, the CDM grid model
// (rows agree with the core's presets; best and median across runs), job progress in words
// and fractions, the sustained curve's shaping and marks, and the many-file model line.
import { describe, expect, it } from 'vitest';
import { CDM_PRESET_ROWS, CDM_PRESETS } from '@model/presets';
import { blockLabel, formatLatencyUs } from '@model/units';
import { DetailedSettings } from '@model/settings';

import {
  cdmCells,
  cellFigure,
  cellKey,
  gridRows,
  modeColumns,
  parseStepName,
  PRESET_ROWS,
  rowKey,
} from '../../../../renderer/src/lib/cdm-model';
import { CURVE_POINTS, downsampleCurve, liveLines, thinLive, verdictMarks } from '../../../../renderer/src/lib/curve';
import { modelLine, modelRate, sizeDomain } from '../../../../renderer/src/lib/files-model';
import { linearTicks, logTicks } from '../../../../renderer/src/lib/ticks';
import {
  formatBinarySize,
  formatCdmFigure,
  formatClock,
  formatGB,
  formatMs,
  formatSizeMB,
} from '../../../../renderer/src/lib/figure-format';
import { idleLine } from '../../../../renderer/src/components/job-bar-view';
import { jobFraction, progressLine, stepFraction } from '../../../../renderer/src/lib/job-progress';
import { DEFAULT_FORMS, toDetailedSettings, type Forms } from '../../../../renderer/src/features/detailed/kinds/index';
import { filesErrors } from '../../../../renderer/src/features/detailed/kinds/files-form';
import { GiB } from '../../../../renderer/src/features/detailed/form-rules';
import { cdmDoc, filesDoc, progress } from '../../helpers/detailed-fixtures';

describe('format', () => {
  it('latency: µs below a millisecond, ms above, as the CLI', () => {
    expect(formatLatencyUs(72.44)).toBe('72.4 µs');
    expect(formatLatencyUs(657.8)).toBe('658 µs');
    expect(formatLatencyUs(4994.458)).toBe('4.99 ms');
    expect(formatLatencyUs(2_500_000)).toBe('2.50 s');
    expect(formatLatencyUs(Number.NaN)).toBe('—');
  });

  it('grid figures per unit', () => {
    expect(formatCdmFigure(1669.67, 'MBps')).toBe('1,670');
    expect(formatCdmFigure(56.46, 'MBps')).toBe('56.5');
    expect(formatCdmFigure(1.66967, 'GBps')).toBe('1.670');
    expect(formatCdmFigure(115226.4, 'IOPS')).toBe('115,226');
    expect(formatCdmFigure(4994.46, 'us')).toBe('4,994');
    expect(formatCdmFigure(65.21, 'us')).toBe('65.2');
  });

  it('sizes and clocks', () => {
    expect(formatGB(12.4e9)).toBe('12.4');
    expect(formatGB(150e9)).toBe('150');
    expect(formatGB(0.25e9)).toBe('0.25');
    expect(formatSizeMB(2)).toBe('2 MB');
    expect(formatSizeMB(2000)).toBe('2 GB');
    expect(formatSizeMB(0.5)).toBe('500 kB');
    expect(formatBinarySize(16 * 1024 * 1024)).toBe('16 MiB');
    expect(formatBinarySize(GiB)).toBe('1 GiB');
    expect(formatClock(252)).toBe('4:12');
    expect(formatClock(5)).toBe('0:05');
    expect(formatMs(1.7959)).toBe('1.80 ms');
  });
});

describe('settings', () => {
  it('defaults: CrystalDiskMark 5 runs of 1 GiB, 5 s measured, 5 s apart', () => {
    const s = toDetailedSettings('cdm', DEFAULT_FORMS, '/media/t7');
    expect(s).toEqual({
      kind: 'cdm',
      target: '/media/t7',
      preset: 'default',
      mode: 'readwrite',
      sizeBytes: GiB,
      seconds: 5,
      intervalSeconds: 5,
      runs: 5,
      restSeconds: 0,
    });
    expect(DetailedSettings.parse(s)).toEqual(s);
  });

  it('rest is sent only with more than one run; minutes become seconds', () => {
    const one = toDetailedSettings('sustained', DEFAULT_FORMS, '/t');
    expect(one).toEqual({ kind: 'sustained', target: '/t', maxBytes: 50e9, runs: 1, restSeconds: 0 });
    const two = toDetailedSettings('sustained', { ...DEFAULT_FORMS, sustained: { maxBytes: 10e9, runs: 2, restMinutes: 5 } }, '/t');
    expect(two).toMatchObject({ runs: 2, restSeconds: 300 });
    expect(() => DetailedSettings.parse(two)).not.toThrow();
  });

  it('files: a preset sends no set; custom sends count and sizes in bytes (MB = 10^6)', () => {
    expect(toDetailedSettings('files', DEFAULT_FORMS, '/t')).toEqual({
      kind: 'files',
      target: '/t',
      preset: 'quick',
      runs: 1,
      restSeconds: 0,
    });
    const forms: Forms = { ...DEFAULT_FORMS, files: { ...DEFAULT_FORMS.files, preset: 'custom', count: 24, minMB: 2, maxMB: 200 } };
    const s = toDetailedSettings('files', forms, '/t');
    expect(s).toEqual({
      kind: 'files',
      target: '/t',
      preset: 'custom',
      runs: 1,
      restSeconds: 0,
      count: 24,
      minBytes: 2e6,
      maxBytes: 200e6,
    });
    expect(() => DetailedSettings.parse(s)).not.toThrow();
  });

  it('files: a custom set out of range or upside down is refused before it is sent', () => {
    const f = { ...DEFAULT_FORMS.files, preset: 'custom' as const };
    expect(filesErrors(f)).toEqual({});
    expect(filesErrors({ ...f, count: 1 }).count).toMatch(/2 to 10,000/);
    expect(filesErrors({ ...f, minMB: 0.001 }).minMB).toMatch(/Smallest file/);
    expect(filesErrors({ ...f, minMB: 500, maxMB: 100 }).maxMB).toBe('The largest file cannot be smaller than the smallest.');
    expect(filesErrors({ ...f, runs: Number.NaN }).runs).toMatch(/Runs/);
    // A preset ignores the custom fields.
    expect(filesErrors({ ...f, preset: 'quick', count: 1 })).toEqual({});
  });
});

describe('CDM grid model', () => {
  it('its rows are the core presets’ rows', () => {
    for (const p of CDM_PRESETS) {
      const core = CDM_PRESET_ROWS[p].map((r) => `${r.seq ? 'SEQ' : 'RND'}${blockLabel(r.bs)} Q${r.qd}T${r.threads}`);
      expect(PRESET_ROWS[p]).toEqual(core);
    }
  });

  it('places steps in rows and columns', () => {
    expect(parseStepName('SEQ1M Q8T1 Read')).toEqual({ row: 'SEQ1M Q8T1', col: 'read' });
    expect(parseStepName('RND4K Q32T16 Write')).toEqual({ row: 'RND4K Q32T16', col: 'write' });
    expect(parseStepName('RND4K Q32T1 Mix 70/30')).toEqual({ row: 'RND4K Q32T1', col: 'mix' });
    expect(parseStepName('Write file 3/24 (65 MB)')).toBeNull();
    expect(rowKey('SEQ1M Q8T1')).toBe('SEQ1M-Q8T1');
    expect(modeColumns('all')).toEqual(['read', 'write', 'mix']);
    expect(modeColumns('write')).toEqual(['write']);
    expect(gridRows([], 'realworld')).toEqual(['SEQ1M Q1T1', 'RND4K Q1T1']);
    expect(gridRows(['RND4K Q1T1 Read', 'SEQ1M Q8T1 Read', 'RND4K Q1T1 Write'], 'default')).toEqual(['RND4K Q1T1', 'SEQ1M Q8T1']);
  });

  it('best of the runs big, median beside it — from tests alone and from the summary alike', () => {
    const doc = cdmDoc();
    const fromTests = cdmCells(doc.tests);
    const fromSummary = cdmCells(doc.tests, doc.summary);
    for (const cells of [fromTests, fromSummary]) {
      const c = cells.get(cellKey('SEQ1M Q8T1', 'read'))!;
      expect(c.runs).toBe(2);
      expect(c.mbps.best).toBeCloseTo(1669.6655, 3);
      expect(c.mbps.median).toBeCloseTo(1648.4143, 3);
      // Latency: the best is the lowest.
      expect(c.meanUs.best).toBeCloseTo(4994.458, 2);
      expect(cellFigure(c, 'GBps').best).toBeCloseTo(1.6697, 4);
      expect(c.bestRun.run).toBe(1);
    }
    // One run: no median.
    const single = cdmCells(doc.tests.filter((t) => t.run === 1));
    expect(single.get(cellKey('SEQ1M Q8T1', 'read'))!.mbps.median).toBeNull();
  });
});

describe('job progress', () => {
  it('a step ends at its bytes or its time, whichever first', () => {
    expect(stepFraction(progress({ elapsed: 2.5, secondsTotal: 5 }))).toBe(0.5);
    expect(stepFraction(progress({ bytesDone: 3e9, bytesTotal: 4e9, secondsTotal: 0 }))).toBe(0.75);
    expect(stepFraction(progress({ stage: 'rest', secondsTotal: 300, remaining: 60 }))).toBeCloseTo(0.8);
  });

  it('the whole job counts every step of every run alike', () => {
    // Run 2 of 2, step 4 of 8 half done: (8 + 4 + 0.5) / 16.
    expect(jobFraction(progress({ run: 2, runs: 2, testIndex: 4, elapsed: 2.5 }))).toBeCloseTo(12.5 / 16);
    // A rest before run 2 counts as run 2 not yet begun.
    expect(jobFraction(progress({ stage: 'rest', run: 2, runs: 2, testIndex: 0, secondsTotal: 300, remaining: 100 }))).toBe(0.5);
    // The core sends a pause with step 0: the steps finished so far say where the job is.
    expect(jobFraction(progress({ stage: 'interval', run: 1, runs: 2, testIndex: 0, secondsTotal: 5, remaining: 3 }), 5)).toBe(5 / 16);
    expect(jobFraction(progress({ run: 1, runs: 2, testIndex: 5, elapsed: 2.5 }), 5)).toBe(5.5 / 16);
  });

  it('says what is happening in plain words', () => {
    expect(progressLine(progress({ run: 1, runs: 5 }))).toBe('Run 1 of 5 · SEQ1M Q8T1 Read · measuring');
    expect(progressLine(progress({ stage: 'prepare' }))).toBe('SEQ1M Q8T1 Read · preparing');
    expect(progressLine(progress({ stage: 'flush' }))).toBe('SEQ1M Q8T1 Read · flushing');
    expect(progressLine(progress({ stage: 'rest', run: 2, runs: 3, secondsTotal: 300, remaining: 252 }))).toBe('Resting 4:12 before run 2');
    expect(progressLine(progress({ stage: 'interval', secondsTotal: 5, remaining: 5 }))).toBe('pause 5 s');
  });
});

describe('sustained curve', () => {
  it('draws at most CURVE_POINTS points a line, averaging buckets', () => {
    const pts = Array.from({ length: 5000 }, (_, i) => ({ bytes: (i + 1) * 1e7, mbps: i < 2500 ? 3000 : 1000 }));
    const out = downsampleCurve(pts);
    expect(out).toHaveLength(CURVE_POINTS);
    expect(out[0]!.mbps).toBe(3000);
    expect(out.at(-1)).toEqual({ bytes: 5000 * 1e7, mbps: 1000 });
    expect(downsampleCurve(pts.slice(0, 10))).toHaveLength(10);
  });

  it('thins live points within a run and splits lines by run', () => {
    const live = [
      { run: 1, bytes: 1, mbps: 10 },
      { run: 1, bytes: 2, mbps: 20 },
      { run: 1, bytes: 3, mbps: 30 },
      { run: 2, bytes: 1, mbps: 40 },
    ];
    expect(thinLive(live)).toEqual([
      { run: 1, bytes: 2, mbps: 15 },
      { run: 1, bytes: 3, mbps: 30 },
      { run: 2, bytes: 1, mbps: 40 },
    ]);
    const lines = liveLines(live);
    expect(lines.map((l) => l.run)).toEqual([1, 2]);
    expect(lines[0]!.points[0]).toEqual({ gb: 1e-9, mbps: 10 });
  });

  it('marks every run’s knee and the first run’s levels; a varying run gets a band', () => {
    const knee = (kneeBytes: number) => ({
      kind: 'knee' as const,
      kneeBytes,
      beforeMBps: 3000,
      afterMBps: 800,
      lowestMBps: 700,
      change: -0.73,
    });
    const one = verdictMarks([{ run: 1, verdict: knee(12.4e9) }]);
    expect(one.knees).toEqual([{ run: 1, gb: 12.4, label: 'cache full ≈ 12.4 GB' }]);
    expect(one.levels.map((l) => l.label)).toEqual(['before 3,000 MB/s', 'after 800 MB/s']);
    // A cache under 1 GB is said in MB.
    expect(verdictMarks([{ run: 1, verdict: knee(84.3e6) }]).knees[0]!.label).toBe('cache full ≈ 84 MB');
    const two = verdictMarks([
      { run: 1, verdict: knee(12.4e9) },
      { run: 2, verdict: knee(6e9) },
    ]);
    expect(two.knees.map((k) => k.label)).toEqual(['run 1: cache full ≈ 12.4 GB', 'run 2: cache full ≈ 6 GB']);
    expect(two.levels).toHaveLength(2);
    expect(verdictMarks([{ run: 1, verdict: { kind: 'steady', mbps: 2000 } }])).toEqual({ knees: [], levels: [], band: null });
    expect(verdictMarks([{ run: 1, verdict: { kind: 'varies', minMBps: 600, maxMBps: 1900, medianMBps: 1200, drops: 3 } }]).band).toEqual({
      min: 600,
      max: 1900,
    });
  });
});

describe('many-file model', () => {
  const fit = filesDoc().files!.runs[0]!.write.theilSen!;

  it('rate(size) = size / (intercept + slope·size) / 10^6, rising toward 1/slope', () => {
    expect(modelRate(fit, 100e6)).toBeCloseTo(100e6 / (fit.intercept + fit.slope * 100e6) / 1e6, 9);
    const line = modelLine(fit, [1, 10_000]);
    expect(line).toHaveLength(48);
    for (let i = 1; i < line.length; i++) expect(line[i]!.mbps).toBeGreaterThan(line[i - 1]!.mbps);
    expect(line.at(-1)!.mbps).toBeLessThan(fit.rateMBps);
    expect(line.at(-1)!.mbps).toBeGreaterThan(fit.rateMBps * 0.99);
    // A negative time has no rate.
    expect(modelRate({ slope: 1e-9, intercept: -1 }, 1e6)).toBeNull();
  });

  it('axis range and ticks', () => {
    expect(sizeDomain([2, 600])).toEqual([2 / 1.3, 600 * 1.3]);
    expect(sizeDomain([])).toBeNull();
    expect(logTicks([1.5, 780])).toEqual([2, 5, 10, 20, 50, 100, 200, 500]);
    expect(logTicks([1.5, 2600])).toEqual([10, 100, 1000]);
    expect(linearTicks(2100)).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(linearTicks(1900)).toEqual([0, 500, 1000, 1500, 2000]);
  });
});

describe('job bar idle line', () => {
  it('says what finished is shown below only when something finished, and never "Ready" beside an error', () => {
    expect(idleLine('failed', undefined, 0)).toBe('Failed before any step finished.');
    expect(idleLine('failed', undefined, 2)).toBe('Failed. What finished before the error is shown below.');
    expect(idleLine('stopped', undefined, 0)).toBe('Stopped before any step finished.');
    expect(idleLine('stopped', undefined, 1)).toBe('Stopped. What finished before the stop is shown below.');
    expect(idleLine(null, undefined, 0, true)).toBe('Not started.');
    expect(idleLine(null, 3)).toBe('Done · 3 runs');
    expect(idleLine(null, undefined)).toBe('Ready');
  });
});
