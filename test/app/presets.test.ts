import { describe, expect, it } from 'vitest';
import type { EngineSpec } from '../../app/src/core/engine-types.js';
import { buildPlan, GiB, MiB, TEST_KINDS, type PlanStep } from '../../app/src/core/presets.js';

// What the engine contract (engine-types.ts) accepts.
function assertValidSpec(s: PlanStep['spec']): void {
  const spec: Omit<EngineSpec, 'path'> = s;
  expect(['read', 'write', 'randread', 'randwrite', 'randrw']).toContain(spec.rw);
  expect(Number.isInteger(Math.log2(spec.bs))).toBe(true);
  expect(spec.bs).toBeGreaterThanOrEqual(512);
  expect(spec.bs).toBeLessThanOrEqual(64 * MiB);
  expect(spec.qd).toBeGreaterThanOrEqual(1);
  expect(spec.qd).toBeLessThanOrEqual(64);
  expect(spec.threads).toBeGreaterThanOrEqual(1);
  expect(spec.threads).toBeLessThanOrEqual(64);
  expect(spec.fileSize % (spec.bs * spec.threads)).toBe(0);
  expect(spec.fileSize).toBeGreaterThan(0);
  expect(['random', 'zeros']).toContain(spec.pattern);
  expect(['auto', 'buffered-flushed', 'buffered']).toContain(spec.cache);
  if (spec.rw === 'randrw') expect(spec.rwmixread).toBe(70);
}

describe('buildPlan', () => {
  it.each(TEST_KINDS)('%s produces valid specs on one shared file', (kind) => {
    const plan = buildPlan(kind);
    expect(plan.steps.length).toBeGreaterThan(0);
    for (const step of plan.steps) {
      assertValidSpec(step.spec);
      expect(step.spec.fileSize).toBe(plan.fileSize);
    }
    // Only the last step may delete the file; every earlier one keeps it for the next.
    plan.steps.slice(0, -1).forEach((s) => expect(s.spec.keepFile).toBe(true));
    expect(plan.steps.at(-1)!.spec.keepFile).toBe(false);
  });

  it('quick: Blackmagic-style write then read, 1 GB by default', () => {
    const plan = buildPlan('quick');
    expect(plan.steps.map((s) => [s.name, s.spec.rw, s.spec.bs, s.spec.qd])).toEqual([
      ['Write', 'write', MiB, 8],
      ['Read', 'read', MiB, 8],
    ]);
    expect(plan.fileSize).toBe(Math.floor(1e9 / MiB) * MiB);
    expect(plan.steps[0]!.spec.seconds).toBeUndefined();
  });

  it("cdm: CrystalDiskMark's four tests, read then write, 5 s each, 1 GiB", () => {
    const plan = buildPlan('cdm');
    expect(plan.fileSize).toBe(GiB);
    expect(plan.steps.map((s) => s.name)).toEqual([
      'SEQ1M Q8T1 Read',
      'SEQ1M Q8T1 Write',
      'SEQ1M Q1T1 Read',
      'SEQ1M Q1T1 Write',
      'RND4K Q32T1 Read',
      'RND4K Q32T1 Write',
      'RND4K Q1T1 Read',
      'RND4K Q1T1 Write',
    ]);
    expect(plan.steps.map((s) => s.spec.rw)).toEqual(['read', 'write', 'read', 'write', 'randread', 'randwrite', 'randread', 'randwrite']);
    // 5 s each, capped at one pass over the file.
    expect(plan.steps.every((s) => s.spec.seconds === 5 && s.spec.bytes === undefined)).toBe(true);
  });

  it('honours a duration the user asks for as a duration, without a byte cap', () => {
    const spec = buildPlan('rand-read', { seconds: 30 }).steps[0]!.spec;
    expect(spec.seconds).toBe(30);
    expect(spec.bytes).toBeUndefined();
    expect(buildPlan('rand-read').steps[0]!.spec).toMatchObject({ seconds: 5 });
  });

  it('applies options and names steps after them', () => {
    const plan = buildPlan('rand-write', { size: 64 * MiB, bs: 8192, qd: 4, threads: 2, pattern: 'zeros', cache: 'buffered', seconds: 2, warmupSeconds: 1 });
    expect(plan.steps).toEqual([
      {
        name: 'RND8K Q4T2 Write',
        spec: { rw: 'randwrite', bs: 8192, qd: 4, threads: 2, fileSize: 64 * MiB, pattern: 'zeros', cache: 'buffered', seconds: 2, warmupSeconds: 1, keepFile: false },
      },
    ]);
    expect(buildPlan('mix').steps[0]!.name).toBe('RND4K Q32T1 Mix 70/30');
    expect(buildPlan('seq-read', { threads: 4 }).steps[0]!.name).toBe('SEQ1M Q8T4 Read');
  });

  it('rounds the file down to whole blocks per thread', () => {
    expect(buildPlan('seq-write', { size: 10 * MiB + 123, threads: 3 }).fileSize).toBe(9 * MiB);
  });

  it.each([
    [{ bs: 100 }, /block size/],
    [{ bs: 128 * MiB }, /block size/],
    [{ qd: 0 }, /queue depth/],
    [{ qd: 65 }, /queue depth/],
    [{ threads: 65 }, /thread/],
    [{ size: 0 }, /size/],
    [{ size: 4096 }, /smaller than one block/],
  ])('rejects %j', (opts, message) => {
    expect(() => buildPlan('seq-write', opts)).toThrow(message);
  });
});
