// The history of results: one JSON file per result document in a folder the app, the CLI and
// browser mode share, so `diskdial history` lists what the desktop app saved and the other way
// round. Results made here live in <dir>/<id>.json, imported ones in <dir>/imported/<id>.json.
//
// Every write is atomic (a temporary file in the same folder, fsync, rename, fsync of the
// folder): a crash or power loss leaves the old file or the new one, never half of one. Every
// read is defensive: a file that is not a result, is cut short, or comes from a newer DiskDial is
// skipped with its reason, never a crash. Only regular files in the folder itself are read: a
// symbolic link is never followed (it could point at a secret, or at /dev/zero), a FIFO or a
// device is never waited on, nothing over MAX_RESULT_BYTES is read (core/safe-read.ts), and a skip reason never quotes
// what is in a file. An import goes in whole or not at all.
import { randomBytes } from 'node:crypto';
import { lstatSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DiskDialError, inputError } from '../model/errors.js';
import { metricValue, resultMetrics, resultName, resultTitle, targetLine } from '../model/report/metrics.js';
import type { ResultDocument } from '../model/result.js';
import { NotAResultError, parseResultFile, parseResultText, RESULT_ID_RE } from '../model/result-parse.js';
import { cleanLabel } from '../model/text.js';
import { readUserText } from './safe-read.js';
import type { HistoryEntry, HistoryListing, HistoryQuery } from '../model/history.js';
import { openIndex, type FileKey, type FileRow, type HistoryIndex } from './history-index.js';
import { driveFacets, queryEntries } from './history-query.js';

/** Larger files are not results (a quick test's document is tens of kB, a big many-file test's a few MB). */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;
const IMPORTED = 'imported';

/**
 * Where DiskDial keeps its data: $DISKDIAL_HOME when set (tests, portable installs); else the
 * platform's place for app data — Linux $XDG_DATA_HOME/diskdial (~/.local/share/diskdial),
 * macOS ~/Library/Application Support/DiskDial, Windows %APPDATA%\DiskDial.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = os.homedir(),
): string {
  if (env.DISKDIAL_HOME) return path.resolve(env.DISKDIAL_HOME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'DiskDial');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'DiskDial');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'diskdial');
}

/** The history folder inside a data folder. */
export function historyDir(dataDir = defaultDataDir()): string {
  return path.join(dataDir, 'results');
}

