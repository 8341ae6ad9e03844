// The small-file kind: presets and ranges, one engine step whose spec carries the set, and the
// section and report figures its analysis makes from the engine's per-operation figures.
import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../../../../app/src/model/analysis.js';
import type { EngineResult, SmallFilesFigures } from '../../../../app/src/model/engine-types.js';
import { buildPlan } from '../../../../app/src/model/presets.js';
import { smallFiles } from '../../../../app/src/model/kinds/small-files/index.js';
import { SMALL_FILES_SCOPE } from '../../../../app/src/model/kinds/small-files/plan.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';

const ops = ['create', 'write', 'fsync', 'close', 'stat', 'open', 'read', 'delete'];
const figures: SmallFilesFigures = {
  files: 1000,
  fileBytes: 4096,
  seconds: 2,
  filesPerSecond: 500,
  msPerFile: 2,
  fileP50Ms: 1.5,
  fileP99Ms: 9,
  writeMBps: 3.2,
  readMBps: 40,
  ops: ops.map((op, i) => ({ op, count: 1000, totalMs: 250, meanMs: 0.25, p50Ms: 0.1 * (i + 1), p99Ms: i + 1, maxMs: 2 * (i + 1) })),
};

describe('the small-file plan', () => {
  it('quick: 1,000 files of 4 KiB in one engine step; nas: 25,600 (100 MiB)', () => {
    const plan = buildPlan('small-files', {});
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]!.spec.smallFiles).toEqual({ files: 1000, fileBytes: 4096 });
    expect(plan.steps[0]!.name).toBe('1,000 files of 4 KiB');
    expect(plan.steps[0]!.spec.keepFile).toBe(false);
    // Every view and export shows the notes: the scope is said wherever the figures are.
    expect(plan.notes).toEqual([SMALL_FILES_SCOPE]);
    const nas = buildPlan('small-files', { preset: 'nas' });
    expect(nas.settings.smallFiles).toEqual({ count: 25_600, fileBytes: 4096 });
    expect(nas.fileSize).toBe(100 * 1024 * 1024);
  });

  it('takes a count and a size, and refuses sizes outside 4 KiB–1 MiB', () => {
    const plan = buildPlan('small-files', { smallFiles: { count: 50, fileBytes: 6000 } });
    expect(plan.steps[0]!.spec.smallFiles).toEqual({ files: 50, fileBytes: 6000 });
    expect(plan.needBytes).toBe(50 * 8192); // whole 4 KiB blocks a file
    expect(() => buildPlan('small-files', { smallFiles: { fileBytes: 2048 } })).toThrow(/file size must be from 4 KiB to 1 MiB/);
    expect(() => buildPlan('small-files', { smallFiles: { fileBytes: 2 * 1024 * 1024 } })).toThrow(/4 KiB to 1 MiB/);
    expect(() => buildPlan('small-files', { smallFiles: { count: 0 } })).toThrow(/file count/);
  });
});

describe('the analysis', () => {
  const plan = buildPlan('small-files', {});
  const outcome: StepOutcome = {
    step: plan.steps[0]!,
    run: 1,
    result: { cacheMode: 'direct', engineVersion: '0.5.0', smallFiles: figures } as EngineResult,
  };

  it('makes the section with every operation kind and says what it measures', () => {
    const { smallFiles: s } = smallFiles.analyse(plan, [outcome]);
    expect(s!.scope).toBe(SMALL_FILES_SCOPE);
    expect(s!.scope).toMatch(/not only the disk/);
    expect(s!.runs[0]!.ops.map((o) => o.op)).toEqual(ops);
    expect(s!.runs[0]).toMatchObject({ filesPerSecond: 500, msPerFile: 2, writeMBps: 3.2, readMBps: 40, cacheMode: 'direct' });
  });

  it('an engine without the mode is named, with what to do', () => {
    const old = { ...outcome, result: { cacheMode: 'direct', engineVersion: '0.4.0' } as EngineResult };
    expect(() => smallFiles.analyse(plan, [old])).toThrow(/engine \(0\.4\.0\) did not run the small-file mode: rebuild it/);
  });

  it('report figures: files/s, ms per file and payload MB/s first, then p50 and p99 per operation', () => {
    const { smallFiles: s } = smallFiles.analyse(plan, [outcome]);
    const doc = { kind: 'small-files', smallFiles: s } as unknown as ResultDocument;
    const m = smallFiles.report.metrics(doc)!.metrics;
    expect(m.filter((x) => x.primary).map((x) => [x.label, x.unit, x.values[0]])).toEqual([
      ['Small files · files/s', 'files/s', 500],
      ['Small files · ms per file', 'ms', 2],
      ['Small files · write payload', 'MB/s', 3.2],
      ['Small files · read payload', 'MB/s', 40],
    ]);
    expect(m.find((x) => x.key === 'Small files/fsync.p99Ms')!.values).toEqual([3]);
    expect(smallFiles.report.titleParts(doc)).toEqual(['1,000 × 4 KiB']);
  });
});
