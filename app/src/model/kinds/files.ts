// The many-file test: a Stibium-style set of files (model/file-set.ts) written then read, one
// engine step per file and pass, scaled down when free space is short. Its analysis fits a rate
// and a per-file overhead to each pass.
import { filesAnalysis } from '../analysis.js';
import type { EngineSpec } from '../engine-types.js';
import { inputError } from '../errors.js';
import {
  DEFAULT_FILES_SEED,
  FILES_PRESET_OPTIONS,
  FILES_PRESETS,
  fitFileSet,
  makeFileSet,
  MAX_FILES,
  MIN_FILES,
  MIN_SCALED_FILES,
  MIN_SCALED_FILE_BYTES,
  validateFileSetOptions,
  type FileSetOptions,
  type FilesPreset,
} from '../file-set.js';
import type { Metric, MetricUnit } from '../report/figure-text.js';
import type { Direction } from '../verdict/compare.js';
import { sizeText } from '../report/figure-text.js';
import type { ResultDocument } from '../result.js';
import { shownOverhead } from '../trust.js';
import { parseSize, parseWholeNumber, sizeFormatterFor } from '../units.js';
import { echoSettings, MiB, usable, type Plan, type PlanOptions, type PlanStep, type PlanTarget } from './plan.js';
import { filesFigures } from './files-card.js';
import { filesReportSection } from './files-section.js';
import { screenRun, type KindModule, type ScreenRun } from './types.js';