/** Writes `text` to `file` atomically: a crash leaves the old content or the new, never a mix. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fsp.rename(tmp, file);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  // The rename itself is durable once the folder's entry is on disk (not on Windows: no dir fsync).
  if (process.platform !== 'win32') {
    const d = await fsp.open(dir, 'r').catch(() => undefined);
    if (d)
      await d
        .sync()
        .catch(() => undefined)
        .finally(() => d.close());
  }
}

interface Located {
  doc: ResultDocument;
  file: string;
  origin: 'local' | 'imported';
}

export class HistoryStore {
  /** The index, once opened (null: none can be had here, so listings read the files). */
  #index: HistoryIndex | null | undefined;
  /** When the index was last reconciled with the folder, and what the folder scan skipped. */
  #synced: { at: number; skipped: HistoryListing['skipped'] } = { at: -Infinity, skipped: [] };

  /** @param dir the history folder (historyDir()); created on first save. */
  constructor(readonly dir: string = historyDir()) {}

  /** Saves a result made here; returns the file's path. Saving the same id again replaces it. */
  async save(doc: ResultDocument): Promise<string> {
    checkId(doc.id);
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${doc.id}.json`);
    await writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`);
    return file;
  }

  /** Every result, newest first, and the files that could not be read (with the reason). */
  list(): Promise<HistoryListing> {
    return this.query({});
  }

  /**
   * One page of results as `q` asks (filters, search words, order), with how many match, every
   * drive, and the files that could not be read. Answered by the index after reconciling it with
   * the folder; from the files alone where there is no index.
   */
  async query(q: HistoryQuery): Promise<HistoryListing> {
    // A later page of a listing (a screen scrolling) is answered from the index its first page
    // reconciled, as the listing stood then; every first page looks at the folder again. (Looking
    // again for each page cost seconds a page at 50,000 results while the screen scrolled.)
    if (this.#index && (q.offset ?? 0) > 0 && this.#synced.at > -Infinity) {
      const page = this.#index.query(q);
      return { dir: this.dir, ...page, skipped: [...this.#synced.skipped, ...page.skipped] };
    }
    const { keys, skipped } = await this.#scan();
    if (keys === null) return { dir: this.dir, entries: [], total: 0, offset: q.offset ?? 0, drives: [], skipped };
    if (this.#index === undefined) this.#index = openIndex(this.dir);
    const index = this.#index;
    if (index) {
      try {
        const known = index.known();
        const changed = keys.filter((k) => {
          const was = known.get(k.file);
          return !was || was.size !== k.size || was.mtime !== k.mtime;
        });
        const seen = new Set(keys.map((k) => k.file));
        const gone = [...known.keys()].filter((f) => !seen.has(f));
        const read = await this.#readAll(changed);
        // Only what the file's bytes decide is kept; a passing failure (EACCES) is asked again next time.
        index.apply(
          read.filter((r) => r.keep),
          [...gone, ...read.filter((r) => !r.keep).map((r) => r.file)],
        );
        const page = index.query(q);
        this.#synced = { at: performance.now(), skipped };
        return { dir: this.dir, ...page, skipped: [...skipped, ...reasons(read.filter((r) => !r.keep)), ...page.skipped] };
      } catch {
        // Busy past its timeout, a full disk: this answer comes from the files; the index is reopened next time.
        index.close();
        this.#index = undefined;
      }
    }
    const rows = await this.#readAll(keys);
    const entries = rows.flatMap((r) => ('entry' in r ? [r.entry] : []));
    return {
      dir: this.dir,
      ...queryEntries(entries, q),
      offset: q.offset ?? 0,
      drives: driveFacets(entries),
      skipped: [...skipped, ...reasons(rows)],
    };
  }

  /** Closes the index (a store used for a while, as a server's, keeps it open). */
  close(): void {
    this.#index?.close();
    this.#index = undefined;
    this.#synced = { at: -Infinity, skipped: [] };
  }

  /** The result files of the folder and its imported/ folder by name, size and time (null: no folder yet). */
  async #scan(): Promise<{ keys: FileKey[] | null; skipped: HistoryListing['skipped'] }> {
    const keys: FileKey[] = [];
    const skipped: HistoryListing['skipped'] = [];
    for (const origin of ['local', 'imported'] as const) {
      const dir = origin === 'local' ? this.dir : path.join(this.dir, IMPORTED);
      let names: string[];
      try {
        if (origin === 'imported' && (await isLink(dir))) {
          skipped.push({ file: IMPORTED, reason: LINK_REASON });
          continue;
        }
        names = await fsp.readdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        if (origin === 'local') return { keys: null, skipped };
        continue;
      }
      for (const name of names) {
        // Temporary files of a write in progress (or of a crash), and the index, start with a dot.
        if (!name.endsWith('.json') || name.startsWith('.')) continue;
        const shown = origin === 'local' ? name : `${IMPORTED}/${name}`;
        try {
          // lstat, not stat: a link is keyed as itself, and refused when read.
          const st = lstatSync(path.join(this.dir, shown), { bigint: true });
          if (!st.isDirectory()) keys.push({ file: shown, size: Number(st.size), mtime: String(st.mtimeNs) });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // gone since readdir
        }
      }
    }
    return { keys, skipped };
  }

  /** Reads the files (a few at a time) through the one reader into rows or reasons. */
  async #readAll(keys: readonly FileKey[]): Promise<Array<FileRow & { keep: boolean }>> {
    const out: Array<FileRow & { keep: boolean }> = new Array(keys.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < keys.length) {
        const i = next++;
        out[i] = await this.#readRow(keys[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, keys.length) }, worker));
    return out;
  }

  async #readRow(key: FileKey): Promise<FileRow & { keep: boolean }> {
    const name = path.basename(key.file);
    try {
      const doc = await readResult(path.join(this.dir, key.file));
      if (`${doc.id}.json` !== name) throw new NotAResultError(`Its id (${doc.id}) does not match its file name.`);
      return { ...key, entry: historyEntry(doc, key.file.startsWith(`${IMPORTED}/`) ? 'imported' : 'local'), keep: true };
    } catch (err) {
      if (err instanceof NotAResultError) return { ...key, reason: err.reason, keep: true };
      const code = (err as NodeJS.ErrnoException).code;
      return { ...key, reason: `It could not be read (${code ?? (err as Error).message}).`, keep: false };
    }
  }

  /** One result by id (or by an unambiguous prefix of at least 4 characters, as the CLI allows). */
  async get(idOrPrefix: string): Promise<ResultDocument> {
    return (await this.#locate(idOrPrefix)).doc;
  }

  /** Sets or (with an empty label) removes a result's label; returns its new history row. */
  async label(id: string, label: string): Promise<HistoryEntry> {
    const trimmed = cleanLabel(label);
    const found = await this.#locate(id);
    const { label: _old, ...rest } = found.doc;
    // The label goes right after `kind`, where a new result has it.
    const doc = (trimmed ? insertAfter(rest, 'kind', 'label', trimmed) : rest) as ResultDocument;
    await writeFileAtomic(found.file, `${JSON.stringify(doc, null, 2)}\n`);
    return historyEntry(doc, found.origin);
  }

  /** Deletes results; returns how many were deleted (unknown ids are not an error). */
  async delete(ids: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const id of ids) {
      checkId(id);
      for (const file of [path.join(this.dir, `${id}.json`), path.join(this.dir, IMPORTED, `${id}.json`)]) {
        try {
          await fsp.unlink(file);
          deleted++;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
    }
    return deleted;
  }

  /**
   * Imports the text of an exported file (one result, or every result of a comparison export).
   * The documents are stored as they are, id and all, so exporting again gives the same file;
   * only a label is made plain (control characters removed) and refused over LABEL_MAX. A result
   * already in history is a duplicate (not written again); a different result with the same id is
   * refused. All or nothing: every result is checked before the first is written, and a write
   * that fails takes back the ones before it.
   */
  async import(text: string, name = 'the file'): Promise<{ entries: HistoryEntry[]; duplicates: number }> {
    let docs: ResultDocument[];
    try {
      docs = parseResultFile(text);
    } catch (err) {
      if (err instanceof NotAResultError) throw inputError(`${name} cannot be imported: ${err.reason}`, 'ERR_NOT_A_RESULT');
      throw err;
    }
    const which = (i: number, id: string): string =>
      docs.length > 1 ? `result ${i + 1} of ${docs.length} (id ${id})` : `its result (id ${id})`;
    const plan: Array<{ doc: ResultDocument; text: string; existing?: Located }> = [];
    for (const [i, raw] of docs.entries()) {
      let doc = raw;
      if (raw.label !== undefined) {
        let label: string;
        try {
          label = cleanLabel(raw.label);
        } catch (err) {
          throw inputError(
            `${name} cannot be imported: ${which(i, raw.id)} has a label too long. ${(err as Error).message} Nothing was imported.`,
            'ERR_LABEL_TOO_LONG',
          );
        }
        if (label !== raw.label) {
          const { label: _raw, ...rest } = raw;
          doc = (label ? { ...raw, label } : rest) as ResultDocument;
        }
      }
      const json = JSON.stringify(doc);
      const conflict = (): DiskDialError =>
        new DiskDialError(
          `${name} holds a result whose id (${doc.id}) is already in history with different figures: ${which(i, doc.id)}. Nothing was imported.`,
          {
            code: 'ERR_CONFLICT',
            category: 'input',
          },
        );
      const twin = plan.find((p) => p.doc.id === doc.id);
      if (twin) {
        if (JSON.stringify(twin.doc) !== json) throw conflict();
        continue;
      }
      const existing = await this.#locate(doc.id, false).catch(() => undefined);
      if (existing && JSON.stringify(existing.doc) !== json) throw conflict();
      plan.push({ doc, text: `${JSON.stringify(doc, null, 2)}\n`, ...(existing ? { existing } : {}) });
    }
    const dir = path.join(this.dir, IMPORTED);
    if (await isLink(dir))
      throw new DiskDialError(`${dir} is a symbolic link; DiskDial imports only into its own folder. Nothing was imported.`, {
        code: 'ERR_NOT_A_FOLDER',
      });
    const written: string[] = [];
    try {
      for (const p of plan) {
        if (p.existing) continue;
        await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
        const file = path.join(dir, `${p.doc.id}.json`);
        await writeFileAtomic(file, p.text);
        written.push(file);
      }
    } catch (err) {
      await Promise.all(written.map((f) => fsp.rm(f, { force: true })));
      throw err;
    }
    const entries = plan.map((p) => (p.existing ? historyEntry(p.existing.doc, p.existing.origin) : historyEntry(p.doc, 'imported')));
    return { entries, duplicates: plan.filter((p) => p.existing).length };
  }

  async #locate(idOrPrefix: string, allowPrefix = true): Promise<Located> {
    checkId(idOrPrefix);
    for (const [dir, origin] of [
      [this.dir, 'local'],
      [path.join(this.dir, IMPORTED), 'imported'],
    ] as const) {
      if (origin === 'imported' && (await isLink(dir))) continue;
      const file = path.join(dir, `${idOrPrefix}.json`);
      try {
        return { doc: await readResult(file), file, origin };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw asHistoryError(err, idOrPrefix);
      }
    }
    if (allowPrefix && idOrPrefix.length >= 4) {
      const matches = await this.#idsStartingWith(idOrPrefix);
      if (matches.length === 1) return this.#locate(matches[0]!, false);
      if (matches.length > 1) {
        throw inputError(`"${idOrPrefix}" matches ${matches.length} saved results; give more of the id.`, 'ERR_AMBIGUOUS_ID');
      }
    }
    throw new DiskDialError(`No saved result has the id "${idOrPrefix}".`, { code: 'ENOENT', category: 'input' });
  }

  /** The distinct saved ids starting with `prefix` (the index reconciled first, by a listing). */
  async #idsStartingWith(prefix: string): Promise<string[]> {
    await this.query({ limit: 1 });
    const ids = this.#index
      ? this.#index.idsStartingWith(prefix, 10)
      : (await this.query({})).entries.map((e) => e.id).filter((id) => id.startsWith(prefix));
    return [...new Set(ids)];
  }
}

