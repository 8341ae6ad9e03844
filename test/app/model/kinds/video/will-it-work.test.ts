// "Will it work?" decided in one place (model/kinds/video/will-it-work.ts), on the seeds, with
// the engine's real documents (test/fixtures/results) set to the seeds' figures:
// - seed 5: a paced ProRes 422 HQ HD failure beside ✓ for HQ UHD/4K/6K/8K, attached to Quick
//   Tests that ran before it and were not launched from it;
// - seed 6: "Usable 555" printed above "Needs 589" beside a ✓ (two margin conventions at once);
// - seed 10: one frame of 300 late, absorbed by the 4-frame buffer, none dropped → ✗.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../../../app/src/model/result.js';
import type { VideoPhase } from '../../../../../app/src/model/kinds/video/result.js';
import { renderExport } from '../../../../../app/src/model/report/export.js';
import { judgePhase, judgeRuns } from '../../../../../app/src/model/verdict/paced.js';
import { PACED_METHOD, willItWork, type WillItWork } from '../../../../../app/src/model/kinds/video/will-it-work.js';
import { measuredLine, sideTitle } from '../../../../../app/src/model/kinds/video/will-it-work-words.js';
import { formatWillItWorkTable } from '../../../../../app/src/model/kinds/video/cli-table.js';
import { pacedFormat } from '../../../../../app/src/model/kinds/video/paced.js';

const FIXTURES = path.join(import.meta.dirname, '../../../..', 'fixtures', 'results');
const load = (kind: string): ResultDocument => JSON.parse(readFileSync(path.join(FIXTURES, `${kind}.json`), 'utf8')) as ResultDocument;

/** The quick fixture (3 runs) with its runs' write and read MB/s set. */
function quick(id: string, writes: number[], reads: number[], startedAt = '2026-11-26T10:00:00.000Z'): ResultDocument {
  const doc = load('quick');
  const [w, r] = [doc.tests.find((t) => t.rw === 'write')!, doc.tests.find((t) => t.rw === 'read')!];
  doc.tests = writes.flatMap((mbps, i) => [
    { ...w, run: i + 1, mbps },
    { ...r, run: i + 1, mbps: reads[i]! },
  ]);
  doc.settings = { ...doc.settings, runs: writes.length };
  delete doc.summary;
  return { ...doc, id, startedAt };
}

/** The video fixture re-cast as a paced test of `formatId` (a paced format id), both phases
 *  given, on `target`, launched from `from` (a Quick Test's id) or from nowhere. */
function paced(opts: {
  id: string;
  format: string;
  target: ResultDocument['target'];
  startedAt: string;
  from?: string;
  write?: Partial<VideoPhase>;
  read?: Partial<VideoPhase>;
}): ResultDocument {
  const doc = load('video');
  const f = pacedFormat(opts.format)!;
  const run = doc.video!.runs[0]!;
  const frames = 300;
  const phase = (p: VideoPhase, over: Partial<VideoPhase> = {}): VideoPhase => ({
    ...p,
    frames,
    completed: frames,
    late: 0,
    dropped: 0,
    timeline: '.'.repeat(frames),
    ...over,
  });
  doc.video = {
    ...doc.video!,
    ...f,
    frames,
    budgetMs: 1000 / f.fps,
    buffer: 4,
    runs: [{ run: 1, write: phase(run.write, opts.write), read: phase(run.read, opts.read) }],
  };
  doc.settings = { ...doc.settings, video: { format: f.id, layout: 'stream', buffer: 4, ...(opts.from ? { from: opts.from } : {}) } };
  return { ...doc, id: opts.id, target: opts.target, startedAt: opts.startedAt };
}

const at = (v: WillItWork | null, formatId: string, res: string) => v!.rows.find((r) => r.formatId === formatId && r.resolutionId === res)!;
const HQ = ['hd', 'uhd', 'dci4k', '6k', '8k'];

