// "Will it work?" for a saved result: the video-format verdicts History, compare, the exports,
// the share card and the CLI print, from the same data and arithmetic as the live Quick Test
// screen. One function (`videoVerdicts`) turns a result document into rows; where a frame-paced
// video test of the same format and rate ran on the same drive, its verdict takes the row's place
// and says so ("frame-paced test, <date>").
import type { ResultDocument } from '../result.js';
import { trustOf } from '../verdict/trust.js';
import { videoData } from './data.js';
import { cellVerdict, DEFAULT_MARGIN, formatFps, mbpsToMBps, neededMbps, withMarginMBps } from './math.js';

/** The frame rate the exports and the CLI use unless told otherwise (the live screen's default). */
export const DEFAULT_VIDEO_FPS = 29.97;

/** The formats the share card and compact views show: what people most often ask about. */
export const COMMON_FORMATS = ['prores-hq', 'h264-camera', 'hevc-camera'] as const;
export const COMMON_RESOLUTIONS = ['hd', 'uhd'] as const;

const MARGIN_PCT = Math.round(DEFAULT_MARGIN * 100);

/** How the average-based verdicts were reached, said wherever they are shown. */
export const AVERAGE_METHOD = `Decided from the average measured speed, keeping a ${MARGIN_PCT} % margin (a format works when it needs no more than ${100 - MARGIN_PCT} % of it); a paced test checks frame by frame.`;

/** Short form for a CSV column, a card line and a terminal footer. */
export const AVERAGE_METHOD_SHORT = `average speed, ${MARGIN_PCT} % margin`;

export interface VideoVerdictRow {
  formatId: string;
  format: string;
  family: string;
  familyLabel: string;
  resolutionId: string;
  resolution: string;
  fps: number;
  /** MB/s the format's data rate comes to at `fps` (10^6 bytes/s). */
  dataRateMBps: number;
  /** MB/s sustained it needs once the margin is kept: what a ✓ was judged against. */
  needsMBps: number;
  /** The data rate is scaled or derived, not the maker's own figure at this rate. */
  estimated: boolean;
  write: { ok: boolean; maxFps: number };
  read: { ok: boolean; maxFps: number };
  /** Set when a paced test decided this row's ✓/✗ (maxFps stays the average's). */
  paced?: PacedOverride;
}

/** A frame-paced verdict standing in for a row's average-based one. */
export interface PacedOverride {
  /** The paced result's id. */
  resultId: string;
  /** When it ran (ISO date, yyyy-mm-dd). */
  date: string;
  /** Its one-line verdict ("ProRes 422 HQ UHD 29.97 fps: ✓ every frame written and read back on time"). */
  verdict: string;
  /** "frame-paced test, 2026-11-26": said beside the row wherever it is shown. */
  note: string;
}

export interface VideoVerdicts {
  /** 'average': from the mean MB/s with the margin. A paced section would say 'paced'. */
  decidedBy: 'average';
  method: string;
  fps: number;
  margin: number;
  /** The average MB/s each verdict was judged from. */
  sustainedMBps: { write: number; read: number };
  /** Set when the result carries warning flags: its speeds may not be the disk's. */
  caveat?: string;
  /** Set when some rows were decided by a frame-paced test instead (their `paced` says which). */
  pacedMethod?: string;
  rows: VideoVerdictRow[];
}

