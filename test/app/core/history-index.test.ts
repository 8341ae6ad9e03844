// The history's index (core/history-index.ts) beside the result files: it agrees with the files
// after every kind of change made behind DiskDial's back (a file added, removed, edited, cut short,
// replaced with garbage; the index deleted, corrupted, of another schema), a result is never lost
// whatever the order of saves, deletes and outside changes, and where the runtime has no SQLite the
// same queries are answered from the files.
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { historyEntry, HistoryStore } from '../../../app/src/core/history.js';
import { INDEX_FILE } from '../../../app/src/core/history-index.js';
import { compareEntries } from '../../../app/src/core/history-query.js';
import type { HistoryEntry } from '../../../app/src/model/history.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { parseResultText } from '../../../app/src/model/result-parse.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const quick = JSON.parse(readFileSync(path.join(root, 'test/fixtures/results/quick.json'), 'utf8')) as ResultDocument;

let base: string;
let dir: string;
let store: HistoryStore;
beforeEach(async () => {
  base = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-history-index-'));
  dir = path.join(base, 'results');
  store = new HistoryStore(dir);
});
afterEach(async () => {
  store.close();
  await fsp.rm(base, { recursive: true, force: true });
});

const idOf = (i: number): string => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
function result(i: number, label = `Run ${i}`): ResultDocument {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  return { ...quick, id: idOf(i), label, startedAt: at, finishedAt: at };
}
const text = (doc: ResultDocument): string => `${JSON.stringify(doc, null, 2)}\n`;

/** What the files say, read here without DiskDial's store: every result, newest first, and the
 *  names of the files that are not results. The index must agree with this after every change. */
async function truth(): Promise<{ entries: HistoryEntry[]; skipped: string[] }> {
  const entries: HistoryEntry[] = [];
  const skipped: string[] = [];
  for (const name of (await fsp.readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
    try {
      const doc = parseResultText(await fsp.readFile(path.join(dir, name), 'utf8'));
      if (`${doc.id}.json` !== name) throw new Error('id');
      entries.push(historyEntry(doc, 'local'));
    } catch {
      skipped.push(name);
    }
  }
  return { entries: entries.sort((a, b) => compareEntries(a, b, {})), skipped };
}

async function expectAgrees(s = store): Promise<void> {
  const want = await truth();
  const got = await s.query({});
  expect(got.entries).toEqual(want.entries);
  expect(got.total).toBe(want.entries.length);
  expect(got.skipped.map((k) => k.file).sort()).toEqual(want.skipped);
}

describe('the index agrees with the files after every outside change', () => {
  beforeEach(async () => {
    // Written as a person copying files in would (store.save's fsyncs cost seconds on a busy disk).
    await fsp.mkdir(dir);
    for (let i = 0; i < 12; i++) await fsp.writeFile(path.join(dir, `${idOf(i)}.json`), text(result(i)));
    await expectAgrees();
  });

  it('is a SQLite file in the history folder, made by the first listing', async () => {
    const db = new DatabaseSync(path.join(dir, INDEX_FILE), { readOnly: true });
    const n = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    db.close();
    expect(n).toBe(12);
  });

  it('a file added, removed, edited, cut short or replaced with garbage behind its back', async () => {
    await fsp.writeFile(path.join(dir, `${idOf(100)}.json`), text(result(100, 'Copied in by hand')));
    await expectAgrees();
    await fsp.rm(path.join(dir, `${idOf(3)}.json`));
    await expectAgrees();
    // Edited in an editor: a new label (a new size), and one of the same length (same size, new time).
    await fsp.writeFile(path.join(dir, `${idOf(4)}.json`), text(result(4, 'Renamed by hand, longer')));
    await expectAgrees();
    await fsp.writeFile(path.join(dir, `${idOf(5)}.json`), text(result(5, 'Rux 5')));
    await expectAgrees();
    expect((await store.query({ search: 'rux' })).entries.map((e) => e.id)).toEqual([idOf(5)]);
    const cut = path.join(dir, `${idOf(6)}.json`);
    await fsp.truncate(cut, 100);
    await expectAgrees();
    await fsp.writeFile(path.join(dir, `${idOf(7)}.json`), 'garbage\n');
    await expectAgrees();
    // Repaired again: the file comes back whole, and so does its row.
    await fsp.writeFile(cut, text(result(6)));
    await expectAgrees();
  });

  it('the index deleted, replaced with garbage, a database of something else, or of another schema', async () => {
    const index = path.join(dir, INDEX_FILE);
    await fsp.rm(index);
    await expectAgrees();
    await fsp.writeFile(index, 'this is not a database'.repeat(100));
    await expectAgrees(new HistoryStore(dir));
    let db = new DatabaseSync(index);
    db.exec('DROP TABLE files; CREATE TABLE other (x)');
    db.close();
    await expectAgrees(new HistoryStore(dir));
    db = new DatabaseSync(index);
    db.exec('PRAGMA user_version = 99');
    db.close();
    await expectAgrees(new HistoryStore(dir));
    // A row no file backs (written into the index by hand) is not trusted: it goes.
    db = new DatabaseSync(index);
    db.exec(`INSERT INTO files VALUES ('ghost.json', 1, '1');
      INSERT INTO results VALUES ('ghost.json', 'ghost', 'quick', '2099', 0, 'g', 1, 'k', 'd', 'd', 'ghost');
      INSERT INTO entries VALUES ('ghost.json', '{}');`);
    db.close();
    const fresh = new HistoryStore(dir);
    await expectAgrees(fresh);
    fresh.close();
  });

  it('keys a file by name, size and time: an edit that restores both is not read again (and the files still win a rebuild)', async () => {
    const file = path.join(dir, `${idOf(2)}.json`);
    const then = 1_700_000_000; // whole seconds, so utimes puts back exactly the time the index saw
    await fsp.utimes(file, then, then);
    await store.query({});
    await fsp.writeFile(file, text(result(2, 'Qzv 2')));
    await fsp.utimes(file, then, then);
    expect((await store.query({ search: 'qzv' })).total).toBe(0);
    await fsp.rm(path.join(dir, INDEX_FILE));
    expect((await new HistoryStore(dir).query({ search: 'qzv' })).total).toBe(1);
  });

  it('two stores on one folder (the app and the CLI) both list every result while both write', async () => {
    const other = new HistoryStore(dir);
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => store.save(result(200 + i)).then(() => store.query({ limit: 1 }))),
      ...Array.from({ length: 10 }, (_, i) => other.save(result(300 + i)).then(() => other.query({ limit: 1 }))),
    ]);
    await expectAgrees(other);
    await expectAgrees();
    other.close();
  });
});