describe('seed 5: a paced verdict attaches only to the Quick Test it was launched from, and is monotone in data rate', () => {
  // Two Quick Tests at ~1 GB/s ran first; then a paced ProRes 422 HQ HD 29.97 test on the same
  // folder whose first trouble was at 0.0 s.
  const early = quick('quick-a', [1000, 1010], [1900, 1950], '2026-11-26T10:00:00.000Z');
  const later = quick('quick-b', [990, 1000], [1900, 1900], '2026-11-26T10:05:00.000Z');
  /** A paced ProRes 422 HQ HD 29.97 check launched from the later Quick Test, its write as given. */
  const checkFromLater = (write: Partial<VideoPhase>): ResultDocument =>
    paced({
      id: 'paced-hd',
      format: 'prores-hq-hd-2997',
      target: later.target,
      startedAt: '2026-11-26T10:10:00.000Z',
      from: 'quick-b',
      write,
    });
  // Dropped and late only in its first second (6 + 9 of the first 15 frames), on time after.
  const stalled = { dropped: 6, late: 9, firstLateSeconds: 0, timeline: 'D'.repeat(6) + 'L'.repeat(9) + '.'.repeat(285) };

  it('not launched from them: both Quick Tests keep the average’s ✓ for every HQ size, and show it as a dated line', () => {
    const p = paced({
      id: 'paced-hd',
      format: 'prores-hq-hd-2997',
      target: early.target,
      startedAt: '2026-11-26T10:10:00.000Z',
      write: stalled,
    });
    for (const q of [early, later]) {
      const v = willItWork(q, {}, [p]);
      for (const res of HQ) expect(at(v, 'prores-hq', res).write.outcome, `${q.id} ${res}`).toBe('ok');
      expect(v!.rows.some((r) => r.paced)).toBe(false);
      expect(v!.pacedLines).toEqual([
        { resultId: 'paced-hd', date: '2026-11-26', verdict: expect.stringMatching(/^ProRes 422 HQ HD 29.97 fps: ✗/) },
      ]);
      expect(formatWillItWorkTable(v)).toMatch(
        /frame-paced test on this drive, 2026-11-26, not launched from this result \(decides nothing here\)/,
      );
    }
  });

  it('launched from one, failing in its first second: HD and every heavier HQ size are "?" (possibly a start-up stall), none ✓', () => {
    const p = checkFromLater(stalled);
    const v = willItWork(later, {}, [p]);
    for (const res of HQ) {
      const s = at(v, 'prores-hq', res).write;
      expect(s.outcome, res).toBe('unproven');
      expect(s.reason).toMatch(/dropped frames in its first second: possibly a start-up stall, run again/);
    }
    // Lighter formats than HQ HD keep the average's ✓; the read (no trouble) proves every lighter read.
    expect(at(v, 'prores-proxy', 'hd').write.outcome).toBe('ok');
    expect(at(v, 'prores-lt', 'hd').read).toMatchObject({ outcome: 'ok', decidedBy: 'paced-implied' });
    // The other Quick Test is untouched.
    expect(at(willItWork(early, {}, [p]), 'prores-hq', 'uhd').write.outcome).toBe('ok');
  });

  it('launched from one, dropping frames later on: ✗ there and "✗ implied" for UHD, 4K, 6K and 8K (4–16× the rate), on the card too', () => {
    const p = checkFromLater({
      dropped: 6,
      late: 9,
      firstLateSeconds: 4.2,
      timeline: '.'.repeat(126) + 'D'.repeat(6) + 'L'.repeat(9) + '.'.repeat(159),
    });
    const v = willItWork(later, {}, [p]);
    expect(at(v, 'prores-hq', 'hd').write).toMatchObject({ outcome: 'fail', decidedBy: 'paced', reason: 'frame-paced test, 2026-11-26' });
    for (const res of HQ.slice(1))
      expect(at(v, 'prores-hq', res).write, res).toMatchObject({
        outcome: 'fail',
        decidedBy: 'paced-implied',
        reason: expect.stringMatching(
          /^✗ implied by a paced test of ProRes 422 HQ HD 29.97 fps \(2026-11-26, [\d.]+ MB\/s\), which dropped frames/,
        ),
      });
    expect(v!.pacedMethod).toBe(PACED_METHOD);
    const md = renderExport([later], 'md', { willItWork: { paced: [p] } }).text;
    expect(md).toMatch(/^\| ProRes 422 HQ \| 8K DCI \| [\d,]+ \| ✗† \|/m);
  });
});

