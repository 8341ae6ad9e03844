// The one IPC contract between the UI (renderer) and the core: every request, its payload schema
// (validated at runtime with zod wherever a payload crosses a process or network boundary) and
// its response type, and every event the core sends. Electron's preload/main and browser mode's
// WebSocket server both speak exactly this; nothing else crosses.
import { z } from 'zod';

import type {
  DetailedDoneEvent,
  DetailedPlanEvent,
  DetailedProgressEvent,
  DetailedStepEvent,
  HashDoneEvent,
  HashProgressEvent,
  HashStageEvent,
  IpcError,
  QuickCycleEvent,
  QuickDoneEvent,
  QuickProgressEvent,
  WizardDoneEvent,
  WizardFormatEvent,
  WizardProgressEvent,
} from '../model/events.js';
import type { AppInfo, ExportFile, HistoryEntry, HistoryListing, ShareCard, TargetInfo } from '../model/history.js';
import type { ResultDocument } from '../model/result.js';
import {
  DetailedSettings,
  ExportFormat,
  HashSettings,
  QuickTestSettings,
  ResultId,
  TargetPath,
  WizardSettingsSchema,
  type WizardSettings,
} from '../model/settings.js';
import { LABEL_MAX } from '../model/text.js';
import type { FormatInfo, WizardDisk, WizardPlanState } from '../model/wizard/types.js';

const MiB = 1024 * 1024;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

// ---- requests (renderer → core), each answered with IpcResult<Response> ---------------------

export const requests = {
  /** App and engine versions, platform: for the About line and result cards. The engine's version is asked of the engine's own process. */
  'app.info': z.object({}).strict(),
  /** Mounted volumes worth testing. */
  'targets.list': z.object({}).strict(),
  /** Describe one folder (a volume or any folder the user typed or picked). */
  'targets.describe': z.object({ path: TargetPath }).strict(),
  /** Electron only: the OS folder picker. Browser mode answers ERR_UNSUPPORTED. */
  'targets.choose': z.object({}).strict(),
  /** Start a Quick Test. One test runs at a time: a second start answers ERR_BUSY. */
  'quick.start': QuickTestSettings,
  /** Stop the running test (its files are removed). Unknown or finished job ids are ignored. */
  'quick.stop': z.object({ jobId: z.string().min(1).max(100) }).strict(),
  /** Start a detailed test. Shares the one-test-at-a-time rule with the Quick Test (ERR_BUSY). */
  'detailed.start': DetailedSettings,
  /** Stop the running detailed test (its files are removed). */
  'detailed.stop': z.object({ jobId: z.string().min(1).max(100) }).strict(),
  /** Electron only: the OS file picker, for the hash test. Browser mode answers ERR_UNSUPPORTED. */
  'files.choose': z.object({}).strict(),
  /** Start a hash test. Shares the one-test-at-a-time rule (ERR_BUSY). */
  'hash.start': HashSettings,
  /** Stop the running hash test (a generated test file is removed; the user's file is untouched). */
  'hash.stop': z.object({ jobId: z.string().min(1).max(100) }).strict(),
  /** Every saved result, newest first, and the files that could not be read. */
  'history.list': z.object({}).strict(),
  /** One saved result document. */
  'history.get': z.object({ id: ResultId }).strict(),
  /** Names a result ("Direct to the port", "Through the hub"); an empty label removes it. At most
   *  LABEL_MAX characters; control characters are removed (core/text.ts cleanLabel). */
  'history.label': z.object({ id: ResultId, label: z.string().max(LABEL_MAX) }).strict(),
  /** Deletes saved results. */
  'history.delete': z.object({ ids: z.array(ResultId).min(1).max(1000) }).strict(),
  /** Adds a result document from another machine (its JSON text, as exported). */
  'history.import': z
    .object({
      json: z
        .string()
        .min(1)
        .max(32 * MiB),
      name: z.string().max(255).optional(),
    })
    .strict(),
  /** One result, or several side by side (the first, or `baseline`, is the reference), as text. */
  'history.export': z.object({ ids: z.array(ResultId).min(1).max(20), format: ExportFormat, baseline: ResultId.optional() }).strict(),
  /** The share card of a result: PNG (and its SVG). */
  'share.card': z.object({ id: ResultId, scale: z.number().int().min(1).max(4).optional() }).strict(),
  /** Electron only: the OS save dialog, then writes the file. Browser mode downloads in the page. */
  'files.save': z
    .object({ filename: z.string().min(1).max(255), data: z.string().max(64 * MiB), encoding: z.enum(['utf8', 'base64']) })
    .strict(),
  /** Electron only: text or a PNG image to the clipboard. Browser mode uses the page's clipboard. */
  'clipboard.write': z.union([
    z.object({ text: z.string().max(16 * MiB) }).strict(),
    z.object({ pngBase64: z.string().max(64 * MiB) }).strict(),
  ]),
  /** Whole disks, with what is on them and whether the wizard may erase each (and why not). */
  'disks.list': z.object({ includeInternal: z.boolean().optional() }).strict(),
  /** The file systems the wizard knows on this platform, and which this machine can make. */
  'formats.list': z.object({}).strict(),
  /** Starts a format-and-compare plan. One job at a time across every screen (ERR_BUSY). */
  'wizard.start': WizardSettingsSchema,
  /** Stops the plan after unmounting; finished formats stay saved, the disk is left as it is. */
  'wizard.stop': z.object({ jobId: z.string().min(1).max(100) }).strict(),
  /** Plans that did not finish (interrupted by a crash, a pulled disk, Stop), newest first. */
  'wizard.plans': z.object({}).strict(),
  /** Resumes a plan at its first unfinished format; the disk's name is typed again. */
  'wizard.resume': z.object({ planId: ResultId, confirmName: z.string().min(1).max(256) }).strict(),
  /** Forgets an unfinished plan (its saved results stay in history). */
  'wizard.discard': z.object({ planId: ResultId }).strict(),
  /** The comparison report (format × read/write × stress size) of saved results, as text. */
  'report.export': z
    .object({ ids: z.array(ResultId).min(1).max(64), format: ExportFormat, baseline: z.string().max(200).optional() })
    .strict(),
  /** Electron only: the report as PDF through the OS save dialog. Browser mode prints the page. */
  'report.pdf': z.object({ ids: z.array(ResultId).min(1).max(64), baseline: z.string().max(200).optional() }).strict(),
} as const;

