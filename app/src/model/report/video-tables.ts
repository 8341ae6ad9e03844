// "Will it work?" in the exports: the verdict rows (model/video/will-it-work.ts) as the tables,
// CSV rows and JSON object each format prints. Each format renders these with its own table
// helper and escaping; this module only decides what is said.
import type { ResultDocument } from '../result.js';
import { formatFps } from '../video/math.js';
import {
  AVERAGE_METHOD_SHORT,
  COMMON_FORMATS,
  COMMON_RESOLUTIONS,
  okMark,
  videoVerdicts,
  type VideoOptions,
  type VideoVerdictRow,
  type VideoVerdicts,
} from '../video/will-it-work.js';
import { formatMBpsFigure } from '../units.js';
import type { Table } from './tables.js';

export interface VideoSection {
  heading: string;
  tables: Table[];
  /** The method and, when the speeds carry warnings, the caveat: printed under the tables. */
  notes: string[];
}

const MBps = formatMBpsFigure;
const fpsCell = (n: number): string => n.toLocaleString('en-US');

function notesOf(v: VideoVerdicts): string[] {
  const estimates = v.rows.some((r) => r.estimated) ? ['* Estimate: scaled by pixel count or frame rate from a published figure.'] : [];
  const paced = v.rows.flatMap((r) => (r.paced ? [`† ${r.format} ${r.resolution} (${r.paced.note}): ${r.paced.verdict}`] : []));
  return [v.method, ...(v.pacedMethod ? [v.pacedMethod] : []), ...(v.caveat ? [v.caveat] : []), ...estimates, ...paced];
}

/** ✓/✗, marked † when a frame-paced test decided it. */
const mark = (r: VideoVerdictRow, ok: boolean): string => `${okMark(ok)}${r.paced ? '†' : ''}`;

/** One result's section: a table per format family, a row per format × resolution. */
export function videoSection(doc: ResultDocument, opts: VideoOptions = {}): VideoSection | null {
  const v = videoVerdicts(doc, opts);
  if (!v || v.rows.length === 0) return null;
  const fps = `${formatFps(v.fps)} fps`;
  const families = [...new Set(v.rows.map((r) => r.familyLabel))];
  const tables = families.map((fam): Table => ({
    title: `${fam} at ${fps}`,
    head: ['Format', 'Resolution', 'Needs (MB/s)', 'Write', 'Read', 'Write fps', 'Read fps'],
    rows: v.rows
      .filter((r) => r.familyLabel === fam)
      .map((r) => [
        { text: r.format },
        { text: r.resolution },
        { text: `${MBps(r.needsMBps)}${r.estimated ? '*' : ''}` },
        { text: mark(r, r.write.ok) },
        { text: mark(r, r.read.ok) },
        { text: fpsCell(r.write.maxFps) },
        { text: fpsCell(r.read.maxFps) },
      ]),
  }));
  const usable = `Write ${MBps(v.sustainedMBps.write)} MB/s, read ${MBps(v.sustainedMBps.read)} MB/s average.`;
  return { heading: `Will it work? At ${fps}`, tables, notes: [usable, ...notesOf(v)] };
}

/** Several results side by side: the common formats, write / read per result. */
export function videoCompareSection(
  docs: readonly ResultDocument[],
  labels: readonly string[],
  opts: VideoOptions = {},
): VideoSection | null {
  const compact = { ...opts, formats: COMMON_FORMATS, resolutions: COMMON_RESOLUTIONS };
  const per = docs.map((d) => videoVerdicts(d, compact));
  const first = per.find((v) => v !== null);
  if (!first) return null;
  const cols = per.flatMap((v, i) => (v ? [{ v, label: labels[i] ?? `#${i + 1}` }] : []));
  const key = (r: VideoVerdictRow): string => `${r.formatId}/${r.resolutionId}`;
  const table: Table = {
    title: `Common formats at ${formatFps(first.fps)} fps: write / read`,
    head: ['Format', 'Needs (MB/s)', ...cols.map((c) => c.label)],
    rows: first.rows.map((r) => [
      { text: `${r.format} ${r.resolution}` },
      { text: `${MBps(r.needsMBps)}${r.estimated ? '*' : ''}` },
      ...cols.map((c) => {
        const mine = c.v.rows.find((x) => key(x) === key(r));
        return { text: mine ? `${mark(mine, mine.write.ok)} / ${mark(mine, mine.read.ok)}` : '—' };
      }),
    ]),
  };
  const caveats = cols.flatMap((c) => (c.v.caveat ? [`${c.label}: ${c.v.caveat}`] : []));
  const paced = cols.flatMap((c) =>
    c.v.rows.flatMap((r) => (r.paced ? [`† ${c.label}, ${r.format} ${r.resolution} (${r.paced.note}): ${r.paced.verdict}`] : [])),
  );
  return { heading: `Will it work? At ${formatFps(first.fps)} fps`, tables: [table], notes: [first.method, ...caveats, ...paced] };
}

/** The columns video rows fill in the CSV export (empty on the other rows). */
export const VIDEO_CSV_HEAD = [
  'format',
  'resolution',
  'fps',
  'needs_mbps',
  'write_ok',
  'read_ok',
  'write_fps',
  'read_fps',
  'decided_by',
] as const;

export type VideoCsvRow = Record<(typeof VIDEO_CSV_HEAD)[number], string | number> & { test: string };

/** One CSV row per format × resolution (`test` is "will it work"); needs_mbps is MB/s with the margin. */
export function videoCsvRows(doc: ResultDocument, opts: VideoOptions = {}): VideoCsvRow[] {
  const v = videoVerdicts(doc, opts);
  return (v?.rows ?? []).map((r) => ({
    test: 'will it work',
    format: r.format,
    resolution: r.resolution,
    fps: r.fps,
    needs_mbps: Math.round(r.needsMBps * 100) / 100,
    write_ok: r.write.ok ? 'yes' : 'no',
    read_ok: r.read.ok ? 'yes' : 'no',
    write_fps: r.write.maxFps,
    read_fps: r.read.maxFps,
    decided_by: r.paced ? r.paced.note : AVERAGE_METHOD_SHORT,
  }));
}

/** The JSON export's `willItWork` object (absent for results it does not apply to). */
export function videoJson(doc: ResultDocument, opts: VideoOptions = {}): { willItWork?: VideoVerdicts } {
  const v = videoVerdicts(doc, opts);
  return v ? { willItWork: v } : {};
}
