// What the small-file test makes of its one step: the engine's figures, by run.
import type { StepOutcome } from '../../analysis.js';
import type { SmallFilesFigures } from '../../engine-types.js';
import type { Plan } from '../plan.js';
import { SMALL_FILES_SCOPE, type SmallFilesPreset } from './plan.js';
import type { SmallFilesOpName, SmallFilesSection } from './result.js';

function figuresOf(o: StepOutcome): SmallFilesFigures {
  const f = o.result.smallFiles;
  if (!f)
    throw new Error(
      `the native engine (${o.result.engineVersion}) did not run the small-file mode: rebuild it with \`npm run build:native\``,
    );
  return f;
}

export function smallFilesSection(plan: Plan, outcomes: readonly StepOutcome[]): SmallFilesSection {
  const s = plan.settings.smallFiles!;
  const runs = outcomes.map((o) => {
    const f = figuresOf(o);
    return {
      run: o.run,
      files: f.files,
      seconds: f.seconds,
      filesPerSecond: f.filesPerSecond,
      msPerFile: f.msPerFile,
      fileP50Ms: f.fileP50Ms,
      fileP99Ms: f.fileP99Ms,
      writeMBps: f.writeMBps,
      readMBps: f.readMBps,
      cacheMode: o.result.cacheMode,
      ops: f.ops.map((x) => ({ ...x, op: x.op as SmallFilesOpName })),
    };
  });
  return {
    preset: (plan.settings.preset ?? 'quick') as SmallFilesPreset,
    count: s.count,
    fileBytes: s.fileBytes,
    scope: SMALL_FILES_SCOPE,
    runs,
  };
}
