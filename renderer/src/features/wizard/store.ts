// The format-and-compare wizard's state: the step shown, what the user picked on each step (the
// disk, the formats and the one the disk is left in, the plan, the typed name), the one plan job
// (running, or the last one), the plans a crash or a Stop left unfinished, and the results the
// report shows. Bridge events arrive through onProgress/onFormat/onDone and are dropped unless
// they are our job's; those that come before the start's answer wait until it tells us our job
// id (lib/job-lifecycle.ts). Components read through narrow selectors and change state only
// through these actions.
import { useMemo } from 'react';
import { create } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { FormatId, FormatInfo, StepStatus, WizardDisk, WizardPlanState } from '@model/wizard/types';
import type { IpcResult } from '@ipc/contract';
import { getBridge } from '../../lib/bridge';
import { isBusy, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';
import { jobLifecycle, noJob } from '../../lib/job-lifecycle';
import { ipcErrorText } from '@model/events';
import { chooseScale, SCALE_LADDER } from '../../lib/dial-math';

import {
  DEFAULT_PLAN,
  defaultFinal,
  diskBlock,
  finalChoices,
  isInterrupted,
  planError,
  planFraction,
  planSizes,
  commonModeOn,
  customFiles,
  type PlanForm,
} from './wizard-model';
import type { WizardDoneEvent, WizardFormatEvent, WizardProgressEvent } from '@model/events';
import type { WizardSettings } from '@model/settings';

export type { JobStatus };

export type WizardStep = 'disk' | 'formats' | 'plan' | 'confirm' | 'run' | 'report';
export const STEPS: readonly WizardStep[] = ['disk', 'formats', 'plan', 'confirm', 'run', 'report'];

interface Pair {
  write: number;
  read: number;
}
const ZERO: Pair = { write: 0, read: 0 };

export interface RunFormat {
  id: FormatId;
  label: string;
  status: StepStatus;
}

/** The running plan, or the last one once it has ended. */
export interface WizardJob {
  /** What Start sent (or the resumed plan's settings). */
  settings: WizardSettings;
  /** The disk's name and line, for the words on the run screen. */
  diskName: string;
  /** Null until the core answers the start. */
  jobId: string | null;
  planId: string | null;
  formats: RunFormat[];
  final: { id: FormatId; label: string; status: StepStatus };
  progress: WizardProgressEvent | null;
  /** Share of the whole plan done, 0–1; never goes back. */
  fraction: number;
  /** Results saved so far (finished formats). */
  resultIds: string[];
  /** Set when the job has ended. */
  outcome: WizardDoneEvent['outcome'] | null;
  error: string | null;
  live: Pair;
  peak: Pair;
  /** Full scale of both dials, MB/s: grows, never shrinks during a plan. */
  scale: number;
}

type WizardEvent = WizardProgressEvent | WizardFormatEvent | WizardDoneEvent;
type Queued = QueuedEvent<'progress' | 'format' | 'done', WizardEvent>;

interface WizardState {
  step: WizardStep;
  disks: WizardDisk[] | null;
  disksLoading: boolean;
  disksError: string | null;
  includeInternal: boolean;
  diskPath: string | null;
  formats: FormatInfo[] | null;
  /** Whether this front door may erase (false: browser mode without --allow-erase); null until known. */
  canErase: boolean | null;
  formatsError: string | null;
  /** Ticked formats (sent in the order formats.list gives). */
  chosen: FormatId[];
  /** The format the disk is left in; null: the default (the first unencrypted one chosen). */
  finalFormat: FormatId | null;
  plan: PlanForm;
  confirmText: string;
  status: JobStatus;
  job: WizardJob | null;
  /** Why the last start or resume was refused, in plain words. */
  startError: string | null;
  queued: Queued[];
  plans: WizardPlanState[];
  plansError: string | null;
  /** Why the last resume was refused (shown in that plan's banner). */
  resumeError: { planId: string; message: string } | null;
  /** The disk at a plan's path as listed again when Resume is pressed (null: nothing there), shown
   *  beside what was confirmed before the name is typed again. */
  relisted: { planId: string; disk: WizardDisk | null; error?: string } | null;
  /** The results the report step shows. */
  reportIds: string[];

  loadDisks(): Promise<void>;
  setIncludeInternal(on: boolean): Promise<void>;
  selectDisk(path: string): void;
  loadFormats(): Promise<void>;
  toggleFormat(id: FormatId): void;
  setFinal(id: FormatId): void;
  setPlan(patch: Partial<PlanForm>): void;
  setConfirm(text: string): void;
  goTo(step: WizardStep): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  onProgress(e: WizardProgressEvent): void;
  onFormat(e: WizardFormatEvent): void;
  onDone(e: WizardDoneEvent): void;
  loadPlans(): Promise<void>;
  /** Lists the disks again (internal ones too) for a plan about to be resumed. */
  relist(planId: string): Promise<void>;
  resume(planId: string, confirmName: string): Promise<boolean>;
  discard(planId: string): Promise<void>;
  showReport(ids: string[]): void;
  /** Back to the first step for another plan (what was picked stays). */
  newPlan(): void;
  reset(): void;
}

const initial = {
  step: 'disk' as WizardStep,
  disks: null as WizardDisk[] | null,
  disksLoading: false,
  disksError: null as string | null,
  includeInternal: false,
  diskPath: null as string | null,
  formats: null as FormatInfo[] | null,
  canErase: null as boolean | null,
  formatsError: null as string | null,
  chosen: [] as FormatId[],
  finalFormat: null as FormatId | null,
  plan: DEFAULT_PLAN,
  confirmText: '',
  ...noJob<WizardJob, Queued>(),
  startError: null as string | null,
  plans: [] as WizardPlanState[],
  plansError: null as string | null,
  resumeError: null as { planId: string; message: string } | null,
  relisted: null as { planId: string; disk: WizardDisk | null; error?: string } | null,
  reportIds: [] as string[],
};

function newJob(settings: WizardSettings, diskName: string, formats: RunFormat[], finalLabel: string, resultIds: string[] = []): WizardJob {
  return {
    settings,
    diskName,
    jobId: null,
    planId: null,
    formats,
    final: { id: settings.finalFormat, label: finalLabel, status: 'pending' },
    progress: null,
    fraction: 0,
    resultIds,
    outcome: null,
    error: null,
    live: ZERO,
    peak: ZERO,
    scale: SCALE_LADDER[2],
  };
}

export const useWizardStore = create<WizardState>()((set, get) => {
  // The core may send progress before its answer to the start reaches us (lib/job-lifecycle.ts).
  const life = jobLifecycle<WizardState>(get, set, {
    stop: (jobId) => getBridge().stopWizard(jobId),
    events: (s) => ({ progress: s.onProgress, format: s.onFormat, done: s.onDone }),
  });

  /** Sends a start or a resume and follows the job it answers with; a refusal goes back to where
   *  the user was. */
  const follow = (job: WizardJob, send: () => Promise<IpcResult<{ jobId: string; planId: string }>>): Promise<boolean> => {
    const before = get().step;
    const previous = get().job;
    return life.start(job, send, {
      starting: { startError: null, step: 'run' },
      refused: (error) => ({ job: previous, startError: ipcErrorText(error), step: before }),
    });
  };

  return {
    ...initial,

    async loadDisks() {
      set({ disksLoading: true });
      const r = await getBridge().listDisks(get().includeInternal);
      if (!r.ok) {
        set({ disksLoading: false, disksError: ipcErrorText(r.error) });
        return;
      }
      const path = get().diskPath;
      // A disk that went away (unplugged, or internal once the switch is off) is no longer picked.
      set({ disks: r.value, disksLoading: false, disksError: null, diskPath: path && r.value.some((d) => d.path === path) ? path : null });
    },

    async setIncludeInternal(on) {
      set({ includeInternal: on });
      await get().loadDisks();
    },

    selectDisk(path) {
      if (get().diskPath !== path) set({ diskPath: path, confirmText: '' });
    },

    async loadFormats() {
      void getBridge()
        .appInfo()
        .then((info) => info.ok && set({ canErase: info.value.eraseRefused === undefined }));
      const r = await getBridge().listFormats();
      if (!r.ok) {
        set({ formatsError: ipcErrorText(r.error) });
        return;
      }
      const ids = new Set(r.value.filter((f) => f.available).map((f) => f.id));
      set({ formats: r.value, formatsError: null, chosen: get().chosen.filter((id) => ids.has(id)) });
    },

    toggleFormat(id) {
      const f = get().formats?.find((x) => x.id === id);
      if (!f?.available) return;
      const chosen = get().chosen;
      set({ chosen: chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id] });
    },

    setFinal(id) {
      set({ finalFormat: id });
    },

    setPlan(patch) {
      set({ plan: { ...get().plan, ...patch } });
    },

    setConfirm(text) {
      set({ confirmText: text });
    },

    goTo(step) {
      if (isBusy(get().status)) return;
      set({ step, startError: step === 'confirm' ? get().startError : null });
    },

    async start() {
      const s = get();
      if (isBusy(s.status)) return;
      const settings = selectSettings(s);
      const disk = selectDisk(s);
      if (!settings || !disk || settings.confirmName !== disk.name) return;
      const formats = (s.formats ?? []).filter((f) => settings.formats.includes(f.id));
      const runFormats = settings.formats.map((id) => ({
        id,
        label: formats.find((f) => f.id === id)?.label ?? id,
        status: 'pending' as StepStatus,
      }));
      const finalLabel = s.formats?.find((f) => f.id === settings.finalFormat)?.label ?? settings.finalFormat;
      await follow(newJob(settings, disk.name, runFormats, finalLabel), () => getBridge().startWizard(settings));
    },

    async stop() {
      await life.stop((e) => life.patchJob({ error: ipcErrorText(e) }));
    },

    onProgress(e) {
      life.route('progress', e, (job) => {
        const patch: Partial<WizardJob> = { progress: e, fraction: Math.max(job.fraction, planFraction(e, job.settings.sizes)) };
        const newFormat = job.progress === null || job.progress.formatIndex !== e.formatIndex;
        let live = newFormat ? ZERO : job.live;
        let peak = newFormat ? ZERO : job.peak;
        if (e.stage === 'testing' && e.test && e.test.phase !== 'other' && Number.isFinite(e.test.instMBps) && e.test.instMBps >= 0) {
          const v = e.test.instMBps;
          live = { ...live, [e.test.phase]: v };
          peak = { ...peak, [e.test.phase]: Math.max(peak[e.test.phase], v) };
          patch.scale = chooseScale(Math.max(peak.write, peak.read), job.scale);
        } else if (e.stage !== 'testing') {
          live = ZERO;
        }
        patch.live = live;
        patch.peak = peak;
        if (e.formatIndex < e.formatCount) {
          patch.formats = job.formats.map((f, i) =>
            i === e.formatIndex && f.status !== 'done' ? { ...f, label: e.formatLabel || f.label, status: 'running' } : f,
          );
        } else {
          patch.final = { ...job.final, status: 'running' };
        }
        life.patchJob(patch);
      });
    },

    onFormat(e) {
      life.route('format', e, (job) => {
        life.patchJob({
          formats: job.formats.map((f) => (f.id === e.format ? { ...f, status: 'done' } : f)),
          resultIds: [...job.resultIds, ...e.resultIds.filter((id) => !job.resultIds.includes(id))],
        });
      });
    },

    onDone(e) {
      const ended = life.end(e, (job) => {
        const resultIds = [...e.resultIds, ...job.resultIds.filter((id) => !e.resultIds.includes(id))];
        const interrupted: RunFormat['status'] = e.outcome === 'failed' ? 'failed' : 'pending';
        const next: WizardJob = {
          ...job,
          outcome: e.outcome,
          resultIds,
          live: ZERO,
          error: e.outcome === 'failed' ? ipcErrorText(e.error ?? { code: 'ERR_FAILED', message: 'The plan failed.' }) : null,
          formats: job.formats.map((f) => (f.status === 'running' ? { ...f, status: interrupted } : f)),
          final:
            e.outcome === 'finished'
              ? { ...job.final, status: 'done' }
              : job.final.status === 'running'
                ? { ...job.final, status: interrupted }
                : job.final,
        };
        if (e.outcome === 'finished') next.fraction = 1;
        return { job: next, ...(e.outcome === 'finished' ? { step: 'report' as WizardStep, reportIds: resultIds } : {}) };
      });
      if (ended) void get().loadPlans();
    },

    async loadPlans() {
      const r = await getBridge().listPlans();
      if (!r.ok) {
        set({ plansError: ipcErrorText(r.error) });
        return;
      }
      set({ plans: r.value, plansError: null });
    },

    async relist(planId) {
      const plan = get().plans.find((p) => p.id === planId);
      if (!plan) return;
      set({ relisted: null });
      const r = await getBridge().listDisks(true);
      if (!r.ok) set({ relisted: { planId, disk: null, error: ipcErrorText(r.error) } });
      else set({ relisted: { planId, disk: r.value.find((d) => d.path === plan.settings.device) ?? null } });
    },

    async resume(planId, confirmName) {
      if (isBusy(get().status)) return false;
      const plan = get().plans.find((p) => p.id === planId);
      if (!plan) return false;
      const formats = plan.steps.map((st) => ({
        id: st.format,
        label: st.label,
        status: st.status === 'done' ? ('done' as StepStatus) : ('pending' as StepStatus),
      }));
      const resultIds = plan.steps.flatMap((st) => (st.status === 'done' ? st.resultIds : []));
      const job = newJob(plan.settings, plan.settings.confirmName, formats, plan.final.label, resultIds);
      set({ resumeError: null });
      const ok = await follow(job, () => getBridge().resumePlan(planId, confirmName));
      if (!ok) set({ resumeError: { planId, message: get().startError ?? 'Could not resume the plan.' }, startError: null });
      return ok;
    },

    async discard(planId) {
      const r = await getBridge().discardPlan(planId);
      if (!r.ok) {
        set({ plansError: ipcErrorText(r.error) });
        return;
      }
      set({ plans: get().plans.filter((p) => p.id !== planId) });
      await get().loadPlans();
    },

    showReport(ids) {
      if (ids.length === 0) return;
      set({ step: 'report', reportIds: ids });
    },

    newPlan() {
      if (isBusy(get().status)) return;
      set({ step: 'disk', job: null, confirmText: '', startError: null, reportIds: [] });
      void get().loadDisks();
      void get().loadPlans();
    },

    reset() {
      set({ ...initial });
    },
  };
});

