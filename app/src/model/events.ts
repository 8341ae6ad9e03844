// Every event a job sends to the screen that started it, and the error shape that crosses IPC.
import type { FrameCounts } from './engine-types.js';
import type { RateProgress, TimedProgress } from './progress.js';
import type { ResultDocument, ResultTest } from './result.js';
import type { DetailedKind } from './settings.js';
import type { FormatId, WizardStage } from './wizard/types.js';

/** Errors cross IPC as data: Electron drops custom fields of thrown errors across `invoke`. */
export interface IpcError {
  /** Node-style code (ENOSPC, EROFS…) or ours (ERR_INVALID_PAYLOAD, ERR_BUSY, ERR_ENGINE_CRASHED…). */
  code: string;
  /** Plain words, ready to show. */
  message: string;
}

const FALLBACK: Record<string, string> = {
  ERR_BUSY: 'Another test is running. Stop it or wait for it to finish, then start this one.',
  ERR_DISCONNECTED: 'Lost the connection to DiskDial.',
};

/** An IPC error as a sentence to show: the core's own words, else what its code means, else
 *  `fallback`. */
export function ipcErrorText(err: IpcError | undefined, fallback = 'The test failed.'): string {
  const message = err?.message?.trim();
  if (message) return message;
  return FALLBACK[err?.code ?? ''] ?? fallback;
}

// ---- events (core → the renderer that started the job) --------------------------------------

export type JobOutcome = 'finished' | 'stopped' | 'failed';

/** How every job ends: 'finished' (all done), 'stopped' (the user stopped it) or 'failed' (see error). */
export interface JobEnd {
  jobId: string;
  outcome: JobOutcome;
  error?: IpcError;
  /** Stopped without waiting for a drive that is not answering: what was left, and where it goes. */
  note?: string;
}

/** The drive under the running job has moved no data for `seconds` (EngineHost's watch). */
export interface JobNotAnsweringEvent {
  jobId: string;
  seconds: number;
  /** The file the engine was working on. */
  path?: string;
}

/** A test job's end: its result document and whether it went into history. */
export interface TestDone extends JobEnd {
  result?: ResultDocument;
  saved?: SavedNote;
}

export type QuickPhase = 'write' | 'read';

export interface QuickProgressEvent extends RateProgress {
  jobId: string;
  /** 1-based cycle number; in continuous mode it keeps counting. */
  cycle: number;
  /** Planned cycles; 0 in continuous mode. */
  cycles: number;
  phase: QuickPhase;
  /** The engine's own phase: preparing a file, measuring, flushing. */
  stage: 'prepare' | 'warmup' | 'run' | 'flush';
  elapsed: number;
}

export interface QuickCycleEvent {
  jobId: string;
  cycle: number;
  /** The finished cycle's result document (a write and a read test). */
  result: ResultDocument;
}

/** result: the cycles that completed, as one document (each cycle a run), when at least one did. */
export type QuickDoneEvent = TestDone;

/** Whether a job's result went into history: its id, or why it could not be saved (the test
 *  itself still succeeded). */
export type SavedNote = { id: string } | { error: IpcError };

/** The plan of a detailed job, once known (sustained and files size themselves to free space). */
export interface DetailedPlanEvent {
  jobId: string;
  kind: DetailedKind;
  runs: number;
  /** Step names of one run, in order. */
  steps: string[];
  /** Bytes one run writes, at most. */
  bytes: number;
  /** What the plan changed from what was asked (e.g. scaled to free space), plain words. */
  notes: string[];
  /** files: set when free space was short and the set was scaled down (also in notes). */
  scaled?: string;
  /** files: the set, so a scatter can place each file as it finishes. */
  files?: Array<{ name: string; bytes: number }>;
}

export interface DetailedProgressEvent extends TimedProgress {
  jobId: string;
  kind: DetailedKind;
  /** 1-based run, of runs. */
  run: number;
  runs: number;
  /** 0-based step within a run, of testCount. */
  testIndex: number;
  testCount: number;
  testName: string;
  /** The engine's phase, or a pause: resting between runs, CDM's interval between tests. */
  stage: 'prepare' | 'warmup' | 'run' | 'flush' | 'rest' | 'interval';
  /** rest/interval: whole seconds left. During an interval testIndex/testName are the step
   *  about to run; during a rest, testIndex is 0 and testName "Rest before run N". */
  remaining?: number;
  /** A paced step (the video test's): its frames so far (on time, late, dropped). */
  frames?: FrameCounts;
}

