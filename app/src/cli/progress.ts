// The live progress line on stderr: phase, test, percent, instantaneous and average MB/s.
// Drawn only when stderr is a terminal (never into pipes or logs), redrawn at most 10× a second
// so a fast engine cannot flood a slow terminal.
import type { HashRunProgress } from '../core/hash-run.js';
import type { RunProgress } from '../core/runner.js';
import { positionText, stepFraction, timeLeftText } from '../model/eta.js';
import { formatMBps } from '../model/units.js';

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

/** Fraction of the current phase done (model/eta.ts: bytes or time, whichever ends it first; a
 *  flush counts as written). */
export function progressFraction(p: RunProgress): number {
  return stepFraction({ ...p, stage: p.phase });
}

/** "test 5 of 8 · run 2 of 5 · SEQ1M Q8T1 Read · measuring 40% · now … · avg … · about 3 min
 *  left": the app's words. `jobElapsed` (seconds since the run started) gives the time left. */
export function formatProgress(p: RunProgress, width = 100, jobElapsed?: number, restSeconds?: number): string {
  const pct = Math.floor(progressFraction(p) * 100);
  const at = { ...p, stage: p.phase, restSeconds };
  const step = positionText(at);
  const left = jobElapsed !== undefined ? timeLeftText(at, jobElapsed) : '';
  const line =
    `${step ? `${step} · ` : ''}${p.testName} · ${PHASE[p.phase]} ${String(pct).padStart(3)}%` +
    ` · now ${formatMBps(p.instMBps)} · avg ${formatMBps(p.avgMBps)}` +
    (left ? ` · ${left}` : '');
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

/** `restSeconds`: the rest between runs, so the time left counts the rests to come. */
export function createProgressLine(stream: NodeJS.WriteStream = process.stderr, restSeconds?: number): ProgressLine | undefined {
  if (!stream.isTTY) return undefined;
  let last = 0;
  let drawn = false;
  let startedAt: number | undefined;
  const draw = (line: string): void => {
    const now = Date.now();
    if (now - last < MIN_REDRAW_MS) return;
    last = now;
    stream.write(`\r\x1b[2K${line}`);
    drawn = true;
  };
  return {
    update(p) {
      startedAt ??= Date.now();
      draw(formatProgress(p, (stream.columns || 100) - 1, (Date.now() - startedAt) / 1000, restSeconds));
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
