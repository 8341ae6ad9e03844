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

const SCHEMA = `
CREATE TABLE files (
  file TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime TEXT NOT NULL,
  reason TEXT, id TEXT, kind TEXT, started TEXT, started_ms REAL, name_key TEXT, figure REAL,
  drive_key TEXT, drive_text TEXT, search TEXT, entry TEXT
);
CREATE INDEX files_started ON files (started);
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
        const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
        if (version !== SCHEMA_VERSION) {
          if (version !== 0) throw new Error(`schema version ${version}`);
          db.exec(`BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`);
        }
        // A quick read of the table: a file that is a database of something else fails here.
        db.prepare('SELECT file, size, mtime FROM files LIMIT 1').all();
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
    const rows = this.db.prepare('SELECT file, size, mtime FROM files').all() as unknown as FileKey[];
    return new Map(rows.map((r) => [r.file, r]));
  }

  /** Puts the rows in and takes the gone files out, all in one transaction (all or nothing). */
  apply(rows: readonly FileRow[], gone: readonly string[]): void {
    if (rows.length === 0 && gone.length === 0) return;
    const del = this.db.prepare('DELETE FROM files WHERE file = ?');
    const put = this.db.prepare(
      `INSERT OR REPLACE INTO files (file, size, mtime, reason, id, kind, started, started_ms, name_key, figure, drive_key, drive_text, search, entry)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const f of gone) del.run(f);
      for (const r of rows) {
        if ('reason' in r) put.run(r.file, r.size, r.mtime, r.reason, null, null, null, null, null, null, null, null, null, null);
        else {
          const e = r.entry;
          put.run(
            r.file,
            r.size,
            r.mtime,
            null,
            e.id,
            e.kind,
            e.startedAt,
            Date.parse(e.startedAt),
            e.name.toLowerCase(),
            sortFigure(e),
            e.driveKey,
            `${e.drive} ${e.volume}`.toLowerCase(),
            searchText(e),
            JSON.stringify(e),
          );
        }
      }
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** The query's page, its total, every drive, and the files that are not results. */
  query(q: HistoryQuery): Omit<HistoryListing, 'dir'> {
    const where = ['reason IS NULL'];
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
    const cond = where.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM files WHERE ${cond}`).get(...args) as { n: number }).n;
    const offset = q.offset ?? 0;
    const page = this.db
      .prepare(`SELECT entry FROM files WHERE ${cond} ORDER BY ${key} ${dir}, id ${dir} LIMIT ? OFFSET ?`)
      .all(...args, q.limit ?? -1, offset) as Array<{ entry: string }>;
    // The newest row of each drive labels it (SQLite takes the bare columns from the max's row).
    const drives = this.db
      .prepare(
        `SELECT drive_key AS key, entry, count(*) AS count, max(started) AS newest FROM files
         WHERE reason IS NULL GROUP BY drive_key ORDER BY newest DESC, drive_key ASC`,
      )
      .all() as Array<{ key: string; entry: string; count: number }>;
    const skipped = this.db.prepare('SELECT file, reason FROM files WHERE reason IS NOT NULL ORDER BY file').all() as Array<{
      file: string;
      reason: string;
    }>;
    return {
      entries: page.map((r) => JSON.parse(r.entry) as HistoryEntry),
      total,
      offset,
      drives: drives.map((d) => {
        const e = JSON.parse(d.entry) as HistoryEntry;
        return { key: d.key, label: e.drive || e.volume || d.key, count: d.count };
      }),
      skipped,
    };
  }

  /** The ids starting with `prefix` (at most `max` of them). */
  idsStartingWith(prefix: string, max: number): string[] {
    const rows = this.db
      .prepare('SELECT id FROM files WHERE reason IS NULL AND substr(id, 1, ?) = ? LIMIT ?')
      .all(prefix.length, prefix, max) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