describe('a result is never lost', () => {
  type Step =
    | { op: 'save' | 'outsideAdd'; i: number }
    | { op: 'delete' | 'outsideRemove' | 'garbage' | 'label'; pick: number }
    | { op: 'dropIndex' | 'corruptIndex' | 'list' };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ op: fc.constantFrom('save' as const, 'outsideAdd' as const), i: fc.integer({ min: 0, max: 40 }) }),
    fc.record({ op: fc.constantFrom('delete' as const, 'outsideRemove' as const, 'garbage' as const, 'label' as const), pick: fc.nat() }),
    fc.record({ op: fc.constantFrom('dropIndex' as const, 'corruptIndex' as const, 'list' as const) }),
  );

  it('whatever the order of saves, deletes, labels and changes behind its back, the listing is the files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        await fsp.rm(dir, { recursive: true, force: true });
        const s = new HistoryStore(dir);
        await s.save(result(1000));
        try {
          for (const st of steps) {
            const names = (await fsp.readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
            const picked = 'pick' in st && names.length > 0 ? names[st.pick % names.length]! : undefined;
            if (st.op === 'save') await s.save(result(st.i));
            else if (st.op === 'outsideAdd') await fsp.writeFile(path.join(dir, `${idOf(st.i)}.json`), text(result(st.i, 'outside')));
            else if (st.op === 'delete' && picked) await s.delete([picked.replace(/\.json$/, '')]).catch(() => 0);
            else if (st.op === 'label' && picked) await s.label(picked.replace(/\.json$/, ''), 'labelled').catch(() => undefined);
            else if (st.op === 'outsideRemove' && picked) await fsp.rm(path.join(dir, picked));
            else if (st.op === 'garbage' && picked) await fsp.writeFile(path.join(dir, picked), '{"schema":');
            else if (st.op === 'dropIndex') await fsp.rm(path.join(dir, INDEX_FILE), { force: true });
            else if (st.op === 'corruptIndex') await fsp.writeFile(path.join(dir, INDEX_FILE), 'x'.repeat(4096));
            await expectAgrees(st.op === 'corruptIndex' ? new HistoryStore(dir) : s);
          }
        } finally {
          s.close();
        }
      }),
      { numRuns: 15 },
    );
    // Each step saves with fsync: minutes when other work floods the disk, seconds otherwise.
  }, 600_000);
});

describe('without SQLite (Node before 22.13, unflagged)', () => {
  it('answers the same pages from the files, and writes no index', async () => {
    for (let i = 0; i < 7; i++) await store.save(result(i));
    const withIndex = await store.query({ offset: 2, limit: 3, search: 'run' });
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined as never);
    const bare = new HistoryStore(path.join(base, 'bare'));
    await fsp.cp(dir, bare.dir, { recursive: true, filter: (src) => !src.endsWith(INDEX_FILE) });
    const page = await bare.query({ offset: 2, limit: 3, search: 'run' });
    vi.restoreAllMocks();
    expect(page).toEqual({ ...withIndex, dir: bare.dir });
    expect(page.entries.map((e) => e.label)).toEqual(['Run 4', 'Run 3', 'Run 2']);
    expect(await fsp.readdir(bare.dir)).not.toContain(INDEX_FILE);
  });
});
