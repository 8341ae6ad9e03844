// What the sustained write makes of its one step per run: the MB/s curve in slices of bytes
// written, and the knee where the drive's fast cache runs out (model/knee.ts).
import type { StepOutcome } from '../../analysis.js';
import { chooseSliceBytes, detectKnee, sliceSeries } from '../../knee.js';
import { describeVerdict } from './verdict.js';
import type { Plan } from '../plan.js';
import type { SustainedRun, SustainedSection } from './result.js';

/** The sustained-write section: one curve and verdict per run. */
export function sustainedSection(plan: Plan, outcomes: readonly StepOutcome[]): SustainedSection {
  const runs: SustainedRun[] = outcomes.map(({ run, result }) => {
    const sliceBytes = chooseSliceBytes(result.bytesWritten);
    const curve = sliceSeries(result.series, sliceBytes);
    const verdict = detectKnee(curve);
    return { run, bytes: result.bytesWritten, sliceBytes, curve, verdict, summary: describeVerdict(verdict, result.bytesWritten) };
  });
  const s = plan.sustained!;
  return { requestedBytes: s.requestedBytes, plannedBytes: plan.fileSize, limitedBy: s.limitedBy, reserveBytes: s.reserveBytes, runs };
}
