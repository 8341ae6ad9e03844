// The small-file test: what copying many small files costs, operation by operation. N files of
// one size are each created, written, fsynced and closed, then stat'ed, then opened and read,
// then deleted, every operation timed in the engine (engine/small_files.cc). Unlike the many-file
// test, which times payload I/O, this counts the file system's own work and, on a share, every
// network round trip: a NAS reviewer's "thousands of small files".
import type { StepOutcome } from '../analysis.js';
import type { EngineSpec, SmallFilesFigures } from '../engine-types.js';
import { inputError } from '../errors.js';
import type { Metric, MetricUnit } from '../report/figure-text.js';
import type { SmallFilesOpName, SmallFilesSection } from '../result.js';
import { formatBytesBinary } from '../units.js';
import { KiB, MiB, SMALL_FILES_PRESETS, type Plan, type PlanOptions, type SmallFilesPreset } from './plan.js';
import type { KindModule } from './types.js';

export const SMALL_FILE_MIN_BYTES = 4 * KiB;
export const SMALL_FILE_MAX_BYTES = MiB;
export const SMALL_FILES_MAX_COUNT = 100_000;
/** quick: a thousand 4 KiB files; nas: the NAS reviewers' "thousands of small files, 100 MB in
 *  all" (25,600 files of 4 KiB = 100 MiB). */
export const SMALL_FILES_PRESET_SETS: Record<SmallFilesPreset, { count: number; fileBytes: number }> = {
  quick: { count: 1000, fileBytes: 4 * KiB },
  nas: { count: 25_600, fileBytes: 4 * KiB },
};
export const SMALL_FILES_OPS: readonly SmallFilesOpName[] = ['create', 'write', 'fsync', 'close', 'stat', 'open', 'read', 'delete'];
/** Said in the result, the CLI and the panel: what the figures are of. */
export const SMALL_FILES_SCOPE =
  'This measures the file system and, on a share, every network round trip (a create, an fsync, a stat each cost one or more), not only the disk: it is what copying many small files costs.';

const NOT_FOR_SMALL = 'does not apply to --test small-files: each file is written and read whole, one file at a time';

export const smallFiles = {
  id: 'small-files',
  name: 'Small-file test',
  plan: smallFilesPlan,
  analyse: (plan, outcomes) => ({ smallFiles: smallFilesSection(plan, outcomes) }),
  cli: {
    options: ['preset', 'files', 'file-size'],
    presets: SMALL_FILES_PRESETS,
    refuse: {
      size: '--size does not apply to --test small-files: use --files and --file-size (or --preset nas)',
      bs: `--bs ${NOT_FOR_SMALL}`,
      qd: `--qd ${NOT_FOR_SMALL}`,
      threads: `--threads ${NOT_FOR_SMALL}`,
      seconds: '--seconds does not apply to --test small-files: it is bounded by its files, not time',
    },
  },
  report: {
    titleParts: (doc) =>
      doc.smallFiles ? [`${doc.smallFiles.count.toLocaleString('en-US')} × ${formatBytesBinary(doc.smallFiles.fileBytes)}`] : undefined,
    metrics: (doc) => (doc.smallFiles ? { metrics: smallFilesMetrics(doc.smallFiles) } : undefined),
    stepsArePrimary: false,
    comparable: (doc, f) => {
      if (!doc.smallFiles) return false;
      f.set('files', `${doc.smallFiles.count} × ${formatBytesBinary(doc.smallFiles.fileBytes)}`);
      return true;
    },
    figureGroup: { group: 'Small files', present: (doc) => doc.smallFiles !== undefined },
    testsTitle: 'All files, every operation',
  },
  fromScreen: (s) =>
    s.kind === 'small-files'
      ? {
          preset: s.preset,
          smallFiles: {
            ...(s.count !== undefined ? { count: s.count } : {}),
            ...(s.fileBytes !== undefined ? { fileBytes: s.fileBytes } : {}),
          },
        }
      : {},
} as const satisfies KindModule<'small-files'>;

