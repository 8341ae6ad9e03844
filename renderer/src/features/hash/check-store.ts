// The Hash screen's "Check a folder" mode: the folder and action typed or picked, the one check
// job (running, or the last one), its last finished document and error. Events are routed as the
// hash test's are (lib/job-events.ts): dropped unless they are our job's, queued until the start's
// answer names it.
import { create } from 'zustand';
import type { ResultDocument } from '@model/result';
import { ipcErrorText, type CheckDoneEvent, type CheckProgressEvent, type SavedNote } from '@model/events';
import type { CheckSettings } from '@model/settings';
import { getBridge } from '../../lib/bridge';
import { adoptJob, isBusy, jobPatcher, jobRouter, stopJob, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';

export type CheckAction = CheckSettings['action'];

export interface CheckJob {
  settings: CheckSettings;
  jobId: string | null;
  progress: CheckProgressEvent | null;
  outcome: CheckDoneEvent['outcome'] | null;
}

type CheckEvent = CheckProgressEvent | CheckDoneEvent;
type Queued = QueuedEvent<'progress' | 'done', CheckEvent>;

interface CheckState {
  folder: string;
  action: CheckAction;
  status: JobStatus;
  job: CheckJob | null;
  result: ResultDocument | null;
  saved: SavedNote | null;
  error: string | null;
  pickNote: string | null;
  queued: Queued[];
  setFolder(folder: string): void;
  setAction(action: CheckAction): void;
  chooseFolder(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  onProgress(e: CheckProgressEvent): void;
  onDone(e: CheckDoneEvent): void;
  reset(): void;
}

const initial = {
  folder: '',
  action: 'check' as CheckAction,
  status: 'idle' as JobStatus,
  job: null as CheckJob | null,
  result: null as ResultDocument | null,
  saved: null as SavedNote | null,
  error: null as string | null,
  pickNote: null as string | null,
  queued: [] as Queued[],
};

export const useCheckStore = create<CheckState>()((set, get) => {
  const route = jobRouter<CheckJob, Queued['apply'], CheckEvent>(get, set);
  const patchJob = jobPatcher<CheckJob>(get, set);
  return {
    ...initial,
    setFolder: (folder) => set({ folder }),
    setAction: (action) => set({ action }),

    async chooseFolder() {
      const r = await getBridge().chooseFolder();
      if (!r.ok) {
        set({
          pickNote:
            r.error.code === 'ERR_UNSUPPORTED'
              ? 'Type the folder’s path (browser mode cannot open a folder picker on this machine).'
              : ipcErrorText(r.error),
        });
        return;
      }
      set({ pickNote: null, ...(r.value ? { folder: r.value.path } : {}) });
    },

    async start() {
      const s = get();
      if (isBusy(s.status) || s.folder.trim() === '') return;
      const settings: CheckSettings = { folder: s.folder.trim(), action: s.action };
      set({ status: 'starting', job: { settings, jobId: null, progress: null, outcome: null }, queued: [], error: null });
      const r = await getBridge().startCheck(settings);
      if (!r.ok) {
        set({ status: 'idle', job: null, queued: [], error: ipcErrorText(r.error) });
        return;
      }
      const st = get();
      await adoptJob(
        get,
        set,
        { jobId: r.value.jobId },
        () => ({ progress: (e) => st.onProgress(e as CheckProgressEvent), done: (e) => st.onDone(e as CheckDoneEvent) }),
        (jobId) => getBridge().stopCheck(jobId),
      );
    },

    async stop() {
      await stopJob(
        get,
        set,
        (jobId) => getBridge().stopCheck(jobId),
        (e) => set({ error: ipcErrorText(e) }),
      );
    },

    onProgress(e) {
      route('progress', e, () => patchJob({ progress: e }));
    },

    onDone(e) {
      route('done', e, (job) => {
        const patch: Partial<CheckState> = { status: 'idle', job: { ...job, outcome: e.outcome, progress: null } };
        if (e.outcome === 'finished' && e.result) {
          patch.result = e.result;
          patch.saved = e.saved ?? null;
        }
        if (e.outcome === 'failed') patch.error = ipcErrorText(e.error);
        set(patch);
      });
    },

    reset: () => set({ ...initial }),
  };
});

export const selectCheckBusy = (s: CheckState): boolean => isBusy(s.status);
