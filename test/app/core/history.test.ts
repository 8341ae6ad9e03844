// The history folder: atomic saves (a process killed mid-write leaves a whole file), listing
// newest first with corrupt, foreign, future-schema and damaged files skipped with their reason,
// labels, deletes, ids by prefix, and import: lossless, duplicate-aware, conflict-refusing, all or
// nothing. Hostile files (a FIFO, a link to /dev/zero or to a secret) never hang or leak.
import { execFileSync, spawn } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { combineRuns } from '../../../app/src/model/analysis.js';
import { defaultDataDir, headlineFigures, historyDir, HistoryStore, writeFileAtomic } from '../../../app/src/core/history.js';
import { resultName } from '../../../app/src/model/report/metrics.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { checkResult, NotAResultError, parseResultFile } from '../../../app/src/model/result-parse.js';
import { jsonOne } from '../../../app/src/model/report/formats/json.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (kind: string): ResultDocument =>
  JSON.parse(readFileSync(path.join(root, 'test/fixtures/results', `${kind}.json`), 'utf8')) as ResultDocument;
const KINDS = ['quick', 'cdm', 'sustained', 'files', 'hash'] as const;

let dir: string;
let store: HistoryStore;
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-history-'));
  store = new HistoryStore(path.join(dir, 'results'));
});
afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

function withId(doc: ResultDocument, id: string, startedAt?: string): ResultDocument {
  return { ...doc, id, ...(startedAt ? { startedAt } : {}) };
}