describe('a paced check of several runs proves a format only when every run kept up', () => {
  const q = quick('quick-runs', [1000, 1010], [1900, 1950]);
  const clean = {};
  const dropping = {
    dropped: 6,
    late: 9,
    firstLateSeconds: 4.2,
    timeline: '.'.repeat(126) + 'D'.repeat(6) + 'L'.repeat(9) + '.'.repeat(159),
  };
  /** A ProRes 422 HQ HD check launched from `q` whose write runs are as given, in order. */
  const check = (writes: Partial<VideoPhase>[]): ResultDocument => {
    const runs = writes.map((w, i) => ({
      ...paced({ id: 'p', format: 'prores-hq-hd-2997', target: q.target, startedAt: '2026-11-26T10:10:00.000Z', from: q.id, write: w })
        .video!.runs[0]!,
      run: i + 1,
    }));
    const doc = paced({
      id: 'paced-runs',
      format: 'prores-hq-hd-2997',
      target: q.target,
      startedAt: '2026-11-26T10:10:00.000Z',
      from: q.id,
    });
    return { ...doc, video: { ...doc.video!, runs } };
  };

  it('✗ when one of two runs dropped frames, whichever came first; ✓ when both kept up', () => {
    for (const writes of [
      [clean, dropping],
      [dropping, clean],
    ]) {
      const v = willItWork(q, {}, [check(writes)]);
      expect(at(v, 'prores-hq', 'hd').write).toMatchObject({ outcome: 'fail', decidedBy: 'paced' });
      // Its read kept up in both runs: proven.
      expect(at(v, 'prores-hq', 'hd').read).toMatchObject({ outcome: 'ok', decidedBy: 'paced' });
    }
    expect(at(willItWork(q, {}, [check([clean, clean])]), 'prores-hq', 'hd').write).toMatchObject({ outcome: 'ok', decidedBy: 'paced' });
  });

  it('judgeRuns: ✗ when any phase failed, a stall only when every failure was one', () => {
    const ok = judgePhase(
      { frames: 300, completed: 300, late: 0, dropped: 0, worstLatenessMs: 5, timeline: '.'.repeat(300), budgetMs: 33.4 },
      4,
      true,
    );
    const fail = judgePhase(
      {
        frames: 300,
        completed: 294,
        late: 9,
        dropped: 6,
        worstLatenessMs: 90,
        firstLateSeconds: 4.2,
        timeline: dropping.timeline,
        budgetMs: 33.4,
      },
      4,
      true,
    );
    const stall = judgePhase(
      {
        frames: 300,
        completed: 294,
        late: 9,
        dropped: 6,
        worstLatenessMs: 90,
        firstLateSeconds: 0,
        timeline: 'D'.repeat(6) + 'L'.repeat(9) + '.'.repeat(285),
        budgetMs: 33.4,
      },
      4,
      true,
    );
    expect([ok.outcome, fail.outcome, stall.outcome, stall.stall]).toEqual(['ok', 'fail', 'fail', true]);
    expect(judgeRuns([ok, ok])).toEqual({ outcome: 'ok', stall: false });
    expect(judgeRuns([ok, fail])).toEqual({ outcome: 'fail', stall: false });
    expect(judgeRuns([fail, ok])).toEqual({ outcome: 'fail', stall: false });
    expect(judgeRuns([ok, stall])).toEqual({ outcome: 'fail', stall: true });
    expect(judgeRuns([stall, fail])).toEqual({ outcome: 'fail', stall: false });
  });
});

describe('seed 6: one margin convention on screen', () => {
  // History showed "Usable: write 555 MB/s" (693 × 0.8) above "Needs, with a 20 % margin: 589"
  // and a ✓ for a format whose data rate is 471 MB/s: right maths, contradictory figures.
  const q = quick('q', [693], [1200]);

  it('prints the measured mean (693) against the need with the margin, and the mark agrees with the two', () => {
    const v = willItWork(q)!;
    expect(measuredLine(v)).toBe('Measured: write 693 MB/s, read 1,200 MB/s.');
    const row = v.rows.find((r) => Math.round(r.needsMBps) <= 693 && r.write.outcome === 'ok')!;
    expect(sideTitle(row, row.write)).toMatch(/^Needs [\d.,]+ MB\/s with a 20 % margin; measured 693 MB\/s$/);
    for (const r of v.rows) expect(r.write.outcome === 'ok', r.formatId).toBe(693 + 1e-9 >= r.needsMBps);
    for (const text of [formatWillItWorkTable(v), renderExport([q], 'md').text, renderExport([q], 'html').text]) {
      expect(text).toContain('Measured: write 693 MB');
      expect(text).not.toMatch(/usable|\b555 MB/i);
    }
  });
});

describe('seed 10: a recorder fails when its buffer overflows, not when a frame is late', () => {
  const smbRead = {
    frames: 300,
    completed: 300,
    late: 1,
    dropped: 0,
    worstLatenessMs: 37.7,
    firstLateSeconds: 6.1,
    budgetMs: 1000 / 29.97,
    timeline: '.'.repeat(182) + 'L' + '.'.repeat(117),
  };

  it('the rule: 1 of 300 frames 37.7 ms late, absorbed by the 4-frame buffer, none dropped → ✓ with a note', () => {
    expect(judgePhase(smbRead, 4, false)).toMatchObject({
      outcome: 'ok',
      text: '✓ 300 frames, none dropped; 1 frame late (worst 38 ms), absorbed by the 4-frame buffer',
    });
    expect(judgePhase({ ...smbRead, dropped: 1 }, 4, false).outcome).toBe('fail');
    expect(judgePhase({ ...smbRead, completed: 299 }, 4, false).outcome).toBe('fail');
  });

  it('a saved paced read over SMB with that frame proves its format (saved under the old rule as ✗, judged again)', () => {
    const q = quick('q-smb', [110], [112]);
    const p = paced({
      id: 'paced-smb',
      format: 'prores-hq-hd-2997',
      target: q.target,
      startedAt: '2026-11-27T09:00:00.000Z',
      from: 'q-smb',
      read: { ...smbRead, ok: false, verdict: '✗ 1 of 300 frames late, first at 6.1 s' },
    });
    const r = at(willItWork(q, {}, [p]), 'prores-hq', 'hd');
    expect(r.read).toMatchObject({ outcome: 'ok', decidedBy: 'paced' });
    expect(r.read.pacedBy!.verdict).toBe('ProRes 422 HQ HD 29.97 fps: ✓ no frame dropped; 1 frame late, absorbed by the 4-frame buffer');
  });
});
