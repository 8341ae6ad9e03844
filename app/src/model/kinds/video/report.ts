// The frame-paced video test in the reports: its title (format, resolution, rate), its figures
// per direction (late share, frame-time p99 and max, jitter, sustained MB/s), what makes two
// results comparable (format, layout, buffer), its group in the exports, and each phase's frame
// verdict as a claim.
import type { Metric } from '../../report/figure-text.js';
import { judgePhase } from '../../verdict/paced.js';
import type { KindModule } from '../types.js';
import { formatFps } from './math.js';
import type { VideoPhase, VideoSection } from './result.js';

export const videoReport = {
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
  // Each phase's frame verdict, judged from its own figures (a saved section may be incomplete).
  claims: (doc) => {
    const video = doc.video;
    if (!video || !Array.isArray(video.runs)) return [];
    return video.runs.flatMap((run, i) =>
      (['write', 'read'] as const).flatMap((d) => {
        const phase = run[d];
        return phase
          ? [{ where: `paced run ${i + 1} ${d}`, claim: judgePhase({ ...phase, budgetMs: video.budgetMs }, video.buffer, d === 'write') }]
          : [];
      }),
    );
  },
} as const satisfies KindModule['report'];

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
    m(d, 'mbps', 'paced rate', 'MB/s', true, (p) => p.mbps, true),
  ]);
}