describe('where history lives', () => {
  it('is $DISKDIAL_HOME/results when set, else the platform place for app data', () => {
    expect(defaultDataDir({ DISKDIAL_HOME: '/srv/dd' }, 'linux', '/home/u')).toBe('/srv/dd');
    expect(defaultDataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/diskdial');
    expect(defaultDataDir({ XDG_DATA_HOME: '/x' }, 'linux', '/home/u')).toBe('/x/diskdial');
    expect(defaultDataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/DiskDial');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toContain('DiskDial');
    expect(historyDir('/srv/dd')).toBe('/srv/dd/results');
  });

  it("is a throwaway folder in tests (vitest.config.ts), never the user's", () => {
    expect(process.env.DISKDIAL_HOME).toContain('diskdial-test-home-');
  });
});

describe('saving and listing', () => {
  it('saves each kind as <id>.json and lists them newest first with their headline figures', async () => {
    for (const [i, kind] of KINDS.entries()) await store.save(withId(fixture(kind), `${kind}-id`, `2026-11-0${i + 1}T10:00:00.000Z`));
    const names = (await fsp.readdir(store.dir)).sort();
    expect(names).toEqual(KINDS.map((k) => `${k}-id.json`).sort());
    const listing = await store.list();
    expect(listing.skipped).toEqual([]);
    expect(listing.entries.map((e) => e.kind)).toEqual([...KINDS].reverse());
    const quick = listing.entries.find((e) => e.kind === 'quick')!;
    const doc = fixture('quick');
    const mean = (name: string) => doc.tests.filter((t) => t.name === name).reduce((s, t) => s + t.mbps, 0) / 3;
    expect(quick.headline.map((h) => h.label)).toEqual(['Write', 'Read']);
    expect(quick.headline[0]!.value).toBeCloseTo(mean('Write'), 6);
    expect(quick.headline[1]!.value).toBeCloseTo(mean('Read'), 6);
    expect(quick).toMatchObject({ name: 'Boot disk', label: 'Boot disk', origin: 'local', fs: doc.target.fs, cacheMode: 'direct' });
    expect(quick.title).toBe('Quick Test · 1 GiB · 3 runs');
    // A CDM grid's row shows its first and last rows, read and write.
    expect(listing.entries.find((e) => e.kind === 'cdm')!.headline.map((h) => h.label)).toEqual([
      'SEQ1M Q8T1 Read',
      'RND4K Q1T1 Read',
      'SEQ1M Q8T1 Write',
      'RND4K Q1T1 Write',
    ]);
    expect(listing.entries.find((e) => e.kind === 'hash')!.headline.map((h) => h.label)[0]).toBe('Read (uncached)');
  });

  it('writes whole files only: nothing but <id>.json is left, and the text is the document', async () => {
    const doc = fixture('cdm');
    const file = await store.save(doc);
    expect(await fsp.readdir(store.dir)).toEqual([`${doc.id}.json`]);
    expect(JSON.parse(await fsp.readFile(file, 'utf8'))).toEqual(doc);
    expect(((await fsp.stat(store.dir)).mode & 0o777).toString(8)).toBe('700');
  });

  it('a process killed mid-write leaves the old file or the new one, never a torn one', async () => {
    const target = path.join(dir, 'atomic.json');
    const big = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(4 * 1024 * 1024) });
    await writeFileAtomic(target, big(0));
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(path.join(root, 'app/src/core/history.ts'))};
      let n = 1;
      for (;;) { await writeFileAtomic(${JSON.stringify(target)}, JSON.stringify({ n, pad: 'x'.repeat(4 * 1024 * 1024) })); n++; }
    `;
    const seen: number[] = [];
    for (let round = 0; round < 4; round++) {
      const before = (await fsp.stat(target)).ino;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, stdio: 'ignore' });
      // Killed once it is writing (its first file renamed into place: a new inode), not after a
      // fixed time that a loaded machine may spend starting it; each round then lands elsewhere.
      await vi.waitFor(async () => expect((await fsp.stat(target)).ino).not.toBe(before), { timeout: 30_000, interval: 5 });
      await new Promise((r) => setTimeout(r, round * 40));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const parsed = JSON.parse(await fsp.readFile(target, 'utf8')) as { n: number; pad: string };
      expect(parsed.pad.length).toBe(4 * 1024 * 1024);
      seen.push(parsed.n);
    }
    // The writers did get going before they were killed (else this proved nothing).
    expect(Math.max(...seen)).toBeGreaterThan(0);
    // The killed writers' temporary files are dot files, which listing ignores.
    const names = await fsp.readdir(dir);
    expect(names.filter((n) => !n.startsWith('.') && n !== 'atomic.json' && n !== 'results')).toEqual([]);
  });

  it('skips corrupt, foreign, future and damaged files with their reason, and keeps the rest', async () => {
    await store.save(fixture('quick'));
    const write = (name: string, text: string) => fsp.writeFile(path.join(store.dir, name), text);
    const cut = JSON.stringify(fixture('cdm'));
    await write('cut.json', cut.slice(0, cut.length / 2));
    await write('foreign.json', '{"name": "package", "version": "1.0.0"}');
    await write('future.json', JSON.stringify({ ...fixture('cdm'), schema: 2, id: 'future' }));
    const damaged: Record<string, unknown> = { ...fixture('cdm'), id: 'damaged' };
    delete damaged.target;
    await write('damaged.json', JSON.stringify(damaged));
    await write('renamed.json', JSON.stringify(fixture('hash')));
    await write('notes.txt', 'not json, not .json');
    await write('.half-written.json.123.tmp', '{');
    await write('array.json', '[1, 2]');
    await write('empty.json', '');
    await fsp.mkdir(path.join(store.dir, 'folder.json'));
    const listing = await store.list();
    expect(listing.entries.map((e) => e.kind)).toEqual(['quick']);
    const reasons = Object.fromEntries(listing.skipped.map((s) => [s.file, s.reason]));
    expect(reasons).toEqual({
      'array.json': 'It is not a DiskDial result (not a JSON object).',
      'cut.json': 'The file ends too soon: it is not complete JSON (cut short?).',
      'damaged.json': expect.stringContaining('It looks like a DiskDial result but is damaged: target is missing'),
      'empty.json': 'The file is empty.',
      'foreign.json': 'It is not a DiskDial result (it has no "schema" field).',
      'future.json': 'It was made by a newer DiskDial (result schema 2); this version reads schema 1. Update DiskDial to open it.',
      'renamed.json': `Its id (${fixture('hash').id}) does not match its file name.`,
    });
    // get() of a damaged file says so in words.
    await expect(store.get('damaged')).rejects.toThrow(/cannot be read: It looks like a DiskDial result but is damaged/);
  });
});

describe('labels, deletes and ids', () => {
  it('sets and removes a label without touching anything else', async () => {
    const doc = { ...fixture('cdm') };
    delete doc.label;
    await store.save(doc);
    const entry = await store.label(doc.id, '  Through the hub ');
    expect(entry).toMatchObject({ label: 'Through the hub', name: 'Through the hub' });
    const saved = JSON.parse(await fsp.readFile(path.join(store.dir, `${doc.id}.json`), 'utf8')) as ResultDocument;
    expect(saved).toEqual({ ...doc, label: 'Through the hub' });
    expect(Object.keys(saved).indexOf('label')).toBe(Object.keys(saved).indexOf('kind') + 1);
    const cleared = await store.label(doc.id, '');
    expect(cleared.label).toBeUndefined();
    expect(cleared.name).toBe(resultName({ ...doc, label: undefined }));
    expect(cleared.name).toMatch(/^[^/]+ · [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}/);
    expect(await store.get(doc.id)).toEqual(doc);
  });

  it('finds a result by a unique prefix of its id, and refuses an ambiguous or unknown one', async () => {
    await store.save(withId(fixture('quick'), 'abcd1111'));
    await store.save(withId(fixture('quick'), 'abcd2222'));
    expect((await store.get('abcd1')).id).toBe('abcd1111');
    await expect(store.get('abcd')).rejects.toMatchObject({ code: 'ERR_AMBIGUOUS_ID' });
    await expect(store.get('ffff')).rejects.toMatchObject({ code: 'ENOENT', message: 'No saved result has the id "ffff".' });
    await expect(store.get('../../etc/passwd')).rejects.toMatchObject({ code: 'ERR_INVALID_ID' });
  });

  it('deletes saved and imported results; unknown ids are not an error', async () => {
    await store.save(withId(fixture('quick'), 'keep'));
    await store.save(withId(fixture('quick'), 'gone'));
    await store.import(JSON.stringify(withId(fixture('hash'), 'other-machine')));
    expect(await store.delete(['gone', 'other-machine', 'never-was'])).toBe(2);
    expect((await store.list()).entries.map((e) => e.id)).toEqual(['keep']);
  });
});

describe('import', () => {
  it('keeps a JSON export’s Will-it-work table and a paced video section, key for key', async () => {
    // The export adds `willItWork` to a Quick Test; a video result carries its `video` section.
    const quick = JSON.parse(jsonOne(fixture('quick'))) as ResultDocument & { willItWork?: unknown };
    expect(quick.willItWork).toMatchObject({ decidedBy: 'average' });
    const video = fixture('video');
    await store.import(JSON.stringify(quick), 'quick.json');
    await store.import(JSON.stringify(video), 'video.json');
    expect(await store.get(quick.id)).toEqual(quick);
    const back = await store.get(video.id);
    expect(back.video).toEqual(video.video);
    expect(back).toEqual(video);
  });

  it('is lossless: the exported text comes back as the same document, under imported/', async () => {
    for (const kind of KINDS) {
      const doc = fixture(kind);
      const text = `${JSON.stringify(doc, null, 2)}\n`;
      const { entries, duplicates } = await store.import(text, `${kind}.json`);
      expect(duplicates).toBe(0);
      expect(entries[0]).toMatchObject({ id: doc.id, origin: 'imported' });
      expect(await store.get(doc.id)).toEqual(doc);
      expect(await fsp.readFile(path.join(store.dir, 'imported', `${doc.id}.json`), 'utf8')).toBe(text);
    }
    expect((await store.list()).entries).toHaveLength(KINDS.length);
  });

  it('knows a result it already has, and refuses a different one with the same id', async () => {
    const doc = fixture('quick');
    await store.save(doc);
    expect((await store.import(JSON.stringify(doc))).duplicates).toBe(1);
    const changed = { ...doc, tests: doc.tests.map((t) => ({ ...t, mbps: t.mbps * 2 })) };
    await expect(store.import(JSON.stringify(changed), 'edited.json')).rejects.toMatchObject({
      code: 'ERR_CONFLICT',
      message: expect.stringContaining('edited.json holds a result whose id'),
    });
  });

  it('takes every result of a comparison export', async () => {
    const bundle = { format: 'diskdial-comparison', schema: 1, results: [fixture('quick'), fixture('cdm')], comparison: {} };
    const { entries } = await store.import(JSON.stringify(bundle));
    expect(entries.map((e) => e.kind)).toEqual(['quick', 'cdm']);
  });

  it('says in words why a file cannot be imported', async () => {
    await expect(store.import('{"schema": 7}', 'new.json')).rejects.toMatchObject({
      code: 'ERR_NOT_A_RESULT',
      message:
        'new.json cannot be imported: It was made by a newer DiskDial (result schema 7); this version reads schema 1. Update DiskDial to open it.',
    });
    await expect(store.import('hello', 'x.json')).rejects.toThrow(/x.json cannot be imported: It is not JSON/);
    await expect(store.import(JSON.stringify({ ...fixture('quick'), id: '../escape' }))).rejects.toThrow(/id is not a result id/);
    await expect(store.import(JSON.stringify({ format: 'diskdial-comparison', results: [] }))).rejects.toThrow(/holds no results/);
  });
});

describe('reading results', () => {
  it('accepts every fixture and returns it unchanged', () => {
    for (const kind of KINDS) {
      const doc = fixture(kind);
      expect(checkResult(doc)).toBe(doc);
      expect(parseResultFile(JSON.stringify(doc))).toEqual([doc]);
    }
  });

  it('refuses values that would break a view', () => {
    const doc = fixture('quick');
    const bad = (over: Record<string, unknown>) => () => checkResult({ ...doc, ...over });
    expect(bad({ tests: [{ ...doc.tests[0], mbps: 'fast' }] })).toThrow(NotAResultError);
    expect(bad({ cacheMode: 'psychic' })).toThrow(/cacheMode has a value this version does not know/);
    expect(bad({ startedAt: 'yesterday' })).toThrow(/startedAt/);
    expect(bad({ schema: 0 })).toThrow(/"schema" is 0/);
  });
});

describe("a Quick Test's cycles as one result", () => {
  it('numbers the tests by cycle, summarises across them and notes an early stop', () => {
    const doc = fixture('quick');
    const cycle = (run: number): ResultDocument => ({
      ...doc,
      id: `c${run}`,
      settings: { ...doc.settings, runs: 1 },
      tests: doc.tests.filter((t) => t.run === run).map((t) => ({ ...t, run: 1 })),
    });
    const merged = combineRuns([cycle(1), cycle(2)], 'Stopped after 2 of 5 runs.');
    expect(merged.id).toBe('c1');
    expect(merged.tests.map((t) => `${t.name}#${t.run}`)).toEqual(['Write#1', 'Read#1', 'Write#2', 'Read#2']);
    expect(merged.settings.runs).toBe(2);
    expect(merged.summary!.map((s) => [s.name, s.runs])).toEqual([
      ['Write', 2],
      ['Read', 2],
    ]);
    expect(merged.notes).toEqual(['Stopped after 2 of 5 runs.']);
    expect(merged.finishedAt).toBe(doc.finishedAt);
    expect(checkResult(merged)).toBe(merged);
    expect(headlineFigures(merged).map((h) => h.label)).toEqual(['Write', 'Read']);
    // One cycle and nothing to say: the cycle's own document.
    const one = cycle(1);
    expect(combineRuns([one])).toBe(one);
  });
});