/** One step finished: CDM fills a cell, sustained a run, files a point of the scatter. */
export interface DetailedStepEvent {
  jobId: string;
  kind: DetailedKind;
  run: number;
  testIndex: number;
  /** The step as a row of the result document (files: one file's figures). */
  test: ResultTest;
  /** files: which file and pass. */
  file?: { name: string; bytes: number; pass: 'write' | 'read' };
}

/** finished: the whole result document, and whether it went into history. */
export type DetailedDoneEvent = TestDone;

/** The hash test's stages, in the order they run ('write' only for a generated test file). */
export type HashStage = 'write' | 'read' | 'read-hash' | 'memory' | 'memory-parallel';

/** bytesTotal: the file's size for write/read stages; 0 for the time-bound memory stages. */
export interface HashProgressEvent extends TimedProgress {
  jobId: string;
  stage: HashStage;
  /** 0-based, of stageCount (4, or 5 with 'write'). */
  stageIndex: number;
  stageCount: number;
  /** memory stages: the streams hashing (1, or one per core). */
  threads?: number;
}

/** A stage finished: its rate, so the bars fill in one by one. */
export interface HashStageEvent {
  jobId: string;
  stage: HashStage;
  mbps: number;
  bytes: number;
  seconds: number;
  /** memory stages: the streams used. */
  threads?: number;
  /** read-hash: the digest, as soon as it is known. */
  digest?: string;
}

/** finished: the result document (kind 'hash', with its `hash` section), and whether it went into history. */
export type HashDoneEvent = TestDone;

/** The folder check's progress: files and bytes done of those to hash, the file last started. */
export interface CheckProgressEvent {
  jobId: string;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Relative to the folder. */
  current: string;
  elapsedSeconds: number;
}

/** finished: the result document (kind 'check', with its `check` section). */
export type CheckDoneEvent = TestDone;

export interface WizardProgressEvent {
  jobId: string;
  planId: string;
  /** 0-based format being worked on, of formatCount; formatCount during the final format. */
  formatIndex: number;
  formatCount: number;
  format: FormatId;
  formatLabel: string;
  stage: WizardStage;
  /** What is happening, in plain words: "Erasing /dev/sdb and making XFS…". */
  message: string;
  /** While testing: the test's progress, for the dials. */
  test?: RateProgress & {
    name: string;
    /** The stress size of this test (quick plan). */
    sizeBytes?: number;
    run: number;
    runs: number;
    phase: 'write' | 'read' | 'other';
  };
  /** resting: whole seconds left. */
  remaining?: number;
  /** Seconds since the plan started, and an estimate of the seconds left (absent until one format has run). */
  elapsed: number;
  remainingSeconds?: number;
}

/** One format is done: its results are saved (history) and the plan file says so. */
export interface WizardFormatEvent {
  jobId: string;
  planId: string;
  format: FormatId;
  formatLabel: string;
  resultIds: string[];
}

export interface WizardDoneEvent extends JobEnd {
  planId: string;
  /** Every result the plan saved (finished formats only). */
  resultIds: string[];
}

/** A setup campaign waits for the person to change to the next setup (Continue / Stop here). */
export interface CampaignWaitingEvent {
  jobId: string;
  campaignId: string;
  /** 0-based setup, of setupCount. */
  setup: number;
  setupCount: number;
  setupName: string;
  /** Where it stands: "GigE done (2 tests), Wi-Fi 0 of 2 tests". */
  progress: string;
  /** Seconds of testing left (model/campaign-plan.ts), when every test could be estimated. */
  secondsLeft?: number;
}

/** A campaign's test in flight: which setup and kind, and the runner's progress. */
export interface CampaignProgressEvent extends TimedProgress {
  jobId: string;
  campaignId: string;
  /** 0-based step of stepCount (setup by setup, the plan's kinds in order). */
  step: number;
  stepCount: number;
  setupName: string;
  kind: string;
  testName: string;
  run: number;
  runs: number;
  /** Seconds of testing left, this test's rest included, when every test could be estimated. */
  secondsLeft?: number;
}

export interface CampaignDoneEvent extends JobEnd {
  campaignId: string;
  /** Every result the campaign has (earlier sessions' included), in step order. */
  resultIds: string[];
  /** Stopped before a setup, or why it failed, in words. */
  reason?: string;
}
