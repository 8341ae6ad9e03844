// The claims list itself (model/verdict/claims.ts): the audit checks each stated claim against its
// figures, so a verdict missing from the list would pass it unnoticed. No fixture is a busy
// machine, a hash with its bottleneck or a check: built here, each must appear once, where it is
// said, and be the claim its own module decides.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVerdict, type CheckSection } from '../../../../app/src/model/check.js';
import { compareResults } from '../../../../app/src/model/report/compare.js';
import type { MachineLoad, ResultDocument } from '../../../../app/src/model/result.js';
import { parseResultText } from '../../../../app/src/model/result-parse.js';
import { busyVerdict } from '../../../../app/src/model/verdict/busy.js';
import type { Claim } from '../../../../app/src/model/verdict/claim.js';
import { comparisonClaims, resultClaims } from '../../../../app/src/model/verdict/claims.js';
import { judgePhase, type PhaseVerdict } from '../../../../app/src/model/verdict/paced.js';
import { willItWork } from '../../../../app/src/model/kinds/video/will-it-work.js';

const load = (kind: string): ResultDocument =>
  parseResultText(readFileSync(path.join(import.meta.dirname, '../../../fixtures/results', `${kind}.json`), 'utf8'));
const where = (doc: ResultDocument, paced: ResultDocument[] = []): string[] => resultClaims(doc, paced).map((c) => c.where);
const claimAt = (doc: ResultDocument, w: string): Claim | undefined => resultClaims(doc).find((c) => c.where === w)?.claim;

const BUSY: MachineLoad = {
  cores: 2,
  wallSeconds: 10,
  ownCpuSeconds: 5,
  othersCpuSeconds: 15,
  machineCpuSeconds: 19,
  loadMax: 6,
  ownThreads: 2,
  source: 'proc',
};
const bottleneck: Claim = { family: 'bottleneck', outcome: 'cpu', figures: { mbps: 300, ceiling: 310 }, rule: 'the nearest ceiling' };

