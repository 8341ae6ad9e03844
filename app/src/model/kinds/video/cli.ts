// The frame-paced video test on the command line: its --format, --layout and --buffer flags and
// their words, the common flags it refuses, its line under `run --help`, and its lines under the
// CLI's table (the format, each direction's verdict and frame figures, the one-line verdict).
import { inputError } from '../../errors.js';
import { mbText as mb } from '../../report/text-table.js';
import type { ResultDocument } from '../../result.js';
import { sizeInUnits, type SizeUnits } from '../../size-units.js';
import { parseChoice, parseWholeNumber } from '../../units.js';
import type { KindModule } from '../types.js';
import { formatFps } from './math.js';
import { DEFAULT_VIDEO_FORMAT, MAX_VIDEO_BUFFER, pacedFormat, pacedFormats, rejudged, VIDEO_LAYOUTS } from './paced.js';
import type { VideoPlanOptions } from './plan.js';
import type { VideoPhase } from './result.js';

const NOT_FOR_VIDEO = 'does not apply to --test video: the format sets the frame size and each frame is one whole transfer';

/** A comma list broken into lines of at most `width` characters. */
function wrapList(items: readonly string[], width = 55): string {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line ? `${line}, ${item}` : item;
    if (next.length > width && line) {
      lines.push(`${line},`);
      line = item;
    } else line = next;
  }
  return [...lines, line].filter(Boolean).join('\n');
}

// The parts of a video format id, from the format table: "prores-hq" + "uhd" + "2997".
const uniq = (xs: readonly string[]): string[] => [...new Set(xs)];
const FORMAT_TEXT = `ID           format-resolution-rate (default ${DEFAULT_VIDEO_FORMAT})
resolutions: ${wrapList(uniq(pacedFormats().map((p) => p.resolutionId)))}
rates: ${wrapList(uniq(pacedFormats().map((p) => String(p.fps).replace('.', ''))))}
formats: ${wrapList(uniq(pacedFormats().map((p) => p.formatId)))}`;

export const videoCli = {
  flags: { format: 'string', layout: 'string', buffer: 'string' },
  summary: `will it really play? frames of --format written at its frame rate
for --seconds (default 30), each due at its time, uncached, then
read back the same way; counts frames late (done after their slot)
and dropped (the --buffer was full)`,
  flagHelp: {
    format: FORMAT_TEXT,
    layout: `L          stream (one growing file; default) or frames
(one file per frame, as DPX/EXR sequences)`,
    buffer: 'N          frames that may wait for the disk (default 4)',
  },
  // --format, --layout, --buffer: the paced format and how it is laid out and buffered.
  parse: (flag) => {
    const [id, layout, buffer] = [flag('format'), flag('layout'), flag('buffer')];
    if (id === undefined && layout === undefined && buffer === undefined) return {};
    const format = id?.trim().toLowerCase() ?? DEFAULT_VIDEO_FORMAT;
    if (!pacedFormat(format))
      throw inputError(
        `--format "${id}" is not a video format id; an id is format-resolution-rate, e.g. prores-hq-uhd-2997 (diskdial --help lists the parts)`,
      );
    const video: VideoPlanOptions = { format };
    if (layout !== undefined) video.layout = parseChoice(layout, 'layout', VIDEO_LAYOUTS);
    if (buffer !== undefined) video.buffer = parseWholeNumber(buffer, 'buffer', 1, MAX_VIDEO_BUFFER);
    return { video };
  },
  refuse: {
    size: '--size does not apply to --test video: the format and --seconds decide how much is written',
    bs: `--bs ${NOT_FOR_VIDEO}`,
    qd: `--qd ${NOT_FOR_VIDEO}`,
    threads: `--threads ${NOT_FOR_VIDEO}`,
  },
  tableLines: (doc, units) => tableLines(doc, units),
} as const satisfies KindModule['cli'];

/** The format and how it was written, each direction's verdict and frame figures, and the
 *  one-line verdict last. */
function tableLines(doc: ResultDocument, units: SizeUnits): string[] {
  // Judged again by today's paced rule (a saved result may carry an older rule's words).
  const s = doc.video ? rejudged(doc.video) : undefined;
  if (!s) return [];
  const how = s.layout === 'stream' ? 'one growing stream file' : 'one file per frame';
  const out = [
    '',
    `Video: ${s.format}, ${s.resolution}, ${formatFps(s.fps)} fps — ${s.frames.toLocaleString('en-US')} frames (${s.seconds} s) of ${sizeInUnits(s.frameBytes, units)} (${mb(s.dataRateMBps)} MB/s${s.estimated ? ', an estimate' : ''}), ${how}, a buffer of ${s.buffer} frames`,
  ];
  const figures = (p: VideoPhase): string =>
    `  frame time p50 ${p.p50Ms.toFixed(1)} ms, p99 ${p.p99Ms.toFixed(1)} ms, p99.9 ${p.p999Ms.toFixed(1)} ms, max ${p.maxMs.toFixed(1)} ms; jitter ${p.jitterMs.toFixed(1)} ms; sustained ${mb(p.mbps)} MB/s`;
  for (const r of s.runs) {
    const at = doc.settings.runs > 1 ? `Run ${r.run} ` : '';
    out.push(`${at}Write: ${r.write.verdict}`, figures(r.write), `${at}Read:  ${r.read.verdict}`, figures(r.read));
  }
  out.push('', s.verdict);
  return out;
}
