// The live progress line on stderr: phase, test, percent, instantaneous and average MB/s.
// Drawn only when stderr is a terminal (never into pipes or logs), redrawn at most 10× a second
// so a fast engine cannot flood a slow terminal.
import type { RunProgress } from '../core/runner.js';
import { formatMBps } from '../core/units.js';

export interface ProgressLine {
  update(p: RunProgress): void;
  /** Erases the line, so what follows starts on a clean row. */
  clear(): void;
}

const MIN_REDRAW_MS = 100;

const PHASE: Record<RunProgress['phase'], string> = {
  prepare: 'preparing',
  warmup: 'warming up',
  run: 'measuring',
  flush: 'flushing',
};

/** Fraction of the current phase done: a phase bounded by bytes and by time ends at whichever
 *  bound comes first, so the further-along of the two is the honest figure. */
export function progressFraction(p: RunProgress): number {
  const byBytes = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0;
  const byTime = p.secondsTotal > 0 ? p.elapsed / p.secondsTotal : 0;
  return Math.min(1, Math.max(byBytes, byTime));
}

export function formatProgress(p: RunProgress, width = 100): string {
  const pct = Math.floor(progressFraction(p) * 100);
  const step = `[${p.testIndex + 1}/${p.testCount}${p.runs > 1 ? ` run ${p.run}/${p.runs}` : ''}]`;
  const line =
    `${step} ${p.testName} · ${PHASE[p.phase]} ${String(pct).padStart(3)}%` +
    ` · now ${formatMBps(p.instMBps)} · avg ${formatMBps(p.avgMBps)}`;
  return line.length > width ? line.slice(0, Math.max(0, width - 1)) : line;
}

export function createProgressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine | undefined {
  if (!stream.isTTY) return undefined;
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < MIN_REDRAW_MS) return;
      last = now;
      stream.write(`\r\x1b[2K${formatProgress(p, (stream.columns || 100) - 1)}`);
      drawn = true;
    },
    clear() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
