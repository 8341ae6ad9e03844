// bench:engine's memory test: the peak RSS of a child running a long sequential write and read
// through runTest, beside an idle child that only loaded the addon.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkAbort, f1, f2, log, ROOT, runChild, table } from './common.js';
import type { Options } from './engine-options.js';

export const mb = (kb: number | null): number => (kb == null ? NaN : (kb * 1024) / 1e6);

export function statusKb(pid: number, field: string): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null; // the process is gone
  }
}
export interface RssRun {
  sampledPeakKb: number;
  samples: number;
  hwmKb: number | null; // VmHWM, as the child itself read it before exiting
  maxRssKb: number | null; // process.resourceUsage().maxRSS
  child: Record<string, unknown>;
  seconds: number;
}

export async function rssChild(args: string[]): Promise<RssRun> {
  checkAbort();
  let peak = 0;
  let samples = 0;
  let timer: NodeJS.Timeout | undefined;
  const t0 = performance.now();
  const r = await runChild(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench-rss-child.ts'), ...args], (c) => {
    const sample = (): void => {
      const kb = c.pid ? statusKb(c.pid, 'VmRSS') : null;
      if (kb != null) {
        samples++;
        peak = Math.max(peak, kb);
      }
    };
    sample();
    timer = setInterval(sample, 50);
  });
  clearInterval(timer);
  checkAbort();
  if (r.code !== 0) throw new Error(`the RSS child failed (${r.code ?? r.signal}): ${r.stderr.trim()}`);
  const line = r.stdout.trim().split('\n').pop() ?? '{}';
  const child = JSON.parse(line) as Record<string, unknown> & { maxRssKb?: number; vmHwmKb?: number };
  return {
    sampledPeakKb: peak,
    samples,
    hwmKb: child.vmHwmKb ?? null,
    maxRssKb: child.maxRssKb ?? null,
    child,
    seconds: (performance.now() - t0) / 1000,
  };
}

export interface RssReport {
  bytes: number;
  idle: RssRun;
  run: RssRun;
  engineShareMB: number;
  totalPeakMB: number;
  target: number;
  pass: boolean;
  fileDeleted: boolean;
}

export async function rssBench(o: Options, dir: string): Promise<RssReport> {
  log(`  memory: idle child (addon loaded only)...`);
  const idle = await rssChild(['idle', '1500']);
  log(`  memory: ${(o.rssSize / 1e9).toFixed(2)} GB sequential write + read in a child...`);
  const run = await rssChild(['run', dir, String(o.rssSize)]);
  const peakOf = (x: RssRun): number => Math.max(x.sampledPeakKb, x.hwmKb ?? 0, x.maxRssKb ?? 0);
  const totalPeakMB = mb(peakOf(run));
  const engineShareMB = totalPeakMB - mb(peakOf(idle));
  const fileDeleted = run.child.fileLeft === false && !existsSync(path.join(dir, 'rss-test.bin'));
  return { bytes: o.rssSize, idle, run, engineShareMB, totalPeakMB, target: 100, pass: engineShareMB < 100, fileDeleted };
}

export function rssText(r: RssReport): string {
  const row = (name: string, x: RssRun): string[] => [
    name,
    f1(mb(x.sampledPeakKb)),
    String(x.samples),
    f1(mb(x.hwmKb)),
    f1(mb(x.maxRssKb)),
    f1(x.seconds),
  ];
  const w = r.run.child.write as { mbps?: number; seconds?: number; cacheMode?: string } | undefined;
  const rd = r.run.child.read as { mbps?: number; seconds?: number } | undefined;
  return [
    `Peak RSS (MB = 10^6 bytes), ${(r.bytes / 1e9).toFixed(2)} GB SEQ1M Q8T1 write then read through runTest in a child process,`,
    'VmRSS sampled every 50 ms by the parent; VmHWM and resourceUsage().maxRSS read by the child before exiting.',
    '',
    table(
      ['child', 'sampled peak', 'samples', 'VmHWM', 'maxRSS', 'wall s'],
      [row('idle (addon loaded)', r.idle), row('write + read', r.run)],
      [false, true, true, true, true, true],
    ),
    '',
    `  write ${f1(w?.mbps ?? NaN)} MB/s in ${f2(w?.seconds ?? NaN)} s, read ${f1(rd?.mbps ?? NaN)} MB/s in ${f2(rd?.seconds ?? NaN)} s, ` +
      `${String(r.run.child.progressCalls)} progress callbacks; test file deleted by the engine: ${r.fileDeleted ? 'yes' : 'NO'}`,
    `  whole process peak ${f1(r.totalPeakMB)} MB; engine's share (peak - idle peak) ${f1(r.engineShareMB)} MB` +
      `  target < ${r.target} MB: ${r.pass ? 'PASS' : 'BELOW'}`,
  ].join('\n');
}
