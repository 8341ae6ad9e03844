// The one IPC contract between the UI (renderer) and the core: every request, its payload schema
// (validated at runtime with zod wherever a payload crosses a process or network boundary) and
// its response type, and every event the core sends. Electron's preload/main and browser mode's
// WebSocket server both speak exactly this; nothing else crosses.
import { z } from 'zod';

import type { CacheMode } from '../core/engine-types.js';
import { isChecksumFilePath, parsePastedDigest } from '../core/hash-verify.js';
import {
  FORMAT_IDS,
  type FormatId,
  type FormatInfo,
  type WizardDisk,
  type WizardPlanState,
  type WizardStage,
} from '../core/wizard/types.js';
import type { ResultDocument, ResultTest } from '../core/result.js';
import { LABEL_MAX } from '../core/text.js';

// ---- shared shapes --------------------------------------------------------------------------

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** A folder path as the user picked it. Absolute; length-capped so a hostile payload stays small. */
export const TargetPath = z.string().min(1).max(4096);

export const QuickTestSettings = z
  .object({
    target: TargetPath,
    /** Stress size in bytes: Blackmagic's 1, 2, 3, 5 GB, or custom (16 MiB – 64 GiB). */
    sizeBytes: z
      .number()
      .int()
      .min(16 * MiB)
      .max(64 * GiB),
    /** `continuous`: write, read, write, read… until stopped (Blackmagic's behaviour). */
    mode: z.enum(['runs', 'continuous']),
    /** With mode `runs`: how many write+read cycles. */
    runs: z.number().int().min(1).max(100),
  })
  .strict();
export type QuickTestSettings = z.infer<typeof QuickTestSettings>;

/** Shared by every detailed test: repeat N times with a rest between runs (minutes in the UI;
 *  an SSD's cache drains while it rests). */
const Repeat = {
  runs: z.number().int().min(1).max(100),
  restSeconds: z
    .number()
    .min(0)
    .max(24 * 3600),
};

/** A detailed test (the Detailed screen): the CrystalDiskMark grid, the sustained-write curve or
 *  the many-file test. Exactly the options a person can choose there; the CLI has more. */
export const DetailedSettings = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('cdm'),
      target: TargetPath,
      preset: z.enum(['default', 'nvme', 'peak', 'realworld']),
      mode: z.enum(['readwrite', 'read', 'write', 'mix', 'all']),
      /** Test file, 16 MiB – 64 GiB (CrystalDiskMark's range). */
      sizeBytes: z
        .number()
        .int()
        .min(16 * MiB)
        .max(64 * GiB),
      /** Measured seconds per test (CrystalDiskMark: 5). */
      seconds: z.number().min(1).max(60),
      /** Pause between tests, seconds (CrystalDiskMark's interval). */
      intervalSeconds: z.number().min(0).max(60),
      ...Repeat,
    })
    .strict(),
  z
    .object({
      kind: z.literal('sustained'),
      target: TargetPath,
      /** Write up to this much (less when free space less the reserve is smaller). */
      maxBytes: z
        .number()
        .int()
        .min(64 * MiB)
        .max(64 * 1024 * GiB),
      /** Free space to leave untouched; absent: max(512 MiB, 5 % of the volume). */
      reserveBytes: z
        .number()
        .int()
        .min(0)
        .max(64 * 1024 * GiB)
        .optional(),
      ...Repeat,
    })
    .strict(),
  z
    .object({
      kind: z.literal('files'),
      target: TargetPath,
      preset: z.enum(['quick', 'standard', 'custom']),
      /** custom only (ignored otherwise): the set. */
      count: z.number().int().min(2).max(10000).optional(),
      minBytes: z
        .number()
        .int()
        .min(4096)
        .max(64 * GiB)
        .optional(),
      maxBytes: z
        .number()
        .int()
        .min(4096)
        .max(64 * GiB)
        .optional(),
      seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      reserveBytes: z
        .number()
        .int()
        .min(0)
        .max(64 * 1024 * GiB)
        .optional(),
      ...Repeat,
    })
    .strict()
    // A set whose smallest file is larger than its largest cannot be drawn; say so at the door.
    .refine((s) => s.minBytes === undefined || s.maxBytes === undefined || s.minBytes <= s.maxBytes, {
      message: 'must be at least minBytes',
      path: ['maxBytes'],
    }),
]);
export type DetailedSettings = z.infer<typeof DetailedSettings>;
export type DetailedKind = DetailedSettings['kind'];

