// The format-and-compare wizard as a job: checks what the user confirmed against the disk as it
// is now (the name typed, the identity, the safety rules, the formats this machine can make),
// writes the plan file, runs it (core/wizard/run-plan.ts) with events for the one window that
// started it, and lists and resumes plans an earlier session did not finish.
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

import { DiskDialError, inputError } from '../model/errors.js';
import { defaultDataDir } from '../core/history.js';
import type { ResultDocument } from '../model/result.js';
import { createCommandRunner, defaultElevation } from '../core/exec/commands.js';
import { PlanStore } from '../core/wizard/plan-store.js';
import type { CommandRunner, WizardProvider } from '../core/wizard/provider.js';
import { identityBasis, identityChange, identityOf, identityStrength, type IdentityStrength } from '../model/wizard/identity.js';
import { checkDisk, runPlan } from '../core/wizard/run-plan.js';
import type { FormatInfo, WizardDisk, WizardPlanState } from '../model/wizard/types.js';
import type { EventSink } from '../model/event-map.js';
import { platformProvider } from '../core/wizard/platform.js';
import type { HistoryService } from './history.js';
import { SlotService, type JobRun, type SlotServiceDeps } from './job-slot.js';
import type { EngineFn, HashFn } from '../core/engine.js';
import type { WizardDoneEvent } from '../model/events.js';
import type { WizardSettings } from '../model/settings.js';
import type { CipherSection } from '../model/cipher/types.js';
import { measureCipher } from '../core/cipher-run.js';
import type { DeviceTarget } from '../core/result.js';

export interface WizardDeps extends Pick<SlotServiceDeps, 'slot'> {
  provider: WizardProvider;
  engine: EngineFn;
  /** The hash plan's hasher (default: the in-process engine's). */
  hashEngine?: HashFn;
  history: { save(doc: ResultDocument): Promise<unknown>; delete(ids: readonly string[]): Promise<unknown> };
  plans?: PlanStore;
  /** Runs the format commands (default: argv, with pkexec when not root). */
  run?: CommandRunner;
  /** Where plans mount their formats (default $DISKDIAL_HOME/wizard). */
  workRoot?: string;
  /** The cipher ceiling for plans with an encrypted format (default: core/cipher-run.ts). */
  cipher?: (signal: AbortSignal) => Promise<CipherSection>;
  /** Test hook, passed to runPlan. */
  afterFormat?: (format: string) => Promise<void> | void;
  /** The desktop app's own native confirmation, shown by main before a plan's first erase
   *  (model, size, serial, "will be erased"); resolves true only when the person pressed Erase. */
  authorizeErase?: (disk: WizardDisk, what?: string) => Promise<boolean>;
  /** Why this front door may not erase at all (browser mode without --allow-erase): start and
   *  resume are refused with it, and so is any erase. */
  eraseRefused?: string;
}

export class WizardService extends SlotService<WizardPlanState> {
  readonly plans: PlanStore;
  readonly #deps: WizardDeps;
  readonly #workRoot: string;
  #activePlan: string | undefined;

  constructor(deps: WizardDeps) {
    super(deps.slot ? { slot: deps.slot } : {});
    this.#deps = deps;
    this.plans = deps.plans ?? new PlanStore();
    this.#workRoot = deps.workRoot ?? path.join(defaultDataDir(), 'wizard');
  }

  /** Mount points under the wizard's own folder are its own, not "in use" by someone else. */
  readonly ownMount = (m: string): boolean => m === this.#workRoot || m.startsWith(`${this.#workRoot}${path.sep}`);

