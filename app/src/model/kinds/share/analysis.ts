// What the share test makes of its steps: per run, the four rates and a small file's operations,
// and the two verdicts (model/verdict/share.ts) with the interface's ceiling and the round trip
// the runner saw.
import type { StepOutcome } from '../../analysis.js';
import type { NetworkPath } from '../../network.js';
import { shareVerdict, smallFileVerdict } from '../../verdict/share.js';
import type { Plan } from '../plan.js';
import { SHARE_STEPS } from './plan.js';
import type { ShareFileOps, ShareRun, ShareSection } from './result.js';

const FILE_OPS = ['stat', 'open', 'read', 'close'] as const;

function fileOps(o: StepOutcome | undefined): ShareFileOps {
  const ops = o?.result.smallFiles?.ops ?? [];
  const p50 = (op: string): number => ops.find((x) => x.op === op)?.p50Ms ?? 0;
  return { statMs: p50('stat'), openMs: p50('open'), readMs: p50('read'), closeMs: p50('close') };
}

export function shareSection(plan: Plan, outcomes: readonly StepOutcome[], network?: NetworkPath): ShareSection {
  const s = plan.settings.share!;
  const i = network?.interface;
  const wireless = i?.kind === 'wireless';
  const linkMbps = (wireless ? i?.phyMbps : i?.speedMbps) ?? 0;
  const linkCeilingMBps = network?.ceilingMBps ?? 0;
  const rttMs = network?.roundTrip?.ms;
  const runs: ShareRun[] = [];
  for (const run of [...new Set(outcomes.map((o) => o.run))]) {
    const of = (name: string): StepOutcome | undefined => outcomes.find((o) => o.run === run && o.step.name === name);
    const mbps = (name: string): number => of(name)?.result.mbps ?? 0;
    const ops = fileOps(of(SHARE_STEPS.files));
    const figures = {
      diskWriteMBps: mbps(SHARE_STEPS.diskWrite),
      diskReadMBps: mbps(SHARE_STEPS.diskRead),
      cacheFirstMBps: mbps(SHARE_STEPS.cacheFirst),
      cacheMBps: mbps(SHARE_STEPS.cacheAgain),
    };
    const fileMs = ops.statMs + ops.openMs + ops.readMs + ops.closeMs;
    runs.push({
      run,
      cacheMode: of(SHARE_STEPS.cacheAgain)?.result.cacheMode ?? 'buffered',
      ...figures,
      fileOps: ops,
      verdict: shareVerdict(
        { ...figures, linkCeilingMBps: linkCeilingMBps, linkMbps: linkCeilingMBps > 0 ? linkMbps : 0 },
        i && linkCeilingMBps > 0 ? { name: i.name, wireless } : undefined,
      ),
      fileVerdict: smallFileVerdict({ fileMs, ops: FILE_OPS.length, rttMs: rttMs ?? 0, rttMeasured: rttMs !== undefined ? 1 : 0 }),
    });
  }
  return {
    diskFileBytes: plan.fileSize,
    cacheFileBytes: s.cacheFileBytes,
    files: s.files,
    ...(rttMs !== undefined ? { rttMs } : {}),
    runs,
  };
}