// ---- selectors --------------------------------------------------------------------------------

type S = Pick<WizardState, 'disks' | 'diskPath' | 'includeInternal' | 'formats' | 'chosen' | 'finalFormat' | 'plan' | 'confirmText'>;

/** True while a plan starts, runs or stops: the header locks the target picker and the other
 *  screens' Starts with it. */
export const selectWizardBusy = (s: Pick<WizardState, 'status'>): boolean => isBusy(s.status);

export const selectDisk = (s: S): WizardDisk | undefined => (s.diskPath ? s.disks?.find((d) => d.path === s.diskPath) : undefined);

/** The chosen formats in the order the core listed them (the order they run in). */
export function selectChosen(s: S): FormatId[] {
  return (s.formats ?? []).filter((f) => f.available && s.chosen.includes(f.id)).map((f) => f.id);
}

/** The format the disk is left in: the user's pick while it is a valid one, else the default. */
export function selectFinal(s: S): FormatId | null {
  const formats = s.formats ?? [];
  if (s.finalFormat && finalChoices(formats).some((f) => f.id === s.finalFormat)) return s.finalFormat;
  return defaultFinal(formats, selectChosen(s));
}

/** What Start sends (with the typed name as it is), or null while a step is incomplete. */
export function selectSettings(s: S): WizardSettings | null {
  const disk = selectDisk(s);
  if (!disk || diskBlock(disk, s.includeInternal)) return null;
  const formats = selectChosen(s);
  const finalFormat = selectFinal(s);
  if (formats.length === 0 || !finalFormat || planError(s.plan, disk.sizeBytes)) return null;
  const identity: WizardSettings['identity'] = { path: disk.path, sizeBytes: disk.sizeBytes };
  if (disk.model) identity.model = disk.model;
  if (disk.serial) identity.serial = disk.serial;
  const settings: WizardSettings = {
    device: disk.path,
    identity,
    confirmName: s.confirmText,
    formats,
    plan: s.plan.kind,
    sizes: planSizes(s.plan),
    runs: s.plan.runs,
    restSeconds: Math.round(s.plan.restMinutes * 60),
    finalFormat,
  };
  if (s.plan.kind === 'files') settings.filesSet = s.plan.filesSet;
  const files = customFiles(s.plan);
  if (s.plan.kind === 'files' && s.plan.filesSet === 'custom' && typeof files !== 'string') settings.files = files;
  if (commonModeOn(s.plan, formats) && s.plan.kind !== 'hash') settings.commonMode = true;
  if (disk.internal) settings.allowInternal = true;
  return settings;
}

/** Plans to offer to resume (never the one this window is running). */
export function selectInterrupted(s: Pick<WizardState, 'plans' | 'job' | 'status'>): WizardPlanState[] {
  const current = s.job && (isBusy(s.status) || s.job.outcome === 'finished') ? s.job.planId : null;
  return s.plans.filter((p) => isInterrupted(p, current));
}

const pickForm = (s: WizardState): S => ({
  disks: s.disks,
  diskPath: s.diskPath,
  includeInternal: s.includeInternal,
  formats: s.formats,
  chosen: s.chosen,
  finalFormat: s.finalFormat,
  plan: s.plan,
  confirmText: s.confirmText,
});

/** What Start would send now (null while a step is incomplete), recomputed only when the form changes. */
export function useWizardSettings(): WizardSettings | null {
  const form = useWizardStore(useShallow(pickForm));
  return useMemo(() => selectSettings(form), [form]);
}
