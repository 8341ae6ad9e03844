// The wizard's plan, run: for each format not yet done — re-check the disk is the one the user
// confirmed, erase it, make the format, mount it, run the tests, save every result the moment it
// exists, unmount — then leave the disk in the final format. The plan file is rewritten after
// every change, so an interruption loses only the format in progress, and `runPlan` on the same
// state resumes at the first format that is not done.
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortError, isAbortError } from '../engine.js';
import { DiskDialError } from '../errors.js';
import type { ResultDocument } from '../result.js';
import { runBenchmark, type RunBenchmarkOptions, type RunProgress } from '../runner.js';
import { sizeText } from '../report/metrics.js';
import type { EngineResult, EngineSpec } from '../engine-types.js';
import type { RunTestOptions } from '../engine.js';
import type { CommandRunner, WizardProvider } from './provider.js';
import type { PlanStore } from './plan-store.js';
import type { WizardProgressEvent } from '../../ipc/contract.js';
import type { FormatId, WizardDisk, WizardPlanState, WizardStage } from './types.js';

/** A progress event of the plan, as the IPC event carries it (without the job's id). */
export type PlanProgress = Omit<WizardProgressEvent, 'jobId'>;

export interface RunPlanOptions {
  state: WizardPlanState;
  provider: WizardProvider;
  run: CommandRunner;
  engine: (spec: EngineSpec, opts: RunTestOptions) => Promise<EngineResult>;
  plans: PlanStore;
  history: { save(doc: ResultDocument): Promise<unknown>; delete(ids: readonly string[]): Promise<unknown> };
  /** Where the plan mounts each format (a folder of its own, removed when the plan ends). */
  workDir: string;
  /** Is this mount point one the wizard made (so not "in use" by someone else)? */
  ownMount: (mountPoint: string) => boolean;
  signal: AbortSignal;
  onProgress?: (e: PlanProgress) => void;
  onFormat?: (e: { planId: string; format: FormatId; formatLabel: string; resultIds: string[] }) => void;
  /** Test hook: runs after a format's results are saved (a crash right there must lose nothing). */
  afterFormat?: (format: FormatId) => Promise<void> | void;
}

/** Re-lists the disks and checks the one at `device` is still the one confirmed: same size,
 *  model and serial, not the system's, no partition in use by anyone else. Returns it as it is now. */
export async function checkDisk(provider: WizardProvider & { listDisksWith?: (ctx: { includeInternal?: boolean; ownMount?: (m: string) => boolean }) => Promise<WizardDisk[]> }, state: WizardPlanState, ownMount: (m: string) => boolean): Promise<WizardDisk> {
  const { identity, device, allowInternal } = state.settings;
  const disks = provider.listDisksWith ? await provider.listDisksWith({ includeInternal: true, ownMount }) : await provider.listDisks({ includeInternal: true });
  const disk = disks.find((d) => d.path === device);
  const refuse = (why: string, code = 'ERR_DISK_CHANGED'): never => {
    throw new DiskDialError(`Stopped before erasing ${device}: ${why}`, { code });
  };
  if (!disk) return refuse('the disk is no longer there (unplugged?).', 'ERR_DISK_GONE');
  if (disk.sizeBytes !== identity.sizeBytes) return refuse(`its size changed from ${identity.sizeBytes} to ${disk.sizeBytes} bytes — is it the same disk?`);
  if ((identity.model ?? '') !== (disk.model ?? '')) return refuse(`its model changed from "${identity.model ?? 'none'}" to "${disk.model ?? 'none'}" — is it the same disk?`);
  if ((identity.serial ?? '') !== (disk.serial ?? '')) return refuse(`its serial number changed from "${identity.serial ?? 'none'}" to "${disk.serial ?? 'none'}" — is it the same disk?`);
  if (disk.system) return refuse(disk.reason ?? 'it holds the running system.', 'ERR_SYSTEM_DISK');
  if (disk.internal && !allowInternal) return refuse('it is an internal disk, and internal disks were not allowed.', 'ERR_INTERNAL_DISK');
  // Linux: a mounted partition is in use and the wizard will not pull it from under anyone.
  // macOS and Windows mount external volumes by themselves, and diskutil eraseDisk / Clear-Disk
  // unmount them as part of the erase (and fail if a file is open), so there a mount is not use.
  if (provider.platform === 'linux') {
    const inUse = disk.partitions.flatMap((p) => p.mountpoints.filter((m) => !ownMount(m)).map((m) => `${p.path} is mounted at ${m}`));
    if (inUse.length > 0) return refuse(`${inUse.join('; ')}. Unmount it first.`, 'ERR_DISK_IN_USE');
  }
  return disk;
}

function phaseOf(name: string): 'write' | 'read' | 'other' {
  return /write$/i.test(name) ? 'write' : /read$/i.test(name) ? 'read' : 'other';
}