function smallFilesPlan(o: PlanOptions): Plan {
  const preset = (o.preset ?? 'quick') as SmallFilesPreset;
  if (!SMALL_FILES_PRESETS.includes(preset))
    throw inputError(`the small-file preset must be ${SMALL_FILES_PRESETS.join(' or ')}, not "${preset}"`);
  const base = SMALL_FILES_PRESET_SETS[preset];
  const count = o.smallFiles?.count ?? base.count;
  const fileBytes = o.smallFiles?.fileBytes ?? base.fileBytes;
  if (!Number.isInteger(count) || count < 1 || count > SMALL_FILES_MAX_COUNT)
    throw inputError(`the file count must be a whole number from 1 to ${SMALL_FILES_MAX_COUNT.toLocaleString('en-US')}`);
  if (!Number.isInteger(fileBytes) || fileBytes < SMALL_FILE_MIN_BYTES || fileBytes > SMALL_FILE_MAX_BYTES)
    throw inputError(`the file size must be from 4 KiB to 1 MiB, not ${formatBytesBinary(fileBytes)}`);
  const cache = o.cache ?? 'auto';
  const pattern = o.pattern ?? 'random';
  const totalBytes = count * fileBytes;
  // bs, qd and threads are not used by a small-files spec (each file is one whole transfer).
  const spec: Omit<EngineSpec, 'path'> = {
    rw: 'write',
    bs: 4 * KiB,
    qd: 1,
    threads: 1,
    fileSize: totalBytes,
    pattern,
    cache,
    keepFile: false,
    smallFiles: { files: count, fileBytes },
  };
  return {
    kind: 'small-files',
    fileSize: totalBytes,
    // Each file takes whole blocks: a 4 KiB block a file at the least.
    needBytes: count * Math.ceil(fileBytes / (4 * KiB)) * 4 * KiB,
    steps: [{ name: `${count.toLocaleString('en-US')} files of ${formatBytesBinary(fileBytes)}`, spec, file: 'small-file.dat' }],
    settings: { size: totalBytes, pattern, cache, preset, smallFiles: { count, fileBytes } },
    // In the notes too, so every view and export of the result says it.
    notes: [SMALL_FILES_SCOPE],
  };
}

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

function smallFilesMetrics(s: SmallFilesSection): Metric[] {
  const m = (measure: string, label: string, unit: MetricUnit, higher: boolean, values: number[], primary: boolean): Metric => ({
    key: `Small files/${measure}`,
    label: `Small files · ${label}`,
    group: 'Small files',
    measure,
    unit,
    direction: higher ? 'higher' : 'lower',
    values,
    primary,
  });
  const runs = s.runs;
  const out = [
    m(
      'filesPerSecond',
      'files/s',
      'files/s',
      true,
      runs.map((r) => r.filesPerSecond),
      true,
    ),
    m(
      'msPerFile',
      'ms per file',
      'ms',
      false,
      runs.map((r) => r.msPerFile),
      true,
    ),
    m(
      'fileP99Ms',
      'p99 per file',
      'ms',
      false,
      runs.map((r) => r.fileP99Ms),
      false,
    ),
    m(
      'writeMBps',
      'write payload',
      'MB/s',
      true,
      runs.map((r) => r.writeMBps),
      true,
    ),
    m(
      'readMBps',
      'read payload',
      'MB/s',
      true,
      runs.map((r) => r.readMBps),
      true,
    ),
  ];
  for (const op of SMALL_FILES_OPS) {
    const of = (r: (typeof runs)[number]) => r.ops.find((x) => x.op === op);
    if (!runs.every((r) => of(r))) continue;
    out.push(
      m(
        `${op}.p50Ms`,
        `${op} p50`,
        'ms',
        false,
        runs.map((r) => of(r)!.p50Ms),
        false,
      ),
      m(
        `${op}.p99Ms`,
        `${op} p99`,
        'ms',
        false,
        runs.map((r) => of(r)!.p99Ms),
        false,
      ),
    );
  }
  return out;
}
