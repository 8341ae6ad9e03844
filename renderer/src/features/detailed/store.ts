// The Detailed screen's state: every kind's settings form, the one detailed job (running, or the
// last one), the last finished document of each kind (so the grid, the curve and the scatter can
// all show results at once) and the last error of each kind. Bridge events arrive through
// onPlan/onProgress/onStep/onDone and are dropped unless they are our job's; components read
// through narrow selectors and change state only through these actions. The kinds' forms come
// from the kinds' map (kinds/index.ts): nothing here names a kind.
import { create } from 'zustand';
import type { ResultDocument } from '@model/result';
import type { DetailedDoneEvent, DetailedPlanEvent, DetailedProgressEvent, DetailedStepEvent, SavedNote } from '@model/events';
import type { DetailedKind } from '@model/settings';

import { getBridge } from '../../lib/bridge';

import { isBusy, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';
import { jobLifecycle, noJob } from '../../lib/job-lifecycle';
import { LIVE_CAP, thinLive } from '../../lib/curve';
import { DEFAULT_FORMS, formErrors, kindEntry, toDetailedSettings, type Forms } from './kinds/index';
import { addFrameSlice } from '../../lib/frame-strip';
import { ipcErrorText } from '@model/events';
import { kindOf } from '@model/kinds/registry';
import type { DetailedJob } from './kind-entry';

export type { JobStatus, DetailedJob };

type DetailedEvent = DetailedPlanEvent | DetailedProgressEvent | DetailedStepEvent | DetailedDoneEvent;
type Queued = QueuedEvent<'plan' | 'progress' | 'step' | 'done', DetailedEvent>;

interface DetailedState {
  forms: Forms;
  status: JobStatus;
  job: DetailedJob | null;
  results: Partial<Record<DetailedKind, ResultDocument>>;
  /** Plain words, ready to show in the kind's panel. */
  errors: Partial<Record<DetailedKind, string>>;
  /** Where each kind's last finished document went in History (its id), or why it was not saved. */
  saved: Partial<Record<DetailedKind, SavedNote>>;
  /** Events received while the start was in flight (see lib/job-lifecycle.ts). */
  queued: Queued[];

  /** Changes `kind`'s form (as its form says a change lands). */
  setForm<K extends DetailedKind>(kind: K, patch: Partial<Forms[K]>): void;
  start(kind: DetailedKind, target: string): Promise<void>;
  stop(): Promise<void>;
  onPlan(e: DetailedPlanEvent): void;
  onProgress(e: DetailedProgressEvent): void;
  onStep(e: DetailedStepEvent): void;
  onDone(e: DetailedDoneEvent): void;
  reset(): void;
}

const initial = {
  forms: DEFAULT_FORMS,
  ...noJob<DetailedJob, Queued>(),
  results: {} as Partial<Record<DetailedKind, ResultDocument>>,
  errors: {} as Partial<Record<DetailedKind, string>>,
  saved: {} as Partial<Record<DetailedKind, SavedNote>>,
};

export const useDetailedStore = create<DetailedState>()((set, get) => {
  // The core may send the plan before its answer to the start reaches us (lib/job-lifecycle.ts).
  const life = jobLifecycle<DetailedState>(get, set, {
    stop: (jobId) => getBridge().stopDetailed(jobId),
    events: (s) => ({ plan: s.onPlan, progress: s.onProgress, step: s.onStep, done: s.onDone }),
  });

  return {
    ...initial,

    setForm(kind, patch) {
      const forms = get().forms;
      const form = kindEntry(kind).form;
      const next = form.patch ? form.patch(forms[kind], patch) : { ...forms[kind], ...patch };
      set({ forms: { ...forms, [kind]: next } });
    },

    async start(kind, target) {
      const s = get();
      if (isBusy(s.status)) return;
      if (Object.keys(formErrors(kind, s.forms)).length > 0) return;
      const settings = toDetailedSettings(kind, s.forms, target);
      const job: DetailedJob = {
        kind,
        settings,
        jobId: null,
        plan: null,
        progress: null,
        steps: [],
        live: [],
        outcome: null,
        startedAt: Date.now(),
      };
      await life.start(job, () => getBridge().startDetailed(settings), {
        starting: { errors: { ...s.errors, [kind]: undefined } },
        refused: (error) => ({ errors: { ...get().errors, [kind]: ipcErrorText(error) } }),
      });
    },

    async stop() {
      const kind = get().job?.kind;
      await life.stop((e) => kind && set({ errors: { ...get().errors, [kind]: ipcErrorText(e) } }));
    },

    onPlan(e) {
      life.route('plan', e, () => life.patchJob({ plan: e }));
    },

    onProgress(e) {
      life.route('progress', e, (job) => {
        const patch: Partial<DetailedJob> = { progress: e };
        // The curve is the measured write only: preparing is not the disk's speed, and the
        // flush's 0 MB/s instant is not a stall.
        if (
          kindOf(job.kind)?.liveCurve === true &&
          e.stage === 'run' &&
          Number.isFinite(e.instMBps) &&
          e.instMBps >= 0 &&
          Number.isFinite(e.bytesDone)
        ) {
          const live = [...job.live, { run: e.run, bytes: e.bytesDone, mbps: e.instMBps }];
          patch.live = live.length > LIVE_CAP ? thinLive(live) : live;
        }
        if (e.frames) patch.frames = addFrameSlice(job.frames ?? [], e);
        life.patchJob(patch);
      });
    },

    onStep(e) {
      life.route('step', e, (job) => life.patchJob({ steps: [...job.steps, { ...e, test: { ...e.test, series: [] } }] }));
    },

    onDone(e) {
      life.end(e, (job) => {
        const s = get();
        const patch: Partial<DetailedState> = { job: { ...job, outcome: e.outcome } };
        if (e.outcome === 'finished' && e.result) {
          patch.results = { ...s.results, [job.kind]: e.result };
          patch.saved = { ...s.saved, [job.kind]: e.saved };
        }
        if (e.outcome === 'failed') patch.errors = { ...s.errors, [job.kind]: ipcErrorText(e.error) };
        return patch;
      });
    },

    reset() {
      set({ ...initial });
    },
  };
});

// ---- selectors --------------------------------------------------------------------------------

type S = DetailedState;

/** True while a detailed job starts, runs or stops: the header locks the target picker and the
 *  Quick Test's Start with it. */
export const selectDetailedBusy = (s: S): boolean => isBusy(s.status);

/** The kind of the job in progress, or null. */
export const selectRunningKind = (s: S): DetailedKind | null => (isBusy(s.status) && s.job ? s.job.kind : null);

/** The job to show in `kind`'s panel instead of its last document: this kind's job while it
 *  runs, and after it was stopped or failed with something to show; a finished job's document
 *  is in `results`. */
export function selectLiveJob(kind: DetailedKind): (s: S) => DetailedJob | null {
  return (s) => {
    const job = s.job;
    if (!job || job.kind !== kind) return null;
    if (isBusy(s.status)) return job;
    if (job.outcome === 'finished') return null;
    return job.steps.length > 0 || job.live.length > 0 ? job : null;
  };
}

export const selectResult =
  (kind: DetailedKind) =>
  (s: S): ResultDocument | undefined =>
    s.results[kind];

export const selectSaved =
  (kind: DetailedKind) =>
  (s: S): SavedNote | undefined =>
    s.saved[kind];

export const selectError =
  (kind: DetailedKind) =>
  (s: S): string | undefined =>
    s.errors[kind];

export const selectForm =
  <K extends DetailedKind>(kind: K) =>
  (s: S): Forms[K] =>
    s.forms[kind];
