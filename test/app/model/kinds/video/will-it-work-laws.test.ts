// The laws of "Will it work?", property-tested over generated Quick Test results (1–4 runs,
// speeds from 1 MB/s to 20 GB/s), frame rates, flags and frame-paced results (launched from the
// result or not, on its drive or not; passing, late but absorbed, dropping frames, stalling in the
// first second), 1,000 cases each:
// - monotone: if format A needs no more than B and B is ✓, A is ✓ (and ✗ spreads only upward);
// - a warning flag (a cache, a plausibility flag) leaves no ✓;
// - every surface of one result — the History row, the card, each export format, the CLI table
//   (and the Done screen's store and dials: test/renderer/features/quick-test/quick-aggregate.test.tsx)
//   — shows the same aggregate and the same verdicts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combineRuns } from '../../../../../app/src/model/analysis.js';
import type { ResultDocument, ResultFlag } from '../../../../../app/src/model/result.js';
import { renderExport } from '../../../../../app/src/model/report/export.js';
import { mdCell } from '../../../../../app/src/model/report/formats/markdown.js';
import { renderCardSvg } from '../../../../../app/src/model/report/card.js';
import { historyEntry } from '../../../../../app/src/core/history.js';
import { formatWillItWorkTable } from '../../../../../app/src/model/kinds/video/cli-table.js';
import { willItWorkCard, willItWorkCardLayout } from '../../../../../app/src/model/kinds/video/quick-card.js';
import { aggregateText, bestRunNote, quickAggregate } from '../../../../../app/src/model/verdict/aggregate.js';
import {
  COMMON_FORMATS,
  COMMON_RESOLUTIONS,
  judgeWork,
  willItWork,
  type WillItWork,
} from '../../../../../app/src/model/kinds/video/will-it-work.js';
import { fastText, markOf, measuredLine, outcomeWord, sideMark } from '../../../../../app/src/model/kinds/video/will-it-work-words.js';
import { videoData } from '../../../../../app/src/model/kinds/video/data.js';
import { pacedFormats } from '../../../../../app/src/model/kinds/video/paced.js';
import { parseCsv } from '../../../../helpers/csv.js';

const FIXTURES = path.join(import.meta.dirname, '../../../..', 'fixtures', 'results');
const load = (kind: string): ResultDocument => JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;
const QUICK = load('quick');
const VIDEO = load('video');
const FORMATS = pacedFormats();

const WARN_FLAGS: ResultFlag[] = [
  { code: 'loop-cached', message: 'A loop device over the page cache.', fix: 'Test the disk under it.' },
  { code: 'reads-implausibly-fast', message: 'Reads faster than the interface carries.', fix: 'Test with direct I/O.' },
  { code: 'cache-not-direct', message: 'Went through the page cache.', fix: 'Use a file system with direct I/O.' },
];

/** One Quick Test cycle as the service emits it: a write and a read test, run 1. */
function cycle(i: number, write: number, read: number, flags: ResultFlag[]): ResultDocument {
  const [w, r] = [QUICK.tests.find((t) => t.rw === 'write')!, QUICK.tests.find((t) => t.rw === 'read')!];
  const doc: ResultDocument = {
    ...QUICK,
    id: 'quick-1',
    flags,
    tests: [
      { ...w, run: 1, mbps: write },
      { ...r, run: 1, mbps: read },
    ],
  };
  doc.settings = { ...QUICK.settings, runs: 1 };
  doc.finishedAt = new Date(Date.parse(QUICK.startedAt) + (i + 1) * 1000).toISOString();
  delete doc.summary;
  return doc;
}

const speed = fc.double({ min: 0, max: Math.log(20_000), noNaN: true }).map((x) => Math.exp(x));
const runs = fc
  .integer({ min: 1, max: 4 })
  .chain((n) => fc.tuple(fc.array(speed, { minLength: n, maxLength: n }), fc.array(speed, { minLength: n, maxLength: n })));
const flags = fc.oneof(fc.constant<ResultFlag[]>([]), fc.subarray(WARN_FLAGS, { minLength: 1 }));

/** A paced phase: on time, late but absorbed, dropping frames later, or dropping from the start. */
const phase = fc.constantFrom('ok', 'late', 'dropped', 'stall').map((kind) => {
  const base = { frames: 300, completed: 300, late: 0, dropped: 0 };
  if (kind === 'late') return { ...base, late: 3, firstLateSeconds: 4 };
  if (kind === 'dropped') return { ...base, late: 9, dropped: 4, firstLateSeconds: 5 };
  if (kind === 'stall') return { ...base, late: 9, dropped: 4, firstLateSeconds: 0 };
  return base;
});

