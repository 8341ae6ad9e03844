// Time left and the bar's fraction (model/eta.ts), shared by the app's bars and the CLI's line.
import { describe, expect, it } from 'vitest';
import { formatProgress } from '../../../app/src/cli/progress.js';
import type { RunProgress } from '../../../app/src/core/runner.js';
import { etaLine, jobFraction, jobSecondsLeft, leftText, secondsLeft, stepFraction, type JobPoint } from '../../../app/src/model/eta.js';

const point = (over: Partial<JobPoint> = {}): JobPoint => ({
  testIndex: 4,
  testCount: 8,
  run: 2,
  runs: 5,
  stage: 'run',
  bytesDone: 0,
  bytesTotal: 0,
  elapsed: 2.5,
  secondsTotal: 5,
  ...over,
});

describe('eta', () => {
  it('the default CrystalDiskMark run (8 tests × 5 runs) says where it is and about how long is left', () => {
    // Run 2, test 5, half-way: 12.5 of 40 steps done in 100 s, so 27.5 steps ≈ 220 s ≈ 4 min left.
    expect(jobFraction(point())).toBeCloseTo(12.5 / 40);
    expect(etaLine(point(), 100)).toBe('test 5 of 8 · run 2 of 5 · about 4 min left');
  });

  it('a flush counts as written: the sustained bar is full when the curve is, not back at 0 %', () => {
    const sustained = point({ testIndex: 0, testCount: 1, run: 1, runs: 1, stage: 'flush', bytesDone: 0, bytesTotal: 0, secondsTotal: 0 });
    expect(stepFraction(sustained)).toBe(1);
    expect(jobFraction(sustained)).toBe(1);
    expect(stepFraction(point({ stage: 'run', bytesDone: 9e9, bytesTotal: 10e9, elapsed: 30, secondsTotal: 0 }))).toBeCloseTo(0.9);
  });

  it('no time left for short jobs, nor before 2 % is done', () => {
    const short = point({ testIndex: 0, testCount: 2, run: 1, runs: 1, elapsed: 1, secondsTotal: 2 });
    expect(etaLine(short, 2)).toBe('test 1 of 2');
    expect(secondsLeft(0.01, 50)).toBeUndefined();
    expect(leftText(42)).toBe('about 40 s left');
    expect(leftText(3900)).toBe('about 1 h 5 min left');
  });

  it('a rest counts as the time it lasts, not as I/O: "Resting 0:54 before run 2" is not "about 10 s left"', () => {
    // Many files, 2 runs, a 60 s rest: run 1 took 10 s of I/O, then 6 s of the rest went by.
    const rest = point({ testIndex: 0, testCount: 16, run: 2, runs: 2, stage: 'rest', elapsed: 6, secondsTotal: 60, remaining: 54 });
    expect(jobSecondsLeft(rest, 16)).toBeCloseTo(54 + 10);
    expect(etaLine(rest, 16)).toBe('test 1 of 16 · run 2 of 2 · about 1 min left');
    // In run 2 of 3 with the rest known: the I/O time excludes the rest that went by, the rest to come is added.
    const running = point({ testIndex: 8, testCount: 16, run: 2, runs: 3, stage: 'run', elapsed: 0, secondsTotal: 5, restSeconds: 60 });
    // 1.5 runs of 3 done in 15 s of I/O (75 s less the 60 s rest): 15 s of I/O left, plus one 60 s rest.
    expect(jobSecondsLeft(running, 75)).toBeCloseTo(15 + 60);
  });

  it('the CLI line ends in the same words', () => {
    const p = { ...point(), phase: 'run', testName: 'RND4K Q32T1 Read', instMBps: 50, avgMBps: 48 } as unknown as RunProgress;
    expect(formatProgress(p, 200, 100)).toBe(
      'test 5 of 8 · run 2 of 5 · RND4K Q32T1 Read · measuring  50% · now 50.00 MB/s · avg 48.00 MB/s · about 4 min left',
    );
  });
});
