// The one IPC contract between the UI (renderer) and the core: every request, its payload schema
// (validated at runtime with zod wherever a payload crosses a process or network boundary) and
// its response type, and every event the core sends. Electron's preload/main and browser mode's
// WebSocket server both speak exactly this; nothing else crosses.
import { z } from 'zod';

import type { IpcError } from '../model/events.js';
import { events, type EventChannel, type EventMap, type EventSink } from '../model/event-map.js';
import {
  MAX_IMPORT_BYTES,
  type AppInfo,
  type ExportFile,
  type HistoryEntry,
  type HistoryListing,
  HistoryQuery,
  type ShareCard,
  type TargetInfo,
} from '../model/history.js';
import type { ResultDocument } from '../model/result.js';
import {
  CampaignSettings,
  CheckSettings,
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
import type { CampaignState } from '../model/campaign.js';

// The events and their sink live in the model, where the services reach them without this contract.
export { events, type EventChannel, type EventMap, type EventOf, type EventSink } from '../model/event-map.js';

const MiB = 1024 * 1024;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

// ---- the channel map: every request (renderer → core), its answer and its bridge verbs -------
// One entry per channel: the payload's zod schema, the response type, the DiskDialBridge verbs
// that send it (each verb's arguments → the payload) and, for a start, the event that ends the
// job. `requests`, ResponseMap, DiskDialBridge, both bridges and the dispatcher's handler table
// are derived from it: a new channel is one entry here and one handler in dispatch.ts.

declare const replyType: unique symbol;
/** A channel's response type, carried as a type only (the value is an empty object). */
export interface Reply<T> {
  readonly [replyType]: T;
}
const reply = <T>(): Reply<T> => ({}) as Reply<T>;

/** A bridge verb: its arguments in, the channel's payload out. */
type Verb<S extends z.ZodType> = (...args: never[]) => z.input<S>;

export interface ChannelDef<S extends z.ZodType, R, V extends Record<string, Verb<S>>> {
  request: S;
  reply: Reply<R>;
  verbs: V;
  /** A start: the answer's jobId names a job that ends with this event. */
  job?: EventChannel;
}

function channel<S extends z.ZodType, R, V extends Record<string, Verb<S>>>(
  request: S,
  answer: Reply<R>,
  verbs: V,
  job?: EventChannel,
): ChannelDef<S, R, V> {
  return job === undefined ? { request, reply: answer, verbs } : { request, reply: answer, verbs, job };
}

const Empty = z.object({}).strict();
const JobRef = z.object({ jobId: z.string().min(1).max(100) }).strict();
const none = (): Record<string, never> => ({});
const jobRef = (jobId: string): { jobId: string } => ({ jobId });

export const channels = {
  /** App and engine versions, platform: for the About line and result cards. The engine's version is asked of the engine's own process. */
  'app.info': channel(Empty, reply<AppInfo>(), { appInfo: none }),
  /** Mounted volumes worth testing. */
  'targets.list': channel(Empty, reply<TargetInfo[]>(), { listTargets: none }),
  /** Describe one folder (a volume or any folder the user typed or picked). */
  'targets.describe': channel(z.object({ path: TargetPath }).strict(), reply<TargetInfo>(), {
    describeTarget: (path: string) => ({ path }),
  }),
  /** Electron only: the OS folder picker. Browser mode answers ERR_UNSUPPORTED. */
  'targets.choose': channel(Empty, reply<TargetInfo | null>(), { chooseFolder: none }),
  /** Start a Quick Test. One test runs at a time: a second start answers ERR_BUSY. */
  'quick.start': channel(
    QuickTestSettings,
    reply<{ jobId: string }>(),
    { startQuickTest: (settings: QuickTestSettings) => settings },
    'quick.done',
  ),
  /** Stop the running test (its files are removed). Unknown or finished job ids are ignored. */
  'quick.stop': channel(JobRef, reply<{ stopped: boolean }>(), { stopQuickTest: jobRef }),
  /** Start a detailed test. Shares the one-test-at-a-time rule with the Quick Test (ERR_BUSY). */
  'detailed.start': channel(
    DetailedSettings,
    reply<{ jobId: string }>(),
    { startDetailed: (settings: DetailedSettings) => settings },
    'detailed.done',
  ),
  /** Stop the running detailed test (its files are removed). */
  'detailed.stop': channel(JobRef, reply<{ stopped: boolean }>(), { stopDetailed: jobRef }),
  /** Electron only: the OS file picker (null when cancelled), for the hash test. Browser mode answers ERR_UNSUPPORTED. */
  'files.choose': channel(Empty, reply<{ path: string; bytes: number } | null>(), { chooseFile: none }),
  /** Start a hash test. Shares the one-test-at-a-time rule (ERR_BUSY). */
  'hash.start': channel(HashSettings, reply<{ jobId: string }>(), { startHash: (settings: HashSettings) => settings }, 'hash.done'),
  /** Stop the running hash test (a generated test file is removed; the user's file is untouched). */
  'hash.stop': channel(JobRef, reply<{ stopped: boolean }>(), { stopHash: jobRef }),
  /** Start a folder check (every file hashed, its manifest written or re-checked). Shares the
   *  one-test-at-a-time rule (ERR_BUSY); the files are only read. */
  'check.start': channel(CheckSettings, reply<{ jobId: string }>(), { startCheck: (settings: CheckSettings) => settings }, 'check.done'),
  /** Stop the running folder check (the manifest is left as it was). */
  'check.stop': channel(JobRef, reply<{ stopped: boolean }>(), { stopCheck: jobRef }),
  /** One page of saved results (all of them, newest first, without a query), how many match, every
   *  drive, and the files that could not be read. */
  'history.list': channel(HistoryQuery, reply<HistoryListing>(), { listHistory: (query: HistoryQuery = {}) => query }),
  /** Every result of one drive (HistoryEntry.driveKey), oldest first: "this drive over time". */
  'history.drive': channel(z.object({ driveKey: z.string().min(1).max(500) }).strict(), reply<HistoryEntry[]>(), {
    driveHistory: (driveKey: string) => ({ driveKey }),
  }),
  /** One saved result document. */
  'history.get': channel(z.object({ id: ResultId }).strict(), reply<ResultDocument>(), { getResult: (id: string) => ({ id }) }),
  /** Names a result ("Direct to the port", "Through the hub"); an empty label removes it. At most
   *  LABEL_MAX characters; control characters are removed (model/text.ts cleanLabel). */
  'history.label': channel(z.object({ id: ResultId, label: z.string().max(LABEL_MAX) }).strict(), reply<HistoryEntry>(), {
    labelResult: (id: string, label: string) => ({ id, label }),
  }),
  /** Deletes saved results. */
  'history.delete': channel(z.object({ ids: z.array(ResultId).min(1).max(1000) }).strict(), reply<{ deleted: number }>(), {
    deleteResults: (ids: string[]) => ({ ids }),
  }),
  /** Adds a result document from another machine: `json` the text of an exported result file,
   *  `name` its file name, for messages. */
  'history.import': channel(
    z
      .object({
        json: z.string().min(1).max(MAX_IMPORT_BYTES),
        name: z.string().max(255).optional(),
      })
      .strict(),
    reply<{ entry: HistoryEntry; duplicate: boolean }>(),
    { importResult: (json: string, name?: string) => (name === undefined ? { json } : { json, name }) },
  ),
  /** One result, or several side by side (the first, or `baseline`, is the reference), as text;
   *  `fps`: the frame rate of a Quick Test's "Will it work?" section (29.97 without it). */
  'history.export': channel(
    z
      .object({
        ids: z.array(ResultId).min(1).max(20),
        format: ExportFormat,
        baseline: ResultId.optional(),
        fps: z.number().positive().max(1000).optional(),
      })
      .strict(),
    reply<ExportFile>(),
    {
      exportResults: (ids: string[], format: ExportFormat, baseline?: string, fps?: number) => ({
        ids,
        format,
        ...(baseline === undefined ? {} : { baseline }),
        ...(fps === undefined ? {} : { fps }),
      }),
    },
  ),
  /** The share card of a result: PNG (and its SVG). */
  'share.card': channel(z.object({ id: ResultId, scale: z.number().int().min(1).max(4).optional() }).strict(), reply<ShareCard>(), {
    shareCard: (id: string, scale?: number) => (scale === undefined ? { id } : { id, scale }),
  }),
  /** Electron only: the OS save dialog (null when cancelled), then writes the file. Browser mode
   *  downloads in the page (`mime` is for that download; the desktop's dialog filters by extension). */
  'files.save': channel(
    z.object({ filename: z.string().min(1).max(255), data: z.string().max(64 * MiB), encoding: z.enum(['utf8', 'base64']) }).strict(),
    reply<{ path: string } | null>(),
    {
      saveFile: (filename: string, data: string, encoding: 'utf8' | 'base64', _mime: string) => ({ filename, data, encoding }),
    },
  ),
  /** Electron only: text or a PNG image to the clipboard. Browser mode uses the page's clipboard. */
  'clipboard.write': channel(
    z.union([z.object({ text: z.string().max(16 * MiB) }).strict(), z.object({ pngBase64: z.string().max(64 * MiB) }).strict()]),
    reply<{ written: true }>(),
    { copyText: (text: string) => ({ text }), copyImage: (pngBase64: string) => ({ pngBase64 }) },
  ),
  /** Whole disks, with what is on them and whether the wizard may erase each (and why not). */
  'disks.list': channel(z.object({ includeInternal: z.boolean().optional() }).strict(), reply<WizardDisk[]>(), {
    listDisks: (includeInternal?: boolean) => (includeInternal === undefined ? {} : { includeInternal }),
  }),
  /** The file systems the wizard knows on this platform, and which this machine can make. */
  'formats.list': channel(Empty, reply<FormatInfo[]>(), { listFormats: none }),
  /** Starts a format-and-compare plan. One job at a time across every screen (ERR_BUSY). */
  'wizard.start': channel(
    WizardSettingsSchema,
    reply<{ jobId: string; planId: string }>(),
    { startWizard: (settings: WizardSettings) => settings },
    'wizard.done',
  ),
  /** Stops the plan after unmounting; finished formats stay saved, the disk is left as it is. */
  'wizard.stop': channel(JobRef, reply<{ stopped: boolean }>(), { stopWizard: jobRef }),
  /** Plans that did not finish (interrupted by a crash, a pulled disk, Stop), newest first. */
  'wizard.plans': channel(Empty, reply<WizardPlanState[]>(), { listPlans: none }),
  /** Resumes a plan at its first unfinished format; the disk's name is typed again. */
  'wizard.resume': channel(
    z.object({ planId: ResultId, confirmName: z.string().min(1).max(256) }).strict(),
    reply<{ jobId: string; planId: string }>(),
    { resumePlan: (planId: string, confirmName: string) => ({ planId, confirmName }) },
    'wizard.done',
  ),
  /** Forgets an unfinished plan (its saved results stay in history). */
  'wizard.discard': channel(z.object({ planId: ResultId }).strict(), reply<{ discarded: boolean }>(), {
    discardPlan: (planId: string) => ({ planId }),
  }),
  /** Starts "Compare setups": the same tests on each named setup in turns (ERR_BUSY as any test). */
  'campaign.start': channel(
    CampaignSettings,
    reply<{ jobId: string; campaignId: string }>(),
    { startCampaign: (settings: CampaignSettings) => settings },
    'campaign.done',
  ),
  /** The person has changed to the setup asked for (`go`), or stops here to resume later. */
  'campaign.continue': channel(z.object({ campaignId: ResultId, go: z.boolean() }).strict(), reply<{ accepted: boolean }>(), {
    continueCampaign: (campaignId: string, go: boolean) => ({ campaignId, go }),
  }),
  /** Stops the test in flight (its files are removed); finished setups stay saved. */
  'campaign.stop': channel(JobRef, reply<{ stopped: boolean }>(), { stopCampaign: jobRef }),
  /** Campaigns that did not finish, newest first. */
  'campaign.list': channel(Empty, reply<CampaignState[]>(), { listCampaigns: none }),
  /** Goes on with a campaign from its first unfinished test (asking for its setup first). */
  'campaign.resume': channel(
    z.object({ campaignId: ResultId }).strict(),
    reply<{ jobId: string; campaignId: string }>(),
    { resumeCampaign: (campaignId: string) => ({ campaignId }) },
    'campaign.done',
  ),
  /** Forgets an unfinished campaign (its saved results stay in history). */
  'campaign.discard': channel(z.object({ campaignId: ResultId }).strict(), reply<{ discarded: boolean }>(), {
    discardCampaign: (campaignId: string) => ({ campaignId }),
  }),
  /** The comparison report (format × read/write × stress size) of saved results, as text. */
  'report.export': channel(
    z.object({ ids: z.array(ResultId).min(1).max(64), format: ExportFormat, baseline: z.string().max(200).optional() }).strict(),
    reply<ExportFile>(),
    {
      exportReport: (ids: string[], format: ExportFormat, baseline?: string) =>
        baseline === undefined ? { ids, format } : { ids, format, baseline },
    },
  ),
  /** Electron only: the report as PDF through the OS save dialog (null when cancelled). Browser
   *  mode answers ERR_UNSUPPORTED (print the page). */
  'report.pdf': channel(
    z.object({ ids: z.array(ResultId).min(1).max(64), baseline: z.string().max(200).optional() }).strict(),
    reply<{ path: string } | null>(),
    { saveReportPdf: (ids: string[], baseline?: string) => (baseline === undefined ? { ids } : { ids, baseline }) },
  ),
};

type Channels = typeof channels;
export type RequestChannel = keyof Channels;
/** Each channel's payload schema (what the dispatcher validates with). */
export const requests = Object.fromEntries(Object.entries(channels).map(([name, def]) => [name, def.request])) as {
  readonly [C in RequestChannel]: Channels[C]['request'];
};
export type RequestPayload<C extends RequestChannel> = z.infer<Channels[C]['request']>;
export type ResponseMap = { [C in RequestChannel]: Channels[C]['reply'] extends Reply<infer R> ? R : never };

// ---- the bridge, derived: the renderer's single door to the outside --------------------------

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type VerbsOf<C extends RequestChannel> = {
  [V in keyof Channels[C]['verbs']]: Channels[C]['verbs'][V] extends (...args: infer A) => unknown
    ? (...args: A) => Promise<IpcResult<ResponseMap[C]>>
    : never;
};
/** 'quick.progress' → 'onQuickProgress'. */
export type EventVerb<E extends string> = E extends `${infer A}.${infer B}` ? `on${Capitalize<A>}${Capitalize<B>}` : never;
type RequestVerbs = UnionToIntersection<{ [C in RequestChannel]: VerbsOf<C> }[RequestChannel]>;
/** Each returns an unsubscribe function. */
type EventVerbs = { [E in EventChannel as EventVerb<E>]: (cb: (e: EventMap[E]) => void) => () => void };

/** The renderer's single door to the outside (built on window.diskdial in Electron; on a WebSocket
 *  in browser mode): verbs only, no channel names. Derived from `channels` and `events`. */
export interface DiskDialBridge extends RequestVerbs, EventVerbs {}

/** What a front door gives the renderer to build the bridge on: one generic request and one
 *  generic subscription (Electron's preload exposes exactly this as window.diskdial). */
export interface BridgeTransport {
  invoke(channel: RequestChannel, payload: unknown): Promise<IpcResult<unknown>>;
  on(event: EventChannel, cb: (data: unknown) => void): () => void;
}

export function eventVerb<E extends EventChannel>(e: E): EventVerb<E> {
  const [a = '', b = ''] = e.split('.');
  return `on${a.charAt(0).toUpperCase()}${a.slice(1)}${b.charAt(0).toUpperCase()}${b.slice(1)}` as EventVerb<E>;
}

/** Every verb of the bridge, and the channel (or event) behind it. */
export function bridgeVerbs(): Array<{ verb: keyof DiskDialBridge; channel: RequestChannel | EventChannel }> {
  const out: Array<{ verb: keyof DiskDialBridge; channel: RequestChannel | EventChannel }> = [];
  for (const [name, def] of Object.entries(channels)) {
    for (const verb of Object.keys(def.verbs)) out.push({ verb: verb as keyof DiskDialBridge, channel: name as RequestChannel });
  }
  for (const name of Object.keys(events) as EventChannel[]) out.push({ verb: eventVerb(name), channel: name });
  return out;
}

/** The DiskDialBridge over a transport: each verb turns its arguments into its channel's payload;
 *  `local` verbs are answered in the page instead (browser mode's downloads and clipboard). */
export function bindBridge(transport: BridgeTransport, local: Partial<DiskDialBridge> = {}): DiskDialBridge {
  const bridge: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(channels) as Array<[RequestChannel, { verbs: Record<string, (...a: never[]) => unknown> }]>) {
    for (const [verb, toPayload] of Object.entries(def.verbs)) {
      bridge[verb] = (...args: never[]) => transport.invoke(name, toPayload(...args));
    }
  }
  for (const name of Object.keys(events) as EventChannel[]) {
    bridge[eventVerb(name)] = (cb: (data: unknown) => void) => transport.on(name, cb);
  }
  return { ...(bridge as unknown as DiskDialBridge), ...local };
}

/** The event that ends the job a start request names (quick.start → quick.done), if it is one. */
export function jobEndOf(channel: RequestChannel): EventChannel | undefined {
  return (channels[channel] as { job?: EventChannel }).job;
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