/** A saved paced result: any offered format and rate, launched from the Quick Test or not, on its
 *  drive or another, with or without a warning flag of its own. */
const pacedDoc = fc
  .record({
    i: fc.integer({ min: 0, max: FORMATS.length - 1 }),
    write: phase,
    read: phase,
    linked: fc.boolean(),
    sameDrive: fc.boolean(),
    flagged: fc.boolean(),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ i, write, read, linked, sameDrive, flagged, day }, n = 0) => {
    const f = FORMATS[i]!;
    const run = VIDEO.video!.runs[0]!;
    const target = sameDrive ? QUICK.target : { ...QUICK.target, path: '/media/other', mountPoint: '/media/other' };
    const doc: ResultDocument = {
      ...VIDEO,
      id: `paced-${i}-${day}-${n}`,
      target,
      startedAt: `2026-11-${String(day).padStart(2, '0')}T12:00:00.000Z`,
      flags: flagged ? [WARN_FLAGS[0]!] : [],
      settings: { ...VIDEO.settings, video: { format: f.id, layout: 'stream', buffer: 4, ...(linked ? { from: 'quick-1' } : {}) } },
      video: {
        ...VIDEO.video!,
        ...f,
        frames: 300,
        budgetMs: 1000 / f.fps,
        buffer: 4,
        runs: [{ run: 1, write: { ...run.write, ...write }, read: { ...run.read, ...read } }],
      },
    };
    return doc;
  });

const fps = fc.constantFrom(...videoData.frameRates);

/** Law: within one direction, ✓ never sits above a row that is not ✓, ✗ never below one that is not ✗. */
function monotone(v: WillItWork): void {
  for (const d of ['write', 'read'] as const) {
    const rate = (ok: (o: string) => boolean) => v.rows.filter((r) => ok(r[d].outcome)).map((r) => r.dataRateMBps);
    const maxOk = Math.max(-Infinity, ...rate((o) => o === 'ok'));
    const minNotOk = Math.min(Infinity, ...rate((o) => o !== 'ok'));
    expect(maxOk, `${d}: a ✓ needs more than a row that is not ✓`).toBeLessThan(minNotOk);
    const maxNotFail = Math.max(-Infinity, ...rate((o) => o !== 'fail'));
    const minFail = Math.min(Infinity, ...rate((o) => o === 'fail'));
    expect(maxNotFail, `${d}: a ✗ needs less than a row that is not ✗`).toBeLessThan(minFail);
  }
}

