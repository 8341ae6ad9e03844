// "Will it work?": the one place that decides, for a Quick Test result, whether each video format
// records (write) and plays (read) at a frame rate — as data (outcome, figures, rule), the words
// coming from will-it-work-words.ts. Every view asks `willItWork`: the Quick Test's Done screen,
// History, compare, the share card, each export and the CLI.
// - The figure judged is the result's one aggregate, the mean of its runs (aggregate.ts).
// - A format works by the average when the measured mean is at least what it needs with the
//   margin kept (its data rate ÷ 0.8): "needs 589" is printed against "measured 693", nothing else.
// - A frame-paced test decides rows only for the Quick Test it was launched from ("Check this
//   format": its settings name this result), monotone in data rate: a failure at rate R fails every
//   format needing R or more ("✗ implied by…"), a pass at R proves every lighter one; a failure
//   that began in the first second proves nothing and turns ✓ at R or more into '?'. Paced tests
//   of the same drive launched from elsewhere are dated lines beside the table, deciding nothing.
// - A warning flag (trustOf(flags).level === 'warn') turns every ✓ into '?' with the reason: the
//   speeds may be a cache's.
import type { SectionOptions } from '../../report/section.js';
import type { ResultDocument, ResultFlag } from '../../result.js';
import { trustOf } from '../../verdict/trust.js';
import { videoData } from './data.js';
import { DEFAULT_MARGIN, fits, formatFps, maxFps, mbpsToMBps, neededMbps, withMarginMBps } from './math.js';
import { rejudged } from './paced.js';
import type { VideoSection } from './result.js';
import { quickAggregate, type Aggregate } from '../../verdict/aggregate.js';
import type { Claim } from '../../verdict/claim.js';
import { judgePhase, judgeRuns, type SectionJudgement } from '../../verdict/paced.js';

/** The frame rate the exports and the CLI use unless told otherwise (the live screen's default). */
export const DEFAULT_VIDEO_FPS = 29.97;

/** The formats the share card and compact views show: what people most often ask about. */
export const COMMON_FORMATS = ['prores-hq', 'h264-camera', 'hevc-camera'] as const;
export const COMMON_RESOLUTIONS = ['hd', 'uhd'] as const;

export const MARGIN_PCT = Math.round(DEFAULT_MARGIN * 100);

/** How the average-based verdicts were reached, said wherever they are shown. */
export const AVERAGE_METHOD = `Decided from the measured speed (the mean of the runs): a format works when it is at least what the format needs with a ${MARGIN_PCT} % margin (its data rate ÷ ${1 - DEFAULT_MARGIN}); a paced test checks frame by frame.`;

/** Short form for a CSV column, a card line and a terminal footer. */
export const AVERAGE_METHOD_SHORT = `mean speed vs need with ${MARGIN_PCT} % margin`;

/** What the method line adds when paced verdicts decide some rows. */
export const PACED_METHOD =
  'Rows marked † were decided by a frame-paced test launched from this result ("Check this format"), monotone in data rate: a failure fails every heavier format, a pass proves every lighter one.';

export type WorkOutcome = 'ok' | 'fail' | 'unproven';

/** The rule that decided one side of a row. */
export type WorkRule = 'average' | 'paced' | 'paced-implied' | 'paced-conflict' | 'start-up-stall' | 'flags';

/** A frame-paced result a verdict rests on. */
export interface PacedRef {
  resultId: string;
  /** yyyy-mm-dd */
  date: string;
  /** "ProRes 422 HQ HD 29.97 fps" */
  what: string;
  dataRateMBps: number;
  /** Its one-line verdict, by today's paced rule. */
  verdict: string;
}

export interface WorkSide extends Claim<'will-it-work', WorkOutcome> {
  decidedBy: WorkRule;
  /** "How fast?": the highest whole frame rate the mean sustains with the margin (uncapped). */
  maxFps: number;
  /** Why, when the average alone did not decide: the paced test, or the flags. */
  reason?: string;
  pacedBy?: PacedRef;
}

