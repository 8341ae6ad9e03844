// The wizard's plan, run: for each format not yet done — re-check the disk is the one the user
// confirmed, erase it, make the format, mount it, run the tests, save every result the moment it
// exists, unmount — then leave the disk in the final format. The plan file is rewritten after
// every change, so an interruption loses only the format in progress, and `runPlan` on the same
// state resumes at the first format that is not done.
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { defaultReserve } from '../../model/fit.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortError, isAbortError, runHash } from '../engine.js';
import { DiskDialError } from '../../model/errors.js';
import type { ResultDocument } from '../../model/result.js';
import type { CipherSection } from '../../model/cipher/types.js';
import { runBenchmark, type RunBenchmarkOptions, type RunProgress } from '../runner.js';
import { sizeText } from '../../model/report/metrics.js';
import type { EngineFn, HashFn } from '../engine.js';
import { identityChange, identityOf } from '../../model/wizard/identity.js';
import type { CommandRunner, WizardProvider } from './provider.js';
import type { PlanStore } from './plan-store.js';

import type { FormatId, WizardDisk, WizardPlanKind, WizardPlanState, WizardStage } from '../../model/wizard/types.js';
import { wizardKindOf } from '../../model/wizard/plan-kinds.js';
import type { WizardKind } from '../../model/kinds/registry.js';
import { COMMON_LABEL } from '../../model/report/like-for-like.js';
import { runHashBenchmark } from '../hash-run.js';
import type { WizardProgressEvent } from '../../model/events.js';
import { rateOf, type RateProgress } from '../../model/progress.js';

/** A progress event of the plan, as the IPC event carries it (without the job's id). */
export type PlanProgress = Omit<WizardProgressEvent, 'jobId'>;

export interface RunPlanOptions {
  state: WizardPlanState;
  provider: WizardProvider;
  run: CommandRunner;
  engine: EngineFn;
  /** The hash plan's hasher (default: the in-process engine's). */
  hashEngine?: HashFn;
  plans: PlanStore;
  history: { save(doc: ResultDocument): Promise<unknown>; delete(ids: readonly string[]): Promise<unknown> };
  /** Where the plan mounts each format (a folder of its own, removed when the plan ends). */
  workDir: string;
  /** Is this mount point one the wizard made (so not "in use" by someone else)? */
  ownMount: (mountPoint: string) => boolean;
  signal: AbortSignal;
  onProgress?: (e: PlanProgress) => void;
  onFormat?: (e: { planId: string; format: FormatId; formatLabel: string; resultIds: string[] }) => void;
  /** Measures the cipher ceiling (core/cipher-run.ts); called once per plan, at its first
   *  encrypted format, and stored on every encrypted format's results. */
  cipher?: () => Promise<CipherSection>;
  /** Test hook: runs after a format's results are saved (a crash right there must lose nothing). */
  afterFormat?: (format: FormatId) => Promise<void> | void;
  /** Asked once, right before this run's first erase, with the disk as just checked (the desktop
   *  app: main's own native confirmation). Resolves false, or rejects, and nothing is erased. */
  authorizeErase?: (disk: WizardDisk) => Promise<boolean>;
}

/** Re-lists the disks and checks the one at `device` is still the one confirmed: the same
 *  identity (identity.ts: everything the OS gives), the partition table the plan wrote (once it
 *  wrote one), not the system's, not in use by anyone else. Returns it as it is now. */
export async function checkDisk(
  provider: WizardProvider,
  state: { settings: Pick<WizardPlanState['settings'], 'identity' | 'device' | 'allowInternal'>; ptuuid?: WizardPlanState['ptuuid'] },
  ownMount: (m: string) => boolean,
): Promise<WizardDisk> {
  const { identity, device, allowInternal } = state.settings;
  const disks = provider.listDisksWith
    ? await provider.listDisksWith({ includeInternal: true, ownMount })
    : await provider.listDisks({ includeInternal: true });
  const disk = disks.find((d) => d.path === device);
  const refuse = (why: string, code = 'ERR_DISK_CHANGED'): never => {
    throw new DiskDialError(`Stopped before erasing ${device}: ${why}`, { code });
  };
  if (!disk) return refuse('the disk is no longer there (unplugged?).', 'ERR_DISK_GONE');
  const changed = identityChange(identity, identityOf(disk));
  if (changed) return refuse(`${changed} — is it the same disk?`);
  if (disk.system) return refuse(disk.reason ?? 'it holds the running system.', 'ERR_SYSTEM_DISK');
  if (disk.internal && !allowInternal) return refuse('it is an internal disk, and internal disks were not allowed.', 'ERR_INTERNAL_DISK');
  // Linux: in use by anyone else (mounted, a member of a mounted Btrfs, RAID, LVM, swap) and the
  // wizard will not pull it from under them. macOS and Windows mount external volumes by
  // themselves, and diskutil eraseDisk / Clear-Disk unmount them as part of the erase (and fail
  // if a file is open), so there a mount is not use.
  if (provider.platform === 'linux' && disk.inUse && disk.inUse.length > 0) {
    const onlyMounts = disk.inUse.every((r) => / is mounted at /.test(r));
    return refuse(`${disk.inUse.join('; ')}. ${onlyMounts ? 'Unmount it first.' : 'Stop using it first.'}`, 'ERR_DISK_IN_USE');
  }
  const pt = state.ptuuid;
  if (pt?.written && provider.readPtuuid) {
    const now = await provider.readPtuuid(disk);
    // No table at all is what a crash between the wipe and the new table leaves.
    const crashedMidErase = pt.erasing === true && now === undefined;
    if (now !== pt.value.toLowerCase() && !crashedMidErase) {
      return refuse(
        `its partition table is not the one DiskDial wrote (${now ? `it has id ${now}` : 'it has none'}; DiskDial wrote ${pt.value}) — is it the same disk?`,
      );
    }
  }
  return disk;
}

