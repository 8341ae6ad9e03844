// Runs a named benchmark end to end: plan → workspace → each step through the engine → result
// document. It owns the lifetime of the test file: the workspace is removed whatever happens
// (success, error, abort), and only after the engine has closed its files.
import path from 'node:path';
import type { CacheRequest, DataPattern, EngineProgress, EngineResult, EngineSpec } from './engine-types.js';
import { AbortError, engineVersion, isAbortError, runTest, type RunTestOptions } from './engine.js';
import { inputError, toPlainError } from './errors.js';
import { hostInfo } from './host.js';
import { buildPlan, type TestKind } from './presets.js';
import { diskOf } from './flags.js';
import { driveHealth } from './link.js';
import { buildResult, targetFromVolume, toResultTest, type ResultContext, type ResultDocument, type ResultTest } from './result.js';
import { volumeInfo, type VolumeInfo } from './volume.js';
import { openWorkspace } from './workspace.js';

export const TEST_FILE_NAME = 'testfile.dat';

export type RunProgress = EngineProgress & {
  /** 0-based index of the step within one run of the plan. */
  testIndex: number;
  testCount: number;
  testName: string;
  /** 1-based run number, of `runs`. */
  run: number;
  runs: number;
};

export interface RunBenchmarkOptions {
  /** The folder to test in. */
  target: string;
  test?: TestKind;
  size?: number;
  bs?: number;
  qd?: number;
  threads?: number;
  runs?: number;
  pattern?: DataPattern;
  seconds?: number;
  warmupSeconds?: number;
  cache?: CacheRequest;
  label?: string;
  signal?: AbortSignal;
  onProgress?: (e: RunProgress) => void;
  /** Called when a step starts, before its first progress event. */
  onTestStart?: (e: { testIndex: number; testCount: number; testName: string; run: number; runs: number }) => void;
  /** See OpenWorkspaceOptions.handleSignals; the CLI handles signals itself. Default true. */
  handleSignals?: boolean;
  /**
   * Runs one engine spec; default: the in-process engine (core runTest). The app and browser
   * mode pass an EngineHost's runTest, so a native crash ends the test and not the process. It
   * must keep runTest's contract: reject with AbortError only once the engine's files are closed.
   */
  engine?: (spec: EngineSpec, opts: RunTestOptions) => Promise<EngineResult>;
}

export async function runBenchmark(opts: RunBenchmarkOptions): Promise<ResultDocument> {
  const kind = opts.test ?? 'quick';
  const runs = opts.runs ?? 1;
  if (!Number.isInteger(runs) || runs < 1) throw inputError('runs must be a whole number of 1 or more');
  const plan = buildPlan(kind, opts);
  const target = path.resolve(opts.target);
  const signal = opts.signal;
  const runEngine = opts.engine ?? runTest;
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });

  // In-process: load the engine before touching the disk (a missing addon should not cost a
  // folder). An injected engine (a child process) reports its version with each result, so this
  // process never loads the addon.
  let engine = opts.engine ? 'unknown' : engineVersion();
  const startedAt = new Date();
  const workspace = await openWorkspace(target, { needBytes: plan.fileSize, handleSignals: opts.handleSignals ?? true });
  let volume: VolumeInfo | undefined;
  const tests: ResultTest[] = [];
  let temperatureAfter: number | undefined;
  try {
    // Read after the workspace exists: free space shown is what the test had to work with.
    volume = await volumeInfo(target).catch(() => undefined);
    const file = workspace.filePath(TEST_FILE_NAME);
    const testCount = plan.steps.length;
    for (let run = 1; run <= runs; run++) {
      for (const [testIndex, step] of plan.steps.entries()) {
        const where = { testIndex, testCount, testName: step.name, run, runs };
        opts.onTestStart?.(where);
        const onProgress = opts.onProgress;
        const result = await runEngine(
          { ...step.spec, path: file },
          {
            ...(signal ? { signal } : {}),
            ...(onProgress ? { onProgress: (p: EngineProgress) => onProgress({ ...p, ...where }) } : {}),
          },
        );
        engine = result.engineVersion;
        tests.push(toResultTest(step.name, result, run));
      }
    }
    // The drive's temperature after the last test (the one before came with volumeInfo, read
    // before the first); only worth the sysfs reads when that first reading found a sensor.
    if (volume?.devNumber && temperatureOf(volume) !== undefined) {
      const t = (await driveHealth(volume.devNumber).catch(() => undefined))?.temperatureC;
      if (typeof t === 'number' && Number.isFinite(t)) temperatureAfter = t;
    }
  } catch (err) {
    if (isAbortError(err)) throw err;
    // An engine error racing a cancel is reported as the cancel the user asked for.
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
    throw toPlainError(err, {
      path: target,
      needBytes: plan.fileSize,
      ...(volume ? { freeBytes: volume.freeBytes } : {}),
      doing: 'running the test',
    });
  } finally {
    await workspace.close();
  }

  return buildResult({
    kind,
    ...(opts.label !== undefined ? { label: opts.label } : {}),
    startedAt,
    finishedAt: new Date(),
    engineVersion: engine,
    host: hostInfo(),
    target: targetFromVolume(target, volume),
    settings: { ...plan.settings, runs },
    tests,
    ...(volume ? { volume } : {}),
    context: testContext(temperatureOf(volume), temperatureAfter),
  });
}

function temperatureOf(v: VolumeInfo | undefined): number | undefined {
  const t = diskOf(v)?.health?.temperatureC;
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

function testContext(before: number | undefined, after: number | undefined): ResultContext {
  const c: ResultContext = {};
  if (before !== undefined || after !== undefined) {
    c.temperatureC = {};
    if (before !== undefined) c.temperatureC.before = before;
    if (after !== undefined) c.temperatureC.after = after;
  }
  return c;
}
