// The video panel's form: a format of video-formats.json picked as codec, resolution and frame
// rate (only combinations the data offers), the file layout, the buffer, the duration. Pure: the
// paced format id a Start sends is the one these choices name (model/kinds/video/paced.ts).
import {
  DEFAULT_VIDEO_BUFFER,
  DEFAULT_VIDEO_FORMAT,
  DEFAULT_VIDEO_SECONDS,
  MAX_VIDEO_BUFFER,
  MAX_VIDEO_SECONDS,
  pacedFormat,
  pacedFormats,
} from '@model/kinds/video/paced';
import type { PacedFormat, VideoLayout } from '@model/kinds/video/result';
import { fitPlan } from '@model/presets';
import { repeatErrors, restSeconds, whole } from '../form-rules';
import type { Fit } from '@model/fit';
import { formatBytes } from '@model/units';
import type { FitInTerms, FitTarget, FormErrors, KindForm } from '../kind-entry';

export interface VideoForm {
  /** A format of video-formats.json ("prores-hq"). */
  formatId: string;
  resolutionId: string;
  fps: number;
  layout: VideoLayout;
  /** Frames that may wait for the disk before one is dropped. */
  buffer: number;
  seconds: number;
  runs: number;
  restMinutes: number;
  /** The saved Quick Test whose "Check this format" opened this form: the one result this
   *  test's verdict decides (absent: it decides none, and is shown as a dated line). */
  from?: string;
}

const defaultFormat = pacedFormat(DEFAULT_VIDEO_FORMAT)!;

export const VIDEO_DEFAULTS: VideoForm = {
  formatId: defaultFormat.formatId,
  resolutionId: defaultFormat.resolutionId,
  fps: defaultFormat.fps,
  layout: 'stream',
  buffer: DEFAULT_VIDEO_BUFFER,
  seconds: DEFAULT_VIDEO_SECONDS,
  runs: 1,
  restMinutes: 5,
};

export const VIDEO_SECONDS_CHOICES: readonly number[] = [10, 30, 60, 120, 300, 600];
export const VIDEO_BUFFER_CHOICES: readonly number[] = [1, 2, 4, 8, 16, 32];
export const VIDEO_LAYOUTS: ReadonlyArray<{ value: VideoLayout; label: string; detail: string }> = [
  { value: 'stream', label: 'Stream file', detail: 'One growing file, as ProRes, DNxHR or H.264 in a container' },
  { value: 'frames', label: 'File per frame', detail: 'One file a frame, as DPX or EXR sequences' },
];

/** The paced format the form names, or undefined when the data does not offer that combination. */
export function videoFormatOf(f: Pick<VideoForm, 'formatId' | 'resolutionId' | 'fps'>): PacedFormat | undefined {
  return pacedFormats().find((p) => p.formatId === f.formatId && p.resolutionId === f.resolutionId && p.fps === f.fps);
}

/** The formats grouped by family, in the data's order: the picker's optgroups. */
export function formatGroups(): Array<{ family: string; formats: Array<{ id: string; name: string }> }> {
  const groups: Array<{ family: string; formats: Array<{ id: string; name: string }> }> = [];
  for (const p of pacedFormats()) {
    let g = groups.find((x) => x.family === p.family);
    if (!g) groups.push((g = { family: p.family, formats: [] }));
    if (!g.formats.some((x) => x.id === p.formatId)) g.formats.push({ id: p.formatId, name: p.format });
  }
  return groups;
}

/** The resolutions a format is offered in at some frame rate, and the rates it is offered at in
 *  one resolution. */
export function resolutionsOf(formatId: string): Array<{ id: string; label: string }> {
  const out: Array<{ id: string; label: string }> = [];
  for (const p of pacedFormats())
    if (p.formatId === formatId && !out.some((r) => r.id === p.resolutionId)) out.push({ id: p.resolutionId, label: p.resolution });
  return out;
}

export function ratesOf(formatId: string, resolutionId: string): number[] {
  return pacedFormats()
    .filter((p) => p.formatId === formatId && p.resolutionId === resolutionId)
    .map((p) => p.fps);
}