/** Runs (or resumes) a plan; resolves with every result id it saved. */
export async function runPlan(o: RunPlanOptions): Promise<string[]> {
  const { state, signal } = o;
  const s = state.settings;
  const t0 = performance.now();
  const elapsed = (): number => (performance.now() - t0) / 1000;
  const formatCount = state.steps.length;
  let formatsRun = 0;
  const estimate = (index: number): number | undefined => (formatsRun === 0 ? undefined : Math.round((elapsed() / formatsRun) * (formatCount - index) + 15));
  const emit = (index: number, format: FormatId, formatLabel: string, stage: WizardStage, message: string, extra: Partial<PlanProgress> = {}): void => {
    const remainingSeconds = estimate(index);
    o.onProgress?.({ planId: state.id, formatIndex: index, formatCount, format, formatLabel, stage, message, elapsed: elapsed(), ...(remainingSeconds !== undefined ? { remainingSeconds } : {}), ...extra });
  };
  const save = (): Promise<void> => o.plans.save(state);
  const label = s.volumeLabel ?? 'DISKDIAL';
  let tested = 0; // batches of tests run in this call (the first one has no rest before it)

  state.status = 'running';
  state.pid = process.pid;
  await save();
  let current: (typeof state.steps)[number] | undefined;
  try {
    for (const [index, step] of state.steps.entries()) {
      if (step.status === 'done') continue;
      current = step;
      if (signal.aborted) throw new AbortError();
      // A format cut short is redone from its erase; what it saved before is not kept twice.
      if (step.resultIds.length > 0) {
        await o.history.delete(step.resultIds);
        step.resultIds = [];
      }
      step.status = 'running';
      step.startedAt = new Date().toISOString();
      delete step.error;
      await save();
      const say = (stage: WizardStage, message: string, extra?: Partial<PlanProgress>): void => emit(index, step.format, step.label, stage, message, extra);

      say('checking', `Checking ${s.device} is still the disk you confirmed…`);
      const disk = await checkDisk(o.provider, state, o.ownMount);
      say('erasing', `Erasing ${disk.name} (${s.device}) and making ${step.label}…`);
      const volume = await o.provider.prepare(disk, step.format, { label, run: o.run, workDir: o.workDir });
      try {
        const sizes = s.plan === 'quick' ? s.sizes : [undefined];
        for (const size of sizes) {
          if (tested > 0 && s.restSeconds > 0) {
            for (let left = Math.round(s.restSeconds); left >= 0; left--) {
              say('resting', `Resting ${Math.round(s.restSeconds / 60) || s.restSeconds + ' s'}${s.restSeconds >= 60 ? ' min' : ''} so the drive's cache can drain…`, { remaining: left });
              if (left > 0) await sleep(1000, undefined, { signal }).catch((err: unknown) => {
                throw isAbortError(err) ? new AbortError() : err;
              });
            }
          }
          tested++;
          const what = s.plan === 'quick' ? `Quick Test at ${sizeText(size!)}` : s.plan === 'cdm' ? 'the CrystalDiskMark grid' : 'the many-file test';
          const options: RunBenchmarkOptions = {
            target: volume.testPath,
            test: s.plan,
            runs: s.runs,
            restSeconds: s.restSeconds,
            engine: o.engine,
            signal,
            handleSignals: false,
            label: s.plan === 'quick' && s.sizes.length > 1 ? `${step.label} · ${sizeText(size!)}` : step.label,
            onProgress: (p: RunProgress) =>
              say('testing', `Testing ${step.label}: ${what}, run ${p.run} of ${p.runs}`, {
                test: {
                  name: p.testName,
                  ...(size !== undefined ? { sizeBytes: size } : {}),
                  run: p.run,
                  runs: p.runs,
                  phase: phaseOf(p.testName),
                  instMBps: p.instMBps,
                  avgMBps: p.avgMBps,
                  bytesDone: p.bytesDone,
                  bytesTotal: p.bytesTotal,
                },
              }),
            onPause: (e) => say('resting', `Resting before run ${e.run} of ${e.runs} so the drive's cache can drain…`, { remaining: e.remaining }),
          };
          if (size !== undefined) options.size = size;
          if (s.plan === 'files') options.preset = 'quick';
          const doc = await runBenchmark(options);
          doc.campaign = { planId: state.id, format: step.format, formatLabel: step.label };
          if (step.format.includes('encrypt') || step.format.endsWith('-luks') || step.format === 'ext4-fscrypt' || step.format === 'ntfs-bitlocker') doc.target.encrypted = true;
          await o.history.save(doc);
          step.resultIds.push(doc.id);
          await save();
        }
      } finally {
        say('unmounting', `Unmounting ${step.label}…`);
        await volume.release();
      }
      step.status = 'done';
      step.finishedAt = new Date().toISOString();
      await save();
      formatsRun++;
      o.onFormat?.({ planId: state.id, format: step.format, formatLabel: step.label, resultIds: [...step.resultIds] });
      await o.afterFormat?.(step.format);
    }
    current = undefined;
    if (state.final.status !== 'done') {
      if (signal.aborted) throw new AbortError();
      const say = (stage: WizardStage, message: string): void => emit(formatCount, state.final.format, state.final.label, stage, message);
      state.final.status = 'running';
      await save();
      say('checking', `Checking ${s.device} is still the disk you confirmed…`);
      const disk = await checkDisk(o.provider, state, o.ownMount);
      say('finishing', `Leaving ${disk.name} as ${state.final.label}…`);
      const volume = await o.provider.prepare(disk, state.final.format, { label, run: o.run, workDir: o.workDir });
      await volume.release();
      state.final.status = 'done';
    }
    state.status = 'done';
    await save();
    return state.steps.flatMap((x) => x.resultIds);
  } catch (err) {
    const aborted = signal.aborted || isAbortError(err);
    const message = err instanceof Error ? err.message : String(err);
    if (current) {
      current.status = aborted ? 'pending' : 'failed';
      if (!aborted) current.error = message;
    } else if (state.final.status === 'running') {
      state.final.status = aborted ? 'pending' : 'failed';
      if (!aborted) state.final.error = message;
    }
    state.status = aborted ? 'stopped' : 'failed';
    await save().catch(() => undefined);
    throw err;
  }
}
