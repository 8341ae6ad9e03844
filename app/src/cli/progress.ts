// The live progress line on stderr: phase, test, percent, instantaneous and average MB/s.
// Drawn only when stderr is a terminal (never into pipes or logs), redrawn at most 10× a second
// so a fast engine cannot flood a slow terminal.
import type { HashRunProgress } from '../core/hash-run.js';
import type { RunProgress } from '../core/runner.js';
import { formatMBps } from '../core/units.js';

export interface ProgressLine {
  update(p: RunProgress): void;
  updateHash(p: HashRunProgress): void;
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

const HASH_STAGE: Record<HashRunProgress['stage'], string> = {
  write: 'writing the test file',
  read: 'reading (uncached)',
  'read-hash': 'reading + hashing',
  memory: 'hashing in memory, 1 core',
  'memory-parallel': 'hashing in memory, all cores',
};

export function formatHashProgress(p: HashRunProgress, width = 100): string {
  const byBytes = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0;
  const byTime = p.secondsTotal > 0 ? p.elapsed / p.secondsTotal : 0;
  const pct = Math.floor(Math.min(1, Math.max(byBytes, byTime)) * 100);
  const line = `[${p.stageIndex + 1}/${p.stageCount}] ${HASH_STAGE[p.stage]} ${String(pct).padStart(3)}% · now ${formatMBps(p.instMBps)} · avg ${formatMBps(p.avgMBps)}`;
  return line.length > width ? line.slice(0, Math.max(0, width - 1)) : line;
}

export function createProgressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine | undefined {
  if (!stream.isTTY) return undefined;
  let last = 0;
  let drawn = false;
  const draw = (line: string): void => {
    const now = Date.now();
    if (now - last < MIN_REDRAW_MS) return;
    last = now;
    stream.write(`\r\x1b[2K${line}`);
    drawn = true;
  };
  return {
    update(p) {
      draw(formatProgress(p, (stream.columns || 100) - 1));
    },
    updateHash(p) {
      draw(formatHashProgress(p, (stream.columns || 100) - 1));
    },
    clear() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