/** The rows that are not results, as a listing shows them (no size or time). */
const reasons = (rows: readonly FileRow[]): HistoryListing['skipped'] =>
  rows.flatMap((r) => ('reason' in r ? [{ file: r.file, reason: r.reason }] : []));

/** Whether `p` is a symbolic link (false when it does not exist). */
async function isLink(p: string): Promise<boolean> {
  try {
    return (await fsp.lstat(p)).isSymbolicLink();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

const LINK_REASON = 'It is a symbolic link; history reads only files in its own folder and does not follow links.';

/** Why a file in the folder is not read, by the one reader's refusal (its own words name the
 *  file; a skip reason names it already). */
const REFUSALS: Record<string, string> = {
  ELOOP: LINK_REASON,
  ERR_NOT_A_FILE: 'It is not a regular file (a pipe, a device or a socket); history reads only files.',
  EFBIG: `It is larger than a result can be (at most ${MAX_RESULT_BYTES / 1024 ** 2} MiB).`,
};

/** Reads one result file through the one reader: a regular file in the folder itself (no link
 *  followed, no FIFO waited on), at most MAX_RESULT_BYTES, then the result schema. */
async function readResult(file: string): Promise<ResultDocument> {
  let text: string;
  try {
    text = await readUserText(file, { what: 'a result', maxBytes: MAX_RESULT_BYTES, follow: false });
  } catch (err) {
    const reason = err instanceof DiskDialError ? REFUSALS[err.code] : undefined;
    throw reason ? new NotAResultError(reason) : err;
  }
  return parseResultText(text);
}

function asHistoryError(err: unknown, id: string): unknown {
  if (err instanceof NotAResultError)
    return new DiskDialError(`The saved result "${id}" cannot be read: ${err.reason}`, { code: err.code });
  return err;
}

function checkId(id: string): void {
  if (!RESULT_ID_RE.test(id)) throw inputError(`"${id.slice(0, 60)}" is not a result id.`, 'ERR_INVALID_ID');
}

function insertAfter<T extends object>(obj: T, after: string, key: string, value: unknown): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] = v;
    if (k === after) out[key] = value;
  }
  if (!(key in out)) out[key] = value;
  return out as T;
}

