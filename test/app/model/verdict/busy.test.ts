// The busy-machine rule on generated figures: it fires exactly when the recorded figures say other
// programs competed, as information only — it never turns a ✓/✗, the trust level or any figure.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeFlags } from '../../../../app/src/core/flags.js';
import type { MachineLoad, ResultDocument } from '../../../../app/src/model/result.js';
import { busyFlag, busyVerdict } from '../../../../app/src/model/verdict/busy.js';
import { trustOf } from '../../../../app/src/model/verdict/trust.js';
import { willItWork } from '../../../../app/src/model/kinds/video/will-it-work.js';

const fixtures = path.resolve(import.meta.dirname, '../../../fixtures/results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as ResultDocument;

const machine: fc.Arbitrary<MachineLoad> = fc
  .record({
    cores: fc.integer({ min: 1, max: 128 }),
    wallSeconds: fc.double({ min: 0.01, max: 3600, noNaN: true }),
    ownShare: fc.double({ min: 0, max: 2, noNaN: true }),
    othersShare: fc.double({ min: 0, max: 2, noNaN: true }),
    busyShare: fc.double({ min: 0, max: 1, noNaN: true }),
    loadMax: fc.double({ min: 0, max: 300, noNaN: true }),
    ownThreads: fc.integer({ min: 1, max: 65 }),
  })
  .map(({ cores, wallSeconds, ownShare, othersShare, busyShare, loadMax, ownThreads }) => ({
    cores,
    wallSeconds,
    // Shares of the whole machine over the wall time, so every corner of the rule is reached.
    ownCpuSeconds: ownShare * cores * wallSeconds * 0.5,
    othersCpuSeconds: othersShare * cores * wallSeconds * 0.5,
    machineCpuSeconds: busyShare * cores * wallSeconds,
    loadMax,
    ownThreads,
    source: 'proc' as const,
  }));

/** The rule restated from its words (BUSY_RULE), independently of busy.ts's arithmetic. */
function saysBusy(m: MachineLoad): boolean {
  const others = m.othersCpuSeconds / m.wallSeconds;
  const busy = m.machineCpuSeconds / m.wallSeconds;
  return others >= 0.5 && (busy >= 0.9 * m.cores || m.loadMax > m.cores + m.ownThreads);
}

describe('the busy-machine flag', () => {
  it('law: fires iff the figures say other programs competed; info only; no ✓/✗, trust level or figure changes (1,000 cases)', () => {
    const quick = load('quick');
    const quiet = computeFlags({ tests: quick.tests, settings: { cache: 'auto', pattern: 'random' }, kind: 'quick' });
    const before = willItWork({ ...quick, flags: quiet });
    fc.assert(
      fc.property(machine, fc.constantFrom('quick', 'video', 'cdm'), (m, kind) => {
        const tests = structuredClone(quick.tests);
        const flags = computeFlags({ tests, settings: { cache: 'auto', pattern: 'random' }, kind, machine: m });
        const busy = flags.filter((f) => f.code === 'machine-busy');
        expect(busy.length).toBe(saysBusy(m) ? 1 : 0);
        expect(busyVerdict(m)!.outcome).toBe(saysBusy(m) ? 'busy' : 'quiet');
        for (const f of busy) expect(f.severity).toBe('info');
        // The other flags, the trust level, the ✓/✗ of every format and the figures stay as they were.
        expect(flags.filter((f) => f.code !== 'machine-busy')).toEqual(quiet);
        expect(trustOf(flags).level).toBe(trustOf(quiet).level);
        expect(willItWork({ ...quick, flags })!.rows).toEqual(before!.rows);
        expect(tests).toEqual(quick.tests);
      }),
      { numRuns: 1000 },
    );
  });

  it('says the load and the cores in its words, and on a paced result what late frames may be', () => {
    const m: MachineLoad = {
      cores: 2,
      wallSeconds: 10,
      ownCpuSeconds: 3,
      othersCpuSeconds: 15,
      machineCpuSeconds: 19.5,
      loadMax: 5.2,
      ownThreads: 2,
      source: 'proc',
    };
    expect(busyFlag(m)!.message).toMatch(/^The machine was busy: load 5\.2 on 2 cores; other programs used 1\.5 cores on average/);
    expect(busyFlag(m, 'video')!.message).toContain('A late or dropped frame of this paced test can be the CPU’s, not the disk’s.');
    expect(busyFlag({ ...m, othersCpuSeconds: 1 })).toBeUndefined();
    // Results from before the figures were kept have none: no verdict, no flag.
    expect(busyVerdict(undefined)).toBeUndefined();
    expect(busyFlag(undefined)).toBeUndefined();
  });
});