/** The form with a choice changed, the others moved to the nearest offered combination: the same
 *  resolution and rate when offered, else UHD, else the first; the closest rate. */
export function pickVideo(f: VideoForm, patch: Partial<Pick<VideoForm, 'formatId' | 'resolutionId' | 'fps'>>): VideoForm {
  const next = { ...f, ...patch };
  const res = resolutionsOf(next.formatId);
  if (res.length === 0) return f;
  if (!res.some((r) => r.id === next.resolutionId)) next.resolutionId = res.find((r) => r.id === 'uhd')?.id ?? res[0]!.id;
  const rates = ratesOf(next.formatId, next.resolutionId);
  if (!rates.includes(next.fps)) next.fps = rates.reduce((a, b) => (Math.abs(b - next.fps) < Math.abs(a - next.fps) ? b : a));
  return next;
}

/** What is wrong with the video form, runs and rest included (what its panel marks). */
export function videoErrors(f: VideoForm): FormErrors {
  const e = repeatErrors(f);
  if (!videoFormatOf(f)) e.format = 'This format is not offered at this resolution and frame rate: choose another.';
  if (!whole(f.buffer, 1, MAX_VIDEO_BUFFER)) e.buffer = `Buffer: a whole number of frames from 1 to ${MAX_VIDEO_BUFFER}.`;
  if (!whole(f.seconds, 1, MAX_VIDEO_SECONDS)) e.seconds = `Duration: a whole number of seconds from 1 to ${MAX_VIDEO_SECONDS}.`;
  return e;
}

/** "45 s", "2 min", "1 min 12 s": a duration as the Duration chips write it. */
export function secondsText(s: number): string {
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}

const fitOf = (f: VideoForm, target: FitTarget): Fit =>
  fitPlan('video', { seconds: f.seconds, video: { format: videoFormatOf(f)?.id ?? '', layout: f.layout, buffer: f.buffer } }, target);

/** The longest whole number of seconds, below the form's, whose test fits; 0 when not even one
 *  second does. (What a test writes grows with its duration, so the search halves.) */
export function longestFittingSeconds(f: VideoForm, target: FitTarget): number {
  let lo = 0;
  let hi = f.seconds - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fitOf({ ...f, seconds: mid }, target).fits) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The video test is chosen by its duration: a misfit says so in seconds, with the longest that fits. */
function videoFitInTerms(f: VideoForm, fit: Fit, target: FitTarget): FitInTerms<VideoForm> {
  const longest = longestFittingSeconds(f, target);
  const what = `${secondsText(f.seconds)} of this format writes ${formatBytes(fit.needBytes)}`;
  const free = `${formatBytes(fit.freeBytes)} is free and the test ${fit.reserveText}`;
  return {
    reason: `Not enough free space: ${what}; ${free}. ${longest > 0 ? `The longest that fits is ${secondsText(longest)}.` : 'Free some space or choose another drive.'}`,
    offer: longest > 0 ? { label: secondsText(longest), patch: { seconds: longest } } : null,
  };
}

export const videoForm: KindForm<'video', VideoForm> = {
  defaults: VIDEO_DEFAULTS,
  errors: videoErrors,
  settings: (kind, f, target) => ({
    kind,
    target,
    format: videoFormatOf(f)?.id ?? '',
    layout: f.layout,
    buffer: f.buffer,
    seconds: f.seconds,
    runs: f.runs,
    restSeconds: restSeconds(f),
    ...(f.from ? { from: f.from } : {}),
  }),
  fit: (_kind, f, target) => fitOf(f, target),
  fitInTerms: videoFitInTerms,
  // Format, resolution and rate move together to a combination the data offers.
  patch: (f, patch) => {
    const { formatId, resolutionId, fps, ...rest } = patch;
    const pick = { ...(formatId ? { formatId } : {}), ...(resolutionId ? { resolutionId } : {}), ...(fps ? { fps } : {}) };
    return { ...pickVideo(f, pick), ...rest };
  },
};
