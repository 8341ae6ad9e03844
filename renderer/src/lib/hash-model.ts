// The Hash screen (and History's hash results) as data: the algorithms' names, the four bars (from a finished document, or from a job's finished
// stages and its progress), their common scale, the job's progress in words and as a fraction,
// the verdict's badge, and what the reader's and hasher's waits mean. Pure functions.
import type { HashSection } from '@model/result';
import type { HashProgressEvent, HashStage, HashStageEvent } from '@model/events';
import type { HashSettings } from '@model/settings';
import { hashFileSize } from '@model/trust';
import { formatBytesBinary, formatBytesShort } from '@model/units';
import { LIMIT_LABEL } from '@model/verdict/bottleneck';

export type HashAlgo = HashSettings['algo'];

export const ALGOS: ReadonlyArray<{ value: HashAlgo; label: string }> = [
  { value: 'sha256', label: 'SHA-256' },
  { value: 'sha512', label: 'SHA-512' },
];

/** "SHA-256" */
export function algoLabel(algo: string): string {
  return ALGOS.find((a) => a.value === algo)?.label ?? algo.toUpperCase();
}

export type BarStage = Exclude<HashStage, 'write'>;
export const BAR_STAGES: readonly BarStage[] = ['read', 'read-hash', 'memory', 'memory-parallel'];

export type BarState = 'done' | 'live' | 'pending';

export interface Bar {
  stage: BarStage;
  label: string;
  /** MB/s: the stage's rate, the running average while live, null while pending. */
  mbps: number | null;
  state: BarState;
  /** live: how far the stage is, 0–1. */
  fraction: number;
  /** Width on the common scale, 0–1. */
  width: number;
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const rate = (x: number | undefined | null): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);

/** "Hash in memory, 4 cores"; before the core says how many, "all cores". */
export function barLabel(stage: BarStage, threads?: number): string {
  switch (stage) {
    case 'read':
      return 'Read (storage)';
    case 'read-hash':
      return 'Read + hash';
    case 'memory':
      return 'Hash in memory, 1 core';
    case 'memory-parallel':
      return threads && threads > 0 ? `Hash in memory, ${threads} core${threads === 1 ? '' : 's'}` : 'Hash in memory, all cores';
  }
}

/** How far a stage is, 0–1: bytes for the file stages, time for the memory stages. */
export function stageFraction(p: HashProgressEvent): number {
  const byBytes = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0;
  const byTime = p.secondsTotal > 0 ? p.elapsed / p.secondsTotal : 0;
  return clamp01(Math.max(byBytes, byTime));
}

/** How far the whole job is, 0–1 (stages count alike). */
export function jobFraction(p: HashProgressEvent): number {
  const n = Math.max(1, p.stageCount);
  return clamp01((Math.max(0, p.stageIndex) + stageFraction(p)) / n);
}

function scaled(bars: Omit<Bar, 'width'>[]): Bar[] {
  const max = Math.max(0, ...bars.map((b) => b.mbps ?? 0));
  return bars.map((b) => ({ ...b, width: max > 0 && b.mbps !== null ? clamp01(b.mbps / max) : 0 }));
}

/** The bars of a finished document. */
export function barsFromSection(h: HashSection): Bar[] {
  const value: Record<BarStage, number | null> = {
    read: rate(h.read?.mbps),
    'read-hash': rate(h.readHash?.mbps),
    memory: rate(h.memory?.mbps),
    'memory-parallel': rate(h.memoryParallel?.mbps),
  };
  return scaled(
    BAR_STAGES.map((stage) => ({
      stage,
      label: barLabel(stage, stage === 'memory-parallel' ? h.memoryParallel?.threads : undefined),
      mbps: value[stage],
      state: value[stage] === null ? 'pending' : 'done',
      fraction: 0,
    })),
  );
}

/** The bars of a job: finished stages full, the running one from its progress (its average so
 *  far), the rest empty. All on one scale, the live value included. */