export type RequestChannel = keyof typeof requests;
export type RequestPayload<C extends RequestChannel> = z.infer<(typeof requests)[C]>;

export interface ResponseMap {
  'app.info': AppInfo;
  'targets.list': TargetInfo[];
  'targets.describe': TargetInfo;
  'targets.choose': TargetInfo | null;
  'quick.start': { jobId: string };
  'quick.stop': { stopped: boolean };
  'detailed.start': { jobId: string };
  'detailed.stop': { stopped: boolean };
  'files.choose': { path: string; bytes: number } | null;
  'hash.start': { jobId: string };
  'hash.stop': { stopped: boolean };
  'history.list': HistoryListing;
  'history.get': ResultDocument;
  'history.label': HistoryEntry;
  'history.delete': { deleted: number };
  'history.import': { entry: HistoryEntry; duplicate: boolean };
  'history.export': ExportFile;
  'share.card': ShareCard;
  'files.save': { path: string } | null;
  'clipboard.write': { written: true };
  'disks.list': WizardDisk[];
  'formats.list': FormatInfo[];
  'wizard.start': { jobId: string; planId: string };
  'wizard.stop': { stopped: boolean };
  'wizard.plans': WizardPlanState[];
  'wizard.resume': { jobId: string; planId: string };
  'wizard.discard': { discarded: boolean };
  'report.export': ExportFile;
  'report.pdf': { path: string } | null;
}

export interface EventMap {
  'quick.progress': QuickProgressEvent;
  'quick.cycle': QuickCycleEvent;
  'quick.done': QuickDoneEvent;
  'detailed.plan': DetailedPlanEvent;
  'detailed.progress': DetailedProgressEvent;
  'detailed.step': DetailedStepEvent;
  'detailed.done': DetailedDoneEvent;
  'hash.progress': HashProgressEvent;
  'hash.stage': HashStageEvent;
  'hash.done': HashDoneEvent;
  'wizard.progress': WizardProgressEvent;
  'wizard.format': WizardFormatEvent;
  'wizard.done': WizardDoneEvent;
}
export type EventChannel = keyof EventMap;

/** The renderer's single door to the outside (window.diskdial in Electron; a WebSocket client in
 *  browser mode): verbs only, no channel names. */
