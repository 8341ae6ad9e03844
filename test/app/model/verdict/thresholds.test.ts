// Every documented threshold of the verdicts at its boundary — just below, at, just above — so a
// threshold moved, or a < turned into ≤, fails a test. Pinned elsewhere already: the Will-it-work
// 20 % margin (video-math.test.ts: fits(100, 80) and fits(100, 80.01)), the label cap
// (history.test.ts: 200 and 201 characters), compare's ±5 % at exactly 1.05 (compare.test.ts),
// the knee's 80 % drop (knee.test.ts) and history's 64 MiB cap (core/history-size-cap.test.ts).
import { describe, expect, it } from 'vitest';
import { judgeComparison, NOISY_CV, SAME_WITHIN } from '../../../../app/src/model/verdict/compare.js';
import { bottleneck, BOTTLENECK_TOLERANCE, type Ceiling } from '../../../../app/src/model/verdict/bottleneck.js';
import { judgePhase, STALL_SECONDS, type PhaseFigures } from '../../../../app/src/model/verdict/paced.js';

describe("compare: 'no difference' is the whole interval within ±5 %", () => {
  it('is 5 %, either way', () => {
    expect(SAME_WITHIN).toBe(0.05);
  });

  it('identical runs 4.9 %, 5 % and 5.1 % apart: same, same, a real change — up and down', () => {
    // Identical runs make the interval a point: the ratio itself is judged.
    expect(judgeComparison([20.98, 20.98], [20, 20], 'higher').outcome).toBe('same');
    expect(judgeComparison([21, 21], [20, 20], 'higher').outcome).toBe('same');
    expect(judgeComparison([21.02, 21.02], [20, 20], 'higher')).toMatchObject({ outcome: 'change', sense: 'better' });
    // Down: the bound is the factor 1.05 the other way (20 / 21 = −4.76 %), symmetric on the log scale.
    expect(judgeComparison([20.02, 20.02], [21, 21], 'higher').outcome).toBe('same');
    expect(judgeComparison([20, 20], [21, 21], 'higher').outcome).toBe('same');
    expect(judgeComparison([19.98, 19.98], [21, 21], 'higher')).toMatchObject({ outcome: 'change', sense: 'worse' });
  });
});

describe('compare: a side whose runs vary by more than 25 % (CV) is noisy, and its outlier named', () => {
  // 75, 100, 125: mean 100, sample SD 25 → CV exactly 0.25.
  const cvOf = (runs: number[]) => judgeComparison([100, 101, 99], runs, 'higher').baseline;

  it('is 25 %', () => {
    expect(NOISY_CV).toBe(0.25);
  });

  it('CV 0.249 is not noisy, 0.25 is not, 0.251 is (with its outlier)', () => {
    expect(cvOf([75.1, 100, 124.9])).toMatchObject({ noisy: false });
    expect(cvOf([75.1, 100, 124.9]).cv).toBeCloseTo(0.249, 3);
    expect(cvOf([75, 100, 125])).toMatchObject({ noisy: false, cv: 0.25 });
    expect(cvOf([75, 100, 125]).outlier).toBeUndefined();
    expect(cvOf([74.9, 100, 125.1])).toMatchObject({ noisy: true, outlier: 1, outlierHigh: false });
    expect(cvOf([74.9, 100, 125.1]).cv).toBeCloseTo(0.251, 3);
  });
});

describe('bottleneck: a limit is named when its ceiling is within 15 % of the measured rate', () => {
  const m = { mbps: 1000, what: 'read + hash' };
  const disk = (mbps: number): Ceiling => ({ limit: 'disk', mbps, what: 'reading alone' });

  it('is 15 %', () => {
    expect(BOTTLENECK_TOLERANCE).toBe(0.15);
  });

  it('1,000 MB/s measured: a ceiling at 850 or 1,150 is the limit; at 849.8 or 1,150.2 it is not', () => {
    for (const c of [850, 850.2, 1149.8, 1150]) expect(bottleneck(m, [disk(c)]).outcome, `${c}`).toBe('disk');
    for (const c of [849.8, 1150.2]) expect(bottleneck(m, [disk(c)]).outcome, `${c}`).toBe('none');
  });

  it('a figure that contains another limit gives way to it when that one is within 30 % of it (twice the tolerance)', () => {
    // Reading an encrypted file (disk and cipher together) at 1,000; the cipher alone at 1,300 is
    // not near the measured rate, but near the encrypted read: the read is explained, none named.
    const encrypted: Ceiling = { limit: 'disk', mbps: 1000, what: 'reading the encrypted file', includes: ['cipher'] };
    const cipher = (mbps: number): Ceiling => ({ limit: 'cipher', mbps, what: 'the cipher alone' });
    expect(bottleneck(m, [encrypted, cipher(1299.8)]).outcome).toBe('none');
    expect(bottleneck(m, [encrypted, cipher(1300)]).outcome).toBe('none');
    expect(bottleneck(m, [encrypted, cipher(1300.2)]).outcome).toBe('disk');
  });
});