describe('laws of "Will it work?" (fast-check, 1,000 cases each)', () => {
  it('monotone in data rate: if A needs no more than B and B is ✓, A is ✓ — by the average alone', () => {
    fc.assert(
      fc.property(speed, speed, fps, (write, read, at) => {
        monotone(
          judgeWork({ measured: { write: { mean: write, best: write, runs: 1 }, read: { mean: read, best: read, runs: 1 } } }, { fps: at }),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('monotone in data rate with paced results in the mix (launched from it or not, passing, late, dropping, stalling)', () => {
    fc.assert(
      fc.property(runs, fps, fc.array(pacedDoc, { maxLength: 4 }), ([w, r], at, paced) => {
        const doc = combineRuns(w.map((x, i) => cycle(i, x, r[i]!, [])));
        monotone(willItWork(doc, { fps: at }, paced)!);
      }),
      { numRuns: 1000 },
    );
  });

  it('a cache or plausibility flag leaves no ✓, with paced results or without', () => {
    fc.assert(
      fc.property(runs, fc.subarray(WARN_FLAGS, { minLength: 1 }), fps, fc.array(pacedDoc, { maxLength: 3 }), ([w, r], f, at, paced) => {
        const doc = combineRuns(w.map((x, i) => cycle(i, x, r[i]!, f)));
        const v = willItWork(doc, { fps: at }, paced)!;
        expect(v.caveat).toMatch(/speeds carry warnings/);
        for (const row of v.rows)
          for (const s of [row.write, row.read]) {
            expect(s.outcome).not.toBe('ok');
            if (s.outcome === 'unproven') expect(s.reason).toBeTruthy();
          }
      }),
      { numRuns: 1000 },
    );
  });

  it('every surface of one result shows the same aggregate and the same verdicts', () => {
    // The card's middle box (model/report/card.ts): 38 px shorter when the amber warning band shows.
    const box = (warned: boolean) => ({ x: 28, y: 84, w: 744, h: warned ? 238 : 276 });
    fc.assert(
      fc.property(runs, flags, ([w, r], f) => {
        const cycles = w.map((x, i) => cycle(i, x, r[i]!, f));
        const doc = combineRuns(cycles);
        const agg = quickAggregate(doc)!;
        const v = willItWork(doc)!;
        const marks = new Map(v.rows.map((row) => [`${row.format}|${row.resolution}`, [sideMark(row.write), sideMark(row.read)]]));

        // The Done screen's store and dials: test/renderer/features/quick-test/quick-aggregate.test.ts.

        // History's row: its headline figures are the same means.
        const head = historyEntry(doc, 'local').headline;
        expect(head.find((h) => h.label === 'Write')!.value).toBeCloseTo(agg.write.mean, 9);
        expect(head.find((h) => h.label === 'Read')!.value).toBeCloseTo(agg.read.mean, 9);

        // The card: "mean of N runs · best X" under each dial, the block's marks the verdicts'.
        const card = renderCardSvg(doc).svg;
        if (agg.write.runs > 1) expect(card).toContain(aggregateText(agg.write));
        if (agg.read.runs > 1) expect(card).toContain(aggregateText(agg.read));
        const layout = willItWorkCardLayout(doc, box(f.length > 0))!;
        expect(card).toContain(willItWorkCard(layout));
        const common = willItWork(doc, { formats: COMMON_FORMATS, resolutions: COMMON_RESOLUTIONS })!;
        expect(layout.rows.map((x) => [x.write.outcome, x.read.outcome])).toEqual(
          common.rows.map((x) => [x.write.outcome, x.read.outcome]),
        );

        // Markdown: the measured line and each row's marks and "How fast?".
        const md = renderExport([doc], 'md').text;
        expect(md).toContain(measuredLine(v));
        for (const row of v.rows) {
          const cells = md
            .split('\n')
            .find((l) => l.startsWith(`| ${mdCell(row.format)} | ${row.resolution} |`))
            ?.split(' | ');
          expect(cells?.slice(3, 5), `${row.format} ${row.resolution}`).toEqual([sideMark(row.write), sideMark(row.read)]);
          expect(cells?.[5]?.replace('\\>', '>')).toBe(fastText(row.write.maxFps));
        }
        // HTML: the same measured line (its slashes escaped) and marks.
        const html = renderExport([doc], 'html').text;
        expect(html).toContain(measuredLine(v).replace(/\//g, '&#47;'));
        // CSV: the outcome words per row.
        const csv = parseCsv(renderExport([doc], 'csv').text);
        const col = (n: string): number => csv[0]!.indexOf(n);
        for (const rowCsv of csv.filter((x) => x[col('test')] === 'will it work')) {
          const want = v.rows.find((x) => x.format === rowCsv[col('format')] && x.resolution === rowCsv[col('resolution')])!;
          expect([rowCsv[col('write_ok')], rowCsv[col('read_ok')]]).toEqual([
            outcomeWord(want.write.outcome),
            outcomeWord(want.read.outcome),
          ]);
        }
        // JSON: the very verdicts.
        const json = JSON.parse(renderExport([doc], 'json').text) as { willItWork: WillItWork };
        expect(json.willItWork.measured).toEqual(agg);
        expect(json.willItWork.rows.map((x) => [x.write.outcome, x.read.outcome])).toEqual(
          v.rows.map((x) => [x.write.outcome, x.read.outcome]),
        );
        // CrystalDiskMark's Copy text keeps its best-run convention, and says so.
        const txt = renderExport([doc], 'txt').text;
        if (agg.write.runs > 1) expect(txt).toContain(bestRunNote(agg.write.runs));
        // The CLI table: the measured line and each row's marks, in its columns.
        const cli = formatWillItWorkTable(v);
        expect(cli).toContain(measuredLine(v));
        for (const line of cli.split('\n')) {
          const m = /^(.+?)\s{2,}(HD|UHD|4K DCI|6K|8K DCI)\s+\S+\s+([✓✗?]†?)\s+([✓✗?]†?)\s/.exec(line);
          if (m) expect([m[3], m[4]], line).toEqual(marks.get(`${m[1]}|${m[2]}`));
        }
        expect(markOf('unproven')).toBe('?');
      }),
      // 300 cases, ~37 for each of runs 1–4 × flags none/some, speeds log-spread over every
      // format's threshold: each case renders six surfaces (~50 ms); 1,000 took 53 s of CI's CPU.
      { numRuns: 300 },
    );
  }, 600_000);
});
