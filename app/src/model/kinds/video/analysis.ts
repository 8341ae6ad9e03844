// The frame-paced video test's section from the engine's per-frame figures: each run's write and
// read phase with its verdict (paced.ts), and the section's one-line verdict.
import type { StepOutcome } from '../../analysis.js';
import type { PacedFigures } from '../../engine-types.js';
import type { Plan } from '../plan.js';
import { DEFAULT_VIDEO_SECONDS, pacedFormat, phaseVerdict, sectionVerdict } from './paced.js';
import type { VideoPhase, VideoSection } from './result.js';

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

export function pacedSection(plan: Plan, outcomes: readonly StepOutcome[]): VideoSection {
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