export interface VideoOptions {
  fps?: number;
  /** Family ids to include (all by default). */
  families?: readonly string[];
  /** Only these format ids and resolution ids (the compact block). */
  formats?: readonly string[];
  resolutions?: readonly string[];
  /** Frame-paced results that may stand in for rows (those of the same target, format and rate). */
  paced?: readonly ResultDocument[];
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A Quick Test's average write and read MB/s across its runs, or null for other kinds or
 *  when a direction moved nothing measurable. */
export function quickSpeeds(doc: Pick<ResultDocument, 'kind' | 'tests'>): { write: number; read: number } | null {
  if (doc.kind !== 'quick' || !Array.isArray(doc.tests)) return null;
  const side = (rw: 'write' | 'read'): number | null => {
    const xs = doc.tests.filter((t) => t.rw === rw && Number.isFinite(t.mbps) && t.mbps > 0).map((t) => t.mbps);
    return xs.length > 0 ? mean(xs) : null;
  };
  const write = side('write');
  const read = side('read');
  return write === null || read === null ? null : { write, read };
}

/** A frame rate the data offers: the one given, else the default. Throws on one it does not. */
export function videoFps(fps: number | undefined): number {
  if (fps === undefined) return DEFAULT_VIDEO_FPS;
  const found = videoData.frameRates.find((r) => Math.abs(r - fps) < 0.005);
  if (found === undefined)
    throw new RangeError(`${fps} fps is not one of the frame rates the table knows: ${videoData.frameRates.map(formatFps).join(', ')}.`);
  return found;
}

/** The average-based verdicts for `speeds`: every offered format × resolution at `fps`. */
export function averageVerdicts(
  speeds: { write: number; read: number },
  opts: VideoOptions = {},
  flags?: ResultDocument['flags'],
): VideoVerdicts {
  const fps = videoFps(opts.fps);
  const { families, formats, resolutions } = videoData;
  const rows: VideoVerdictRow[] = [];
  for (const fam of families) {
    if (opts.families && !opts.families.includes(fam.id)) continue;
    for (const f of formats) {
      if (f.family !== fam.id || (opts.formats && !opts.formats.includes(f.id))) continue;
      for (const r of resolutions) {
        if (opts.resolutions && !opts.resolutions.includes(r.id)) continue;
        const v = cellVerdict(f, r, fps, speeds, resolutions);
        const need = neededMbps(f, r, fps, resolutions);
        if (!v || !need) continue;
        const dataRate = mbpsToMBps(need.mbps);
        rows.push({
          formatId: f.id,
          format: f.name,
          family: fam.id,
          familyLabel: fam.label,
          resolutionId: r.id,
          resolution: r.label,
          fps,
          dataRateMBps: dataRate,
          needsMBps: withMarginMBps(dataRate),
          estimated: v.estimated,
          write: v.write,
          read: v.read,
        });
      }
    }
  }
  const trust = trustOf(flags);
  return {
    decidedBy: 'average',
    method: AVERAGE_METHOD,
    fps,
    margin: DEFAULT_MARGIN,
    sustainedMBps: speeds,
    ...(trust.level === 'warn'
      ? { caveat: `The speeds carry warnings (${trust.named}): these verdicts may be a cache's, not the disk's.` }
      : {}),
    rows,
  };
}

/**
 * The verdict rows for a result, or null when it is not a Quick Test with both speeds. This is
 * the one hook every view calls: when a result carries a frame-paced video section, its
 * frame-by-frame verdict belongs here, taking precedence over the average-based rows.
 */
export function videoVerdicts(
  doc: ResultDocument,
  opts: VideoOptions = {},
  paced: readonly ResultDocument[] = opts.paced ?? [],
): VideoVerdicts | null {
  const speeds = quickSpeeds(doc);
  if (!speeds) return null;
  return withPaced(averageVerdicts(speeds, opts, doc.flags), doc, paced);
}

/** What the method line adds when paced verdicts stand in some rows. */
export const PACED_METHOD =
  'Rows marked "frame-paced test" were decided frame by frame by a paced video test on this drive, not from the average.';

/** The same drive as far as a result can tell: the same folder, or the same mounted volume. */
export function sameTarget(a: Pick<ResultDocument, 'target'>, b: Pick<ResultDocument, 'target'>): boolean {
  const ta = a.target;
  const tb = b.target;
  if (!ta || !tb) return false;
  return ta.path === tb.path || (ta.mountPoint !== 'unknown' && ta.mountPoint === tb.mountPoint);
}

/** `v` with each row a paced test of the same format, resolution and rate on the same target
 *  decided, the newest such test winning: its ✓/✗ both ways, and the note saying so. */
export function withPaced(v: VideoVerdicts, doc: ResultDocument, paced: readonly ResultDocument[]): VideoVerdicts {
  const newest = new Map<string, ResultDocument>();
  for (const p of paced) {
    const s = p.video;
    if (p.kind !== 'video' || !s || !Array.isArray(s.runs) || s.runs.length === 0 || !sameTarget(doc, p)) continue;
    const key = `${s.formatId}/${s.resolutionId}/${s.fps}`;
    const had = newest.get(key);
    if (!had || had.startedAt < p.startedAt) newest.set(key, p);
  }
  if (newest.size === 0) return v;
  let any = false;
  const rows = v.rows.map((r) => {
    const p = newest.get(`${r.formatId}/${r.resolutionId}/${r.fps}`);
    if (!p) return r;
    any = true;
    const s = p.video!;
    const date = p.startedAt.slice(0, 10);
    return {
      ...r,
      write: { ...r.write, ok: s.runs.every((x) => x.write.ok) },
      read: { ...r.read, ok: s.runs.every((x) => x.read.ok) },
      paced: { resultId: p.id, date, verdict: s.verdict, note: `frame-paced test, ${date}` },
    };
  });
  return any ? { ...v, rows, pacedMethod: PACED_METHOD } : v;
}

/** ✓ / ✗ as a word, for formats without symbols or a screen reader. */
export const okMark = (ok: boolean): string => (ok ? '✓' : '✗');
