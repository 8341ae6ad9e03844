// Quick Test: its settings, the running job and everything the dials, chart and video table
// show. Bridge events arrive through onProgress/onCycle/onDone and follow the job through the
// shared lifecycle (lib/job-lifecycle.ts), as the other screens' stores do: events of another job
// are dropped, and those that come before the start's answer wait for it. Components only read
// through narrow selectors and change state through these actions.
import { create } from 'zustand';
import type { ResultDocument, ResultFlag } from '@model/result';
import { combineRuns } from '@model/analysis';
import { quickAggregate, type Aggregate } from '@model/verdict/aggregate';
import { DEFAULT_PRECISION } from '@model/precision';
import { kindOf } from '@model/kinds/registry';
import { launchedFrom } from '@model/kinds/video/will-it-work';
import { getBridge } from '../../lib/bridge';
import { isBusy, type JobStatus, type Queued as QueuedEvent } from '../../lib/job-events';
import { jobLifecycle, noJob } from '../../lib/job-lifecycle';
import { chooseScale, DEFAULT_SCALE, initialScale } from '../../lib/dial-math';
import type { IpcError, QuickCycleEvent, QuickDoneEvent, QuickPhase, QuickProgressEvent, SavedNote } from '@model/events';
import { testPeak } from '../../lib/last-result';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;
/** Blackmagic's stress sizes, decimal GB as the engine counts. */
export const SIZE_PRESETS = [1e9, 2e9, 3e9, 5e9] as const;
export const MIN_SIZE = 16 * MiB;
export const MAX_SIZE = 64 * GiB;
export const MAX_RUNS = 100;
/** While cycles come faster than this, their combined figures follow at most this often, ms. */
export const COMBINE_MS = 1000;
/** Raw points kept for the chart; older ones are thinned so continuous mode stays bounded. */
export const SERIES_CAP = 1200;

/** What the screen shows: a test starting or running ('running'), stopping, or how the last one
 *  ended ('done' when it finished or was stopped). */
export type Status = 'idle' | 'running' | 'stopping' | 'done' | 'failed';
export type Mode = 'runs' | 'continuous';

export interface CycleResult {
  cycle: number;
  writeMBps: number | null;
  readMBps: number | null;
  cacheMode: string;
  dataPattern: string;
  /** Why the figures may not be the disk's alone (buffered I/O, zeros, …). */
  notes: string[];
}

/** A moment of the Quick Test's live chart: write and read MB/s side by side (the engine's own
 *  series point, one direction's MB/s, is SeriesPoint in @model/engine-types). */
export interface WriteReadPoint {
  /** Seconds since Start. */
  t: number;
  write: number | null;
  read: number | null;
}

interface Pair {
  write: number;
  read: number;
}

/** The job followed: its id, once the core has answered the start. */
export interface QuickJob {
  jobId: string | null;
}

type QuickEvent = QuickProgressEvent | QuickCycleEvent | QuickDoneEvent;
type Queued = QueuedEvent<'progress' | 'cycle' | 'done', QuickEvent>;

interface QuickTestState {
  sizeBytes: number;
  /** Why the typed custom size cannot be used, or null: Start stays disabled until it is fixed,
   *  rather than running the last valid size. */
  sizeError: string | null;
  mode: Mode;
  runs: number;
  /** The stop rule asked for: Start sends precision ± 3 %. */
  settle: boolean;
  status: JobStatus;
  job: QuickJob | null;
  /** Events that came before the start's answer (see lib/job-lifecycle.ts). */
  queued: Queued[];
  /** How the last test ended, once it has: finished or stopped ('done'), or failed. */
  outcome: 'done' | 'failed' | null;
  /** The last test ended by Stop (not by finishing its runs). */
  stopped: boolean;
  phase: QuickPhase | null;
  stage: QuickProgressEvent['stage'] | null;
  cycle: number;
  cycles: number;
  /** The current step's bytes done and planned: what the status line's time left runs on. */
  bytesDone: number;
  bytesTotal: number;
  /** Latest instantaneous MB/s per phase; the idle phase keeps its last value. */
  live: Pair;
  /** Each phase's average MB/s so far in its latest measured stretch (the engine's running
   *  average): what a dial shows while the other phase runs, so WRITE never falls to a stall's
   *  last 0 MB/s instant during the read. */
  avg: Pair;
  peak: Pair;
  /** Full scale shared by both dials, MB/s: set at Start from what is known, grows with the
   *  peaks, never shrinks during a run (nor after it fails). */
  scale: number;
  /** The highest finished figure per target path (this session's, else the newest saved result's),
   *  MB/s: the next test's scale. */
  lastByTarget: Record<string, number>;
  target: string | null;
  results: CycleResult[];
  /** Each finished cycle's own document, in order. */
  cycleDocs: ResultDocument[];
  /** The finished cycles as one result (at Done, the document History saved): what the Done
   *  screen's dials and its Will-it-work table show, as History, the card and the exports do. */
  doc: ResultDocument | null;
  /** The one aggregate of `doc`: the mean of its runs, with the best and the count. */
  aggregate: { write: Aggregate; read: Aggregate } | null;
  /** The settled MB/s the dials show at Done: the aggregate's means. */
  settled: Pair | null;
  /** The finished cycles' flags, as `doc` carries them. */
  flags: ResultFlag[];
  /** Frame-paced results launched from this result ("Check this format"): they decide its rows
   *  here as in History. */
  paced: ResultDocument[];
  series: WriteReadPoint[];
  startedAt: number;
  error: IpcError | null;
  /** Where the finished run went in History (its id), or why it could not be saved. */
  saved: SavedNote | null;