/** Which physical drive a result is of, for the history's drive filter. */
export function driveKey(doc: ResultDocument): string {
  const d = doc.target.device;
  if (d.serial) return `serial:${d.serial}`;
  if (d.model && d.model !== 'unknown') return `model:${d.model}:${doc.target.totalBytes}`;
  return `volume:${doc.target.volume}`;
}

/** A result as a history row. */
export function historyEntry(doc: ResultDocument, origin: 'local' | 'imported'): HistoryEntry {
  return {
    id: doc.id,
    kind: doc.kind,
    ...(doc.label ? { label: doc.label } : {}),
    name: resultName(doc),
    title: resultTitle(doc),
    startedAt: doc.startedAt,
    drive: targetLine(doc),
    driveKey: driveKey(doc),
    volume: doc.target.volume,
    fs: doc.target.fs,
    cacheMode: doc.cacheMode,
    headline: headlineFigures(doc),
    warnings: doc.flags.filter((f) => f.severity !== 'info').length,
    origin,
    appVersion: doc.app.version,
  };
}

/** At most four figures for a row: a CDM grid shows its first and last rows, read and write. */
export function headlineFigures(doc: ResultDocument): HistoryEntry['headline'] {
  let primary = resultMetrics(doc).filter((m) => m.primary && m.unit === 'MB/s');
  if (doc.kind === 'cdm' && primary.length > 4) {
    const rowOf = (label: string): string => label.replace(/ (Read|Write|Mix)$/, '');
    const rows = [...new Set(primary.map((m) => rowOf(m.label)))];
    const keep = new Set([rows[0], rows[rows.length - 1]]);
    primary = primary.filter((m) => keep.has(rowOf(m.label)));
  }
  return primary.slice(0, 4).map((m) => ({ label: m.label, value: metricValue(m), unit: m.unit }));
}
