// The Hash screen's "Check a folder" mode: the folder and action typed or picked, the one check
// job (running, or the last one), its last finished document and error. Its job lives as the
// hash test's does (lib/job-lifecycle.ts): events are dropped unless they are our job's, and held
// until the start's answer names it.
import { create } from 'zustand';
import { ipcErrorText, type CheckDoneEvent, type CheckProgressEvent } from '@model/events';
import type { CheckSettings } from '@model/settings';
import { getBridge } from '../../lib/bridge';
import { isBusy, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';
import { jobLifecycle, noJob, testEnd } from '../../lib/job-lifecycle';
import { NO_DOCUMENT, type LastDocument } from './store';

export type CheckAction = CheckSettings['action'];

export interface CheckJob {
  settings: CheckSettings;
  jobId: string | null;
  progress: CheckProgressEvent | null;
  outcome: CheckDoneEvent['outcome'] | null;
}

type CheckEvent = CheckProgressEvent | CheckDoneEvent;
type Queued = QueuedEvent<'progress' | 'done', CheckEvent>;

interface CheckState extends LastDocument {
  folder: string;
  action: CheckAction;
  status: JobStatus;
  job: CheckJob | null;
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
  ...noJob<CheckJob, Queued>(),
  ...NO_DOCUMENT,
};

export const useCheckStore = create<CheckState>()((set, get) => {
  const life = jobLifecycle<CheckState>(get, set, {
    stop: (jobId) => getBridge().stopCheck(jobId),
    events: (s) => ({ progress: s.onProgress, done: s.onDone }),
  });
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
      const job: CheckJob = { settings, jobId: null, progress: null, outcome: null };
      await life.start(job, () => getBridge().startCheck(settings), {
        // The last result goes with the new start: an error after it must not stand beside it.
        starting: { error: null, result: null, saved: null },
        refused: (error) => ({ error: ipcErrorText(error) }),
      });
    },

    stop: () => life.stop((e) => set({ error: ipcErrorText(e) })),

    onProgress(e) {
      life.route('progress', e, () => life.patchJob({ progress: e }));
    },

    onDone(e) {
      life.end(e, (job) => ({ job: { ...job, outcome: e.outcome, progress: null }, ...testEnd(e) }));
    },

    reset: () => set({ ...initial }),
  };
});

export const selectCheckBusy = (s: CheckState): boolean => isBusy(s.status);