/** The hash test: a file the user picked (read-only: never modified), or a test file DiskDial
 *  writes on a target and removes afterwards. */
export const HashSettings = z
  .object({
    source: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('file'), path: TargetPath }).strict(),
      z
        .object({
          kind: z.literal('generate'),
          /** The folder to write the test file in. */
          target: TargetPath,
          sizeBytes: z
            .number()
            .int()
            .min(16 * MiB)
            .max(64 * GiB),
        })
        .strict(),
    ]),
    algo: z.enum(['sha256', 'sha512']),
    /** An expected digest (hex), or the path of a .sha256 / .sha512 / SHA256SUMS-style file. Only
     *  a file so named, by its full path, is ever read: a page cannot make the core read (and
     *  report on) any other file. */
    verify: z
      .string()
      .min(1)
      .max(4096)
      .refine((v) => parsePastedDigest(v) !== undefined || isChecksumFilePath(v), {
        message: 'must be a SHA-256 or SHA-512 digest, or the full path of a checksum file (.sha256, .sha512, SHA256SUMS, SHA512SUMS)',
      })
      .optional(),
  })
  .strict();
export type HashSettings = z.infer<typeof HashSettings>;

// ---- history, compare, share ----------------------------------------------------------------

/** A saved result's id (a UUID for results made here; imported ones keep theirs). */
export const ResultId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be a result id (letters, digits, . _ -)');

/** Text exports: Markdown table, CrystalDiskMark-style text, CSV, the JSON document(s), a
 *  self-contained HTML page. */
export const EXPORT_FORMATS = ['md', 'txt', 'csv', 'json', 'html'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** A saved result as a history row: enough to list, filter and pick without loading it. */
export interface HistoryEntry {
  id: string;
  kind: string;
  label?: string;
  /** resultName(): the label, else "folder · time · size". */
  name: string;
  /** resultTitle(): "Quick Test · 1 GiB · 3 runs". */
  title: string;
  startedAt: string;
  /** targetLine(): "Samsung T7 · USB 3.2 Gen 2 (10 Gb/s), UAS · exFAT · 1 TB". */
  drive: string;
  /** Groups results of one physical drive for the filter: serial, else model and size, else volume. */
  driveKey: string;
  volume: string;
  fs: string;
  cacheMode: CacheMode;
  /** The primary figures' means (at most four): "Write 1,234 MB/s". */
  headline: Array<{ label: string; value: number; unit: string }>;
  /** How many warning flags the result carries (figures probably not the disk's). */
  warnings: number;
  /** 'imported': brought in from a file (another machine, a colleague). */
  origin: 'local' | 'imported';
  appVersion: string;
}

export interface HistoryListing {
  /** Where results are kept. */
  dir: string;
  /** Newest first. */
  entries: HistoryEntry[];
  /** Files in the folder that are not results this version can read, and why (never fatal). */
  skipped: Array<{ file: string; reason: string }>;
}

export interface ExportFile {
  /** A suggested file name: "diskdial-quick-2026-11-22.md". */
  filename: string;
  mime: string;
  text: string;
}

export interface ShareCard {
  /** The card as PNG, base64; `scale` × the card's CSS size (2 by default: crisp on HiDPI screens). */
  pngBase64: string;
  width: number;
  height: number;
  /** The same card as SVG (what the PNG was rasterized from). */
  svg: string;
  filename: string;
}

// ---- the format-and-compare wizard -----------------------------------------------------------

export const FormatIdSchema = z.enum(FORMAT_IDS);

/** What the user confirmed in the wizard. The main process checks it again against the disk
 *  itself before every erase; nothing here is trusted. */
export const WizardSettingsSchema = z
  .object({
    /** The disk to erase (its path). */
    device: z.string().min(1).max(256),
    /** The identity the user saw and confirmed; checked again before every erase. */
    identity: z
      .object({
        path: z.string().min(1).max(256),
        sizeBytes: z.number().int().min(0),
        model: z.string().max(256).optional(),
        serial: z.string().max(256).optional(),
        // The rest is filled in by the main process from the disk as it lists it now.
        wwn: z.string().max(256).optional(),
        byId: z.array(z.string().max(256)).max(64).optional(),
        backingFile: z.string().max(4096).optional(),
        backingInode: z
          .object({ ino: z.number().int().min(0), dev: z.string().max(32) })
          .strict()
          .optional(),
        usbSerial: z.string().max(256).optional(),
      })
      .strict(),
    /** The disk's name, typed by the user: must equal WizardDisk.name. */
    confirmName: z.string().min(1).max(256),
    /** Formats to test, in order. */
    formats: z.array(FormatIdSchema).min(1).max(16),
    /** quick: the Quick Test at each of `sizes`; cdm: the CrystalDiskMark grid (Default, 1 GiB);
     *  files: the many-file test (Quick preset). */
    plan: z.enum(['quick', 'cdm', 'files']),
    /** quick: stress sizes in bytes (default 1 GB and 5 GB). */
    sizes: z
      .array(
        z
          .number()
          .int()
          .min(16 * MiB)
          .max(64 * GiB),
      )
      .min(1)
      .max(4),
    /** Runs per format (and per size), default 5. */
    runs: z.number().int().min(1).max(20),
    /** Rest between runs, seconds (default 300: an SSD's cache drains). */
    restSeconds: z.number().min(0).max(3600),
    /** The format the disk is left in at the end. */
    finalFormat: FormatIdSchema,
    /** Volume label for every format (default DISKDIAL). */
    volumeLabel: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,11}$/, 'must be 1–11 letters, digits, - or _')
      .optional(),
    /** Allowed to erase an internal (non-system) disk: the advanced switch. */
    allowInternal: z.boolean().optional(),
  })
  .strict();