export interface WorkRow {
  formatId: string;
  format: string;
  family: string;
  familyLabel: string;
  resolutionId: string;
  resolution: string;
  fps: number;
  /** MB/s the format's data rate comes to at `fps` (10^6 bytes/s). */
  dataRateMBps: number;
  /** MB/s it needs with the margin kept: the figure printed against the measured mean. */
  needsMBps: number;
  /** The data rate is scaled or derived, not the maker's own figure at this rate. */
  estimated: boolean;
  write: WorkSide;
  read: WorkSide;
  /** Set when a paced test decided either side (the row is marked †). */
  paced?: PacedRef;
}

/** A paced test of the same drive not launched from this result: shown dated, deciding nothing. */
export interface PacedLine {
  resultId: string;
  date: string;
  verdict: string;
}

export interface WillItWork {
  decidedBy: 'average';
  method: string;
  fps: number;
  margin: number;
  /** The aggregate judged: the mean of the runs (with the best run and the count). */
  measured: { write: Aggregate; read: Aggregate };
  /** The means alone, MB/s (the JSON export's long-standing key). */
  sustainedMBps: { write: number; read: number };
  /** Set when the result carries warning flags: every ✓ became '?'. */
  caveat?: string;
  /** Set when some rows were decided by paced tests launched from this result. */
  pacedMethod?: string;
  pacedLines: PacedLine[];
  rows: WorkRow[];
}

/** What a Will-it-work table is judged at: the frame rate and the paced results the caller gives
 *  (SectionOptions), and which rows it shows. */
export interface WillItWorkOptions extends SectionOptions {
  /** Family ids to include (all by default). */
  families?: readonly string[];
  /** Only these format ids and resolution ids (the compact block). */
  formats?: readonly string[];
  resolutions?: readonly string[];
}

/** What a verdict is judged from: the aggregate, the flags and the paced evidence. */
export interface WorkInput {
  measured: { write: Aggregate; read: Aggregate };
  flags?: readonly ResultFlag[] | undefined;
  /** Paced results launched from this result. */
  attached?: readonly ResultDocument[];
  /** Paced results of the same drive launched elsewhere. */
  others?: readonly ResultDocument[];
}

/** A frame rate the data offers: the one given, else the default. Throws on one it does not. */
export function willItWorkFps(fps: number | undefined): number {
  if (fps === undefined) return DEFAULT_VIDEO_FPS;
  const found = videoData.frameRates.find((r) => Math.abs(r - fps) < 0.005);
  if (found === undefined)
    throw new RangeError(`${fps} fps is not one of the frame rates the table knows: ${videoData.frameRates.map(formatFps).join(', ')}.`);
  return found;
}

/** The same drive as far as a result can tell: the same folder, or the same mounted volume. */
export function sameTarget(a: Pick<ResultDocument, 'target'>, b: Pick<ResultDocument, 'target'>): boolean {
  const ta = a.target;
  const tb = b.target;
  if (!ta || !tb) return false;
  return ta.path === tb.path || (ta.mountPoint !== 'unknown' && ta.mountPoint === tb.mountPoint);
}

/** The Quick Test result a paced result was launched from ("Check this format"), if any. */
export const launchedFrom = (p: Pick<ResultDocument, 'settings'>): string | undefined => p.settings?.video?.from;

const isPaced = (p: ResultDocument): p is ResultDocument & { video: VideoSection } =>
  p.kind === 'video' && p.video !== undefined && Array.isArray(p.video.runs) && p.video.runs.length > 0;

/** `doc`'s aggregate, flags and paced evidence, or null when it is not a Quick Test with both speeds. */
export function workInput(doc: ResultDocument, paced: readonly ResultDocument[] = []): WorkInput | null {
  const measured = quickAggregate(doc);
  if (!measured) return null;
  const mine = paced.filter(isPaced);
  const attached = mine.filter((p) => launchedFrom(p) === doc.id);
  const others = mine.filter((p) => launchedFrom(p) !== doc.id && sameTarget(doc, p));
  return { measured, flags: doc.flags, attached, others };
}

/** The verdict rows for a result, or null when it is not a Quick Test with both speeds: the one
 *  entry every view calls. */
export function willItWork(
  doc: ResultDocument,
  opts: WillItWorkOptions = {},
  paced: readonly ResultDocument[] = opts.paced ?? [],
): WillItWork | null {
  const input = workInput(doc, paced);
  return input ? judgeWork(input, opts) : null;
}