describe('resultClaims', () => {
  it('states trust first, always, and a busy machine only when the runner recorded one', () => {
    const cdm = load('cdm');
    expect(where(cdm)).toEqual(['trust']);
    const busy = { ...cdm, context: { ...cdm.context, machine: BUSY } } as ResultDocument;
    expect(where(busy)).toEqual(['trust', 'busy machine']);
    expect(claimAt(busy, 'busy machine')).toEqual(busyVerdict(BUSY));
    expect(claimAt(busy, 'busy machine')!.outcome).toBe('busy');
  });

  it('a Quick Test: Will it work? for each format and resolution, both ways, in its order', () => {
    const quick = load('quick');
    const rows = willItWork(quick)!.rows;
    expect(rows.length).toBeGreaterThan(10);
    expect(where(quick)).toEqual([
      'trust',
      ...rows.flatMap((r) => [`will-it-work ${r.formatId}/${r.resolutionId} write`, `will-it-work ${r.formatId}/${r.resolutionId} read`]),
    ]);
    const first = rows[0]!;
    expect(claimAt(quick, `will-it-work ${first.formatId}/${first.resolutionId} read`)).toEqual(first.read);
  });

  it('the paced results given change the Will it work? claims stated (they are judged with them)', () => {
    const quick = load('quick');
    const video = load('video');
    // Launched from this Quick Test ("Check this format"), and dropping frames both ways.
    const run = video.video!.runs[0]!;
    const dropped = { ...run, write: { ...run.write!, dropped: 5 }, read: { ...run.read!, dropped: 5 } };
    const paced = {
      ...video,
      settings: { ...video.settings, video: { ...video.settings.video, from: quick.id } },
      video: { ...video.video!, runs: [dropped] },
    } as ResultDocument;
    const stated = (p: ResultDocument[]) =>
      resultClaims(quick, p)
        .filter((c) => c.where.startsWith('will-it-work'))
        .map((c) => c.claim);
    expect(stated([paced])).toEqual(willItWork(quick, {}, [paced])!.rows.flatMap((r) => [r.write, r.read]));
    expect(stated([paced]).map((c) => c.outcome)).not.toEqual(stated([]).map((c) => c.outcome));
  });

  it('a paced video test: one claim per run and direction, judged with the section budget and buffer', () => {
    const video = load('video');
    const run = video.video!.runs[0]!;
    const late = {
      ...video,
      video: { ...video.video!, runs: [run, { ...run, write: { ...run.write!, dropped: 3 } }] },
    } as ResultDocument;
    expect(where(late)).toEqual(['trust', 'paced run 1 write', 'paced run 1 read', 'paced run 2 write', 'paced run 2 read']);
    const judged = claimAt(late, 'paced run 2 write')!;
    expect(judged).toEqual(judgePhase({ ...late.video!.runs[1]!.write!, budgetMs: video.video!.budgetMs }, video.video!.buffer, true));
    expect(judged.outcome).not.toBe(claimAt(late, 'paced run 1 write')!.outcome);
    // Read is judged as read: frames dropped from the third second on are a full cache's sign only
    // when writing, so the same figures say it as a write and not as a read.
    const from3s = { ...run.read!, dropped: 2, firstLateSeconds: 3 };
    const both = { ...late, video: { ...late.video!, runs: [{ ...run, write: from3s, read: from3s }] } } as ResultDocument;
    const [w, r] = [claimAt(both, 'paced run 1 write') as PhaseVerdict, claimAt(both, 'paced run 1 read') as PhaseVerdict];
    expect(w.text).toContain("as when a drive's cache fills");
    expect(r.text).not.toContain("as when a drive's cache fills");
  });

  it('a hash test states its bottleneck claim as the hash section holds it', () => {
    const hash = load('hash');
    expect(where(hash)).toEqual(['trust']);
    const judged = { ...hash, hash: { ...hash.hash!, verdict: { ...hash.hash!.verdict, claim: bottleneck } } } as ResultDocument;
    expect(where(judged)).toEqual(['trust', 'hash bottleneck']);
    expect(claimAt(judged, 'hash bottleneck')).toBe(bottleneck);
  });

  it('a folder check states its integrity, and its bottleneck when it has one', () => {
    const check = {
      folder: '/data',
      manifest: '/data/SHA256SUMS',
      manifestFormat: 'gnu',
      algo: 'sha256',
      mode: 'verify',
      manifestWritten: false,
      provider: 'OpenSSL',
      streams: 1,
      streamsWhy: '1',
      files: 4,
      bytes: 4096,
      seconds: 1,
      filesPerSecond: 4,
      mbps: 0.004,
      counts: { unchanged: 3, changed: 1, missing: 0, added: 0, unreadable: 0, skipped: 0 },
      changed: ['a'],
      missing: [],
      added: [],
      unreadable: [],
    } as unknown as CheckSection;
    const doc = { ...load('hash'), hash: undefined, check } as ResultDocument;
    expect(where(doc)).toEqual(['trust', 'check integrity']);
    expect(claimAt(doc, 'check integrity')).toEqual(checkVerdict(check));
    const bound = { ...doc, check: { ...check, bound: { bound: 'cpu', claim: bottleneck, text: 'cpu' } } } as ResultDocument;
    expect(where(bound)).toEqual(['trust', 'check integrity', 'check bottleneck']);
    expect(claimAt(bound, 'check bottleneck')).toBe(bottleneck);
  });
});

describe('comparisonClaims', () => {
  it('every judged cell, named by its row and column, with its place in the table', () => {
    const cdm = load('cdm');
    const slow = { ...cdm, id: 'slow', tests: cdm.tests.map((t) => ({ ...t, mbps: t.mbps / 2, iops: t.iops / 2 })) };
    const c = compareResults([cdm, slow]);
    const claims = comparisonClaims(c);
    const judged = c.rows.flatMap((row) => row.cells.map((cell, i) => ({ row, cell, i })).filter((x) => x.cell?.claim));
    expect(judged.length).toBeGreaterThan(0);
    expect(claims).toEqual(
      judged.map(({ row, cell, i }) => ({
        where: `compare ${row.label} · ${c.columns[i]!.name}`,
        claim: cell!.claim,
        cell: { row: row.key, column: i },
      })),
    );
    // The reference column is not judged against itself.
    expect(claims.every((x) => x.cell!.column > 0)).toBe(true);
  });
});
