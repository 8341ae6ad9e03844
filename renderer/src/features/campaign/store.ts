// The Compare setups screen's state: the form (setup names, the tests each runs, runs), the one
// campaign job it follows (waiting for the person, testing, or ended), the results for the report,
// and the campaigns that did not finish. Events of other jobs are dropped; those that come before
// the start's answer are held and replayed (lib/job-events.ts).
import { create } from 'zustand';
import type { CampaignState } from '@model/campaign';
import type { CampaignDoneEvent, CampaignProgressEvent, CampaignWaitingEvent } from '@model/events';
import { ipcErrorText } from '@model/events';
import type { TestKind } from '@model/kinds/registry';
import type { CampaignSettings } from '@model/settings';
import { getBridge } from '../../lib/bridge';
import type { IpcResult } from '@ipc/contract';
import { isBusy, jobRouter, replayQueued, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';

export const MAX_SETUPS = 12;

export interface CampaignForm {
  setups: string[];
  kinds: TestKind[];
  runs: number;
  /** The test file of the tests that take a size (the sized ones fill the disk as they do alone). */
  sizeBytes: number;
  /** A test's own size, overriding sizeBytes for it (a 1 GB Quick Test beside a 250 MB sweep). */
  testSizes: Partial<Record<TestKind, number>>;
  /** Start was pressed: a problem of the form is now an error, not help. */
  attempted: boolean;
}

/** The live figures a screen shows: the last measured ones; null before the first. */
export interface LiveFigures {
  instMBps: number | null;
  avgMBps: number | null;
}

/** The sizes offered: small for a slow link (a Wi-Fi share), large to get past a drive's cache.
 *  Decimal, as the Quick Test's 1 and 5 GB and the target's free space beside them (never GiB
 *  beside GB on one page); the smallest still holds the sweep's largest transfer (64 MiB). */
export const SIZE_CHOICES = [100e6, 250e6, 1e9, 5e9] as const;

export interface CampaignJob {
  jobId: string | null;
  campaignId: string | null;
  /** Asked to change to this setup; null while a test runs. */
  waiting: CampaignWaitingEvent | null;
  progress: CampaignProgressEvent | null;
  /** The figures the live line shows: held between a test's steps, where an event carries no
   *  measured rate (a step starting, a flush), so it never reads a zero nobody measured. */
  live: LiveFigures;
  /** Set when the job has ended. */
  done: CampaignDoneEvent | null;
}

type CampaignEvent = CampaignWaitingEvent | CampaignProgressEvent | CampaignDoneEvent;
type Queued = QueuedEvent<'waiting' | 'progress' | 'done', CampaignEvent>;

interface CampaignStoreState {
  form: CampaignForm;
  status: JobStatus;
  job: CampaignJob | null;
  /** The finished campaign's results, for its report. */
  reportIds: string[] | null;
  error: string | null;
  unfinished: CampaignState[];
  queued: Queued[];

  setSetup(i: number, name: string): void;
  addSetup(): void;
  removeSetup(i: number): void;
  toggleKind(kind: TestKind): void;
  setRuns(runs: number): void;
  setSize(sizeBytes: number): void;
  /** A test's own size; undefined: the campaign's. */
  setTestSize(kind: TestKind, sizeBytes: number | undefined): void;
  start(target: string | undefined): Promise<void>;
  /** The person has changed to the setup asked for (go), or stops here. */
  answer(go: boolean): Promise<void>;
  stop(): Promise<void>;
  loadUnfinished(): Promise<void>;
  resume(campaignId: string): Promise<void>;
  discard(campaignId: string): Promise<void>;
  newCampaign(): void;
  /** Back to a fresh form (tests). */
  reset(): void;
  onWaiting(e: CampaignWaitingEvent): void;
  onProgress(e: CampaignProgressEvent): void;
  onDone(e: CampaignDoneEvent): void;
}

export const DEFAULT_FORM: CampaignForm = {
  setups: ['', ''],
  kinds: ['quick'],
  runs: 3,
  sizeBytes: 1e9,
  testSizes: {},
  attempted: false,
};

/** The live figures after event `e`: its rates when it measured any (bytes moved in this step),
 *  else the last ones held. A real stall still reads 0 now: it has bytes behind it. */
export function liveFigures(prev: LiveFigures, e: Pick<CampaignProgressEvent, 'instMBps' | 'avgMBps' | 'bytesDone'>): LiveFigures {
  const measured = e.bytesDone > 0 && (e.instMBps > 0 || e.avgMBps > 0);
  return measured ? { instMBps: e.instMBps, avgMBps: e.avgMBps } : prev;
}

/** Why the form cannot start, in words; null when it can. */
export function formProblem(form: CampaignForm, target: string | undefined): string | null {
  if (!target) return 'Choose the folder to test at the top first.';
  const names = form.setups.map((s) => s.trim());
  if (names.filter(Boolean).length < 2) return 'Name at least two setups (what you will change between them).';
  if (names.some((n) => !n)) return 'Give every setup a name, or remove the empty one.';
  const lower = names.map((n) => n.toLowerCase());
  const twice = names.find((n, i) => lower.indexOf(n.toLowerCase()) !== i);
  if (twice) return `Two setups are both called "${twice}": give each its own name.`;
  if (form.kinds.length === 0) return 'Pick at least one test to run on each setup.';
  if (!Number.isInteger(form.runs) || form.runs < 1 || form.runs > 100) return 'Runs must be a whole number from 1 to 100.';
  return null;
}

const emptyJob = (): CampaignJob => ({
  jobId: null,
  campaignId: null,
  waiting: null,
  progress: null,
  live: { instMBps: null, avgMBps: null },
  done: null,
});

export const useCampaignStore = create<CampaignStoreState>()((set, get) => {
  const route = jobRouter<CampaignJob, Queued['apply'], CampaignEvent>(get, set);
  const patch = (p: Partial<CampaignJob>): void => {
    const job = get().job;
    if (job) set({ job: { ...job, ...p } });
  };
  const handlers = {
    waiting: (e: CampaignEvent) => get().onWaiting(e as CampaignWaitingEvent),
    progress: (e: CampaignEvent) => get().onProgress(e as CampaignProgressEvent),
    done: (e: CampaignEvent) => get().onDone(e as CampaignDoneEvent),
  };
  /** Follows the job a start or resume answered with. */
  const follow = async (request: Promise<IpcResult<{ jobId: string; campaignId: string }>>): Promise<void> => {
    set({ status: 'starting', job: emptyJob(), error: null, reportIds: null, queued: [] });
    const r = await request;
    if (!r.ok) {
      set({ status: 'idle', job: null, error: ipcErrorText(r.error), queued: [] });
      return;
    }
    const queued = get().queued;
    patch({ jobId: r.value.jobId, campaignId: r.value.campaignId });
    set({ status: 'running', queued: [] });
    replayQueued(queued, r.value.jobId, handlers);
  };
  return {
    form: DEFAULT_FORM,
    status: 'idle',
    job: null,
    reportIds: null,
    error: null,
    unfinished: [],
    queued: [],

    setSetup: (i, name) => set((s) => ({ form: { ...s.form, setups: s.form.setups.map((x, j) => (j === i ? name : x)) } })),
    addSetup: () => set((s) => (s.form.setups.length >= MAX_SETUPS ? s : { form: { ...s.form, setups: [...s.form.setups, ''] } })),
    removeSetup: (i) =>
      set((s) => (s.form.setups.length <= 2 ? s : { form: { ...s.form, setups: s.form.setups.filter((_, j) => j !== i) } })),
    toggleKind: (kind) =>
      set((s) => ({
        form: { ...s.form, kinds: s.form.kinds.includes(kind) ? s.form.kinds.filter((k) => k !== kind) : [...s.form.kinds, kind] },
      })),
    setRuns: (runs) => set((s) => ({ form: { ...s.form, runs } })),
    setSize: (sizeBytes) => set((s) => ({ form: { ...s.form, sizeBytes } })),
    setTestSize: (kind, sizeBytes) =>
      set((s) => {
        const testSizes = { ...s.form.testSizes };
        if (sizeBytes === undefined) delete testSizes[kind];
        else testSizes[kind] = sizeBytes;
        return { form: { ...s.form, testSizes } };
      }),

    start: async (target) => {
      const { form, status } = get();
      if (isBusy(status)) return;
      const problem = formProblem(form, target);
      if (problem) {
        set({ form: { ...form, attempted: true } });
        return;
      }
      // Only the chosen tests' own sizes go, and only those that differ from the campaign's.
      const own = form.kinds.flatMap((k) => {
        const b = form.testSizes[k];
        return b !== undefined && b !== form.sizeBytes ? [[k, b] as const] : [];
      });
      const settings: CampaignSettings = {
        target: target!,
        setups: form.setups.map((s) => s.trim()),
        kinds: form.kinds,
        runs: form.runs,
        sizeBytes: form.sizeBytes,
        ...(own.length > 0 ? { testSizes: Object.fromEntries(own) } : {}),
      };
      await follow(getBridge().startCampaign(settings));
    },

    answer: async (go) => {
      const job = get().job;
      if (!job?.waiting || !job.campaignId) return;
      patch({ waiting: null });
      const r = await getBridge().continueCampaign(job.campaignId, go);
      if (!r.ok) set({ error: ipcErrorText(r.error) });
    },

    stop: async () => {
      const { job, status } = get();
      if (!job?.jobId || status !== 'running') return;
      set({ status: 'stopping' });
      const r = await getBridge().stopCampaign(job.jobId);
      if (!r.ok) set({ status: 'running', error: ipcErrorText(r.error) });
    },

    loadUnfinished: async () => {
      const r = await getBridge().listCampaigns();
      if (r.ok) set({ unfinished: r.value });
    },

    resume: async (campaignId) => {
      if (isBusy(get().status)) return;
      await follow(getBridge().resumeCampaign(campaignId));
    },

    discard: async (campaignId) => {
      const r = await getBridge().discardCampaign(campaignId);
      if (!r.ok) set({ error: ipcErrorText(r.error) });
      await get().loadUnfinished();
    },

    newCampaign: () => set({ job: null, reportIds: null, error: null }),
    reset: () => set({ form: DEFAULT_FORM, status: 'idle', job: null, reportIds: null, error: null, unfinished: [], queued: [] }),

    // A new setup's figures start afresh: the last setup's would read as this one's.
    onWaiting: (e) => route('waiting', e, () => patch({ waiting: e, progress: null, live: emptyJob().live })),
    onProgress: (e) =>
      route('progress', e, () => patch({ progress: e, waiting: null, live: liveFigures(get().job?.live ?? emptyJob().live, e) })),
    onDone: (e) =>
      route('done', e, () => {
        patch({ done: e, waiting: null });
        set({
          status: 'idle',
          reportIds: e.outcome === 'finished' ? e.resultIds : null,
          error: e.outcome === 'failed' && e.error ? ipcErrorText(e.error) : null,
        });
        void get().loadUnfinished();
      }),
  };
});

export const selectCampaignBusy = (s: CampaignStoreState): boolean => isBusy(s.status);
