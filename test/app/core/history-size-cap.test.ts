// The history store's cap on a result file (MAX_RESULT_BYTES, 64 MiB in core/history.ts) at its
// boundary: a valid result padded to exactly 64 MiB is read, one byte more is skipped as too large
// (and is never read: the size is checked before the file is). JSON allows trailing whitespace, so
// the padding keeps the document valid on both sides of the line.
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../app/src/core/history.js';
import type { ResultDocument } from '../../../app/src/model/result.js';

const CAP = 64 * 1024 * 1024;
const doc = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../fixtures/results/quick.json'), 'utf8')) as ResultDocument;

let dir: string;
let store: HistoryStore;
beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-history-cap-'));
  store = new HistoryStore(path.join(dir, 'results'));
  await fsp.mkdir(store.dir, { recursive: true });
});
afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** The fixture as <id>.json, padded with spaces to `bytes`. */
async function writePadded(id: string, bytes: number): Promise<void> {
  const text = JSON.stringify({ ...doc, id });
  await fsp.writeFile(path.join(store.dir, `${id}.json`), text + ' '.repeat(bytes - Buffer.byteLength(text)));
}

describe('history reads result files up to 64 MiB', () => {
  it('reads one of exactly 64 MiB, and skips one of 64 MiB + 1 byte as too large', async () => {
    await writePadded('at-cap', CAP);
    await writePadded('over-cap', CAP + 1);
    const listing = await store.list();
    expect(listing.entries.map((e) => e.id)).toEqual(['at-cap']);
    expect(listing.skipped).toEqual([{ file: 'over-cap.json', reason: 'It is larger than a result can be (at most 64 MiB).' }]);
    expect((await store.get('at-cap')).id).toBe('at-cap');
    await expect(store.get('over-cap')).rejects.toThrow(
      'The saved result "over-cap" cannot be read: It is larger than a result can be (at most 64 MiB).',
    );
  });
});
