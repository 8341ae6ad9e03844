// The history's index: one SQLite file (Node's built-in node:sqlite) beside the result files,
// holding each file's row (what listing, filters, search and sort need) or why it is not a result,
// keyed by its name, size and modification time. The files stay the source of truth: every query
// first reconciles the index with the folder (a file added, removed or changed behind DiskDial's
// back is read again through the one safe reader), and writes each reconciliation in one
// transaction. An index that is not a database, or of another schema, is deleted and rebuilt.
// Where the runtime has no node:sqlite (Node before 22.13 unflagged), openIndex answers null and
// the store lists from the files as before.
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
import type * as NodeSqlite from 'node:sqlite';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { HistoryEntry, HistoryListing, HistoryQuery } from '../model/history.js';
import { searchText, searchWords, sortFigure } from './history-query.js';

export const INDEX_FILE = '.history-index.sqlite';
/** Bumped whenever the table or what a row holds changes: an index of another version is rebuilt. */
const SCHEMA_VERSION = 1;

/** A file in the history folder as the index keys it ('imported/<id>.json' for an imported one). */
export interface FileKey {
  file: string;
  size: number;
  /** Nanoseconds, as text: a number would round an edit within the same microsecond away. */
  mtime: string;
}

/** What reading a file gave: its row, or why it is not a result. */
export type FileRow = FileKey & ({ entry: HistoryEntry } | { reason: string });

// Keys, filter and sort columns, rows and refusals in tables of their own: a listing scans only
// the slim ones, and reads the rows' JSON for the one page it returns.
const SCHEMA = `
CREATE TABLE files (file TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE results (
  file TEXT PRIMARY KEY, id TEXT NOT NULL, kind TEXT NOT NULL, started TEXT NOT NULL, started_ms REAL NOT NULL,
  name_key TEXT NOT NULL, figure REAL NOT NULL, drive_key TEXT NOT NULL, drive_label TEXT NOT NULL,
  drive_text TEXT NOT NULL, search TEXT NOT NULL
);
CREATE INDEX results_started ON results (started, id);
CREATE INDEX results_drive ON results (drive_key, started);
CREATE INDEX results_id ON results (id);
CREATE TABLE entries (file TEXT PRIMARY KEY, entry TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE skipped (file TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID;
`;

type Sqlite = typeof NodeSqlite;

/** node:sqlite where this runtime has it without a flag, else undefined. */
function sqlite(): Sqlite | undefined {
  try {
    return process.getBuiltinModule?.('node:sqlite') as Sqlite | undefined;
  } catch {
    return undefined;
  }
}

/** Opens (creating or rebuilding as needed) the index of history folder `dir`; null without SQLite
 *  or when no index can be made there (a read-only folder): the caller then lists from the files. */
export function openIndex(dir: string): HistoryIndex | null {
  const mod = sqlite();
  if (!mod) return null;
  const file = path.join(dir, INDEX_FILE);
  for (const attempt of [1, 2]) {
    try {
      // Our own file name: anything else there (a link, a folder) is not our index.
      const st = lstatOrNull(file);
      if (st && !st.isFile()) throw new Error('not a file');
      const db = new mod.DatabaseSync(file);
      try {
        db.exec('PRAGMA busy_timeout = 5000');
        const version = (): number => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
        if (version() !== SCHEMA_VERSION) {
          // Under the write lock, asked again: another process (the app and the CLI at once) may
          // have made the tables while this one waited.
          db.exec('BEGIN IMMEDIATE');
          try {
            const now = version();
            if (now !== 0 && now !== SCHEMA_VERSION) throw new Error(`schema version ${now}`);
            if (now === 0) db.exec(`${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION};`);
            db.exec('COMMIT');
          } catch (err) {
            db.exec('ROLLBACK');
            throw err;
          }
        }
        // A quick read of each table (one at a time: a join of them would be a cross product): a
        // file that is a database of something else fails here.
        for (const q of ['file, size, mtime FROM files', 'id, search FROM results', 'entry FROM entries', 'reason FROM skipped'])
          db.prepare(`SELECT ${q} LIMIT 1`).all();
        return new HistoryIndex(db);
      } catch (err) {
        db.close();
        throw err;
      }
    } catch {
      // Not a database, another schema, or a stray: it is only a cache of the files, so it goes.
      if (attempt === 1)
        for (const f of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true, recursive: true });
    }
  }
  return null;
}