/** Plans that run at each of the plan's sizes (a stress size, or the hash test's file). */
const SIZED: ReadonlySet<string> = new Set(['quick', 'write', 'hash']);

/** What a plan runs, inside "Testing ext4: …". */
function planWhat(plan: WizardPlanKind, size: number | undefined): string {
  const at = size !== undefined ? ` at ${sizeText(size)}` : '';
  const words: Record<Exclude<WizardPlanKind, WizardKind>, string> = {
    quick: `Quick Test${at}`,
    cdm: 'the CrystalDiskMark grid',
    files: 'the many-file test',
    write: `write only${at}`,
    hash: `the Hash test${at}`,
  };
  return wizardKindOf(plan)?.wizard.what ?? words[plan as keyof typeof words];
}

function isEncryptedFormat(format: FormatId): boolean {
  return format.includes('encrypt') || format.endsWith('-luks') || format === 'ext4-fscrypt' || format === 'ntfs-bitlocker';
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
  const estimate = (index: number): number | undefined =>
    formatsRun === 0 ? undefined : Math.round((elapsed() / formatsRun) * (formatCount - index) + 15);
  const emit = (
    index: number,
    format: FormatId,
    formatLabel: string,
    stage: WizardStage,
    message: string,
    extra: Partial<PlanProgress> = {},
  ): void => {
    const remainingSeconds = estimate(index);
    o.onProgress?.({
      planId: state.id,
      formatIndex: index,
      formatCount,
      format,
      formatLabel,
      stage,
      message,
      elapsed: elapsed(),
      ...(remainingSeconds !== undefined ? { remainingSeconds } : {}),
      ...extra,
    });
  };
  const save = (): Promise<void> => o.plans.save(state);
  const label = s.volumeLabel ?? 'DISKDIAL';
  let cipher: CipherSection | undefined;
  let tested = 0; // batches of tests run in this call (the first one has no rest before it)
  let filesRoom: number | undefined; // the many-file set's room, fixed by the first format

  state.status = 'running';
  state.pid = process.pid;
  // One partition-table id for the whole plan: written at every erase, read back before the next.
  state.ptuuid ??= { value: randomUUID(), written: false };
  const ptuuid = state.ptuuid;
  await save();
  let current: (typeof state.steps)[number] | undefined;
  let authorized = false;
  const prepareOptions = {
    label,
    run: o.run,
    workDir: o.workDir,
    ptuuid: ptuuid.value,
    onErase: async (phase: 'start' | 'table-written'): Promise<void> => {
      if (phase === 'start') ptuuid.erasing = true;
      else {
        ptuuid.written = true;
        delete ptuuid.erasing;
      }
      await save();
    },
  };
  // Checks the disk, then (the first time in this run) asks before erasing it.
  const checkAndAuthorize = async (): Promise<WizardDisk> => {
    const disk = await checkDisk(o.provider, state, o.ownMount);
    if (authorized || !o.authorizeErase) {
      authorized = true;
      return disk;
    }
    if (!(await o.authorizeErase(disk)))
      throw new DiskDialError(`Nothing was erased: erasing ${disk.name} (${s.device}) was not confirmed.`, { code: 'ERR_ERASE_DECLINED' });
    if (signal.aborted) throw new AbortError();
    authorized = true;
    // The question may have stayed open for minutes: the disk is checked again after the answer.
    return checkDisk(o.provider, state, o.ownMount);
  };
  try {
    // What a plan that died left behind (its mounts, an unlocked folder): only its own.
    const reclaimed = o.provider.reclaim ? await o.provider.reclaim(o.workDir, o.run) : [];
    if (reclaimed.length > 0)
      emit(0, state.steps[0]!.format, state.steps[0]!.label, 'unmounting', `Cleaned up after the interrupted run: ${reclaimed.join(', ')}`);
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
      const say = (stage: WizardStage, message: string, extra?: Partial<PlanProgress>): void =>
        emit(index, step.format, step.label, stage, message, extra);

      say('checking', `Checking ${s.device} is still the disk you confirmed…`);
      const disk = await checkAndAuthorize();
      say('erasing', `Erasing ${disk.name} (${s.device}) and making ${step.label}…`);
      const volume = await o.provider.prepare(disk, step.format, prepareOptions);
      try {
        const sizes = SIZED.has(s.plan) ? s.sizes : [undefined];
        for (const size of sizes) {
          // The plan's own pass, then (when asked) the common-mode pass: the same test through
          // the page cache, flushed — unless the own pass already was (fscrypt cannot do O_DIRECT).
          const own = await testOnce(size, undefined);
          if (s.commonMode && s.plan !== 'hash' && (own.cacheMode === 'direct' || own.cacheMode === 'nocache'))
            await testOnce(size, 'common');
        }
        async function testOnce(size: number | undefined, pass: 'common' | undefined): Promise<ResultDocument> {
          if (tested > 0 && s.restSeconds > 0) {
            for (let left = Math.round(s.restSeconds); left >= 0; left--) {
              say(
                'resting',
                `Resting ${Math.round(s.restSeconds / 60) || s.restSeconds + ' s'}${s.restSeconds >= 60 ? ' min' : ''} so the drive's cache can drain…`,
                { remaining: left },
              );
              if (left > 0)
                await sleep(1000, undefined, { signal }).catch((err: unknown) => {
                  throw isAbortError(err) ? new AbortError() : err;
                });
            }
          }
          tested++;
          const what = `${planWhat(s.plan, size)}${pass ? ' as applications see it (page cache, flushed)' : ''}`;
          const sizeLabel = sizes.length > 1 && size !== undefined ? ` · ${sizeText(size)}` : '';
          const label = `${step!.label}${sizeLabel}${pass ? COMMON_LABEL : ''}`;
          const test = (p: { testName: string; run: number; runs: number }, rate: RateProgress) => ({
            name: p.testName,
            ...(size !== undefined ? { sizeBytes: size } : {}),
            run: p.run,
            runs: p.runs,
            phase: phaseOf(p.testName),
            ...rate,
          });
          let doc: ResultDocument;
          if (s.plan === 'hash') {
            doc = await runHashBenchmark({
              generate: { target: volume.testPath, sizeBytes: size ?? 1e9 },
              label,
              signal,
              handleSignals: false,
              engine: { runHash: o.hashEngine ?? runHash, runTest: o.engine },
              onProgress: (p) =>
                say('testing', `Testing ${step!.label}: ${what}`, {
                  test: test({ testName: p.stage, run: 1, runs: 1 }, rateOf(p)),
                }),
            });
          } else {
            const options: RunBenchmarkOptions = {
              target: volume.testPath,
              test: s.plan === 'write' ? 'seq-write' : s.plan,
              runs: s.runs,
              restSeconds: s.restSeconds,
              engine: o.engine,
              signal,
              handleSignals: false,
              label,
              onProgress: (p: RunProgress) =>
                say('testing', `Testing ${step!.label}: ${what}, run ${p.run} of ${p.runs}`, { test: test(p, rateOf(p)) }),
              onPause: (e) =>
                say('resting', `Resting before run ${e.run} of ${e.runs} so the drive's cache can drain…`, { remaining: e.remaining }),
            };
            if (size !== undefined) options.size = size;
            if (pass === 'common') options.cache = 'buffered-flushed';
            if (s.plan === 'files') {
              options.preset = s.filesSet ?? 'quick';
              if (s.filesSet === 'custom' && s.files) options.files = { ...s.files };
              // A set scaled to the disk is the same set on every format: the room the first
              // format gave it is what the others get (their reserve made up to it).
              if (filesRoom !== undefined) {
                const st = await fsp.statfs(volume.testPath);
                const free = st.bavail * st.bsize;
                if (free - filesRoom >= defaultReserve(st.blocks * st.bsize)) options.reserveBytes = free - filesRoom;
              }
            }
            // The plan measures the cipher once for all its encrypted formats (below).
            doc = await runBenchmark({ ...options, cipher: null });
            if (s.plan === 'files' && filesRoom === undefined && typeof doc.settings.reserveBytes === 'number')
              filesRoom = doc.target.freeBytes - doc.settings.reserveBytes;
          }
          doc.campaign = { planId: state.id, format: step!.format, formatLabel: step!.label, ...(pass ? { pass } : {}) };
          // A result that measured its cipher itself (the Hash test, with the decryption it saw)
          // keeps it: its own verdict rests on it, and the report restates that verdict.
          if (isEncryptedFormat(step!.format) && !doc.cipher) {
            doc.target.encrypted = true;
            if (o.cipher && !cipher) {
              say('testing', 'Measuring how fast this machine encrypts (the cipher ceiling)…');
              cipher = await o.cipher();
            }
            if (cipher) doc.cipher = cipher;
          }
          await o.history.save(doc);
          step!.resultIds.push(doc.id);
          await save();
          return doc;
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
      const disk = await checkAndAuthorize();
      say('finishing', `Leaving ${disk.name} as ${state.final.label}…`);
      const volume = await o.provider.prepare(disk, state.final.format, prepareOptions);
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