describe('paced: a failure whose dropped frames were all due in the first second may be a start-up stall', () => {
  // 29.97 fps: a frame every 33.37 ms, 29.97 frames a second; frames 0–29 are due within it.
  const budgetMs = 1000 / 29.97;
  const fails = (firstLateSeconds: number, dropAt: number): PhaseFigures => ({
    frames: 300,
    completed: 299,
    late: 0,
    dropped: 1,
    worstLatenessMs: 90,
    firstLateSeconds,
    timeline: '.'.repeat(dropAt) + 'D' + '.'.repeat(299 - dropAt),
    budgetMs,
  });

  it('is 1 s', () => {
    expect(STALL_SECONDS).toBe(1);
  });

  it('trouble first at 0.99 s is a possible stall, at 1.0 s it is not', () => {
    expect(judgePhase(fails(0.99, 29), 4, false).stall).toBe(true);
    expect(judgePhase(fails(1, 29), 4, false).stall).toBe(false);
  });

  it('the last dropped frame due at 0.968 s (frame 29) keeps the stall; at 1.001 s (frame 30) it is a drive that cannot keep up', () => {
    expect(judgePhase(fails(0, 29), 4, false)).toMatchObject({ outcome: 'fail', stall: true });
    expect(judgePhase(fails(0, 30), 4, false)).toMatchObject({ outcome: 'fail', stall: false });
  });

  it('a write on time for 2 s before its trouble reads as a cache filling; 1.99 s does not', () => {
    const hint = "(on time until then: as when a drive's cache fills)";
    expect(judgePhase(fails(1.99, 100), 4, true).text).not.toContain(hint);
    expect(judgePhase(fails(2, 100), 4, true).text).toContain(hint);
    expect(judgePhase(fails(2, 100), 4, false).text).not.toContain(hint); // reads never
  });
});

describe("paced: late frames inside the computer's own pauses are the computer's, not the drive's", () => {
  const budgetMs = 1000 / 29.97;
  const late = (n: number, hostLate: number, dropped = 0): PhaseFigures => ({
    frames: 300,
    completed: 300 - dropped,
    late: n,
    dropped,
    worstLatenessMs: 81,
    firstLateSeconds: 4,
    timeline: 'L'.repeat(n) + 'D'.repeat(dropped) + '.'.repeat(300 - n - dropped),
    budgetMs,
    hostLate,
    longestPauseMs: 95,
  });

  it('all late in a pause: ✓, says so and blames not the drive; one not covered: no such excuse for all', () => {
    expect(judgePhase(late(2, 2), 4, true)).toMatchObject({
      outcome: 'ok',
      text: '✓ 300 frames, none dropped; 2 frames late (worst 81 ms) while this computer itself paused for up to 95 ms, not the drive, absorbed by the 4-frame buffer',
    });
    const some = judgePhase(late(3, 2), 4, true).text;
    expect(some).toContain('3 frames late (worst 81 ms) (2 of them while this computer itself paused for up to 95 ms)');
    expect(some).not.toContain('not the drive');
    // An older engine's figures (no pause watch) read as before.
    expect(judgePhase({ ...late(2, 0), hostLate: undefined, longestPauseMs: undefined }, 4, true).text).not.toContain('paused');
  });

  it('a failure with late frames in a pause asks for a run with less running, not a start-up stall', () => {
    const v = judgePhase({ ...late(2, 2, 3), firstLateSeconds: 0.5 }, 4, false);
    expect(v.outcome).toBe('fail');
    expect(v.text).toContain('; all of the late while this computer itself paused for up to 95 ms: run again with less running');
    expect(v.text).not.toContain('start-up stall');
  });

  it('the pause count never exceeds the late count it explains', () => {
    expect(judgePhase(late(1, 5), 4, true).figures).toMatchObject({ late: 1, hostLate: 1 });
  });
});
