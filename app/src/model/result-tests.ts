// Engine results as a document's test rows, and the weakest cache mode among them: pure, so the
// kinds' analysis (model/kinds) can run them anywhere.
import type { EngineResult, EngineSpec } from './engine-types.js';
import { seriesInterval, seriesRates } from './precision.js';
import { weakestCacheMode, type ResultTest } from './result.js';

export { weakestCacheMode };

function specWithoutPath(spec: EngineSpec): Omit<EngineSpec, 'path'> {
  const { path: _path, settle: _settle, ...rest } = spec;
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
  const interval = seriesInterval(seriesRates(r.series), r.mbps);
  if (interval) t.interval = interval;
  if (r.settle) t.settle = r.settle;
  return t;
}
