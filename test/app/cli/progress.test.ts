import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressLine, formatProgress, progressFraction } from '../../../app/src/cli/progress.js';
import type { RunProgress } from '../../../app/src/core/runner.js';
import { buildPlan, MiB } from '../../../app/src/model/presets.js';

const p: RunProgress = {
  phase: 'run',
  bytesDone: 256 << 20,
  bytesTotal: 1024 << 20,
  elapsed: 1,
  secondsTotal: 0,
  instMBps: 1234.56,
  avgMBps: 987.6,
  testIndex: 1,
  testCount: 8,
  testName: 'SEQ1M Q1T1 Read',
  run: 2,
  runs: 3,
};

describe('progress line', () => {
  it('shows step, run, test, phase, percent and both speeds', () => {
    expect(formatProgress(p)).toBe('test 2 of 8 · run 2 of 3 · SEQ1M Q1T1 Read · measuring  25% · now 1234.6 MB/s · avg 987.6 MB/s');
    expect(formatProgress({ ...p, runs: 1, phase: 'prepare' })).toMatch(/^test 2 of 8 · SEQ1M Q1T1 Read · preparing {2}25%/);
    expect(formatProgress(p, 20)).toHaveLength(19);
  });

  it('a many-file step asked in MiB reads in MiB on the line, not as decimal MB', () => {
    const plan = buildPlan('files', { files: { count: 8, minBytes: 4 * MiB, maxBytes: 4 * MiB } }, { freeBytes: 1e12, totalBytes: 2e12 });
    const line = formatProgress({ ...p, testIndex: 0, testCount: plan.steps.length, runs: 1, testName: plan.steps[0]!.name });
    expect(line).toMatch(/^test 1 of 16 · Write file 1\/8 \(4 MiB\) · measuring/);
    expect(line).not.toMatch(/4\.19 MB/);
  });

  it('measures progress by bytes or by time, whichever bound is nearer', () => {
    expect(progressFraction(p)).toBe(0.25);
    expect(progressFraction({ ...p, secondsTotal: 2 })).toBe(0.5);
    expect(progressFraction({ ...p, bytesTotal: 0, secondsTotal: 4 })).toBe(0.25);
    expect(progressFraction({ ...p, bytesTotal: 0, secondsTotal: 0 })).toBe(0);
    expect(progressFraction({ ...p, elapsed: 9, secondsTotal: 2 })).toBe(1);
  });

  it('draws nothing when stderr is not a terminal, and at most 10 times a second when it is', () => {
    expect(createProgressLine(new PassThrough() as unknown as NodeJS.WriteStream)).toBeUndefined();
    const tty = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
    (tty as { isTTY?: boolean }).isTTY = true;
    let written = '';
    tty.on('data', (d: Buffer) => (written += d.toString()));
    const line = createProgressLine(tty)!;
    for (let i = 0; i < 50; i++) line.update({ ...p, bytesDone: i });
    line.clear();
    const draws = written.split('\r\x1b[2K').filter(Boolean);
    expect(draws).toHaveLength(1);
    expect(written.endsWith('\r\x1b[2K')).toBe(true);
  });
});