function lstatOrNull(file: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

export class HistoryIndex {
  constructor(private readonly db: DatabaseSync) {}

  /** Every file the index knows, by name. */
  known(): Map<string, FileKey> {
    const stmt = this.db.prepare('SELECT file, size, mtime FROM files');
    // Arrays, not objects, where node:sqlite has them (Node 22.16+): at 10,000 files the objects
    // alone cost tens of milliseconds a listing.
    if (typeof stmt.setReturnArrays !== 'function') {
      return new Map((stmt.all() as unknown as FileKey[]).map((r) => [r.file, { file: r.file, size: r.size, mtime: r.mtime }]));
    }
    stmt.setReturnArrays(true);
    const rows = stmt.all() as unknown as Array<[string, number, string]>;
    return new Map(rows.map(([file, size, mtime]) => [file, { file, size, mtime }]));
  }

  /** Puts the rows in and takes the gone files out, all in one transaction (all or nothing). */
  apply(rows: readonly FileRow[], gone: readonly string[]): void {
    if (rows.length === 0 && gone.length === 0) return;
    const dels = ['files', 'results', 'entries', 'skipped'].map((t) => this.db.prepare(`DELETE FROM ${t} WHERE file = ?`));
    const putFile = this.db.prepare('INSERT INTO files (file, size, mtime) VALUES (?, ?, ?)');
    const putSkip = this.db.prepare('INSERT INTO skipped (file, reason) VALUES (?, ?)');
    const putEntry = this.db.prepare('INSERT INTO entries (file, entry) VALUES (?, ?)');
    const putResult = this.db.prepare(
      `INSERT INTO results (file, id, kind, started, started_ms, name_key, figure, drive_key, drive_label, drive_text, search)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const f of [...gone, ...rows.map((r) => r.file)]) for (const del of dels) del.run(f);
      for (const r of rows) {
        putFile.run(r.file, r.size, r.mtime);
        if ('reason' in r) {
          putSkip.run(r.file, r.reason);
          continue;
        }
        const e = r.entry;
        putResult.run(
          r.file,
          e.id,
          e.kind,
          e.startedAt,
          Date.parse(e.startedAt),
          e.name.toLowerCase(),
          sortFigure(e),
          e.driveKey,
          e.drive || e.volume || e.driveKey,
          `${e.drive} ${e.volume}`.toLowerCase(),
          searchText(e),
        );
        putEntry.run(r.file, JSON.stringify(e));
      }
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** The query's page, its total, every drive, and the files that are not results. */
  query(q: HistoryQuery): Omit<HistoryListing, 'dir'> {
    const where: string[] = [];
    const args: SQLInputValue[] = [];
    const and = (cond: string, arg: SQLInputValue): void => {
      where.push(cond);
      args.push(arg);
    };
    if (q.kind) and('kind = ?', q.kind);
    if (q.driveKey) and('drive_key = ?', q.driveKey);
    if (q.drive) and('instr(drive_text, ?) > 0', q.drive.toLowerCase());
    if (q.since) and('started_ms >= ?', Date.parse(q.since));
    for (const w of searchWords(q.search)) and('instr(search, ?) > 0', w);
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const key = q.sort === 'name' ? 'name_key' : q.sort === 'figure' ? 'figure' : 'started';
    const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT count(*) AS n FROM results ${cond}`).get(...args) as { n: number }).n;
    const offset = q.offset ?? 0;
    const page = this.db
      .prepare(
        `SELECT e.entry FROM (SELECT file, ${key} AS k, id FROM results ${cond} ORDER BY ${key} ${dir}, id ${dir} LIMIT ? OFFSET ?) p
         JOIN entries e ON e.file = p.file ORDER BY p.k ${dir}, p.id ${dir}`,
      )
      .all(...args, q.limit ?? -1, offset) as Array<{ entry: string }>;
    // The newest row of each drive labels it (SQLite takes the bare column from the max's row).
    const drives = this.db
      .prepare(
        `SELECT drive_key AS key, drive_label AS label, count(*) AS count, max(started) AS newest FROM results
         GROUP BY drive_key ORDER BY newest DESC, drive_key ASC`,
      )
      .all() as Array<{ key: string; label: string; count: number }>;
    const skipped = this.db.prepare('SELECT file, reason FROM skipped ORDER BY file').all() as Array<{ file: string; reason: string }>;
    return {
      entries: page.map((r) => JSON.parse(r.entry) as HistoryEntry),
      total,
      offset,
      drives: drives.map((d) => ({ key: d.key, label: d.label, count: d.count })),
      skipped: skipped.map((k) => ({ file: k.file, reason: k.reason })),
    };
  }

  /** The ids starting with `prefix` (at most `max` of them). */
  idsStartingWith(prefix: string, max: number): string[] {
    const rows = this.db.prepare('SELECT id FROM results WHERE substr(id, 1, ?) = ? LIMIT ?').all(prefix.length, prefix, max) as Array<{
      id: string;
    }>;
    return rows.map((r) => r.id);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