  setSize(bytes: number): void;
  setSizeError(error: string | null): void;
  setMode(mode: Mode): void;
  setRuns(runs: number): void;
  /** The stop rule: each step ends once its 95 % interval is within ± 3 % (1 s at least). */
  setSettle(on: boolean): void;
  /** `knownMBps`: what is known of the target before the test (its link's ceiling), MB/s. */
  start(target: string, knownMBps?: number): Promise<void>;
  /** What History knows of `target` (its newest saved result's peak, MB/s): taken only when this
   *  session has no figure of its own for it, which is newer. */
  learn(target: string, mbps: number): void;
  stop(): Promise<void>;
  onProgress(e: QuickProgressEvent, now?: number): void;
  /** Several progress events (each with when it arrived) folded into one store update: the
   *  screen renders once per batch, not once per event. */
  onProgressBatch(events: ReadonlyArray<readonly [QuickProgressEvent, number]>): void;
  onCycle(e: QuickCycleEvent): void;
  onDone(e: QuickDoneEvent): void;
  /** A finished detailed test's result: kept when it is a paced test launched from this result. */
  onPaced(doc: ResultDocument | undefined): void;
  reset(): void;
}

const zero: Pair = { write: 0, read: 0 };

const runState = {
  outcome: null as 'done' | 'failed' | null,
  stopped: false,
  phase: null as QuickPhase | null,
  stage: null as QuickProgressEvent['stage'] | null,
  cycle: 0,
  cycles: 0,
  bytesDone: 0,
  bytesTotal: 0,
  live: zero,
  avg: zero,
  peak: zero,
  target: null as string | null,
  results: [] as CycleResult[],
  cycleDocs: [] as ResultDocument[],
  doc: null as ResultDocument | null,
  aggregate: null as { write: Aggregate; read: Aggregate } | null,
  paced: [] as ResultDocument[],
  settled: null as Pair | null,
  flags: [] as ResultFlag[],
  series: [] as WriteReadPoint[],
  startedAt: 0,
  error: null as IpcError | null,
  saved: null as SavedNote | null,
};

const initial = {
  sizeBytes: 1e9,
  sizeError: null as string | null,
  mode: 'runs' as Mode,
  runs: 1,
  settle: false,
  ...noJob<QuickJob, Queued>(),
  ...runState,
  scale: DEFAULT_SCALE,
  lastByTarget: {} as Record<string, number>,
};

/** The scale a test on `target` starts from: its last figure (this session's, else History's) or
 *  its link's ceiling. */
export function knownScale(lastByTarget: Readonly<Record<string, number>>, target: string | undefined, ceilingMBps = 0): number {
  return initialScale(Math.max(target ? (lastByTarget[target] ?? 0) : 0, ceilingMBps));
}

export function isValidSize(bytes: number): boolean {
  return Number.isInteger(bytes) && bytes >= MIN_SIZE && bytes <= MAX_SIZE;
}