export const files = {
  id: 'files',
  name: 'Many-file test',
  defaultSize: 0,
  sized: true,
  leastBytes: leastFilesBytes,
  plan: filesPlan,
  analyse: (plan, outcomes) => {
    const a = filesAnalysis(plan, outcomes);
    return { tests: a.tests, files: a.section };
  },
  cli: {
    flags: { preset: 'string', reserve: 'string', files: 'string', 'min-size': 'string', 'max-size': 'string', seed: 'string' },
    presets: FILES_PRESETS,
    flagRange: { files: `${MIN_FILES}-${MAX_FILES}` },
    // --files, --min-size, --max-size, --seed: a set of one's own (a custom set, whatever --preset says
    // unless it names another set).
    parse: (flag) => {
      const files: Partial<FileSetOptions> = {};
      const [count, min, max, seed] = [flag('files'), flag('min-size'), flag('max-size'), flag('seed')];
      if (count !== undefined) files.count = parseWholeNumber(count, 'files', MIN_FILES, MAX_FILES);
      if (min !== undefined) files.minBytes = parseSize(min, '--min-size');
      if (max !== undefined) files.maxBytes = parseSize(max, '--max-size');
      if (seed !== undefined) files.seed = parseWholeNumber(seed, 'seed', 0, Number.MAX_SAFE_INTEGER);
      if (Object.keys(files).length === 0) return {};
      const custom = (files.count ?? files.minBytes ?? files.maxBytes) !== undefined;
      const preset = flag('preset');
      if (preset !== undefined && preset !== 'custom' && custom)
        throw inputError(`--files, --min-size and --max-size make a custom set; drop --preset ${preset} or use --preset custom`);
      return { files, ...(preset === undefined && custom ? { preset: 'custom' } : {}) };
    },
    refuse: {
      seconds: '--seconds does not apply to --test files: it is bounded by bytes, not time',
      size: '--size does not apply to --test files: use --preset, or --files, --min-size and --max-size',
      threads: '--threads does not apply to --test files: files are written one at a time',
    },
  },
  report: {
    columns: {
      pick: [
        ['Files Read/mbps', 'Files Read'],
        ['Files Write/mbps', 'Files Write'],
      ],
    },
    titleParts: (doc) => (doc.files ? [`${capital(doc.files.preset)} · ${doc.files.count} files`] : undefined),
    metrics: (doc) => (doc.files ? { metrics: filesMetrics(doc) } : undefined),
    stepsArePrimary: false,
    sections: [filesReportSection],
    comparable: (doc, f) => {
      if (!doc.files) return false;
      const fs = doc.files;
      f.set('file set', `${fs.preset}, ${fs.count} files of ${sizeText(fs.minBytes)}–${sizeText(fs.maxBytes)}`);
      return true;
    },
  },
  card: filesFigures,
  fromScreen: screenRun('files', (s) => {
    const set: NonNullable<ScreenRun['files']> = {};
    if (s.preset === 'custom') {
      if (s.count !== undefined) set.count = s.count;
      if (s.minBytes !== undefined) set.minBytes = s.minBytes;
      if (s.maxBytes !== undefined) set.maxBytes = s.maxBytes;
    }
    if (s.seed !== undefined) set.seed = s.seed;
    return {
      preset: s.preset,
      ...(Object.keys(set).length ? { files: set } : {}),
      ...(s.reserveBytes !== undefined ? { reserveBytes: s.reserveBytes } : {}),
    };
  }),
} as const satisfies KindModule<'files'>;

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Many-file test: every file of the set written (in the set's shuffled write order), then every
 * file read (in its read order), one engine step per file and pass, uncached, large blocks.
 */
function filesPlan(o: PlanOptions, target: PlanTarget | undefined): Plan {
  const preset = (o.preset ?? (o.files && Object.keys(o.files).length ? 'custom' : 'quick')) as FilesPreset;
  if (!['quick', 'standard', 'custom'].includes(preset)) {
    throw inputError(`the many-file preset must be quick, standard or custom, not "${preset}"`);
  }
  if (o.seconds !== undefined) throw inputError('the many-file test writes and reads whole files; --seconds does not apply');
  const base = preset === 'custom' ? FILES_PRESET_OPTIONS.standard : FILES_PRESET_OPTIONS[preset];
  const requested: FileSetOptions = {
    count: o.files?.count ?? base.count,
    minBytes: o.files?.minBytes ?? base.minBytes,
    maxBytes: o.files?.maxBytes ?? base.maxBytes,
    seed: o.files?.seed ?? DEFAULT_FILES_SEED,
  };
  validateFileSetOptions(requested);
  const maxBs = o.bs ?? MiB;
  const qd = o.qd ?? 8;
  const { usable: room, reserve } = usable(o, target, 'many-file');
  const { set, note } = fitFileSet(requested, room, maxBs);
  const pattern = o.pattern ?? 'random';
  const cache = o.cache ?? 'auto';
  const steps: PlanStep[] = [];
  const n = set.entries.length;
  // Each file named in the units the set was asked in: MiB for "--min-size 4MiB", MB for a preset.
  const sizeName = sizeFormatterFor(requested.minBytes, requested.maxBytes);
  const add = (pass: 'write' | 'read', order: number[]): void => {
    order.forEach((index, k) => {
      const e = set.entries[index]!;
      const spec: Omit<EngineSpec, 'path'> = {
        rw: pass,
        bs: e.bs,
        qd,
        threads: 1,
        fileSize: e.bytes,
        pattern,
        cache,
        // Written files stay for the read pass; the runner removes them all when the run ends.
        keepFile: true,
        seed: requested.seed + index,
      };
      steps.push({
        name: `${pass === 'write' ? 'Write' : 'Read'} file ${k + 1}/${n} (${sizeName(e.bytes)})`,
        spec,
        file: e.name,
        fileIndex: index,
        pass,
      });
    });
  };
  add('write', set.writeOrder);
  add('read', set.readOrder);
  const settings = echoSettings(o, set.totalBytes, pattern, cache);
  settings.preset = preset;
  settings.reserveBytes = reserve;
  settings.files = { ...requested };
  return {
    kind: 'files',
    fileSize: set.totalBytes,
    needBytes: set.totalBytes,
    steps,
    settings,
    notes: note ? [note] : [],
    fileSet: set,
    ...(note ? { scaled: note } : {}),
  };
}

/** The smallest file set a many-file test runs with: MIN_SCALED_FILES files of its spread, the
 *  smallest scaled to MIN_SCALED_FILE_BYTES (what fitFileSet scales the sizes down to). */
function leastFilesBytes(o: PlanOptions): number {
  const preset = (o.preset ?? 'quick') as FilesPreset;
  const base = FILES_PRESET_OPTIONS[preset === 'custom' ? 'standard' : preset] ?? FILES_PRESET_OPTIONS.quick;
  const count = Math.min(MIN_SCALED_FILES, o.files?.count ?? base.count);
  const minBytes = o.files?.minBytes ?? base.minBytes;
  const f = Math.min(1, MIN_SCALED_FILE_BYTES / minBytes);
  const maxBytes = Math.max(MIN_SCALED_FILE_BYTES, Math.round((o.files?.maxBytes ?? base.maxBytes) * f));
  const seed = o.files?.seed ?? DEFAULT_FILES_SEED;
  return makeFileSet({ count, minBytes: Math.max(MIN_SCALED_FILE_BYTES, Math.round(minBytes * f)), maxBytes, seed }).totalBytes;
}

function filesMetrics(doc: ResultDocument): Metric[] {
  const runs = doc.files!.runs;
  const out: Metric[] = [];
  for (const pass of ['write', 'read'] as const) {
    const P = pass === 'write' ? 'Write' : 'Read';
    const group = `Files ${P}`;
    const m = (measure: string, label: string, unit: MetricUnit, direction: Direction, values: number[], primary: boolean): Metric => ({
      key: `${group}/${measure}`,
      label: `${group} · ${label}`,
      group,
      measure,
      unit,
      direction,
      values,
      primary,
    });
    out.push(
      m(
        'mbps',
        'aggregate',
        'MB/s',
        'higher',
        runs.map((r) => r[pass].mbps),
        true,
      ),
      m(
        'medianMBps',
        'median file',
        'MB/s',
        'higher',
        runs.map((r) => r[pass].medianMBps),
        false,
      ),
      m(
        'trimmedMeanMBps',
        '20 % trimmed mean',
        'MB/s',
        'higher',
        runs.map((r) => r[pass].trimmedMeanMBps),
        false,
      ),
    );
    const ts = runs.map((r) => r[pass].theilSen);
    if (ts.every((f) => f !== undefined)) {
      out.push(
        m(
          'rateMBps',
          'rate (Theil–Sen)',
          'MB/s',
          'higher',
          ts.map((f) => f.rateMBps),
          false,
        ),
        m(
          'overheadMs',
          'per-file overhead',
          'ms',
          'lower',
          // Clamped as every view prints it (trust.ts): a negative intercept is not a time.
          ts.map((f) => shownOverhead(f.overheadMs).ms),
          false,
        ),
      );
    }
  }
  return out;
}
