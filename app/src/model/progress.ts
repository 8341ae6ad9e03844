// The live figures every running job reports, declared once: the engine's progress, the runner's,
// and each screen's progress event extend these. Events copy them with rateOf/timedOf, which pick
// the fields by name so an engine-internal field never leaks onto the wire.

export interface RateProgress {
  /** Bytes done in this phase (or stage). */
  bytesDone: number;
  /** Bytes it will do at most; 0 when it is bounded by time only. */
  bytesTotal: number;
  /** Throughput over the last progress interval, MB/s (10^6 bytes). */
  instMBps: number;
  /** Throughput since the phase started, MB/s. */
  avgMBps: number;
}

export interface TimedProgress extends RateProgress {
  /** Seconds since the phase started. */
  elapsed: number;
  /** Seconds it will last at most; 0 when it is bounded by bytes only. */
  secondsTotal: number;
}

export function rateOf(p: RateProgress): RateProgress {
  return { instMBps: p.instMBps, avgMBps: p.avgMBps, bytesDone: p.bytesDone, bytesTotal: p.bytesTotal };
}

export function timedOf(p: TimedProgress): TimedProgress {
  return { ...rateOf(p), elapsed: p.elapsed, secondsTotal: p.secondsTotal };
}
