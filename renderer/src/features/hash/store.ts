// The Hash screen's state: the settings form, the one hash job (running, or the last one), the
// last finished document, the last error, and what the file picker said. Bridge events arrive
// through onProgress/onStage/onDone and are dropped unless they are our job's; those that come
// before the start's answer wait until it tells us our job id. Components read through narrow
// selectors and change state only through these actions.
import { create } from 'zustand';
import type { ResultDocument } from '@model/result';

import { getBridge } from '../../lib/bridge';
import { adoptJob, isBusy, jobPatcher, jobRouter, stopJob, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';
import { ipcErrorText } from '@model/events';

import { DEFAULT_FORM, toHashSettings, type HashForm } from './settings';
import type { HashDoneEvent, HashProgressEvent, HashStageEvent, SavedNote } from '@model/events';
import type { HashSettings } from '@model/settings';

export type { JobStatus };

/** The running job, or the last one once it has ended. */
export interface HashJob {
  /** What Start sent. */
  settings: HashSettings;
  /** Null until the core answers the start. */
  jobId: string | null;
  progress: HashProgressEvent | null;
  /** Finished stages, in the order they finished. */
  stages: HashStageEvent[];
  /** Set when the job has ended. */
  outcome: HashDoneEvent['outcome'] | null;
  /** When Start was pressed (ms since the epoch): the time left is reckoned from it. */
  startedAt?: number;
}

type HashEvent = HashProgressEvent | HashStageEvent | HashDoneEvent;
type Queued = QueuedEvent<'progress' | 'stage' | 'done', HashEvent>;

/** What to tell the user when the OS file picker is not available. */
export const PICKER_UNSUPPORTED = 'Type the file’s path (browser mode cannot open a file picker on this machine).';

interface HashState {
  form: HashForm;
  status: JobStatus;
  job: HashJob | null;
  /** The last finished document (kind 'hash'). */
  result: ResultDocument | null;
  /** Where the last finished document went in History (its id), or why it was not saved. */
  saved: SavedNote | null;
  /** Plain words, ready to show in an alert. */
  error: string | null;
  /** What the file picker said when it could not pick (browser mode, or its error). */
  pickNote: string | null;
  queued: Queued[];

  setForm(patch: Partial<HashForm>): void;
  /** The OS file picker; fills in the path (and size) when the user picks one. */
  chooseFile(): Promise<void>;
  /** `target`: the selected target's path, where a test file is written. */
  start(target: string | undefined): Promise<void>;
  stop(): Promise<void>;
  onProgress(e: HashProgressEvent): void;
  onStage(e: HashStageEvent): void;
  onDone(e: HashDoneEvent): void;
  reset(): void;
}

const initial = {
  form: DEFAULT_FORM,
  status: 'idle' as JobStatus,
  job: null as HashJob | null,
  result: null as ResultDocument | null,
  saved: null as SavedNote | null,
  error: null as string | null,
  pickNote: null as string | null,
  queued: [] as Queued[],
};

export const useHashStore = create<HashState>()((set, get) => {
  // The core may send progress before its answer to the start reaches us (lib/job-events.ts).
  const route = jobRouter<HashJob, Queued['apply'], HashEvent>(get, set);

  const patchJob = jobPatcher<HashJob>(get, set);

  return {
    ...initial,

    setForm(patch) {
      const form = { ...get().form, ...patch };
      // A typed path is not the file the picker measured.
      if (patch.path !== undefined && patch.pathBytes === undefined && patch.path !== get().form.path) form.pathBytes = null;
      set({ form });
    },

    async chooseFile() {
      const r = await getBridge().chooseFile();
      if (!r.ok) {
        set({ pickNote: r.error.code === 'ERR_UNSUPPORTED' ? PICKER_UNSUPPORTED : ipcErrorText(r.error) });
        return;
      }
      set({ pickNote: null });
      if (r.value) get().setForm({ source: 'file', path: r.value.path, pathBytes: r.value.bytes });
    },

    async start(target) {
      const s = get();
      if (isBusy(s.status)) return;
      const settings = toHashSettings(s.form, target);
      if (!settings) return;
      set({
        status: 'starting',
        job: { settings, jobId: null, progress: null, stages: [], outcome: null, startedAt: Date.now() },
        queued: [],
        error: null,
      });
      const r = await getBridge().startHash(settings);
      if (!r.ok) {
        set({ status: 'idle', job: null, queued: [], error: ipcErrorText(r.error) });
        return;
      }
      const st = get();
      await adoptJob(
        get,
        set,
        { jobId: r.value.jobId },
        () => ({
          progress: (e) => st.onProgress(e as HashProgressEvent),
          stage: (e) => st.onStage(e as HashStageEvent),
          done: (e) => st.onDone(e as HashDoneEvent),
        }),
        (jobId) => getBridge().stopHash(jobId),
      );
    },

    async stop() {
      await stopJob(
        get,
        set,
        (jobId) => getBridge().stopHash(jobId),
        (e) => set({ error: ipcErrorText(e) }),
      );
    },

    onProgress(e) {
      route('progress', e, () => patchJob({ progress: e }));
    },

    onStage(e) {
      route('stage', e, (job) => patchJob({ stages: [...job.stages.filter((x) => x.stage !== e.stage), e] }));
    },

    onDone(e) {
      route('done', e, (job) => {
        const patch: Partial<HashState> = { status: 'idle', job: { ...job, outcome: e.outcome, progress: null } };
        if (e.outcome === 'finished' && e.result) {
          patch.result = e.result;
          patch.saved = e.saved ?? null;
        }
        if (e.outcome === 'failed') patch.error = ipcErrorText(e.error);
        set(patch);
      });
    },

    reset() {
      set({ ...initial });
    },
  };
});

// ---- selectors --------------------------------------------------------------------------------

type S = HashState;

/** True while a hash job starts, runs or stops: the header locks the target picker and the other
 *  screens' Starts with it. */
export const selectHashBusy = (s: S): boolean => isBusy(s.status);

/** The job to show instead of the last document: while it runs, and after it was stopped or
 *  failed (what finished before is shown); a finished job's figures are in `result`. */
export const selectLiveJob = (s: S): HashJob | null => {
  const job = s.job;
  if (!job) return null;
  if (isBusy(s.status)) return job;
  return job.outcome === 'finished' && s.result?.hash ? null : job;
};
