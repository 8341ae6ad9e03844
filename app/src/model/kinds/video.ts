// The frame-paced video test ("Will it really play?"): frames of one format written at its frame
// rate for --seconds, each due at its time, uncached (one growing stream file, or one file per
// frame), then read back the same way; the engine paces and counts late and dropped frames
// (engine/paced.cc). Where the Will-it-work table divides an average by a data rate, this checks
// every frame.
import type { StepOutcome } from '../analysis.js';
import type { EngineSpec, PacedFigures } from '../engine-types.js';
import { inputError } from '../errors.js';
import type { Metric } from '../report/figure-text.js';
import type { VideoPhase, VideoSection } from '../result.js';
import { formatFps } from '../video/math.js';
import { parseChoice, parseWholeNumber } from '../units.js';
import {
  DEFAULT_VIDEO_BUFFER,
  DEFAULT_VIDEO_FORMAT,
  DEFAULT_VIDEO_SECONDS,
  exampleFormatIds,
  MAX_VIDEO_BUFFER,
  MAX_VIDEO_SECONDS,
  pacedFormat,
  VIDEO_LAYOUTS,
  phaseVerdict,
  sectionVerdict,
} from '../video/paced.js';
import type { Plan, VideoPlanOptions } from './plan.js';
import { videoFigures } from './video-card.js';
import type { KindModule } from './types.js';

/** Direct I/O rounds each frame up to the alignment; the plan budgets for the usual 4 KiB. */
const ALIGN = 4096;
const NOT_FOR_VIDEO = 'does not apply to --test video: the format sets the frame size and each frame is one whole transfer';

export const video = {
  id: 'video',
  name: 'Video playback (paced)',
  plan: (o) => {
    const v = o.video ?? { format: DEFAULT_VIDEO_FORMAT };
    const examples = exampleFormatIds().slice(0, 3).join(', ');
    const f = pacedFormat(v.format);
    if (!f)
      throw inputError(
        `"${v.format}" is not a video format id; ids are format-resolution-rate, e.g. ${examples} (diskdial run --help lists them)`,
      );
    const seconds = o.seconds ?? DEFAULT_VIDEO_SECONDS;
    if (seconds > MAX_VIDEO_SECONDS) throw inputError(`--seconds for the video test is at most ${MAX_VIDEO_SECONDS} (an hour)`);
    const buffer = v.buffer ?? DEFAULT_VIDEO_BUFFER;
    if (!Number.isInteger(buffer) || buffer < 1 || buffer > MAX_VIDEO_BUFFER)
      throw inputError(`the frame buffer must be a whole number of frames from 1 to ${MAX_VIDEO_BUFFER}`);
    const layout = v.layout ?? 'stream';
    const frames = Math.max(1, Math.round(seconds * f.fps));
    const fileSize = frames * Math.ceil(f.frameBytes / ALIGN) * ALIGN;
    const cache = o.cache ?? 'auto';
    const paced = { fps: f.fps, frameBytes: f.frameBytes, frames, layout, buffer };
    // bs, qd and threads are not used by a paced spec (each frame is one whole transfer).
    const common = { bs: ALIGN, qd: 1, threads: 1, fileSize, pattern: 'random', cache, paced } as const;
    const file = layout === 'stream' ? 'video-stream.dat' : 'video-frame.dat';
    const step = (rw: 'write' | 'read', what: string): Plan['steps'][number] => ({
      name: `${what} ${frames.toLocaleString('en-US')} frames at ${formatFps(f.fps)} fps`,
      spec: { ...common, rw, keepFile: rw === 'write' } satisfies Omit<EngineSpec, 'path'>,
      file,
    });
    return {
      kind: 'video',
      fileSize,
      needBytes: fileSize,
      steps: [step('write', 'Write'), step('read', 'Read')],
      settings: {
        size: fileSize,
        pattern: 'random',
        cache,
        seconds,
        video: { format: f.id, layout, buffer, ...(v.from ? { from: v.from } : {}) },
      },
      notes: f.estimated ? [`${f.format}'s data rate at ${f.resolution} ${formatFps(f.fps)} fps is an estimate (scaled or derived).`] : [],
    };
  },
  analyse: (plan, outcomes) => ({ video: videoSection(plan, outcomes) }),
  cli: {
    options: ['format', 'layout', 'buffer'],
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
  },
  report: {
    titleParts: (doc) =>
      doc.video ? [`${doc.video.format} ${doc.video.resolution.split(' (')[0]} ${formatFps(doc.video.fps)} fps`] : undefined,
    metrics: (doc) => (doc.video ? { metrics: videoMetrics(doc.video) } : undefined),
    stepsArePrimary: false,
    comparable: (doc, f) => {
      if (!doc.video) return false;
      f.set('format', doc.video.id);
      f.set('layout', doc.video.layout);
      f.set('buffer', `${doc.video.buffer} frames`);
      return true;
    },
    figureGroup: { group: 'Video', present: (doc) => doc.video !== undefined },
  },
  card: videoFigures,
  fromScreen: (s) =>
    s.kind === 'video'
      ? { seconds: s.seconds, video: { format: s.format, layout: s.layout, buffer: s.buffer, ...(s.from ? { from: s.from } : {}) } }
      : {},
} as const satisfies KindModule<'video'>;

