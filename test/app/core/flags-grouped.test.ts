// Flags that name many tests say them in groups ("all 8 CrystalDiskMark tests", "the sweep's 32
// steps (4 KiB–100 MiB)"), and a Mix figure above both pure figures of its block size and queue is
// flagged as the cache's. Built on the recorded results (test/fixtures/results), the figures
// planted where a case needs them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeFlags, MIX_SLACK, type FlagInput } from '../../../app/src/core/flags.js';
import type { ResultDocument, ResultTest } from '../../../app/src/model/result.js';
import type { VolumeInfo } from '../../../app/src/model/volume.js';
import { trustOf } from '../../../app/src/model/verdict/trust.js';
import { testGroupText } from '../../../app/src/model/verdict/test-names.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/results');
const load = (name: string): ResultDocument => JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), 'utf8')) as ResultDocument;
const random = { cache: 'auto', pattern: 'random' } as const;

const sshfs: VolumeInfo = {
  path: '/mnt/share',
  realPath: '/mnt/share',
  mountPoint: '/mnt/share',
  device: 'me@nas:/srv',
  fsType: 'fuse.sshfs',
  mountOptions: ['rw'],
  superOptions: ['rw'],
  totalBytes: 1e12,
  freeBytes: 5e11,
  network: { protocol: 'SFTP', client: 'sshfs', server: 'nas', share: '/srv' },
};

const buffered = (tests: readonly ResultTest[]): ResultTest[] => tests.map((t) => ({ ...t, cacheMode: 'buffered-flushed' }));

/** The sweep fixture (4 KiB–64 MiB) with QuickBench's last step, 100 MiB: 32 tests. */
function sweep32(): ResultTest[] {
  const tests = load('sweep').tests;
  const last = tests.at(-1)!;
  const step = (rw: 'write' | 'read'): ResultTest => ({
    ...last,
    name: `SEQ100M Q1T1 ${rw === 'write' ? 'Write' : 'Read'}`,
    rw,
    bs: 100 * 2 ** 20,
  });
  return [...tests, step('write'), step('read')];
}

/** How many of the tests' names a sentence spells out. */
const namesIn = (text: string, tests: readonly ResultTest[]): number =>
  new Set(tests.map((t) => t.name).filter((n) => text.includes(n))).size;

describe('a flag names many tests in groups', () => {
  it("a 32-step sweep through a share's cache: one group, no list of 32 names", () => {
    const tests = buffered(sweep32());
    expect(tests).toHaveLength(32);
    const f = computeFlags({ tests, settings: random, volume: sshfs, kind: 'sweep' }).find((x) => x.code === 'cache-not-direct')!;
    expect(f.message).toMatch(/^The sweep's 32 steps \(4 KiB–100 MiB\) went through the share client's cache/);
    expect(namesIn(f.message, tests)).toBe(0);
  });

  it('a CrystalDiskMark run of 2 × 8 tests through the cache: "all 8 CrystalDiskMark tests"', () => {
    const tests = buffered(load('cdm').tests);
    const f = computeFlags({ tests, settings: random, volume: sshfs, kind: 'cdm' }).find((x) => x.code === 'cache-not-direct')!;
    expect(f.message).toMatch(/^All 8 CrystalDiskMark tests went through/);
    expect(namesIn(f.message, tests)).toBe(0);
  });

  it('a part of a group is counted within it; a few names are listed as they are', () => {
    const tests = load('cdm').tests;
    expect(testGroupText(tests.slice(0, 6), tests, 'cdm')).toBe('6 of the 8 CrystalDiskMark tests');
    expect(testGroupText(tests.slice(0, 2), tests, 'cdm')).toBe('SEQ1M Q8T1 Read and SEQ1M Q1T1 Read');
    const s = sweep32();
    expect(testGroupText(s.slice(0, 10), s, 'sweep')).toBe("10 of the sweep's 32 steps (4 KiB–64 KiB)");
  });
});

describe('a Mix above both pure figures', () => {
  /** The CDM fixture with a SEQ1M Q8T1 Mix 70/30 step at `mbps` (its pure read 1,670 and write 2,289 MB/s at best). */
  function withMix(mbps: number): FlagInput {
    const tests = load('cdm').tests;
    const read = tests.find((t) => t.name === 'SEQ1M Q8T1 Read')!;
    const mix: ResultTest = { ...read, name: 'SEQ1M Q8T1 Mix 70/30', rw: 'rw', mbps };
    return { tests: [...tests, mix], settings: random, kind: 'cdm' };
  }
  const bestPure = (input: FlagInput): number =>
    Math.max(...input.tests.filter((t) => t.name === 'SEQ1M Q8T1 Read' || t.name === 'SEQ1M Q8T1 Write').map((t) => t.mbps));

  it('2.8 GB/s above 1.7 GB/s read and 2.3 GB/s write is flagged, with the figures and a fix, and turns trust to warn', () => {
    const input = withMix(2800);
    const flags = computeFlags(input);
    const f = flags.find((x) => x.code === 'mix-above-pure')!;
    expect(f.message).toContain('SEQ1M Q8T1 Mix 70/30 2800 MB/s vs SEQ1M Q8T1 Read');
    expect(f.message).toContain(`SEQ1M Q8T1 Write ${Math.round(bestPure(input))} MB/s`);
    expect(f.fix).toMatch(/--cache auto/);
    expect(trustOf(flags).level).toBe('warn');
  });

  it('a Mix between the pure figures, or within the noise slack above them, is not flagged', () => {
    const within = withMix(0);
    within.tests[within.tests.length - 1]!.mbps = bestPure(within) * MIX_SLACK * 0.999;
    for (const input of [withMix(1900), within]) expect(computeFlags(input).map((x) => x.code)).not.toContain('mix-above-pure');
  });
});