export function barsFromJob(job: { stages: readonly HashStageEvent[]; progress: HashProgressEvent | null }, running: boolean): Bar[] {
  const done = new Map<HashStage, HashStageEvent>(job.stages.map((s) => [s.stage, s]));
  const p = running ? job.progress : null;
  return scaled(
    BAR_STAGES.map((stage) => {
      const fin = done.get(stage);
      const threads = stage === 'memory-parallel' ? fin?.threads : undefined;
      if (fin) return { stage, label: barLabel(stage, threads), mbps: rate(fin.mbps), state: 'done' as const, fraction: 1 };
      // The core says how many streams as soon as the stage starts.
      if (p && p.stage === stage) {
        const live = stage === 'memory-parallel' ? p.threads : undefined;
        return { stage, label: barLabel(stage, live), mbps: rate(p.avgMBps) ?? 0, state: 'live' as const, fraction: stageFraction(p) };
      }
      return { stage, label: barLabel(stage), mbps: null, state: 'pending' as const, fraction: 0 };
    }),
  );
}

const STAGE_WORDS: Record<HashStage, string> = {
  write: 'writing the test file',
  read: 'reading (storage only)',
  'read-hash': 'reading and hashing',
  memory: 'hashing in memory on 1 core',
  'memory-parallel': 'hashing in memory on all cores',
};

/** "Step 2 of 5 · reading (storage only) · 3.2 GB of 16.8 GB", "Step 4 of 4 · hashing in memory on 1 core · 2 s left". */
export function progressLine(p: HashProgressEvent): string {
  const step = `Step ${p.stageIndex + 1} of ${p.stageCount} · ${STAGE_WORDS[p.stage] ?? p.stage}`;
  // In the unit system the file's size is written in on the rest of the screen (MiB when asked so).
  if (p.bytesTotal > 0) {
    const size = hashFileSize(p.bytesTotal).endsWith('iB') ? formatBytesBinary : formatBytesShort;
    return `${step} · ${size(p.bytesDone)} of ${size(p.bytesTotal)}`;
  }
  if (p.secondsTotal > 0) return `${step} · ${Math.max(0, Math.ceil(p.secondsTotal - p.elapsed))} s left`;
  return step;
}

/** The same for a screen reader: the step, not every tick. */
export function announceLine(p: HashProgressEvent): string {
  return `Step ${p.stageIndex + 1} of ${p.stageCount} · ${STAGE_WORDS[p.stage] ?? p.stage}`;
}

export type Bound = HashSection['verdict']['bound'];

// The chip's words are the bottleneck verdict's own (model/verdict/bottleneck.ts).
export const BOUND_LABEL: Record<Bound, string> = {
  storage: LIMIT_LABEL.disk,
  cpu: LIMIT_LABEL['hash-cpu'],
  cipher: LIMIT_LABEL.cipher,
  link: LIMIT_LABEL.link,
  balanced: LIMIT_LABEL.none,
  none: LIMIT_LABEL.none,
};

export function boundLabel(bound: string): string {
  return BOUND_LABEL[bound as Bound] ?? bound;
}

const secs = (s: number): string => `${s.toFixed(s >= 10 ? 0 : 1)} s`;

/** What the reader's and the hasher's waits say: "The reader waited 3.9 s for the hasher:
 *  hashing is the limit." Waits under 5 % of the run, or within 10 % of each other, say neither. */
export function waitLine(r: HashSection['readHash'], bound?: Bound): string | null {
  const reader = r.readerWaitSeconds;
  const hasher = r.hasherWaitSeconds;
  if (!Number.isFinite(reader) || !Number.isFinite(hasher)) return null;
  const small = Math.max(0.05 * r.seconds, 0.05);
  if (reader > hasher * 1.1 && reader >= small) return `The reader waited ${secs(reader)} for the hasher: hashing is the limit.`;
  if (hasher > reader * 1.1 && hasher >= small) return `The hasher waited ${secs(hasher)} for the reader: the disk is the limit.`;
  const neither = `Reader and hasher hardly waited for each other (${secs(reader)} and ${secs(hasher)})`;
  // "Evenly matched" only where the rates agree: beside "Storage-bound by 3.1×" it would contradict.
  return bound === undefined || bound === 'balanced' ? `${neither}: disk and CPU are evenly matched.` : `${neither}.`;
}

/** "1 MiB chunks, 4 in flight". */
export function pipelineLine(r: HashSection['readHash']): string | null {
  if (!(r.chunkBytes > 0) || !(r.buffers > 0)) return null;
  const MiB = 1024 * 1024;
  const chunk = r.chunkBytes >= MiB ? `${+(r.chunkBytes / MiB).toFixed(2)} MiB` : `${+(r.chunkBytes / 1024).toFixed(1)} KiB`;
  return `${chunk} chunks, ${r.buffers} in flight`;
}
