// The frame-paced video test's vocabulary: stable format ids (`prores-hq-uhd-2997`: format,
// resolution, frame rate without its point) for every format × resolution × frame rate the data
// file offers, each resolved to its frame size; and the verdict in plain words from the engine's
// per-frame figures. The data and the rate arithmetic are the Will-it-work table's (data.ts, math.ts).
import type { CacheMode, PacedFigures } from '../engine-types.js';
import { videoData } from './data.js';
import { formatFps, mbpsToMBps, neededMbps } from './math.js';

export type VideoLayout = 'stream' | 'frames';
export const VIDEO_LAYOUTS: readonly VideoLayout[] = ['stream', 'frames'];
/** A recorder's buffer: frames that may wait for the disk before one is lost. */
export const DEFAULT_VIDEO_BUFFER = 4;
export const MAX_VIDEO_BUFFER = 256;
export const DEFAULT_VIDEO_SECONDS = 30;
/** What the test writes without --format: a common edit codec at UHD, 29.97 fps (~111 MB/s). */
export const DEFAULT_VIDEO_FORMAT = 'prores-hq-uhd-2997';
export const MAX_VIDEO_SECONDS = 3600;

/** One format at one resolution and frame rate, as the paced test writes it. */
export interface PacedFormat {
  id: string;
  formatId: string;
  format: string;
  family: string;
  resolutionId: string;
  /** "UHD (3840×2160)" */
  resolution: string;
  fps: number;
  /** MB/s (10^6 bytes/s) the format's data rate comes to at `fps`. */
  dataRateMBps: number;
  /** Bytes per frame: the data rate over the frame rate, whole bytes. */
  frameBytes: number;
  /** The data rate is scaled or derived, not the maker's own figure at this rate. */
  estimated: boolean;
}

/** "29.97" → "2997", "24" → "24": the frame rate's part of an id. */
const fpsPart = (fps: number): string => String(fps).replace('.', '');

/** Every paced format the data offers, in the table's order (family, format, resolution, rate). */
export function pacedFormats(): PacedFormat[] {
  const out: PacedFormat[] = [];
  const { families, formats, resolutions, frameRates } = videoData;
  for (const fam of families)
    for (const f of formats) {
      if (f.family !== fam.id) continue;
      for (const r of resolutions)
        for (const fps of frameRates) {
          const need = neededMbps(f, r, fps, resolutions);
          if (!need) continue;
          const rate = mbpsToMBps(need.mbps);
          out.push({
            id: `${f.id}-${r.id}-${fpsPart(fps)}`,
            formatId: f.id,
            format: f.name,
            family: fam.label,
            resolutionId: r.id,
            resolution: `${r.label} (${r.detail})`,
            fps,
            dataRateMBps: rate,
            frameBytes: Math.ceil((rate * 1e6) / fps),
            estimated: need.estimated,
          });
        }
    }
  return out;
}

let byId: Map<string, PacedFormat> | undefined;

/** The paced format of an id, or undefined. */
export function pacedFormat(id: string): PacedFormat | undefined {
  byId ??= new Map(pacedFormats().map((p) => [p.id, p]));
  return byId.get(id);
}

/** A few ids for help text and errors: one per family at UHD 29.97 where offered. */
export function exampleFormatIds(): string[] {
  const seen = new Set<string>();
  return pacedFormats()
    .filter((p) => p.resolutionId === 'uhd' && p.fps === 29.97 && !seen.has(p.family) && seen.add(p.family))
    .map((p) => p.id);
}

/** One direction of one run of the paced test. */
export interface VideoPhase extends Omit<PacedFigures, 'frameBytes' | 'budgetMs'> {
  /** Sustained MB/s: bytes moved over the phase's time (first due frame to last completion). */
  mbps: number;
  cacheMode: CacheMode;
  ok: boolean;
  /** "✓ 900 frames, none late; worst 21 ms of a 33 ms budget" */
  verdict: string;
}

export interface VideoRun {
  run: number;
  write: VideoPhase;
  read: VideoPhase;
}

/** The frame-paced video test (result document `video`): the format as the table gives it
 *  (`frameBytes`: the size written, rounded up to the direct-I/O alignment) and what happened. */
export interface VideoSection extends PacedFormat {
  /** One frame period, ms. */
  budgetMs: number;
  seconds: number;
  frames: number;
  layout: VideoLayout;
  buffer: number;
  runs: VideoRun[];
  /** Every frame of every run on time, none dropped, both ways. */
  ok: boolean;
  /** One line: "ProRes 422 HQ UHD 29.97 fps: ✓ every frame written and read back on time". */
  verdict: string;
}

const count = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (x: number): string => `${x >= 10 ? Math.round(x) : x.toFixed(1)} ms`;
const secs = (s: number): string => `${s >= 10 ? Math.round(s) : s.toFixed(1)} s`;
/** A write that keeps up this long before its first late frame looks like a cache filling. */
const CACHE_HINT_SECONDS = 2;

/** The verdict of one phase: ✓ with the worst frame against the budget, or ✗ with the counts and
 *  when it started. */
export function phaseVerdict(p: PacedFigures, write: boolean): { ok: boolean; text: string } {
  const ok = p.late === 0 && p.dropped === 0 && p.completed === p.frames;
  if (ok) return { ok, text: `✓ ${count(p.frames)} frames, none late; worst ${ms(p.worstLatenessMs)} of a ${ms(p.budgetMs)} budget` };
  const parts = [`✗ ${count(p.late)} of ${count(p.frames)} frames late`];
  if (p.dropped > 0) parts.push(`${count(p.dropped)} dropped`);
  let when = p.firstLateSeconds !== undefined ? `first at ${secs(p.firstLateSeconds)}` : '';
  if (when && write && p.firstLateSeconds! >= CACHE_HINT_SECONDS) when += " (on time until then: as when a drive's cache fills)";
  return { ok, text: [parts.join(', '), when].filter(Boolean).join(', ') };
}

/** The section's one-line verdict from its runs. */
export function sectionVerdict(s: Pick<VideoSection, 'format' | 'resolution' | 'fps' | 'runs'>): { ok: boolean; text: string } {
  const what = `${s.format} ${s.resolution.split(' (')[0]} ${formatFps(s.fps)} fps`;
  const bad = s.runs.flatMap((r) => [
    ...(r.write.ok ? [] : [`write${s.runs.length > 1 ? ` (run ${r.run})` : ''} ${r.write.verdict}`]),
    ...(r.read.ok ? [] : [`read${s.runs.length > 1 ? ` (run ${r.run})` : ''} ${r.read.verdict}`]),
  ]);
  if (bad.length === 0) return { ok: true, text: `${what}: ✓ every frame written and read back on time` };
  return { ok: false, text: `${what}: ✗ ${bad.join('; ').replace(/✗ /g, '')}` };
}
