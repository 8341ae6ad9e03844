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
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DiskDialError, inputError } from '../model/errors.js';
import { metricValue, resultMetrics, resultName, resultTitle, targetLine } from '../model/report/metrics.js';
import type { ResultDocument } from '../model/result.js';
import { NotAResultError, parseResultFile, parseResultText, RESULT_ID_RE } from '../model/result-parse.js';
import { cleanLabel } from '../model/text.js';
import { readUserText } from './safe-read.js';
import type { HistoryEntry, HistoryListing } from '../model/history.js';

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
  async list(): Promise<HistoryListing> {
    const entries: HistoryEntry[] = [];
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
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      for (const name of names.sort()) {
        // Temporary files of a write in progress (or of a crash) start with a dot.
        if (!name.endsWith('.json') || name.startsWith('.')) continue;
        const file = path.join(dir, name);
        const shown = origin === 'local' ? name : `${IMPORTED}/${name}`;
        try {
          const doc = await readResult(file);
          if (`${doc.id}.json` !== name) throw new NotAResultError(`Its id (${doc.id}) does not match its file name.`);
          entries.push(historyEntry(doc, origin));
        } catch (err) {
          if (err instanceof NotAResultError) skipped.push({ file: shown, reason: err.reason });
          else if ((err as NodeJS.ErrnoException).code === 'EISDIR') continue;
          else
            skipped.push({
              file: shown,
              reason: `It could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`,
            });
        }
      }
    }
    entries.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id.localeCompare(b.id)));
    return { dir: this.dir, entries, skipped };
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
      const { entries } = await this.list();
      const matches = entries.filter((e) => e.id.startsWith(idOrPrefix));
      if (matches.length === 1) return this.#locate(matches[0]!.id, false);
      if (matches.length > 1) {
        throw inputError(`"${idOrPrefix}" matches ${matches.length} saved results; give more of the id.`, 'ERR_AMBIGUOUS_ID');
      }
    }
    throw new DiskDialError(`No saved result has the id "${idOrPrefix}".`, { code: 'ENOENT', category: 'input' });
  }
}

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
