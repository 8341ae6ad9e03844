// The frame-paced video test (as AJA System Test and Blackmagic's recorders judge a drive): pick
// a format (codec, resolution, frame rate), how it lies on disk and the recorder's buffer; the
// engine writes each frame at its due time, then reads them back. While it runs, a strip of
// frames on time, late and dropped; after it, the verdict per direction and the frame times.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { VideoPhase, VideoSection } from '@model/kinds/video/result';
import { formatFps } from '@model/kinds/video/math';
import { pacedFormat, rejudged } from '@model/kinds/video/paced';
import { formatBytesShort, formatMBpsFigure } from '@model/units';
import { ChipGroup } from '../../../components/fields';
import { RunsAndRest } from '../../../components/repeat-fields';
import { FrameStrip, FrameStripLegend, hostLateText } from '../../../components/frame-strip';
import { liveCells, timelineCells } from '../../../lib/frame-strip';
import { useNavigationStore } from '../../../lib/navigation';
import { MAX_REST_MINUTES, MAX_RUNS } from '../form-rules';
import type { KindPanelProps, DetailedJob } from '../kind-entry';
import {
  formatGroups,
  ratesOf,
  resolutionsOf,
  VIDEO_BUFFER_CHOICES,
  VIDEO_LAYOUTS,
  VIDEO_SECONDS_CHOICES,
  secondsText,
  videoFormatOf,
  type VideoForm,
} from './video-form';

const GROUPS = formatGroups();
const ms = (x: number): string => `${x.toFixed(1)} ms`;

/** A labelled select whose options the caller gives (the format's are grouped by family). */
function PickField(p: { label: string; value: string | number; testId: string; onChange(v: string): void; children: ReactNode }) {
  const id = useId();
  return (
    <span className="field">
      <label className="field__label" htmlFor={id}>
        {p.label}
      </label>
      <select id={id} className="select" value={p.value} data-testid={p.testId} onChange={(e) => p.onChange(e.target.value)}>
        {p.children}
      </select>
    </span>
  );
}

