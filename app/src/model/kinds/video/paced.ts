// The frame-paced video test's vocabulary: stable format ids (`prores-hq-uhd-2997`: format,
// resolution, frame rate without its point) for every format × resolution × frame rate the data
// file offers, each resolved to its frame size; and the verdict in plain words from the engine's
// per-frame figures. The data and the rate arithmetic are the Will-it-work table's (data.ts, math.ts).
import type { PacedFigures } from '../../engine-types.js';
import { videoData } from './data.js';
import { judgePhase } from '../../verdict/paced.js';
import { formatFps, mbpsToMBps, neededMbps } from './math.js';
import type { PacedFormat, VideoLayout, VideoPhase, VideoSection } from './result.js';

export const VIDEO_LAYOUTS: readonly VideoLayout[] = ['stream', 'frames'];
/** A recorder's buffer: frames that may wait for the disk before one is lost. */
export const DEFAULT_VIDEO_BUFFER = 4;
export const MAX_VIDEO_BUFFER = 256;
export const DEFAULT_VIDEO_SECONDS = 30;
/** What the test writes without --format: a common edit codec at UHD, 29.97 fps (~111 MB/s). */
export const DEFAULT_VIDEO_FORMAT = 'prores-hq-uhd-2997';
export const MAX_VIDEO_SECONDS = 3600;

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

/** The verdict of one phase under the paced rule (verdict/paced.ts): ✓ unless frames were
 *  dropped; late frames the buffer absorbed are noted, not failed. */
export function phaseVerdict(p: PacedFigures, write: boolean, buffer: number): { ok: boolean; text: string } {
  const v = judgePhase(p, buffer, write);
  return { ok: v.outcome === 'ok', text: v.text };
}

/** The section's one-line verdict from its runs. */
export function sectionVerdict(s: Pick<VideoSection, 'format' | 'resolution' | 'fps' | 'runs' | 'buffer'>): { ok: boolean; text: string } {
  const what = `${s.format} ${s.resolution.split(' (')[0]} ${formatFps(s.fps)} fps`;
  const bad = s.runs.flatMap((r) => [
    ...(r.write.ok ? [] : [`write${s.runs.length > 1 ? ` (run ${r.run})` : ''} ${r.write.verdict}`]),
    ...(r.read.ok ? [] : [`read${s.runs.length > 1 ? ` (run ${r.run})` : ''} ${r.read.verdict}`]),
  ]);
  const late = s.runs.reduce((n, r) => n + r.write.late + r.read.late, 0);
  // Late frames inside the computer's own pauses (the engine's pause watch) are not the drive's.
  const hostLate = (p: VideoPhase): number => Math.min(p.late, p.hostLate ?? 0);
  const host = s.runs.reduce((n, r) => n + hostLate(r.write) + hostLate(r.read), 0);
  if (bad.length === 0 && late === 0) return { ok: true, text: `${what}: ✓ every frame written and read back on time` };
  if (bad.length === 0) {
    const whose =
      host === 0
        ? ''
        : host === late
          ? ' while this computer itself paused, not the drive'
          : ` (${host.toLocaleString('en-US')} of them while this computer itself paused)`;
    return {
      ok: true,
      text: `${what}: ✓ no frame dropped; ${late.toLocaleString('en-US')} frame${late === 1 ? '' : 's'} late${whose}, absorbed by the ${s.buffer}-frame buffer`,
    };
  }
  return { ok: false, text: `${what}: ✗ ${bad.join('; ').replace(/✗ /g, '')}` };
}

/** A saved section judged again by today's rule from its own figures (a result saved under an
 *  older rule failed a format for late frames the buffer absorbed). */
export function rejudged(s: VideoSection): VideoSection {
  const phase = (p: VideoPhase, write: boolean): VideoPhase => {
    const v = phaseVerdict({ ...p, frameBytes: s.frameBytes, budgetMs: s.budgetMs }, write, s.buffer);
    return { ...p, ok: v.ok, verdict: v.text };
  };
  const runs = s.runs.map((r) => ({ ...r, write: phase(r.write, true), read: phase(r.read, false) }));
  const verdict = sectionVerdict({ ...s, runs });
  return { ...s, runs, ok: verdict.ok, verdict: verdict.text };
}