export interface DiskDialBridge {
  appInfo(): Promise<IpcResult<AppInfo>>;
  listTargets(): Promise<IpcResult<TargetInfo[]>>;
  describeTarget(path: string): Promise<IpcResult<TargetInfo>>;
  chooseFolder(): Promise<IpcResult<TargetInfo | null>>;
  startQuickTest(settings: QuickTestSettings): Promise<IpcResult<{ jobId: string }>>;
  stopQuickTest(jobId: string): Promise<IpcResult<{ stopped: boolean }>>;
  /** Returns an unsubscribe function. */
  onQuickProgress(cb: (e: QuickProgressEvent) => void): () => void;
  onQuickCycle(cb: (e: QuickCycleEvent) => void): () => void;
  onQuickDone(cb: (e: QuickDoneEvent) => void): () => void;
  startDetailed(settings: DetailedSettings): Promise<IpcResult<{ jobId: string }>>;
  stopDetailed(jobId: string): Promise<IpcResult<{ stopped: boolean }>>;
  onDetailedPlan(cb: (e: DetailedPlanEvent) => void): () => void;
  onDetailedProgress(cb: (e: DetailedProgressEvent) => void): () => void;
  onDetailedStep(cb: (e: DetailedStepEvent) => void): () => void;
  onDetailedDone(cb: (e: DetailedDoneEvent) => void): () => void;
  /** Electron: the OS file picker (null when cancelled); browser mode: ERR_UNSUPPORTED. */
  chooseFile(): Promise<IpcResult<{ path: string; bytes: number } | null>>;
  startHash(settings: HashSettings): Promise<IpcResult<{ jobId: string }>>;
  stopHash(jobId: string): Promise<IpcResult<{ stopped: boolean }>>;
  onHashProgress(cb: (e: HashProgressEvent) => void): () => void;
  onHashStage(cb: (e: HashStageEvent) => void): () => void;
  onHashDone(cb: (e: HashDoneEvent) => void): () => void;
  listHistory(): Promise<IpcResult<HistoryListing>>;
  getResult(id: string): Promise<IpcResult<ResultDocument>>;
  labelResult(id: string, label: string): Promise<IpcResult<HistoryEntry>>;
  deleteResults(ids: string[]): Promise<IpcResult<{ deleted: number }>>;
  /** `json`: the text of an exported result file; `name`: its file name, for messages. */
  importResult(json: string, name?: string): Promise<IpcResult<{ entry: HistoryEntry; duplicate: boolean }>>;
  exportResults(ids: string[], format: ExportFormat, baseline?: string): Promise<IpcResult<ExportFile>>;
  shareCard(id: string, scale?: number): Promise<IpcResult<ShareCard>>;
  /** Electron: the OS save dialog (null when cancelled); browser mode: a download of that name. */
  saveFile(filename: string, data: string, encoding: 'utf8' | 'base64', mime: string): Promise<IpcResult<{ path: string } | null>>;
  copyText(text: string): Promise<IpcResult<{ written: true }>>;
  copyImage(pngBase64: string): Promise<IpcResult<{ written: true }>>;
  listDisks(includeInternal?: boolean): Promise<IpcResult<WizardDisk[]>>;
  listFormats(): Promise<IpcResult<FormatInfo[]>>;
  startWizard(settings: WizardSettings): Promise<IpcResult<{ jobId: string; planId: string }>>;
  stopWizard(jobId: string): Promise<IpcResult<{ stopped: boolean }>>;
  listPlans(): Promise<IpcResult<WizardPlanState[]>>;
  resumePlan(planId: string, confirmName: string): Promise<IpcResult<{ jobId: string; planId: string }>>;
  discardPlan(planId: string): Promise<IpcResult<{ discarded: boolean }>>;
  exportReport(ids: string[], format: ExportFormat, baseline?: string): Promise<IpcResult<ExportFile>>;
  /** Electron: PDF through the save dialog (null when cancelled); browser mode: ERR_UNSUPPORTED (print the page). */
  saveReportPdf(ids: string[], baseline?: string): Promise<IpcResult<{ path: string } | null>>;
  onWizardProgress(cb: (e: WizardProgressEvent) => void): () => void;
  onWizardFormat(cb: (e: WizardFormatEvent) => void): () => void;
  onWizardDone(cb: (e: WizardDoneEvent) => void): () => void;
}

// ---- browser mode: the same contract over one WebSocket -------------------------------------
// The page is served at http://127.0.0.1:PORT/?token=T; it opens ws://127.0.0.1:PORT/ws?token=T.
// The server refuses an upgrade without the token or from another Origin or Host.

/** Client → server: a request. `id` pairs it with its reply. */
export interface WireRequest {
  id: number;
  channel: string;
  payload: unknown;
}
/** Server → client: the reply to request `id`, or an event. */
export type WireMessage = { id: number; result: IpcResult<unknown> } | { event: EventChannel; data: EventMap[EventChannel] };

// ---- the core side: one dispatcher behind both front doors ----------------------------------

/** Where the core sends events for a job: the window (or socket) that started it. */
export interface EventSink {
  send<C extends EventChannel>(channel: C, data: EventMap[C]): void;
  /** False once the window or socket is gone; events for it are dropped. */
  readonly alive: boolean;
}

/** Validates a request's payload, runs it, and answers with a result, never a throw. Both
 *  Electron's main process and browser mode's server call this and nothing else. */
export interface Dispatcher {
  handle(channel: string, payload: unknown, sink: EventSink): Promise<IpcResult<unknown>>;
  /** Stops running jobs (app quit, server close). */
  close(): Promise<void>;
  /** The window or socket behind `sink` is gone: stops the jobs it started (nothing runs
   *  unattended) and resolves once their files are removed. */
  release?(sink: EventSink): Promise<void>;
}
