// The format-and-compare wizard as a job: checks what the user confirmed against the disk as it
// is now (the name typed, the identity, the safety rules, the formats this machine can make),
// writes the plan file, runs it (core/wizard/run-plan.ts) with events for the one window that
// started it, and lists and resumes plans an earlier session did not finish.
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isAbortError } from '../core/engine.js';
import { DiskDialError, inputError, toPlainError } from '../core/errors.js';
import { defaultDataDir } from '../core/history.js';
import type { ResultDocument } from '../core/result.js';
import { createCommandRunner, defaultElevation } from '../core/wizard/commands.js';
import { PlanStore } from '../core/wizard/plan-store.js';
import type { CommandRunner, WizardProvider } from '../core/wizard/provider.js';
import { checkDisk, runPlan } from '../core/wizard/run-plan.js';
import type { FormatInfo, WizardDisk, WizardPlanState } from '../core/wizard/types.js';
import type { EventSink, WizardDoneEvent, WizardSettings } from '../ipc/contract.js';
import { platformProvider } from '../core/wizard/platform.js';
import type { HistoryService } from './history.js';
import { emitterFor, SlotService, type Job } from './job-slot.js';
import type { EngineFn } from './quick-test.js';

export interface WizardDeps {
  provider: WizardProvider;
  engine: EngineFn;
  history: { save(doc: ResultDocument): Promise<unknown>; delete(ids: readonly string[]): Promise<unknown> };
  plans?: PlanStore;
  /** Runs the format commands (default: argv, with pkexec when not root). */
  run?: CommandRunner;
  /** Where plans mount their formats (default $DISKDIAL_HOME/wizard). */
  workRoot?: string;
  /** Test hook, passed to runPlan. */
  afterFormat?: (format: string) => Promise<void> | void;
}

export class WizardService extends SlotService<WizardPlanState> {
  readonly plans: PlanStore;
  readonly #deps: WizardDeps;
  readonly #workRoot: string;
  #activePlan: string | undefined;

  constructor(deps: WizardDeps) {
    super();
    this.#deps = deps;
    this.plans = deps.plans ?? new PlanStore();
    this.#workRoot = deps.workRoot ?? path.join(defaultDataDir(), 'wizard');
  }

  /** Mount points under the wizard's own folder are its own, not "in use" by someone else. */
  readonly ownMount = (m: string): boolean => m === this.#workRoot || m.startsWith(`${this.#workRoot}${path.sep}`);

  listDisks(includeInternal = false): Promise<WizardDisk[]> {
    const p = this.#deps.provider as WizardProvider & { listDisksWith?: (ctx: object) => Promise<WizardDisk[]> };
    return p.listDisksWith ? p.listDisksWith({ includeInternal, ownMount: this.ownMount }) : p.listDisks({ includeInternal });
  }

  formats(): Promise<FormatInfo[]> {
    return this.#deps.provider.formats();
  }

  /** Checks a new plan against the disk as it is now and saves it; `start` runs it. */
  async begin(settings: WizardSettings): Promise<WizardPlanState> {
    const formats = await this.formats();
    const info = (id: string): FormatInfo => {
      const f = formats.find((x) => x.id === id);
      if (!f) throw inputError(`${id} is not a format DiskDial can make on this system.`, 'ERR_UNSUPPORTED_FORMAT');
      if (!f.available) throw inputError(`${f.label} cannot be made on this machine: ${f.reason ?? 'not available'}`, 'ERR_UNSUPPORTED_FORMAT');
      return f;
    };
    const steps = settings.formats.map((id) => info(id));
    if (new Set(settings.formats).size !== settings.formats.length) throw inputError('Each format can be chosen once.', 'ERR_INVALID_PLAN');
    const final = info(settings.finalFormat);
    if (final.encrypted) {
      throw inputError(`The wizard leaves the disk unencrypted: choose another format to leave it in, and encrypt it afterwards with your own passphrase (${final.label} would need a passphrase nobody has).`, 'ERR_INVALID_PLAN');
    }
    const now = new Date().toISOString();
    const state: WizardPlanState = {
      schema: 1,
      id: randomUUID(),
      createdAt: now,
      updatedAt: now,
      settings: { ...settings },
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

  /** The disk named in the plan, checked as the runner checks it before each erase, and its
   *  name as the user must type it. */
  async #confirm(state: WizardPlanState, confirmName: string): Promise<void> {
    const disk = await checkDisk(this.#deps.provider, state, this.ownMount);
    if (confirmName !== disk.name) {
      throw inputError(`The name typed ("${confirmName.slice(0, 80)}") is not the disk's name ("${disk.name}"): nothing was erased.`, 'ERR_CONFIRM_MISMATCH');
    }
  }

  protected async run(job: Job, state: WizardPlanState): Promise<void> {
    const { id: jobId, sink, controller } = job;
    const emit = emitterFor(sink);
    const planId = state.id;
    this.#activePlan = planId;
    const workDir = path.join(this.#workRoot, planId);
    const finish = (done: Omit<WizardDoneEvent, 'jobId' | 'planId'>): void => {
      this.#activePlan = undefined;
      this.release(job);
      emit('wizard.done', { jobId, planId, ...done });
    };
    try {
      await fsp.mkdir(workDir, { recursive: true, mode: 0o700 });
      const resultIds = await runPlan({
        state,
        provider: this.#deps.provider,
        run: this.#deps.run ?? createCommandRunner({ elevate: defaultElevation() }),
        engine: this.#deps.engine,
        plans: this.plans,
        history: this.#deps.history,
        workDir,
        ownMount: this.ownMount,
        signal: controller.signal,
        onProgress: (p) => {
          // Nothing runs unattended: a window that went away stops the plan (after unmounting).
          if (!sink.alive) controller.abort(new Error('nobody is watching this plan'));
          emit('wizard.progress', { jobId, ...p });
        },
        onFormat: (f) => emit('wizard.format', { jobId, ...f }),
        ...(this.#deps.afterFormat ? { afterFormat: this.#deps.afterFormat } : {}),
      });
      await fsp.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      finish({ outcome: 'finished', resultIds });
    } catch (err) {
      await fsp.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      const resultIds = state.steps.filter((s) => s.status === 'done').flatMap((s) => s.resultIds);
      if (isAbortError(err) || controller.signal.aborted) finish({ outcome: 'stopped', resultIds });
      else {
        const plain = toPlainError(err);
        finish({ outcome: 'failed', resultIds, error: { code: plain.code, message: plain.message } });
      }
    }
  }

  /** Starts a checked plan (begin or resume) and returns at once. */
  override start(state: WizardPlanState, sink: EventSink): { jobId: string } {
    return super.start(state, sink);
  }
}

/** The dispatcher's `wizard` dependency for this platform: {} where there is no provider. */
export async function wizardService(engine: EngineFn, history: HistoryService): Promise<{ wizard?: WizardService }> {
  const provider = await platformProvider();
  if (!provider) return {};
  return { wizard: new WizardService({ provider, engine, history: { save: (d) => history.store.save(d), delete: (ids) => history.store.delete(ids) } }) };
}