/** Halves a series by averaging neighbours: bounded memory, shape kept. */
function thin(series: WriteReadPoint[]): WriteReadPoint[] {
  const out: WriteReadPoint[] = [];
  for (let i = 0; i < series.length; i += 2) {
    const a = series[i]!;
    const b = series[i + 1];
    if (!b) {
      out.push(a);
      continue;
    }
    const avg = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : (x + y) / 2);
    out.push({ t: b.t, write: avg(a.write, b.write), read: avg(a.read, b.read) });
  }
  return out;
}

/** What the screen shows of a result: the document, its aggregate and means, its flags. */
function shown(doc: ResultDocument): Pick<QuickTestState, 'doc' | 'aggregate' | 'settled' | 'flags'> {
  const aggregate = quickAggregate(doc);
  return {
    doc,
    aggregate,
    settled: aggregate ? { write: aggregate.write.mean, read: aggregate.read.mean } : null,
    flags: Array.isArray(doc.flags) ? doc.flags : [],
  };
}

export const useQuickTestStore = create<QuickTestState>()((set, get) => {
  // The core may send progress before its answer to the start reaches us (lib/job-lifecycle.ts).
  const life = jobLifecycle<QuickTestState>(get, set, {
    stop: (jobId) => getBridge().stopQuickTest(jobId),
    events: (s) => ({ progress: (e) => s.onProgress(e as QuickProgressEvent), cycle: s.onCycle, done: s.onDone }),
  });
  // Combining every cycle so far costs time in their number: a continuous test of small cycles
  // (100 a second) froze the page after ~130 of them when each one recombined all. The combined
  // figures follow at most every COMBINE_MS (the first cycle at once; the saved result at the end).
  let combinedAt = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;
  function recombine(): void {
    clearTimeout(pending);
    pending = undefined;
    combinedAt = Date.now();
    const docs = get().cycleDocs;
    if (docs.length > 0) set(shown(combineRuns(docs)));
  }
  function dropPending(): void {
    clearTimeout(pending);
    pending = undefined;
    combinedAt = 0;
  }

  /** Our job's finished cycle: its figures join the others'. */
  function applyCycle(e: QuickCycleEvent): void {
    const s = get();
    const doc = e.result;
    const flags = Array.isArray(doc.flags) ? doc.flags : [];
    const write = doc.tests.find((t) => t.rw === 'write');
    const read = doc.tests.find((t) => t.rw === 'read');
    const result: CycleResult = {
      cycle: e.cycle,
      writeMBps: write?.mbps ?? null,
      readMBps: read?.mbps ?? null,
      cacheMode: doc.cacheMode,
      dataPattern: doc.dataPattern,
      notes: flags.map((f) => f.message),
    };
    const peak = { write: Math.max(s.peak.write, testPeak(write)), read: Math.max(s.peak.read, testPeak(read)) };
    const best = Math.max(peak.write, peak.read);
    set({
      results: [...s.results, result],
      cycleDocs: [...s.cycleDocs, doc],
      peak,
      scale: chooseScale(best, s.scale),
      lastByTarget: s.target ? { ...s.lastByTarget, [s.target]: best } : s.lastByTarget,
    });
    const wait = combinedAt + COMBINE_MS - Date.now();
    if (wait <= 0) recombine();
    else pending ??= setTimeout(recombine, wait);
  }

  /** Settings stay as they are while a test starts, runs or stops. */
  const idle = (): boolean => !isBusy(get().status);

  return {
    ...initial,

    setSize(bytes) {
      if (idle() && isValidSize(bytes)) set({ sizeBytes: bytes, sizeError: null });
    },

    setSizeError(error) {
      if (idle()) set({ sizeError: error });
    },

    setMode(mode) {
      if (idle()) set({ mode });
    },

    setRuns(runs) {
      if (idle() && Number.isInteger(runs) && runs >= 1 && runs <= MAX_RUNS) set({ runs });
    },

    setSettle(on) {
      if (idle()) set({ settle: on });
    },

    async start(target, knownMBps = 0) {
      const s = get();
      if (isBusy(s.status) || s.sizeError) return;
      // Clear the last run's figures at once: the dials fall back to zero as the new run begins,
      // on the scale what is known of this target calls for.
      dropPending();
      const starting = { ...runState, startedAt: Date.now(), target, scale: knownScale(s.lastByTarget, target, knownMBps) };
      const settings = {
        target,
        sizeBytes: s.sizeBytes,
        mode: s.mode,
        runs: s.runs,
        ...(s.settle ? { precision: DEFAULT_PRECISION } : {}),
      };
      await life.start({ jobId: null }, () => getBridge().startQuickTest(settings), {
        starting,
        refused: (error) => ({ outcome: 'failed', error }),
      });
    },

    learn(target, mbps) {
      const { lastByTarget } = get();
      if (target in lastByTarget || !Number.isFinite(mbps) || mbps <= 0) return;
      set({ lastByTarget: { ...lastByTarget, [target]: mbps } });
    },

    async stop() {
      await life.stop((error) => set({ error }));
    },

    onProgress(e, now = Date.now()) {
      get().onProgressBatch([[e, now]]);
    },

    onProgressBatch(events) {
      // Our job's events only; those before the start's answer are held and replayed one by one.
      const ours = events.filter(([e]) => {
        let mine = false;
        life.route('progress', e, () => (mine = true));
        return mine;
      });
      const s = get();
      let patch: Partial<QuickTestState> | null = null;
      let live = s.live;
      let avg = s.avg;
      let peak = s.peak;
      let scale = s.scale;
      let points: WriteReadPoint[] | null = null;
      for (const [e, now] of ours) {
        patch = { phase: e.phase, stage: e.stage, cycle: e.cycle, cycles: e.cycles, bytesDone: e.bytesDone, bytesTotal: e.bytesTotal };
        // Only the measured stage moves the figures: 'prepare' lays out the file (not the disk's
        // speed) and the flush's 0 MB/s instant would leave WRITE at 0 for the whole read phase.
        if (e.stage !== 'run' || !Number.isFinite(e.instMBps) || e.instMBps < 0) continue;
        const v = e.instMBps;
        live = { ...live, [e.phase]: v };
        if (Number.isFinite(e.avgMBps) && e.avgMBps > 0) avg = { ...avg, [e.phase]: e.avgMBps };
        peak = { ...peak, [e.phase]: Math.max(peak[e.phase], v) };
        scale = chooseScale(Math.max(peak.write, peak.read), scale);
        (points ??= []).push({
          t: Math.max(0, (now - s.startedAt) / 1000),
          write: e.phase === 'write' ? v : null,
          read: e.phase === 'read' ? v : null,
        });
      }
      if (!patch) return;
      if (points) {
        let series = [...s.series, ...points];
        while (series.length > SERIES_CAP) series = thin(series);
        Object.assign(patch, { live, avg, peak, scale, series });
      }
      set(patch);
    },

    onCycle(e) {
      life.route('cycle', e, () => applyCycle(e));
    },

    onDone(e) {
      life.end(e, (_job, done) => {
        // The saved result (or the cycles so far, combined now) is what the end shows.
        if (!done.result && pending) recombine();
        dropPending();
        if (done.outcome === 'failed')
          return { outcome: 'failed', error: done.error ?? { code: 'ERR_FAILED', message: 'The test failed.' } };
        // Stopped or finished: the needles come to rest on the saved result's aggregate, the mean of
        // its runs (or zero when no cycle finished); peaks, results and the chart stay.
        const s = get();
        const shownDoc = done.result ? shown(done.result) : { doc: s.doc, aggregate: s.aggregate, settled: s.settled, flags: s.flags };
        return {
          outcome: 'done',
          stopped: done.outcome === 'stopped',
          ...shownDoc,
          live: shownDoc.settled ?? zero,
          phase: null,
          stage: null,
          saved: done.saved ?? null,
        };
      });
    },

    onPaced(doc) {
      const s = get();
      const id = s.saved && 'id' in s.saved ? s.saved.id : undefined;
      if (!doc || !kindOf(doc.kind)?.paced || id === undefined || launchedFrom(doc) !== id) return;
      set({ paced: [...s.paced.filter((p) => p.id !== doc.id), doc] });
    },

    reset() {
      dropPending();
      set({ ...initial, lastByTarget: {} });
    },
  };
});

export const selectIsBusy = (s: QuickTestState): boolean => isBusy(s.status);

/** The screen's word for where the test is: starting counts as running, and once it has ended,
 *  how it ended. */
export const selectQuickStatus = (s: QuickTestState): Status =>
  s.status === 'starting' ? 'running' : s.status === 'idle' ? (s.outcome ?? 'idle') : s.status;
export const selectLatestResult = (s: QuickTestState): CycleResult | undefined => s.results[s.results.length - 1];