const EPS = 1e-9;
const rowKey = (formatId: string, resolutionId: string, fps: number): string => `${formatId}/${resolutionId}/${fps}`;

interface Evidence extends SectionJudgement {
  key: string;
  rate: number;
  ref: PacedRef;
}

function pacedRef(p: ResultDocument & { video: VideoSection }, verdict: string): PacedRef {
  const s = p.video;
  return {
    resultId: p.id,
    date: p.startedAt.slice(0, 10),
    what: `${s.format} ${s.resolution.split(' (')[0]} ${formatFps(s.fps)} fps`,
    dataRateMBps: s.dataRateMBps,
    verdict,
  };
}

/** One paced result's outcome per direction, by today's paced rule from its figures. A pass under
 *  warning flags proves nothing (its speeds may be a cache's), so it is left out. */
function evidenceOf(p: ResultDocument & { video: VideoSection }): Record<'write' | 'read', Evidence | null> {
  const s = p.video;
  const ref = pacedRef(p, rejudged(s).verdict);
  const flagged = trustOf(p.flags).level === 'warn';
  const of = (d: 'write' | 'read'): Evidence | null => {
    const j = judgeRuns(s.runs.map((r) => judgePhase({ ...r[d], budgetMs: s.budgetMs }, s.buffer, d === 'write')));
    if (j.outcome === 'ok' && flagged) return null;
    return { ...j, key: rowKey(s.formatId, s.resolutionId, s.fps), rate: s.dataRateMBps, ref };
  };
  return { write: of('write'), read: of('read') };
}

/** The nearest of `xs` by rate (the lightest pass above, the heaviest failure below). */
const nearest = (xs: Evidence[], lightest: boolean): Evidence | undefined =>
  [...xs].sort((a, b) => (lightest ? a.rate - b.rate : b.rate - a.rate) || b.ref.date.localeCompare(a.ref.date))[0];

const fmtRate = (x: number): string => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));

interface Decided {
  outcome: WorkOutcome;
  decidedBy: WorkRule;
  reason?: string;
  pacedBy?: PacedRef;
}

/** A row decided by one paced test: its own format, or implied by one lighter (a failure) or heavier (a pass). */
function byPaced(e: Evidence, outcome: 'ok' | 'fail', key: string, rate: number, how: string): Decided {
  if (e.key === key) return { outcome, decidedBy: 'paced', reason: `frame-paced test, ${e.ref.date}`, pacedBy: e.ref };
  const mark = outcome === 'ok' ? '✓' : '✗';
  return {
    outcome,
    decidedBy: 'paced-implied',
    reason: `${mark} implied by a paced test of ${e.ref.what} (${e.ref.date}, ${fmtRate(e.rate)} MB/s), ${how}: this needs ${fmtRate(rate)} MB/s`,
    pacedBy: e.ref,
  };
}

/** One side of one row: the average, then the paced evidence (monotone in data rate), then the flags. */
function decideSide(key: string, rate: number, averageOk: boolean, ev: readonly Evidence[], warn: string | null): Decided {
  const passes = ev.filter((e) => e.outcome === 'ok' && e.rate + EPS >= rate);
  const fails = ev.filter((e) => e.outcome === 'fail' && !e.stall && e.rate <= rate + EPS);
  const stalls = ev.filter((e) => e.outcome === 'fail' && e.stall && e.rate <= rate + EPS);
  let d: Decided;
  const pass = nearest(passes, true);
  const fail = nearest(fails, false);
  if (pass && fail) {
    d = {
      outcome: 'unproven',
      decidedBy: 'paced-conflict',
      reason: `paced tests disagree: ✓ ${pass.ref.what} (${pass.ref.date}), ✗ ${fail.ref.what} (${fail.ref.date}); run again`,
      pacedBy: fail.ref,
    };
  } else if (fail) {
    d = byPaced(fail, 'fail', key, rate, 'which dropped frames');
  } else if (pass) {
    d = byPaced(pass, 'ok', key, rate, 'which kept up');
  } else {
    const stall = nearest(stalls, false);
    d =
      stall && averageOk
        ? {
            outcome: 'unproven',
            decidedBy: 'start-up-stall',
            reason: `a paced test of ${stall.ref.what} (${stall.ref.date}) dropped frames in its first second: possibly a start-up stall, run again`,
            pacedBy: stall.ref,
          }
        : { outcome: averageOk ? 'ok' : 'fail', decidedBy: 'average' };
  }
  if (d.outcome === 'ok' && warn !== null) return { outcome: 'unproven', decidedBy: 'flags', reason: warn };
  return d;
}