function phase(o: StepOutcome | undefined, write: boolean, buffer: number): VideoPhase {
  const p: PacedFigures | undefined = o?.result.paced;
  if (!o || !p)
    throw new Error(
      `the native engine (${o?.result.engineVersion ?? 'unknown'}) did not pace the frames: rebuild it with \`npm run build:native\``,
    );
  const { frameBytes: _b, budgetMs: _m, ...figures } = p;
  const v = phaseVerdict(p, write, buffer);
  return { ...figures, mbps: o.result.mbps, cacheMode: o.result.cacheMode, ok: v.ok, verdict: v.text };
}

function videoSection(plan: Plan, outcomes: readonly StepOutcome[]): VideoSection {
  const v = plan.settings.video!;
  const f = pacedFormat(v.format)!;
  const runNumbers = [...new Set(outcomes.map((o) => o.run))];
  const runs = runNumbers.map((run) => {
    const of = (rw: 'write' | 'read'): StepOutcome | undefined => outcomes.find((o) => o.run === run && o.step.spec.rw === rw);
    return { run, write: phase(of('write'), true, v.buffer), read: phase(of('read'), false, v.buffer) };
  });
  const first = outcomes[0]?.result.paced;
  const section = {
    ...f,
    frameBytes: first?.frameBytes ?? f.frameBytes,
    budgetMs: first?.budgetMs ?? 1000 / f.fps,
    seconds: plan.settings.seconds ?? DEFAULT_VIDEO_SECONDS,
    frames: plan.steps[0]!.spec.paced!.frames,
    layout: v.layout,
    buffer: v.buffer,
    runs,
  };
  const verdict = sectionVerdict(section);
  return { ...section, ok: verdict.ok, verdict: verdict.text };
}

function videoMetrics(s: VideoSection): Metric[] {
  const m = (
    dir: 'write' | 'read',
    measure: string,
    label: string,
    unit: Metric['unit'],
    higher: boolean,
    pick: (p: VideoPhase) => number,
    primary: boolean,
  ): Metric => ({
    key: `Video/${dir}.${measure}`,
    label: `${dir === 'write' ? 'Write' : 'Read'} · ${label}`,
    group: 'Video',
    measure: `${dir}.${measure}`,
    unit,
    direction: higher ? 'higher' : 'lower',
    values: s.runs.map((r) => pick(r[dir])),
    primary,
  });
  const late = (p: VideoPhase): number => (p.frames > 0 ? ((p.late + p.dropped) / p.frames) * 100 : 0);
  return (['write', 'read'] as const).flatMap((d) => [
    m(d, 'lateShare', 'frames late or dropped', '%', false, late, true),
    m(d, 'p99Ms', 'frame time p99', 'ms', false, (p) => p.p99Ms, true),
    m(d, 'maxMs', 'frame time max', 'ms', false, (p) => p.maxMs, false),
    m(d, 'jitterMs', 'jitter', 'ms', false, (p) => p.jitterMs, false),
    m(d, 'mbps', 'sustained', 'MB/s', true, (p) => p.mbps, true),
  ]);
}
