// What History, export and share hand to the screens, and what a target and the app look like
// from the renderer.
import { z } from 'zod';
import type { CacheMode } from './engine-types.js';

/** The largest results file an import takes (the app's channel, browser mode and the CLI alike). */
export const MAX_IMPORT_BYTES = 32 * 1024 ** 2;

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

/** How History can be ordered: by date, by name, or by the first headline figure. */
export const HISTORY_SORTS = ['date', 'name', 'figure'] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];
/** The most rows one page holds (a screen asks for a screenful or two; the CLI for what it prints). */
export const HISTORY_PAGE_MAX = 100_000;

/** One page of History: every field optional (all results, newest first). The same schema checks
 *  the IPC channel's payload and is what the CLI's options build. */
export const HistoryQuery = z
  .object({
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(HISTORY_PAGE_MAX).optional(),
    /** Words that must all appear (any case) in the name, label, test, drive, volume, file system or id. */
    search: z.string().max(200).optional(),
    /** One physical drive exactly (HistoryEntry.driveKey), as the screen's drive filter picks it. */
    driveKey: z.string().max(500).optional(),
    /** Text the drive's line or volume contains (any case), as the CLI's --drive takes it. */
    drive: z.string().max(200).optional(),
    kind: z.string().max(40).optional(),
    /** Results started at or after this instant (ISO 8601). */
    since: z.string().datetime().optional(),
    sort: z.enum(HISTORY_SORTS).optional(),
    /** 'desc' (the default): newest, last in the alphabet, or fastest first. */
    order: z.enum(['asc', 'desc']).optional(),
  })
  .strict();
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export interface HistoryListing {
  /** Where results are kept. */
  dir: string;
  /** The page asked for, in the order asked for (newest first by default). */
  entries: HistoryEntry[];
  /** How many results match the query (all pages). */
  total: number;
  /** Where this page starts among them. */
  offset: number;
  /** Every drive in History (not only the page's), newest first, for the drive filter. */
  drives: Array<{ key: string; label: string; count: number }>;
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

export interface AppInfo {
  appVersion: string;
  engineVersion: string;
  platform: string;
  /** 'electron' or 'browser' */
  shell: string;
  /** Why this front door may not erase or overwrite a disk (browser mode without --allow-erase),
   *  so a screen says it up front; absent: it may, after the disk's name is typed. */
  eraseRefused?: string;
}