/** The verdicts for `input`: every offered format × resolution at `opts.fps`. */
export function judgeWork(input: WorkInput, opts: WillItWorkOptions = {}): WillItWork {
  const fps = willItWorkFps(opts.fps);
  const { families, formats, resolutions } = videoData;
  const trust = trustOf(input.flags ? [...input.flags] : undefined);
  const warn = trust.level === 'warn' ? `not proven: the speeds carry warnings (${trust.named}) and may be a cache's` : null;
  const evidence = (input.attached ?? []).filter(isPaced).map(evidenceOf);
  const ev = { write: evidence.flatMap((e) => e.write ?? []), read: evidence.flatMap((e) => e.read ?? []) };
  const mean = { write: input.measured.write.mean, read: input.measured.read.mean };
  const rows: WorkRow[] = [];
  for (const fam of families) {
    if (opts.families && !opts.families.includes(fam.id)) continue;
    for (const f of formats) {
      if (f.family !== fam.id || (opts.formats && !opts.formats.includes(f.id))) continue;
      for (const r of resolutions) {
        if (opts.resolutions && !opts.resolutions.includes(r.id)) continue;
        const need = neededMbps(f, r, fps, resolutions);
        if (!need) continue;
        const dataRate = mbpsToMBps(need.mbps);
        const needs = withMarginMBps(dataRate);
        const key = rowKey(f.id, r.id, fps);
        const side = (d: 'write' | 'read'): WorkSide => {
          const decided = decideSide(key, dataRate, fits(mean[d], dataRate), ev[d], warn);
          return {
            family: 'will-it-work',
            ...decided,
            figures: { measuredMBps: mean[d], needsMBps: needs, dataRateMBps: dataRate, margin: DEFAULT_MARGIN },
            rule: decided.decidedBy === 'average' ? AVERAGE_METHOD : PACED_METHOD,
            maxFps: maxFps(f, r, mean[d], resolutions) ?? 0,
          };
        };
        const write = side('write');
        const read = side('read');
        const paced =
          write.decidedBy !== 'average' && write.decidedBy !== 'flags'
            ? write.pacedBy
            : read.decidedBy !== 'average' && read.decidedBy !== 'flags'
              ? read.pacedBy
              : undefined;
        rows.push({
          formatId: f.id,
          format: f.name,
          family: fam.id,
          familyLabel: fam.label,
          resolutionId: r.id,
          resolution: r.label,
          fps,
          dataRateMBps: dataRate,
          needsMBps: needs,
          estimated: need.estimated,
          write,
          read,
          ...(paced ? { paced } : {}),
        });
      }
    }
  }
  const newest = new Map<string, ResultDocument & { video: VideoSection }>();
  for (const p of (input.others ?? []).filter(isPaced)) {
    const k = rowKey(p.video.formatId, p.video.resolutionId, p.video.fps);
    const had = newest.get(k);
    if (!had || had.startedAt < p.startedAt) newest.set(k, p);
  }
  const pacedLines = [...newest.values()]
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
    .map((p) => ({ resultId: p.id, date: p.startedAt.slice(0, 10), verdict: rejudged(p.video).verdict }));
  return {
    decidedBy: 'average',
    method: AVERAGE_METHOD,
    fps,
    margin: DEFAULT_MARGIN,
    measured: input.measured,
    sustainedMBps: mean,
    ...(warn
      ? { caveat: `The speeds carry warnings (${trust.named}): every ✓ is withheld as '?', for they may be a cache's, not the disk's.` }
      : {}),
    ...(rows.some((r) => r.paced) ? { pacedMethod: PACED_METHOD } : {}),
    pacedLines,
    rows,
  };
}