/** Rejects when `p` takes longer than `ms`: a hang fails the test instead of stalling the run. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('hostile files in the history folder', () => {
  it('a FIFO named like a result hangs neither the listing nor a lookup by id or short id', async () => {
    await store.save(withId(fixture('quick'), 'abcd1111'));
    execFileSync('mkfifo', [path.join(store.dir, 'abcd-pipe.json')]);
    await fsp.mkdir(path.join(store.dir, 'imported'));
    execFileSync('mkfifo', [path.join(store.dir, 'imported', 'other-pipe.json')]);
    const listing = await within(store.list(), 5000, 'list()');
    expect(listing.entries.map((e) => e.id)).toEqual(['abcd1111']);
    const reason = 'It is not a regular file (a pipe, a device or a socket); history reads only files.';
    expect(listing.skipped).toEqual([
      { file: 'abcd-pipe.json', reason },
      { file: 'imported/other-pipe.json', reason },
    ]);
    // A short id goes through the listing; the FIFO does not match it, nor stall it.
    expect((await within(store.get('abcd1'), 5000, 'get(prefix)')).id).toBe('abcd1111');
    await expect(within(store.get('abcd-pipe'), 5000, 'get(id)')).rejects.toThrow(`The saved result "abcd-pipe" cannot be read: ${reason}`);
    await expect(within(store.get('other-pipe'), 5000, 'get(imported id)')).rejects.toThrow(reason);
  });

  it('a link to /dev/zero is skipped without being read: memory stays low', async () => {
    await store.save(fixture('cdm'));
    await fsp.symlink('/dev/zero', path.join(store.dir, 'zero.json'));
    const before = process.memoryUsage().rss;
    const listing = await within(store.list(), 5000, 'list()');
    const grew = process.memoryUsage().rss - before;
    expect(listing.entries).toHaveLength(1);
    expect(listing.skipped).toEqual([
      { file: 'zero.json', reason: 'It is a symbolic link; history reads only files in its own folder and does not follow links.' },
    ]);
    expect(grew).toBeLessThan(64 * 1024 * 1024);
    await expect(within(store.get('zero'), 5000, 'get()')).rejects.toThrow(/cannot be read: It is a symbolic link/);
  });

  it('a link to a secret file: the skip reason and the error say nothing of what is in it', async () => {
    const secret = path.join(dir, 'shadow');
    const text = 'root:*:20250:0:99999:7:::\ndaemon:*:20250:0:99999:7:::\n';
    await fsp.writeFile(secret, text, { mode: 0o600 });
    await store.save(fixture('quick'));
    await fsp.symlink(secret, path.join(store.dir, 'leak.json'));
    // The same text as a regular file in the folder: not JSON, and the reason must not quote it either.
    await fsp.writeFile(path.join(store.dir, 'copy.json'), text);
    // Nor may a "schema" that is text be quoted.
    await fsp.writeFile(path.join(store.dir, 'schema.json'), JSON.stringify({ schema: 'root:*:20250' }));
    const listing = await store.list();
    const reasons = Object.fromEntries(listing.skipped.map((s) => [s.file, s.reason]));
    expect(reasons).toEqual({
      'copy.json': 'It is not JSON.',
      'leak.json': 'It is a symbolic link; history reads only files in its own folder and does not follow links.',
      'schema.json': 'It is not a DiskDial result ("schema" is not a number).',
    });
    const errors = await Promise.all(
      ['leak', 'copy', 'schema'].map((id) =>
        store.get(id).then(
          () => '',
          (err: Error) => err.message,
        ),
      ),
    );
    for (const said of [...Object.values(reasons), ...errors]) {
      expect(said).not.toMatch(/root|daemon|20250|99999/);
    }
  });

  it('an imported/ folder that is a link is not followed', async () => {
    const elsewhere = path.join(dir, 'elsewhere');
    await fsp.mkdir(elsewhere);
    await fsp.writeFile(path.join(elsewhere, 'planted.json'), JSON.stringify(withId(fixture('quick'), 'planted')));
    await fsp.mkdir(store.dir, { recursive: true });
    await fsp.symlink(elsewhere, path.join(store.dir, 'imported'));
    const listing = await store.list();
    expect(listing.entries).toEqual([]);
    expect(listing.skipped).toEqual([
      { file: 'imported', reason: 'It is a symbolic link; history reads only files in its own folder and does not follow links.' },
    ]);
    await expect(store.get('planted')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.import(JSON.stringify(fixture('cdm')))).rejects.toThrow(
      /is a symbolic link; DiskDial imports only into its own folder/,
    );
    expect(await fsp.readdir(elsewhere)).toEqual(['planted.json']);
  });
});

describe('labels from outside', () => {
  it('history.label keeps at most 200 characters, says so, and removes control characters', async () => {
    const doc = fixture('cdm');
    await store.save(doc);
    await expect(store.label(doc.id, 'x'.repeat(201))).rejects.toMatchObject({
      code: 'ERR_LABEL_TOO_LONG',
      category: 'input',
      message: 'A label holds at most 200 characters; this one has 201.',
    });
    expect((await store.label(doc.id, 'y'.repeat(200))).label).toBe('y'.repeat(200));
    const entry = await store.label(doc.id, '\x1b[31mThrough\x1b[0m the\x01 hub\x07\n\x1b]0;pwned\x07');
    expect(entry.label).toBe('Through the hub');
    expect((await store.get(doc.id)).label).toBe('Through the hub');
  });

  it('import refuses a 30 MiB label, naming the limit, and writes nothing', async () => {
    const doc = { ...fixture('quick'), label: 'L'.repeat(30 * 1024 * 1024) };
    const t0 = performance.now();
    await expect(store.import(JSON.stringify(doc), 'huge.json')).rejects.toMatchObject({
      code: 'ERR_LABEL_TOO_LONG',
      message: expect.stringMatching(
        /^huge\.json cannot be imported: its result \(id [^)]+\) has a label too long\. A label holds at most 200 characters; this one has 31,457,280\. Nothing was imported\.$/,
      ),
    });
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect((await store.list()).entries).toEqual([]);
  });

  it('import makes a label plain: ANSI escapes and control characters never reach history', async () => {
    const doc = { ...fixture('hash'), label: '\x1b[2J\x1b[1;31mEvil\x1b[0m\x9b31m label\x01' };
    const { entries } = await store.import(JSON.stringify(doc), 'evil.json');
    expect(entries[0]!.label).toBe('Evil label');
    const saved = await fsp.readFile(path.join(store.dir, 'imported', `${doc.id}.json`), 'utf8');
    expect(saved).not.toMatch(/\\u001b|\\u0001|\u009b/);
    expect(JSON.parse(saved)).toEqual({ ...doc, label: 'Evil label' });
    // Importing the same file again is a duplicate, not a conflict.
    expect((await store.import(JSON.stringify(doc), 'evil.json')).duplicates).toBe(1);
  });
});

describe('bundle import is all or nothing', () => {
  const bundle = (...results: ResultDocument[]): string =>
    JSON.stringify({ format: 'diskdial-comparison', schema: 1, results, comparison: {} });

  it('a bundle whose second result conflicts imports nothing, and says which one conflicts', async () => {
    const cdm = fixture('cdm');
    await store.save(cdm);
    const changed = { ...cdm, tests: cdm.tests.map((t) => ({ ...t, mbps: t.mbps * 2 })) };
    await expect(store.import(bundle(fixture('quick'), changed, fixture('hash')), 'both.json')).rejects.toMatchObject({
      code: 'ERR_CONFLICT',
      message: `both.json holds a result whose id (${cdm.id}) is already in history with different figures: result 2 of 3 (id ${cdm.id}). Nothing was imported.`,
    });
    expect((await store.list()).entries.map((e) => e.id)).toEqual([cdm.id]);
    // Two different results with one id inside the bundle itself: the same answer.
    const quick = fixture('quick');
    const twin = { ...quick, tests: quick.tests.slice(1) };
    await expect(store.import(bundle(quick, twin), 'twins.json')).rejects.toMatchObject({
      code: 'ERR_CONFLICT',
      message: expect.stringContaining('result 2 of 2'),
    });
    expect((await store.list()).entries.map((e) => e.id)).toEqual([cdm.id]);
  });

  it('a write that fails half way takes back the results written before it', async () => {
    const [quick, hash] = [fixture('quick'), fixture('hash')];
    // A folder where the second result's file should go: its rename fails (EISDIR).
    await fsp.mkdir(path.join(store.dir, 'imported', `${hash.id}.json`), { recursive: true });
    await expect(store.import(bundle(quick, hash))).rejects.toMatchObject({ code: 'EISDIR' });
    expect(await fsp.readdir(path.join(store.dir, 'imported'))).toEqual([`${hash.id}.json`]);
    expect((await store.list()).entries).toEqual([]);
  });
});