export type WizardSettings = z.infer<typeof WizardSettingsSchema>;

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
  test?: {
    name: string;
    /** The stress size of this test (quick plan). */
    sizeBytes?: number;
    run: number;
    runs: number;
    phase: 'write' | 'read' | 'other';
    instMBps: number;
    avgMBps: number;
    bytesDone: number;
    bytesTotal: number;
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

export interface WizardDoneEvent {
  jobId: string;
  planId: string;
  outcome: 'finished' | 'stopped' | 'failed';
  /** Every result the plan saved (finished formats only). */
  resultIds: string[];
  error?: IpcError;
}

/** A place the user can test: a mounted volume, or a folder they chose. */
export interface TargetInfo {
  /** The folder tests will run in (a volume's mount point, or the chosen folder). */
  path: string;
  /** Volume label, else the mount point's last part, else the path. */
  name: string;
  mountPoint: string;
  fs: string;
  totalBytes: number;
  freeBytes: number;
  device: {
    model?: string;
    bus: string;
    node?: string;
    removable?: boolean;
    rotational?: boolean;
    /** The disk's interface (core/link.ts), shown next to the target: "USB 3.2 Gen 2 (10 Gb/s), UAS",
     *  its payload ceiling after line encoding and the range such links typically deliver, MB/s. */
    link?: { label: string; ceilingMBps?: number; typicalMBps?: [number, number] };
  };
  readOnly: boolean;
  /** Whether a test can start here at all (exists, writable, not read-only), and if not why. */
  startable: boolean;
  reason?: string;
}

/** Errors cross IPC as data: Electron drops custom fields of thrown errors across `invoke`. */
export interface IpcError {
  /** Node-style code (ENOSPC, EROFS…) or ours (ERR_INVALID_PAYLOAD, ERR_BUSY, ERR_ENGINE_CRASHED…). */
  code: string;
  /** Plain words, ready to show. */
  message: string;
}
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
  /** Every saved result, newest first, and the files that could not be read. */
  'history.list': channel(Empty, reply<HistoryListing>(), { listHistory: none }),
  /** One saved result document. */
  'history.get': channel(z.object({ id: ResultId }).strict(), reply<ResultDocument>(), { getResult: (id: string) => ({ id }) }),
  /** Names a result ("Direct to the port", "Through the hub"); an empty label removes it. At most
   *  LABEL_MAX characters; control characters are removed (core/text.ts cleanLabel). */
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
        json: z
          .string()
          .min(1)
          .max(32 * MiB),
        name: z.string().max(255).optional(),
      })
      .strict(),
    reply<{ entry: HistoryEntry; duplicate: boolean }>(),
    { importResult: (json: string, name?: string) => (name === undefined ? { json } : { json, name }) },
  ),
  /** One result, or several side by side (the first, or `baseline`, is the reference), as text. */
  'history.export': channel(
    z.object({ ids: z.array(ResultId).min(1).max(20), format: ExportFormat, baseline: ResultId.optional() }).strict(),
    reply<ExportFile>(),
    {
      exportResults: (ids: string[], format: ExportFormat, baseline?: string) =>
        baseline === undefined ? { ids, format } : { ids, format, baseline },
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

export interface AppInfo {
  appVersion: string;
  engineVersion: string;
  platform: string;
  /** 'electron' or 'browser' */
  shell: string;
}

// ---- events (core → the renderer that started the job) --------------------------------------

export type QuickPhase = 'write' | 'read';

export interface QuickProgressEvent {
  jobId: string;
  /** 1-based cycle number; in continuous mode it keeps counting. */
  cycle: number;
  /** Planned cycles; 0 in continuous mode. */
  cycles: number;
  phase: QuickPhase;
  /** The engine's own phase: preparing a file, measuring, flushing. */
  stage: 'prepare' | 'warmup' | 'run' | 'flush';
  /** Throughput over the last progress interval, MB/s (10^6 bytes). */
  instMBps: number;
  avgMBps: number;
  bytesDone: number;
  bytesTotal: number;
  elapsed: number;
}

export interface QuickCycleEvent {
  jobId: string;
  cycle: number;
  /** The finished cycle's result document (a write and a read test). */
  result: ResultDocument;
}

export interface QuickDoneEvent {
  jobId: string;
  /** 'finished': all runs done; 'stopped': the user stopped it; 'failed': see error. */
  outcome: 'finished' | 'stopped' | 'failed';
  /** The cycles that completed, as one document (each cycle a run), when at least one did. */
  result?: ResultDocument;
  error?: IpcError;
  saved?: SavedNote;
}

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

export interface DetailedProgressEvent {
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
  instMBps: number;
  avgMBps: number;
  bytesDone: number;
  bytesTotal: number;
  elapsed: number;
  secondsTotal: number;
  /** rest/interval: whole seconds left. During an interval testIndex/testName are the step
   *  about to run; during a rest, testIndex is 0 and testName "Rest before run N". */
  remaining?: number;
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

export interface DetailedDoneEvent {
  jobId: string;
  outcome: 'finished' | 'stopped' | 'failed';
  /** finished: the whole result document. */
  result?: ResultDocument;
  error?: IpcError;
  /** finished: whether the result went into history. */
  saved?: SavedNote;
}

/** The hash test's stages, in the order they run ('write' only for a generated test file). */
export type HashStage = 'write' | 'read' | 'read-hash' | 'memory' | 'memory-parallel';

export interface HashProgressEvent {
  jobId: string;
  stage: HashStage;
  /** 0-based, of stageCount (4, or 5 with 'write'). */
  stageIndex: number;
  stageCount: number;
  bytesDone: number;
  /** The file's size for write/read stages; 0 for the time-bound memory stages. */
  bytesTotal: number;
  elapsed: number;
  secondsTotal: number;
  instMBps: number;
  avgMBps: number;
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

export interface HashDoneEvent {
  jobId: string;
  outcome: 'finished' | 'stopped' | 'failed';
  /** finished: the result document (kind 'hash', with its `hash` section). */
  result?: ResultDocument;
  error?: IpcError;
  /** finished: whether the result went into history. */
  saved?: SavedNote;
}

declare const eventType: unique symbol;
/** An event's data type, carried as a type only. */
export interface EventOf<T> {
  readonly [eventType]: T;
}
const event = <T>(): EventOf<T> => ({}) as EventOf<T>;

/** Every event (core → the renderer that started the job) and its data. */
export const events = {
  'quick.progress': event<QuickProgressEvent>(),
  'quick.cycle': event<QuickCycleEvent>(),
  'quick.done': event<QuickDoneEvent>(),
  'detailed.plan': event<DetailedPlanEvent>(),
  'detailed.progress': event<DetailedProgressEvent>(),
  'detailed.step': event<DetailedStepEvent>(),
  'detailed.done': event<DetailedDoneEvent>(),
  'hash.progress': event<HashProgressEvent>(),
  'hash.stage': event<HashStageEvent>(),
  'hash.done': event<HashDoneEvent>(),
  'wizard.progress': event<WizardProgressEvent>(),
  'wizard.format': event<WizardFormatEvent>(),
  'wizard.done': event<WizardDoneEvent>(),
};
export type EventMap = { [E in keyof typeof events]: (typeof events)[E] extends EventOf<infer T> ? T : never };
export type EventChannel = keyof EventMap;

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
