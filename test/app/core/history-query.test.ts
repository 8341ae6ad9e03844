// Paging and search laws of History, on the real index over real files (fast-check): the pages of
// any query concatenate to its full sorted list with nothing lost or repeated; a search finds
// exactly the results holding every word; filters and sorts hold row by row; the SQL answer is the
// one the plain-code reference (core/history-query.ts) gives.
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyEntry, HistoryStore } from '../../../app/src/core/history.js';
import { queryEntries } from '../../../app/src/core/history-query.js';
import type { HistoryEntry, HistoryQuery } from '../../../app/src/model/history.js';
import type { ResultDocument } from '../../../app/src/model/result.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (kind: string): ResultDocument =>
  JSON.parse(readFileSync(path.join(root, 'test/fixtures/results', `${kind}.json`), 'utf8')) as ResultDocument;
const KINDS = ['quick', 'cdm', 'hash', 'sustained'] as const;
const WORDS = ['alpha', 'beta', 'gamma', 'hub', 'port', 'Ünïcode', 'x'];

let base: string;
let store: HistoryStore;
let all: HistoryEntry[];

const idOf = (i: number): string => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-00000000abcd`;

beforeAll(async () => {
  base = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-history-query-'));
  const dir = path.join(base, 'results');
  await fsp.mkdir(dir);
  // 120 results: labels of a few shared words, four kinds, six drives, dates with ties.
  const docs = fc.sample(
    fc.record({
      kind: fc.constantFrom(...KINDS),
      words: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
      minute: fc.integer({ min: 0, max: 60 }),
      drive: fc.integer({ min: 0, max: 5 }),
    }),
    { numRuns: 120, seed: 37 },
  );
  for (const [i, d] of docs.entries()) {
    const f = fixture(d.kind);
    const at = new Date(Date.UTC(2026, 5, 1) + d.minute * 60_000).toISOString();
    const doc: ResultDocument = {
      ...f,
      id: idOf(i),
      startedAt: at,
      finishedAt: at,
      target: { ...f.target, device: { ...f.target.device, serial: `SER${d.drive}` } },
    };
    if (d.words.length) doc.label = d.words.join(' ');
    else delete doc.label;
    await fsp.writeFile(path.join(dir, `${doc.id}.json`), `${JSON.stringify(doc)}\n`);
  }
  store = new HistoryStore(dir);
  all = (await store.query({})).entries;
  expect(all).toHaveLength(120);
}, 60_000);
afterAll(async () => {
  store.close();
  await fsp.rm(base, { recursive: true, force: true });
});

const query: fc.Arbitrary<HistoryQuery> = fc.record(
  {
    search: fc.array(fc.constantFrom(...WORDS, 'ALPHA', 'quick', 'crystal', 'ser3', 'zzz'), { maxLength: 2 }).map((w) => w.join(' ')),
    kind: fc.constantFrom(...KINDS),
    driveKey: fc.integer({ min: 0, max: 6 }).map((d) => `serial:SER${d}`),
    since: fc.integer({ min: 0, max: 70 }).map((m) => new Date(Date.UTC(2026, 5, 1) + m * 60_000).toISOString()),
    sort: fc.constantFrom('date' as const, 'name' as const, 'figure' as const),
    order: fc.constantFrom('asc' as const, 'desc' as const),
  },
  { requiredKeys: [] },
);

/** Whether `e` holds every word of `search` (any case) in its words-bearing fields: written here
 *  apart from the code under test. */
function holds(e: HistoryEntry, search: string): boolean {
  const hay = `${e.name} ${e.label ?? ''} ${e.title} ${e.kind} ${e.drive} ${e.volume} ${e.fs} ${e.id}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

describe('paging and search laws', () => {
  it('the pages of any query, any page size, concatenate to its full list, each id once', async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.integer({ min: 4, max: 40 }), async (q, size) => {
        const full = await store.query(q);
        const pages: HistoryEntry[] = [];
        for (let offset = 0; offset < full.total + size; offset += size) {
          const page = await store.query({ ...q, offset, limit: size });
          expect(page.total).toBe(full.total);
          expect(page.offset).toBe(offset);
          expect(page.entries.length).toBe(Math.max(0, Math.min(size, full.total - offset)));
          pages.push(...page.entries);
        }
        expect(pages).toEqual(full.entries);
        expect(new Set(pages.map((e) => e.id)).size).toBe(full.total);
      }),
      { numRuns: 40, seed: 3701 },
    );
  });

  it('a search finds exactly the results holding every word, and the filters hold row by row', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const got = await store.query(q);
        const want = all.filter(
          (e) =>
            holds(e, q.search ?? '') &&
            (!q.kind || e.kind === q.kind) &&
            (!q.driveKey || e.driveKey === q.driveKey) &&
            (!q.since || e.startedAt >= q.since),
        );
        expect(got.entries.map((e) => e.id).sort()).toEqual(want.map((e) => e.id).sort());
        expect(got.total).toBe(want.length);
      }),
      { numRuns: 100, seed: 3702 },
    );
  });

  it('every list is in the order asked for, ties broken by id, and is what the plain-code reference gives', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const got = (await store.query(q)).entries;
        const key = (e: HistoryEntry): string | number =>
          q.sort === 'name' ? e.name.toLowerCase() : q.sort === 'figure' ? (e.headline[0]?.value ?? -1) : e.startedAt;
        for (let i = 1; i < got.length; i++) {
          const [a, b] = [got[i - 1]!, got[i]!];
          const ordered =
            q.order === 'asc'
              ? key(a) < key(b) || (key(a) === key(b) && a.id < b.id)
              : key(a) > key(b) || (key(a) === key(b) && a.id > b.id);
          expect(ordered).toBe(true);
        }
        expect(got).toEqual(queryEntries(all, q).entries);
      }),
      { numRuns: 100, seed: 3703 },
    );
  });

  it('lists every drive with its count, newest first, whatever the page', async () => {
    const { drives } = await store.query({ kind: 'hash', limit: 1 });
    expect(drives.reduce((n, d) => n + d.count, 0)).toBe(120);
    for (const d of drives) expect(d.count).toBe(all.filter((e) => e.driveKey === d.key).length);
    const newest = (key: string): string => all.filter((e) => e.driveKey === key)[0]!.startedAt;
    for (let i = 1; i < drives.length; i++) expect(newest(drives[i - 1]!.key) >= newest(drives[i]!.key)).toBe(true);
  });

  it('a result read from the files is the row the index gives back', async () => {
    const doc = JSON.parse(await fsp.readFile(path.join(store.dir, `${idOf(7)}.json`), 'utf8')) as ResultDocument;
    expect(all.find((e) => e.id === idOf(7))).toEqual(historyEntry(doc, 'local'));
  });
});
