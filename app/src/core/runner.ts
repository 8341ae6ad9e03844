// Runs a named benchmark end to end: plan → workspace → each step through the engine → result
// document. It owns the lifetime of the test file: the workspace is removed whatever happens
// (success, error, abort), and only after the engine has closed its files.
import { rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { summarize, type StepOutcome } from '../model/analysis.js';
import type { CacheRequest, DataPattern, EngineProgress, EngineResult } from '../model/engine-types.js';
import { AbortError, engineVersion, isAbortError, runTest, type EngineFn } from './engine.js';
import { inputError, toPlainError } from '../model/errors.js';
import { hostInfo } from './host.js';
import { buildPlan, isSized, type Plan, type PlanStep } from '../model/presets.js';
import type { KindPreset } from '../model/kinds/plan.js';
import type { FileSetOptions } from '../model/file-set.js';
import { diskOf } from './flags.js';
import { driveHealth } from './link/index.js';
import { type MachineLoad, type ResultContext, type ResultDocument } from '../model/result.js';
import { inodesAfter, volumeInfo } from './volume.js';
import { FREE_SPACE_RESERVE, fitTest } from '../model/fit.js';
import { runKind } from '../model/kinds/registry.js';
import { buildResult, deviceTarget, targetFromVolume, toResultTest, type DeviceTarget } from './result.js';
import type { CipherSection } from '../model/cipher/types.js';
import { openDeviceTarget, openWorkspace } from './workspace.js';
import { loadMeter } from './machine-load.js';
import { probeShareCache } from './share-cache-probe.js';
import { probeRoundTrip } from './link/round-trip.js';
import { notOnShareText } from '../model/network.js';
import type { CdmMode } from '../model/plan.js';
import type { TestKind } from '../model/kinds/registry.js';
import type { KindPlanOptions } from '../model/kinds/plan.js';
import type { VolumeInfo } from '../model/volume.js';

export const TEST_FILE_NAME = 'testfile.dat';

export type RunProgress = EngineProgress & {
  /** 0-based index of the step within one run of the plan. */
  testIndex: number;
  testCount: number;
  testName: string;
  /** 1-based run number, of `runs` (0: until stopped, the continuous mode's `until`). */
  run: number;
  runs: number;
};

/** A pause between runs (rest, so a drive's cache can drain) or between tests (CDM's interval). */
export interface PauseEvent {
  reason: 'rest' | 'interval';
  /** The run that comes next, of `runs`. */
  run: number;
  runs: number;
  /** The step that comes next (a rest: the first step of the next run). */
  testIndex: number;
  testName: string;
  secondsTotal: number;
  /** Whole seconds left; reported once a second, ending with 0. */
  remaining: number;
}

/** A step finished: its figures, as the document will have them. */
export interface StepDoneEvent {
  testIndex: number;
  testCount: number;
  run: number;
  runs: number;
  step: PlanStep;
  result: EngineResult;
}

export interface RunBenchmarkOptions extends KindPlanOptions {
  /** The folder to test in (with `device`: the device's path). */
  target: string;
  /** A whole device instead of a folder: only a kind with `wholeDevice` runs on one. */
  device?: DeviceTarget;
  /** On an encrypted folder, measures the cipher ceiling for the verdict (default: the engine's,
   *  half a second each); null: not here (the wizard measures it once per plan). */
  cipher?: (() => Promise<CipherSection>) | null;
  test?: TestKind;
  size?: number;
  /** cdm: CrystalDiskMark profile; files: quick, standard or custom. */
  preset?: KindPreset;
  /** cdm: which directions. */
  mode?: CdmMode;
  rwmixread?: number;
  /** sustained and files: free space to leave untouched. */
  reserveBytes?: number;
  /** files: the set's count, sizes and seed (any of them makes the set custom). */
  files?: Partial<FileSetOptions>;
  /** Seconds to rest between runs of the plan (a drive's cache drains; the wizard uses minutes). */
  restSeconds?: number;
  /** Seconds to pause between the tests of one run (CrystalDiskMark's interval). */
  intervalSeconds?: number;
  bs?: number;
  qd?: number;
  threads?: number;
  runs?: number;
  pattern?: DataPattern;
  seconds?: number;
  warmupSeconds?: number;
  cache?: CacheRequest;
  /** The stop rule (model/precision.ts): each step ends once its 95 % interval is within ± this
   *  fraction, after at least 1 s and at most its planned time or bytes. */
  precision?: number;
  label?: string;
  signal?: AbortSignal;
  /** Continuous mode (Blackmagic's): run the plan again and again until this fires; the run under
   *  way is then dropped and the finished ones make the result (none finished: an AbortError). */
  until?: AbortSignal;
  onProgress?: (e: RunProgress) => void;
  /** Called when a step starts, before its first progress event. */
  onTestStart?: (e: { testIndex: number; testCount: number; testName: string; run: number; runs: number }) => void;
  /** Called when a step has finished. */
  onStepDone?: (e: StepDoneEvent) => void;
  /** Called at the start of a rest or interval and once a second through it. */
  onPause?: (e: PauseEvent) => void;
  /** Called once the plan is known (after free space was read for sustained and files). */
  onPlan?: (plan: Plan) => void;
  /** See OpenWorkspaceOptions.handleSignals; the CLI handles signals itself. Default true. */
  handleSignals?: boolean;
  /** Another DiskDial test on the drive: wait for it (the signal ends the wait) instead of
   *  failing with ERR_VOLUME_BUSY; onWait hears the holder's pid once. */
  wait?: boolean;
  onWait?: (holderPid: number) => void;
  /**
   * Runs one engine spec; default: the in-process engine (core runTest). The app and browser
   * mode pass an EngineHost's runTest, so a native crash ends the test and not the process. It
   * must keep runTest's contract: reject with AbortError only once the engine's files are closed.
   */
  engine?: EngineFn;
}

export async function runBenchmark(opts: RunBenchmarkOptions): Promise<ResultDocument> {
  const kind = opts.test ?? 'quick';
  const runs = opts.runs ?? 1;
  if (!Number.isInteger(runs) || runs < 1) throw inputError('runs must be a whole number of 1 or more');
  const restSeconds = opts.restSeconds ?? 0;
  const intervalSeconds = opts.intervalSeconds ?? 0;
  if (!(restSeconds >= 0 && Number.isFinite(restSeconds))) throw inputError('the rest between runs must be zero or more seconds');
  if (!(intervalSeconds >= 0 && Number.isFinite(intervalSeconds)))
    throw inputError('the interval between tests must be zero or more seconds');
  const sized = isSized(kind);
  // Every option is checked before the disk is touched; a sized plan is built again once the
  // free space is known.
  let plan = buildPlan(kind, opts, sized ? { freeBytes: Number.MAX_SAFE_INTEGER, totalBytes: 0 } : undefined);
  const target = path.resolve(opts.target);
  const signal = opts.signal;
  const until = opts.until;
  // What stops a run under way: a cancel, or in continuous mode the stop that ends the loop.
  const stop = until ? (signal ? AbortSignal.any([signal, until]) : until) : signal;
  const runEngine = opts.engine ?? runTest;
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });

  // In-process: load the engine before touching the disk (a missing addon should not cost a
  // folder). An injected engine (a child process) reports its version with each result, so this
  // process never loads the addon.
  let engine = opts.engine ? 'unknown' : engineVersion();
  const startedAt = new Date();
  const device = opts.device;
  if (device && !runKind(kind).wholeDevice) throw inputError(`the ${runKind(kind).name} test runs in a folder, not on a whole device`);
  const lockOpts = {
    ...(opts.wait ? { wait: true } : {}),
    ...(opts.onWait ? { onWait: opts.onWait } : {}),
    ...(signal ? { signal } : {}),
  };
  const workspace = device
    ? await openDeviceTarget(device.path, lockOpts)
    : await openWorkspace(target, {
        ...(sized ? {} : { needBytes: plan.needBytes }),
        handleSignals: opts.handleSignals ?? true,
        ...lockOpts,
      });
  let volume: VolumeInfo | undefined;
  const outcomes: StepOutcome[] = [];
  let temperatureAfter: number | undefined;
  let engineStuck = false;
  // What else the machine did during the timed steps (the busy-machine flag).
  const meter = loadMeter();
  // Runs done to their end (in continuous mode, those before the stop).
  let finished = 0;
  // Stopped, with the steps done kept as the result (keepsStopped).
  let stopped = false;
  const shownRuns = until ? 0 : runs;
  try {
    // Read after the workspace exists: free space shown is what the test had to work with.
    volume = device ? undefined : await volumeInfo(target).catch(() => undefined);
    // A share: whether its client cache answers is observed, not read from its mount options.
    if (volume?.network) {
      const cacheProbe = await probeShareCache(workspace.filePath('cache-probe.dat'));
      // The round trip to the server, beside the figures a share's operations cost.
      const roundTrip = await probeRoundTrip(volume.network);
      volume = { ...volume, network: { ...volume.network, ...(cacheProbe ? { cacheProbe } : {}), ...(roundTrip ? { roundTrip } : {}) } };
    } else if (runKind(kind).networkOnly) {
      throw inputError(notOnShareText(`--test ${kind}`, target, volume?.fsType));
    }
    if (device) plan = buildPlan(kind, opts, { freeBytes: device.sizeBytes, totalBytes: device.sizeBytes, wholeDevice: true });
    else if (sized) {
      const st = await statfs(target);
      const freeBytes = st.bavail * st.bsize;
      const totalBytes = volume?.totalBytes || st.blocks * st.bsize;
      plan = buildPlan(kind, opts, { freeBytes, totalBytes });
      // What the plan sized itself to must still leave the workspace's small head-room.
      const reserveBytes = Math.min(FREE_SPACE_RESERVE, plan.settings.reserveBytes ?? 0);
      const fit = fitTest({ needBytes: plan.needBytes, freeBytes, totalBytes, sizing: 'fixed', reserveBytes, where: target });
      if (!fit.fits) throw inputError(fit.reason!, 'ENOSPC');
    }
    opts.onPlan?.(plan);
    const testCount = plan.steps.length;
    const pause = async (reason: PauseEvent['reason'], seconds: number, run: number, testIndex: number): Promise<void> => {
      const end = performance.now() + seconds * 1000;
      const testName = plan.steps[testIndex]?.name ?? '';
      let said = -1;
      for (;;) {
        const left = Math.max(0, (end - performance.now()) / 1000);
        // Once per whole second left: a timer firing a hair early must not repeat a second.
        const remaining = Math.ceil(left);
        if (remaining !== said) opts.onPause?.({ reason, run, runs: shownRuns, testIndex, testName, secondsTotal: seconds, remaining });
        said = remaining;
        if (left <= 0) return;
        await sleep(Math.min(1000, left * 1000), undefined, stop ? { signal: stop } : undefined).catch((err: unknown) => {
          throw isAbortError(err) ? new AbortError(undefined, { cause: stop?.reason }) : err;
        });
      }
    };
    const oneRun = async (run: number): Promise<void> => {
      if (run > 1 && restSeconds > 0) await pause('rest', restSeconds, run, 0);
      for (const [testIndex, step] of plan.steps.entries()) {
        if (testIndex > 0 && intervalSeconds > 0) await pause('interval', intervalSeconds, run, testIndex);
        const where = { testIndex, testCount, testName: step.name, run, runs: shownRuns };
        opts.onTestStart?.(where);
        const onProgress = opts.onProgress;
        const result = await meter.measure(step.spec.threads, () =>
          runEngine(
            { ...step.spec, path: workspace.filePath(step.file ?? TEST_FILE_NAME) },
            {
              ...(stop ? { signal: stop } : {}),
              ...(onProgress ? { onProgress: (p: EngineProgress) => onProgress({ ...p, ...where }) } : {}),
            },
          ),
        );
        engine = result.engineVersion;
        outcomes.push({ step, run, result });
        opts.onStepDone?.({ testIndex, testCount, run, runs: shownRuns, step, result });
      }
      // Steps that keep their files (the many-file set) leave them for the next pass only: a
      // new run starts from an empty folder, as the first did.
      await removeKeptFiles(plan, workspace.filePath.bind(workspace));
    };
    for (let run = 1; until ? !until.aborted : run <= runs; run++) {
      try {
        await oneRun(run);
        finished = run;
      } catch (err) {
        // A kind that keeps what a stop leaves (a verify's proof so far) ends with the steps done.
        if (signal?.aborted && isAbortError(err) && runKind(kind).keepsStopped && outcomes.some((o) => o.run === run)) {
          engineStuck = (err as AbortError).engineStuck === true;
          stopped = true;
          finished = run;
          break;
        }
        // The loop's stop (not a cancel) ends the run under way: its steps do not count.
        if (!until?.aborted || signal?.aborted) throw err;
        engineStuck = isAbortError(err) && (err as AbortError).engineStuck === true;
        const partial = outcomes.findIndex((o) => o.run === run);
        if (partial >= 0) outcomes.length = partial;
        break;
      }
    }
    if (until && finished === 0) throw new AbortError(undefined, { cause: until.reason });
    // The drive's temperature after the last test (the one before came with volumeInfo, read
    // before the first); only worth the sysfs reads when that first reading found a sensor.
    if (volume?.devNumber && temperatureOf(volume) !== undefined) {
      const t = (await driveHealth(volume.devNumber).catch(() => undefined))?.temperatureC;
      if (typeof t === 'number' && Number.isFinite(t)) temperatureAfter = t;
    }
  } catch (err) {
    if (isAbortError(err)) {
      engineStuck = (err as AbortError).engineStuck === true;
      throw err;
    }
    // An engine error racing a cancel is reported as the cancel the user asked for.
    if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
    throw toPlainError(err, {
      path: target,
      needBytes: plan.needBytes,
      ...(volume ? { freeBytes: volume.freeBytes } : {}),
      ...(await inodesAfter(err, target)),
      doing: 'running the test',
    });
  } finally {
    // An engine given up on (a stalled disk) keeps its file busy: the user hears "stopped" at
    // once, and the removal goes on, holding the drive's lock, until the disk answers.
    await workspace.close(engineStuck ? { waitMs: 0 } : undefined);
  }

  // The kind's analysis may replace the per-step rows and adds its own sections.
  const { tests = outcomes.map((o) => toResultTest(o.step.name, o.result, o.run)), ...sections } =
    runKind(kind).analyse?.(plan, outcomes, volume?.network ? { network: volume.network } : {}) ?? {};
  const settings: ResultDocument['settings'] = { ...plan.settings, runs: finished };
  if (restSeconds > 0) settings.restSeconds = restSeconds;
  if (intervalSeconds > 0) settings.intervalSeconds = intervalSeconds;
  const doc = buildResult({
    kind,
    ...(opts.label !== undefined ? { label: opts.label } : {}),
    startedAt,
    finishedAt: new Date(),
    engineVersion: engine,
    host: hostInfo(),
    target: device ? deviceTarget(device) : targetFromVolume(target, volume),
    settings,
    tests,
    ...(volume ? { volume } : {}),
    context: testContext(temperatureOf(volume), temperatureAfter, meter.result()),
    ...(finished > 1 ? { summary: summarize(tests) } : {}),
    ...sections,
    notes: until
      ? [...plan.notes, `Continuous mode: ${finished} cycle${finished === 1 ? '' : 's'}, run until stopped.`]
      : stopped
        ? [...plan.notes, 'Stopped before the end: the result is what the steps finished before the stop found.']
        : plan.notes,
  });
  // On an encrypted folder: is the cipher the limit? Measured now, on this machine (not after a stop).
  if (doc.target.encryption && opts.cipher !== null && !stopped) {
    const { addEncryptionVerdict, measureCipher } = await import('./cipher-run.js');
    await addEncryptionVerdict(doc, opts.cipher ?? (() => measureCipher({ seconds: 0.5, ...(signal ? { signal } : {}) })));
  }
  return doc;
}

async function removeKeptFiles(plan: Plan, filePath: (name: string) => string): Promise<void> {
  const names = new Set(plan.steps.filter((s) => s.file !== undefined && s.spec.keepFile).map((s) => s.file!));
  for (const name of names) await rm(filePath(name), { force: true });
}

function temperatureOf(v: VolumeInfo | undefined): number | undefined {
  const t = diskOf(v)?.health?.temperatureC;
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

function testContext(before: number | undefined, after: number | undefined, machine: MachineLoad | undefined): ResultContext {
  const c: ResultContext = machine ? { machine } : {};
  if (before !== undefined || after !== undefined) {
    c.temperatureC = {};
    if (before !== undefined) c.temperatureC.before = before;
    if (after !== undefined) c.temperatureC.after = after;
  }
  return c;
}
