// The CLI's engine: jobs run in engine child processes (services/engine-host-pool.ts), as in the
// app and `serve`, so Ctrl-C and SIGTERM are answered even when a disk holds the engine in the
// kernel; a job whose drive moves no data for a few seconds is said on stderr.
import { EngineHostPool } from '../services/engine-host-pool.js';
import { NOT_ANSWERING_MS } from '../services/engine-host.js';

export function cliEngine(say: (line: string) => void): EngineHostPool {
  const pool = new EngineHostPool();
  let saidAt = -Infinity;
  pool.onNotAnswering((e) => {
    // Several streams of one check fall silent together: one line for them.
    if (performance.now() - saidAt < NOT_ANSWERING_MS) return;
    saidAt = performance.now();
    say(
      `the drive is not answering: no data has moved for ${e.seconds} s${e.path ? ` (${e.path})` : ''}. Still waiting for it; Ctrl-C stops.`,
    );
  });
  return pool;
}
