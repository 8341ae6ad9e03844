// The Hash screen's state: the settings form, the one hash job (running, or the last one), the
// last finished document, the last error, and what the file picker said. Bridge events arrive
// through onProgress/onStage/onDone and are dropped unless they are our job's; those that come
// before the start's answer wait until it tells us our job id. Components read through narrow
// selectors and change state only through these actions.
import { create } from 'zustand';
import type { ResultDocument } from '@model/result';

import { getBridge } from '../../lib/bridge';
import { isBusy, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';
import { jobLifecycle, noJob, testEnd } from '../../lib/job-lifecycle';
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

/** What each of the screen's two modes (the hash test, and Check a folder) keeps besides its job. */
export interface LastDocument {
  /** The last finished document (kind 'hash', or 'check'). */
  result: ResultDocument | null;
  /** Where the last finished document went in History (its id), or why it was not saved. */
  saved: SavedNote | null;
  /** Plain words, ready to show in an alert. */
  error: string | null;
  /** What the file (or folder) picker said when it could not pick (browser mode, or its error). */
  pickNote: string | null;
}

export const NO_DOCUMENT: LastDocument = { result: null, saved: null, error: null, pickNote: null };

interface HashState extends LastDocument {
  form: HashForm;
  status: JobStatus;
  job: HashJob | null;
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
  ...noJob<HashJob, Queued>(),
  ...NO_DOCUMENT,
};

export const useHashStore = create<HashState>()((set, get) => {
  // The core may send progress before its answer to the start reaches us (lib/job-lifecycle.ts).
  const life = jobLifecycle<HashState>(get, set, {
    stop: (jobId) => getBridge().stopHash(jobId),
    events: (s) => ({ progress: s.onProgress, stage: s.onStage, done: s.onDone }),
  });

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
      const job: HashJob = { settings, jobId: null, progress: null, stages: [], outcome: null, startedAt: Date.now() };
      await life.start(job, () => getBridge().startHash(settings), {
        starting: { error: null },
        refused: (error) => ({ error: ipcErrorText(error) }),
      });
    },

    async stop() {
      await life.stop((e) => set({ error: ipcErrorText(e) }));
    },

    onProgress(e) {
      life.route('progress', e, () => life.patchJob({ progress: e }));
    },

    onStage(e) {
      life.route('stage', e, (job) => life.patchJob({ stages: [...job.stages.filter((x) => x.stage !== e.stage), e] }));
    },

    onDone(e) {
      life.end(e, (job) => ({ job: { ...job, outcome: e.outcome, progress: null }, ...testEnd(e) }));
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
