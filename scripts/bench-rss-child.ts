// Child process of scripts/bench-engine.ts for the memory measurement. The parent samples this
// process's /proc/<pid>/status VmRSS every 50 ms; this child only does the work and, before it
// exits, prints ONE JSON line on stdout with its own high-water marks.
//
//   node --import tsx scripts/bench-rss-child.ts idle <ms>
//       loads the addon (engine version), then sits idle for <ms>: the baseline.
//   node --import tsx scripts/bench-rss-child.ts run <dir> <bytes>
//       SEQ1M Q8T1 write of <bytes> (kept), then SEQ1M Q8T1 read of the same file (deleted by the
//       engine: keepFile false), both with an onProgress callback as the app would pass one.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { engineVersion, runTest } from '../app/src/core/engine.js';
import type { EngineResult, EngineSpec } from '../app/src/model/engine-types.js';

function statusKb(field: string): number | null {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : null;
}

function summary(r: EngineResult): Record<string, unknown> {
  return { rw: r.rw, bytes: r.bytes, seconds: r.seconds, mbps: r.mbps, cacheMode: r.cacheMode, ioEngine: r.ioEngine };
}

async function main(): Promise<void> {
  const [mode, a, b] = process.argv.slice(2);
  const out: Record<string, unknown> = { mode };
  if (mode === 'idle') {
    out.engineVersion = engineVersion();
    await sleep(Number(a ?? 1000));
  } else if (mode === 'run') {
    if (!a || !b) throw new Error('usage: run <dir> <bytes>');
    const file = path.join(a, 'rss-test.bin');
    const bytes = Number(b);
    const base: Omit<EngineSpec, 'rw' | 'keepFile'> = {
      path: file,
      bs: 1 << 20,
      qd: 8,
      threads: 1,
      fileSize: bytes,
      pattern: 'random',
      cache: 'auto',
    };
    let progressCalls = 0;
    const onProgress = (): void => {
      progressCalls++;
    };
    out.engineVersion = engineVersion();
    const w = await runTest({ ...base, rw: 'write', keepFile: true }, { onProgress });
    const r = await runTest({ ...base, rw: 'read', keepFile: false }, { onProgress });
    out.write = summary(w);
    out.read = summary(r);
    out.progressCalls = progressCalls;
    out.fileLeft = existsSync(file);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  // maxRSS is in KiB (kB in /proc terms).
  out.maxRssKb = process.resourceUsage().maxRSS;
  out.vmHwmKb = statusKb('VmHWM');
  out.vmRssKb = statusKb('VmRSS');
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-rss-child: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
