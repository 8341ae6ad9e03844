// Engine results as a document's test rows, and the weakest cache mode among them: pure, so the
// kinds' analysis (model/kinds) can run them anywhere.
import type { CacheMode, EngineResult, EngineSpec } from './engine-types.js';
import type { ResultTest } from './result.js';

// Strongest first: direct I/O and macOS F_NOCACHE both bypass the cache.
const CACHE_ORDER: readonly CacheMode[] = ['direct', 'nocache', 'buffered-flushed', 'buffered'];

export function weakestCacheMode(modes: readonly CacheMode[]): CacheMode {
  let worst = 0;
  for (const m of modes) worst = Math.max(worst, CACHE_ORDER.indexOf(m));
  return CACHE_ORDER[worst] ?? 'buffered';
}

function specWithoutPath(spec: EngineSpec): Omit<EngineSpec, 'path'> {
  const { path: _path, ...rest } = spec;
  return rest;
}

/** One engine result as a row of the document. */
export function toResultTest(name: string, r: EngineResult, run: number): ResultTest {
  const t: ResultTest = {
    name,
    rw: r.rw,
    bs: r.bs,
    qd: r.qd,
    threads: r.threads,
    bytes: r.bytes,
    seconds: r.seconds,
    mbps: r.mbps,
    iops: r.iops,
    latencyUs: { ...r.latencyUs },
    series: r.series,
    cacheMode: r.cacheMode,
    run,
    ioEngine: r.ioEngine,
    alignment: r.alignment,
    prepareSeconds: r.prepareSeconds,
    warmupSeconds: r.warmupSeconds,
    flushSeconds: r.flushSeconds,
    spec: specWithoutPath(r.spec),
  };
  if (r.cacheNote) t.cacheNote = r.cacheNote;
  return t;
}