function VideoSettings({ form: f, set, errors }: Pick<KindPanelProps<VideoForm>, 'form' | 'set' | 'errors'>) {
  const chosen = videoFormatOf(f);
  return (
    <>
      <PickField label="Format" value={f.formatId} testId="video-format" onChange={(formatId) => set({ formatId })}>
        {GROUPS.map((g) => (
          <optgroup key={g.family} label={g.family}>
            {g.formats.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </optgroup>
        ))}
      </PickField>
      <PickField label="Resolution" value={f.resolutionId} testId="video-resolution" onChange={(resolutionId) => set({ resolutionId })}>
        {resolutionsOf(f.formatId).map((r) => (
          <option key={r.id} value={r.id}>
            {r.label}
          </option>
        ))}
      </PickField>
      <PickField label="Frame rate" value={f.fps} testId="video-fps" onChange={(v) => set({ fps: Number(v) })}>
        {ratesOf(f.formatId, f.resolutionId).map((r) => (
          <option key={r} value={r}>
            {formatFps(r)} fps
          </option>
        ))}
      </PickField>
      <ChipGroup
        label="Layout"
        value={f.layout}
        choices={VIDEO_LAYOUTS}
        onChange={(layout) => set({ layout })}
        testIdPrefix="video-layout"
        variant="segmented"
      />
      <ChipGroup
        label="Buffer"
        value={f.buffer}
        choices={VIDEO_BUFFER_CHOICES.map((n) => ({
          value: n,
          label: `${n}`,
          detail: `${n} frame${n > 1 ? 's' : ''} may wait for the disk`,
        }))}
        onChange={(buffer) => set({ buffer })}
        testIdPrefix="video-buffer"
        after={<span className="field__hint">frames</span>}
      />
      <ChipGroup
        label="Duration"
        value={f.seconds}
        // The chips, and the duration the free space allowed ("Use 1 min 12 s") when it is none of them.
        choices={[...VIDEO_SECONDS_CHOICES, ...(VIDEO_SECONDS_CHOICES.includes(f.seconds) ? [] : [f.seconds])]
          .sort((a, b) => a - b)
          .map((s) => ({ value: s, label: secondsText(s) }))}
        onChange={(seconds) => set({ seconds })}
        testIdPrefix="video-seconds"
      />
      <RunsAndRest form={f} maxRuns={MAX_RUNS} maxRest={MAX_REST_MINUTES} errors={errors} set={set} testIdPrefix="video" />
      <p className="video-format-line" data-testid="video-format-line">
        {chosen
          ? `${formatMBpsFigure(chosen.dataRateMBps)} MB/s · ${formatBytesShort(chosen.frameBytes)} a frame · ${ms(1000 / chosen.fps)} per frame · ${formatBytesShort(chosen.dataRateMBps * 1e6 * f.seconds)} written${chosen.estimated ? ' · data rate estimated' : ''}`
          : errors.format}
      </p>
    </>
  );
}

const SIDES = [
  { side: 'write', label: 'Write', index: 0 },
  { side: 'read', label: 'Read', index: 1 },
] as const;

/** While it runs (or after a stop): the strips fed by the engine's frame counts. */
function LiveView({ job }: { job: DetailedJob }) {
  const run = job.progress?.run ?? 1;
  const f = pacedFormat(job.settings.kind === 'video' ? job.settings.format : '');
  return (
    <div className="video-live" data-testid="video-live">
      <p className="video-live__what">
        {f ? `${f.format} · ${f.resolution} · ${formatFps(f.fps)} fps` : ''}
        {job.outcome === 'stopped' ? ' · stopped before the end: no verdict' : ''}
      </p>
      {SIDES.map(({ side, label, index }) => (
        <FrameStrip key={side} label={label} side={side} cells={liveCells(job.frames ?? [], run, index)} testId={`video-strip-${side}`} />
      ))}
      <FrameStripLegend />
    </div>
  );
}

const FIGURES: ReadonlyArray<readonly [string, (p: VideoPhase) => string]> = [
  ['Frame time p50', (p) => ms(p.p50Ms)],
  ['p99', (p) => ms(p.p99Ms)],
  ['p99.9', (p) => ms(p.p999Ms)],
  ['max', (p) => ms(p.maxMs)],
  ['Jitter', (p) => ms(p.jitterMs)],
  ['Sustained', (p) => `${formatMBpsFigure(p.mbps)} MB/s`],
];

function ResultView({ video }: { video: VideoSection }) {
  const phases = video.runs.flatMap((r) => [r.write, r.read]);
  const hostLate = phases.reduce((n, p) => n + Math.min(p.late, p.hostLate ?? 0), 0);
  const longestPause = Math.max(0, ...phases.map((p) => p.longestPauseMs ?? 0));
  return (
    <div className="video-result" data-testid="video-result">
      {/* The verdict once: the section's line names each direction that failed (and its run). */}
      <p className={`video-verdict ${video.ok ? 'video-verdict--ok' : 'video-verdict--bad'}`} data-testid="video-verdict">
        {video.verdict}
      </p>
      {video.runs.map((r) => (
        <div key={r.run} className="video-run">
          {video.runs.length > 1 && <h3 className="video-run__title">Run {r.run}</h3>}
          {SIDES.map(({ side, label }) => (
            <div key={side} className="video-phase" data-ok={r[side].ok}>
              <FrameStrip
                label={label}
                side={side}
                cells={timelineCells(r[side].timeline)}
                testId={`video-strip-${side}`}
                hostNote={hostLateText(Math.min(r[side].late, r[side].hostLate ?? 0), r[side].longestPauseMs)}
              />
            </div>
          ))}
          <table className="data-table stats-table video-figures" data-testid="video-figures">
            <thead>
              <tr>
                <th scope="col">
                  <span className="sr-only">Direction</span>
                </th>
                {FIGURES.map(([name]) => (
                  <th key={name} scope="col">
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {SIDES.map(({ side, label }) => (
                <tr key={side}>
                  <th scope="row" className={`t-${side}`}>
                    {label}
                  </th>
                  {FIGURES.map(([name, pick]) => (
                    <td key={name}>{pick(r[side])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      <FrameStripLegend hostNote={hostLateText(hostLate, longestPause, true)} />
      <p className="video-method">
        {`${video.frames.toLocaleString('en-US')} frames of ${formatBytesShort(video.frameBytes)} each ${video.layout === 'stream' ? 'into one stream file' : 'as one file per frame'}, due every ${ms(video.budgetMs)}, with a ${video.buffer}-frame buffer; a frame is late when done more than one frame period after its due time.`}
      </p>
    </div>
  );
}

/** "Check this format" from the Will-it-work table: that format at that rate (ignored while a
 *  test runs, so a running test's settings stay as shown), then the panel scrolled to and its
 *  format picker focused. Each check is taken once. */
function useFormatCheck(set: (patch: Partial<VideoForm>) => void, busy: boolean): void {
  const check = useNavigationStore((s) => s.pacedCheck);
  const taken = useRef<typeof check>(null);
  useEffect(() => {
    if (!check || taken.current === check) return;
    taken.current = check;
    // The check names the result it decides, or none: the last check's result is dropped.
    if (!busy)
      set({
        formatId: check.formatId,
        fps: check.fps,
        ...(check.resolutionId ? { resolutionId: check.resolutionId } : {}),
        from: check.from,
      });
    // The screen may have been hidden a moment ago: scroll once it is laid out.
    requestAnimationFrame(() => {
      const panel = document.querySelector<HTMLElement>('[data-testid="video-panel"]');
      panel?.scrollIntoView?.({ block: 'start' });
      panel?.querySelector<HTMLElement>('[data-testid="video-format"]')?.focus();
    });
  }, [check, busy, set]);
}

export function VideoPanel({ form, set, errors, live, result, busy, Frame }: KindPanelProps<VideoForm>) {
  useFormatCheck(set, busy);
  // Judged by today's paced rule from its figures (a saved result may carry an older rule's words).
  const video = live || !result?.video ? undefined : rejudged(result.video);
  return (
    <Frame
      title="Video playback (frame-paced)"
      subtitle="Writes real frames of a format at its frame rate, each due at its time, then reads them back: does this drive keep up frame after frame, not just on average?"
      settings={<VideoSettings form={form} set={set} errors={errors} />}
      result={live ? undefined : result}
    >
      {live ? (
        <LiveView job={live} />
      ) : video ? (
        <ResultView video={video} />
      ) : (
        <p className="empty chart-empty">Frames on time, late and dropped will be drawn here as they happen.</p>
      )}
    </Frame>
  );
}
