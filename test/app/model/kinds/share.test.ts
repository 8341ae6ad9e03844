// The share kind: its plan (the server's disk, then the cached file read twice, then the small
// files), its checks, and the section and verdicts its analysis makes from the steps' figures and
// the network path the runner saw; its CLI lines say both verdicts in the one renderer's words; its
// Detailed-screen settings and what they ask of the runner; the one line a screen says of it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StepOutcome } from '../../../../app/src/model/analysis.js';
import type { EngineResult } from '../../../../app/src/model/engine-types.js';
import { buildPlan } from '../../../../app/src/model/presets.js';
import { share } from '../../../../app/src/model/kinds/share/index.js';
import type { NetworkPath } from '../../../../app/src/model/network.js';
import type { ResultDocument } from '../../../../app/src/model/result.js';
import { DetailedSettings } from '../../../../app/src/model/settings.js';
import { shareText, smallFileText } from '../../../../app/src/model/verdict/share.js';
import { resultTitle } from '../../../../app/src/model/report/metrics.js';

const MiB = 1024 * 1024;
/** A real run's document: `diskdial run <share> --test share` over SFTP in the lab of test/helpers/share-run.ts. */
const fixture = path.resolve(import.meta.dirname, '../../../fixtures/results/share.json');

describe('the share plan', () => {
  it('writes and reads the large file, then writes the small one and reads it twice, then the small files', () => {
    const plan = buildPlan('share', { size: 128 * MiB, share: { files: 20 } });
    expect(plan.steps.map((s) => [s.name, s.spec.rw, s.file, s.spec.keepFile])).toEqual([
      ['Server disk: write', 'write', 'share-disk.dat', true],
      ['Server disk: read cold', 'read', 'share-disk.dat', false],
      ['Cached file: write', 'write', 'share-cached.dat', true],
      ['Cached file: read', 'read', 'share-cached.dat', true],
      ['Cached file: read again', 'read', 'share-cached.dat', false],
      ['Small files', 'write', 'share-small.dat', false],
    ]);
    expect(plan.steps[0]!.spec.fileSize).toBe(128 * MiB);
    expect(plan.steps[3]!.spec.fileSize).toBe(32 * MiB);
    expect(plan.steps[5]!.spec.smallFiles).toEqual({ files: 20, fileBytes: 4096 });
    expect(plan.settings.share).toEqual({ cacheFileBytes: 32 * MiB, files: 20 });
    // The default large file is 1 GB, the Quick Test's unit: 952 MiB of whole 4 MiB reads (998 MB),
    // named as chosen.
    expect(buildPlan('share', {}).fileSize).toBe(952 * MiB);
    expect(buildPlan('share', {}).settings.size).toBe(1e9);
    expect(buildPlan('share', { size: 128 * MiB }).settings.size).toBe(128 * MiB);
    expect(buildPlan('share', {}).notes).toEqual([
      "The server's disk is read cold only when 1 GB is more than the server keeps in memory: for a server with more, give a larger --size.",
    ]);
  });

  it('refuses a large file under twice the cached one, and a file count out of range, in plain words', () => {
    expect(() => buildPlan('share', { size: 63 * MiB })).toThrow(/at least 64 MiB \(twice the file it reads from the server's memory\)/);
    expect(() => buildPlan('share', { share: { files: 0 } })).toThrow(/from 1 to 10,000/);
    expect(share.cli.parse((f) => (f === 'files' ? '50' : undefined))).toEqual({ share: { files: 50 } });
    expect(() => share.cli.parse((f) => (f === 'files' ? 'many' : undefined))).toThrow(/files/);
  });
});

describe('the share analysis', () => {
  const plan = buildPlan('share', { size: 128 * MiB, share: { files: 20 } });
  const rates: Record<string, number> = {
    'Server disk: write': 60,
    'Server disk: read cold': 58,
    'Cached file: write': 100,
    'Cached file: read': 110,
    'Cached file: read again': 112,
  };
  const ops = ['create', 'write', 'fsync', 'close', 'stat', 'open', 'read', 'delete'];
  const outcomes: StepOutcome[] = plan.steps.map((step) => ({
    step,
    run: 1,
    result: {
      cacheMode: 'buffered-flushed',
      engineVersion: '0.9.0',
      mbps: rates[step.name] ?? 0,
      ...(step.spec.smallFiles
        ? { smallFiles: { ops: ops.map((op) => ({ op, count: 20, totalMs: 10, meanMs: 0.5, p50Ms: 0.3, p99Ms: 1, maxMs: 2 })) } }
        : {}),
    } as EngineResult,
  }));
  const network: NetworkPath = {
    protocol: 'SMB',
    client: 'kernel',
    server: 'nas',
    interface: { name: 'eth0', kind: 'ethernet', speedMbps: 1000, mtu: 1500, source: 'sysfs' },
    ceilingMBps: 118.7,
    roundTrip: { ms: 0.4, port: 445, samples: 7 },
  };

  it('sets the cold read against the second read and the link, and the small files against the round trip', () => {
    const s = share.analyse(plan, outcomes, { network }).share!;
    expect(s.rttMs).toBe(0.4);
    const r = s.runs[0]!;
    expect([r.diskWriteMBps, r.diskReadMBps, r.cacheFirstMBps, r.cacheMBps]).toEqual([60, 58, 110, 112]);
    expect(r.fileOps).toEqual({ statMs: 0.3, openMs: 0.3, readMs: 0.3, closeMs: 0.3 });
    expect(r.verdict.outcome).toBe('server-bound');
    expect(r.verdict.figures).toMatchObject({ linkCeilingMBps: 118.7, linkMbps: 1000, ceilingMBps: 111 });
    expect(r.fileVerdict.outcome).toBe('protocol-bound');
    expect(r.fileVerdict.figures.roundTrips).toBeCloseTo(3, 9);
    const doc = { settings: { runs: 1 }, share: s } as unknown as ResultDocument;
    expect(share.cli.tableLines(doc)).toEqual(
      expect.arrayContaining([`Large transfers: ${shareText(r.verdict)}`, `Small files: ${smallFileText(r.fileVerdict)}`]),
    );
  });

  it("names one figure for the server's memory, the one its verdict is decided from (a real run's reads of 253 and 202)", () => {
    const doc = JSON.parse(readFileSync(fixture, 'utf8')) as ResultDocument;
    const lines = share.cli.tableLines(doc).join('\n');
    // The verdict says the link carried the two reads' mean; the figures line said the second read.
    expect(lines).toContain("server's memory 228 MB/s (reads of 253 and 202)");
    expect(lines).toContain('carried 228 MB/s');
    expect(lines).not.toMatch(/memory 202 MB\/s/);
  });

  it('says it could not separate the small files without a round trip, and infers the link without a ceiling', () => {
    const { roundTrip: _rt, ceilingMBps: _c, ...bare } = network;
    const s = share.analyse(plan, outcomes, {
      network: { ...bare, interface: { name: 'veth0', kind: 'virtual', source: 'sysfs' } },
    }).share!;
    expect(s.rttMs).toBeUndefined();
    expect(s.runs[0]!.fileVerdict.outcome).toBe('could-not-separate');
    expect(s.runs[0]!.verdict.figures.linkCeilingMBps).toBe(0);
  });
});

describe('the share test on the Detailed screen', () => {
  const GiB = 1024 * MiB;
  const asked = { kind: 'share', target: '/mnt/nas', sizeBytes: 4 * GiB, files: 250, runs: 2, restSeconds: 60 };

  it('takes the large file, the small files, runs and rest, and asks the runner for exactly those', () => {
    const s = DetailedSettings.parse(asked);
    expect(s).toEqual(asked);
    expect(share.fromScreen(s)).toEqual({ size: 4 * GiB, share: { files: 250 } });
    const plan = buildPlan('share', share.fromScreen(s));
    expect([plan.fileSize, plan.settings.share]).toEqual([4 * GiB, { cacheFileBytes: 32 * MiB, files: 250 }]);
    // Another kind's settings ask nothing of the share's.
    expect(share.fromScreen(DetailedSettings.parse({ kind: 'sustained', target: '/x', maxBytes: 1e9, runs: 1, restSeconds: 0 }))).toEqual(
      {},
    );
  });

  it('refuses, at its edges, a large file under twice the cached one, a file count out of 1–10,000 and unknown keys', () => {
    const ok = (o: object): boolean => DetailedSettings.safeParse({ ...asked, ...o }).success;
    // The plan's own floor (64 MiB: twice the 32 MiB read from memory) and the CLI's file range.
    expect([
      ok({ sizeBytes: 64 * MiB - 1 }),
      ok({ sizeBytes: 64 * MiB }),
      ok({ sizeBytes: 64 * GiB }),
      ok({ sizeBytes: 64 * GiB + 1 }),
    ]).toEqual([false, true, true, false]);
    expect([ok({ files: 0 }), ok({ files: 1 }), ok({ files: 10_000 }), ok({ files: 10_001 }), ok({ files: 2.5 })]).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(ok({ seconds: 1 })).toBe(false);
    const { files: _f, ...noFiles } = asked;
    expect(DetailedSettings.safeParse(noFiles).success).toBe(false);
    // What the screen may send, the plan takes: the floor is the plan's.
    expect(() => buildPlan('share', share.fromScreen(DetailedSettings.parse({ ...asked, sizeBytes: 64 * MiB })))).not.toThrow();
  });
});

describe("the share result's title", () => {
  // The card's title, History's and every export's: the large file as chosen, never "134 MB" for
  // the 128 MiB a run was asked for (the fixture's `--size 128MiB`).
  it('names the large file as it was chosen', () => {
    const doc = JSON.parse(readFileSync(fixture, 'utf8')) as ResultDocument;
    expect(resultTitle(doc)).toBe('Share limits · 128 MiB read cold, 20 small files');
    const plan = buildPlan('share', { size: 4e9, share: { files: 20 } });
    const decimal = {
      ...doc,
      settings: { ...doc.settings, size: plan.settings.size },
      share: { ...doc.share!, diskFileBytes: plan.fileSize },
    };
    expect(plan.fileSize).toBe(3812 * MiB);
    expect(resultTitle(decimal as ResultDocument)).toBe('Share limits · 4 GB read cold, 20 small files');
    const f = new Map<string, string>();
    share.report.comparable(decimal as ResultDocument, f);
    expect(f.get('large file')).toBe('4 GB');
  });
});

describe("the share result's one line", () => {
  it("is its last run's large-transfer verdict in the one renderer's words; none without a section", () => {
    const doc = JSON.parse(readFileSync(fixture, 'utf8')) as ResultDocument;
    const runs = doc.share!.runs;
    expect(share.report.verdictLine(doc)).toBe(shareText(runs.at(-1)!.verdict));
    const first = {
      ...runs[0]!,
      run: 1,
      verdict: { ...runs[0]!.verdict, outcome: 'could-not-separate' as const, reason: 'a read was not measured' },
    };
    const two = { ...doc, share: { ...doc.share!, runs: [first, { ...runs[0]!, run: 2 }] } } as ResultDocument;
    expect(share.report.verdictLine(two)).toBe(shareText(runs[0]!.verdict));
    const { share: _s, ...none } = doc;
    expect(share.report.verdictLine(none as ResultDocument)).toBeUndefined();
  });
});