  /** A plan's own folder, and whether a mount point is inside it (proven by path and plan id). */
  #workDir(planId: string): string {
    return path.join(this.#workRoot, planId);
  }
  #ownMountOf(planId: string): (m: string) => boolean {
    const dir = this.#workDir(planId);
    return (m) => m.startsWith(`${dir}${path.sep}`);
  }

  #assertMayErase(): void {
    if (this.#deps.eraseRefused) throw new DiskDialError(this.#deps.eraseRefused, { code: 'ERR_ERASE_NOT_ALLOWED' });
  }

  listDisks(includeInternal = false): Promise<WizardDisk[]> {
    const p = this.#deps.provider as WizardProvider & { listDisksWith?: (ctx: object) => Promise<WizardDisk[]> };
    return p.listDisksWith ? p.listDisksWith({ includeInternal, ownMount: this.ownMount }) : p.listDisks({ includeInternal });
  }

  formats(): Promise<FormatInfo[]> {
    return this.#deps.provider.formats();
  }

  /** Checks a new plan against the disk as it is now and saves it; `start` runs it. */
  async begin(settings: WizardSettings): Promise<WizardPlanState> {
    this.#assertMayErase();
    const formats = await this.formats();
    const info = (id: string): FormatInfo => {
      const f = formats.find((x) => x.id === id);
      if (!f) throw inputError(`${id} is not a format DiskDial can make on this system.`, 'ERR_UNSUPPORTED_FORMAT');
      if (!f.available)
        throw inputError(`${f.label} cannot be made on this machine: ${f.reason ?? 'not available'}`, 'ERR_UNSUPPORTED_FORMAT');
      return f;
    };
    const steps = settings.formats.map((id) => info(id));
    if (new Set(settings.formats).size !== settings.formats.length) throw inputError('Each format can be chosen once.', 'ERR_INVALID_PLAN');
    const final = info(settings.finalFormat);
    if (final.encrypted) {
      throw inputError(
        `The wizard leaves the disk unencrypted: choose another format to leave it in, and encrypt it afterwards with your own passphrase (${final.label} would need a passphrase nobody has).`,
        'ERR_INVALID_PLAN',
      );
    }
    const now = new Date().toISOString();
    const state: WizardPlanState = {
      schema: 1,
      id: randomUUID(),
      createdAt: now,
      updatedAt: now,
      settings: { ...settings, identity: await this.#fullIdentity(settings) },
      steps: steps.map((f) => ({ format: f.id, label: f.label, status: 'pending', resultIds: [] })),
      final: { format: final.id, label: final.label, status: 'pending' },
      status: 'stopped',
    };
    await this.#confirm(state, settings.confirmName);
    await this.plans.save(state);
    return state;
  }

  /** Loads an unfinished plan to run again; the disk's name is typed again. */
  async resume(planId: string, confirmName: string): Promise<WizardPlanState> {
    this.#assertMayErase();
    const state = await this.plans.get(planId);
    if (!state) throw new DiskDialError(`No unfinished plan has the id "${planId}".`, { code: 'ENOENT', category: 'input' });
    if (state.status === 'done') throw inputError('That plan has finished; its report is in History.', 'ERR_PLAN_DONE');
    await this.#confirm(state, confirmName);
    return state;
  }

  /** Plans an earlier session (or Stop) left unfinished, newest first. */
  unfinished(): Promise<WizardPlanState[]> {
    return this.plans.unfinished(this.#activePlan);
  }

  async discard(planId: string): Promise<boolean> {
    if (planId === this.#activePlan) throw new DiskDialError('That plan is running: stop it first.', { code: 'ERR_BUSY' });
    return this.plans.delete(planId);
  }

  /** The identity the user confirmed (what their screen showed) checked against the disk as it
   *  is now, then completed with everything else the OS gives (WWN, by-id names, the image's inode…). */
  async #fullIdentity(settings: WizardSettings): Promise<WizardSettings['identity']> {
    const disk = (await this.listDisks(true)).find((d) => d.path === settings.device);
    if (!disk)
      throw new DiskDialError(`Stopped before erasing ${settings.device}: the disk is no longer there (unplugged?).`, {
        code: 'ERR_DISK_GONE',
      });
    const now = identityOf(disk);
    const seen = settings.identity;
    const changed = identityChange({ ...now, ...seen, path: now.path }, now);
    if (changed || seen.path !== disk.path)
      throw new DiskDialError(`Stopped before erasing ${settings.device}: ${changed ?? 'it is another disk'} — is it the same disk?`, {
        code: 'ERR_DISK_CHANGED',
      });
    return now;
  }

  /** The re-listing a resume shows: the disk at the plan's path as it is now (absent: gone), and
   *  how strong the plan's identity is (a weak one is confirmed by name, looking at this). */
  async relist(planId: string): Promise<{ plan: WizardPlanState; disk?: WizardDisk; strength: IdentityStrength; basis: string }> {
    const plan = await this.plans.get(planId);
    if (!plan) throw new DiskDialError(`No unfinished plan has the id "${planId}".`, { code: 'ENOENT', category: 'input' });
    const p = this.#deps.provider;
    const disks = p.listDisksWith
      ? await p.listDisksWith({ includeInternal: true, ownMount: this.#ownMountOf(plan.id) })
      : await p.listDisks({ includeInternal: true });
    const disk = disks.find((d) => d.path === plan.settings.device);
    return { plan, ...(disk ? { disk } : {}), strength: identityStrength(plan), basis: identityBasis(plan) };
  }

  /** A whole disk as listed now that the wizard would offer to erase (the system's, an internal
   *  one without `allowInternal`, a read-only or in-use one are refused, in the listing's words). */
  async offeredDisk(device: string, allowInternal = false): Promise<WizardDisk> {
    const disk = (await this.listDisks(allowInternal)).find((d) => d.path === device);
    if (!disk) throw inputError(`${device} is not a whole disk (see diskdial disks)`, 'ERR_NOT_A_DISK');
    if (!disk.offered) throw inputError(`${disk.path} cannot be erased: ${disk.reason ?? 'not offered'}`, 'ERR_DISK_NOT_OFFERED');
    return disk;
  }

  /** A whole disk to be overwritten by something other than a plan (a kind's whole-disk face):
   *  offered, proven and confirmed by name under the same rules and words as a plan's
   *  erase, just before it starts. Returns the disk as it is now. */
  async proveForErase(device: string, confirmName: string, allowInternal = false): Promise<WizardDisk> {
    this.#assertMayErase();
    const listed = await this.offeredDisk(device, allowInternal);
    const state = { settings: { device, allowInternal, identity: identityOf(listed) } };
    const disk = await this.#confirm(state, confirmName, () => false);
    // The desktop app asks with its own native dialog, as before a plan's first erase.
    if (!this.#deps.authorizeErase) return disk;
    if (!(await this.#deps.authorizeErase(disk, 'Everything on this disk will be overwritten, from its first byte to its last.')))
      throw new DiskDialError(`Nothing was erased: erasing ${disk.name} (${device}) was not confirmed.`, { code: 'ERR_ERASE_DECLINED' });
    // The question may have stayed open for minutes: the disk is checked again after the answer.
    return this.#confirm(state, confirmName, () => false);
  }

  /** proveForErase, as what the benchmark runner writes to (a kind's whole-disk face). */
  async proveDevice(device: string, confirmName: string, allowInternal = false): Promise<DeviceTarget> {
    const disk = await this.proveForErase(device, confirmName, allowInternal);
    return {
      path: disk.path,
      sizeBytes: disk.sizeBytes,
      name: disk.name,
      bus: disk.bus,
      ...(disk.model ? { model: disk.model } : {}),
      ...(disk.serial ? { serial: disk.serial } : {}),
    };
  }

  /** The disk named in the plan, checked as the runner checks it before each erase, and its
   *  name as the user must type it. */
  async #confirm(
    state: Parameters<typeof checkDisk>[1] & { id?: string },
    confirmName: string,
    ownMount = this.#ownMountOf(state.id ?? ''),
  ): Promise<WizardDisk> {
    const disk = await checkDisk(this.#deps.provider, state, ownMount);
    if (confirmName !== disk.name) {
      throw inputError(
        `The name typed ("${confirmName.slice(0, 80)}") is not the disk's name ("${disk.name}"): nothing was erased.`,
        'ERR_CONFIRM_MISMATCH',
      );
    }
    return disk;
  }

  /** A new plan from a front door: busy first, then the checks of `begin`, then it runs. */
  async request(settings: WizardSettings, sink: EventSink): Promise<{ jobId: string; planId: string }> {
    this.slot.assertIdle();
    const state = await this.begin(settings);
    return { ...this.start(state, sink), planId: state.id };
  }

  /** An unfinished plan resumed from a front door (the disk's name typed again). */
  async requestResume(planId: string, confirmName: string, sink: EventSink): Promise<{ jobId: string; planId: string }> {
    this.slot.assertIdle();
    const state = await this.resume(planId, confirmName);
    return { ...this.start(state, sink), planId: state.id };
  }

  protected async run(run: JobRun, state: WizardPlanState): Promise<void> {
    const { job, emit, signal } = run;
    const { id: jobId, sink, controller } = job;
    const planId = state.id;
    this.#activePlan = planId;
    const workDir = this.#workDir(planId);
    const finish = (done: Omit<WizardDoneEvent, 'jobId' | 'planId'>): void => {
      this.#activePlan = undefined;
      run.finish('wizard.done', { jobId, planId, ...done });
    };
    try {
      await fsp.mkdir(workDir, { recursive: true, mode: 0o700 });
      const resultIds = await runPlan({
        state,
        provider: this.#deps.provider,
        run: this.#deps.run ?? createCommandRunner({ elevate: defaultElevation() }),
        engine: this.#deps.engine,
        ...(this.#deps.hashEngine ? { hashEngine: this.#deps.hashEngine } : {}),
        plans: this.plans,
        history: this.#deps.history,
        workDir,
        // Only this plan's own mounts are not "in use"; another plan's are someone else's.
        ownMount: this.#ownMountOf(planId),
        signal,
        authorizeErase: async (disk) => {
          this.#assertMayErase();
          return this.#deps.authorizeErase ? this.#deps.authorizeErase(disk) : true;
        },
        onProgress: (p) => {
          // Nothing runs unattended: a window that went away stops the plan (after unmounting).
          if (!sink.alive) controller.abort(new Error('nobody is watching this plan'));
          emit('wizard.progress', { jobId, ...p });
        },
        onFormat: (f) => emit('wizard.format', { jobId, ...f }),
        cipher: () => (this.#deps.cipher ?? ((sig: AbortSignal) => measureCipher({ signal: sig })))(signal),
        ...(this.#deps.afterFormat ? { afterFormat: this.#deps.afterFormat } : {}),
      });
      await fsp.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      finish({ outcome: 'finished', resultIds });
    } catch (err) {
      await fsp.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      const resultIds = state.steps.filter((s) => s.status === 'done').flatMap((s) => s.resultIds);
      finish({ ...run.ended(err), resultIds });
    }
  }

  /** Starts a checked plan (begin or resume) and returns at once. */
  override start(state: WizardPlanState, sink: EventSink): { jobId: string } {
    return super.start(state, sink);
  }
}

/** The dispatcher's `wizard` dependency for this platform: {} where there is no provider. */
export async function wizardService(
  engine: EngineFn,
  history: HistoryService,
  erase: Pick<WizardDeps, 'authorizeErase' | 'eraseRefused'> = {},
): Promise<{ wizard?: WizardService }> {
  const provider = await platformProvider();
  if (!provider) return {};
  return {
    wizard: new WizardService({
      provider,
      engine,
      history: { save: (d) => history.store.save(d), delete: (ids) => history.store.delete(ids) },
      ...erase,
    }),
  };
}
