// Every result any app or e2e test writes is audited (claims-audit.ts) after the test that wrote
// it: each test keeps its results in a data folder of its own under the system temp folder, so
// the hook looks in <tmp>/*/results and <tmp>/*/*/results for documents written since the test
// began, and fails that test when one of them states a verdict its own figures contradict.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { readUserText } from '../../app/src/core/safe-read.js';
import type { ResultDocument } from '../../app/src/model/result.js';
import { parseResultText } from '../../app/src/model/result-parse.js';
import { auditRenders, auditResult } from './claims-audit.js';

const seen = new Set<string>();
let began = 0;

async function dirs(p: string): Promise<string[]> {
  try {
    return (await fsp.readdir(p, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => path.join(p, e.name));
  } catch {
    return [];
  }
}

async function resultsFolders(): Promise<string[]> {
  const out: string[] = [];
  for (const a of await dirs(os.tmpdir())) {
    out.push(path.join(a, 'results'));
    for (const b of await dirs(a)) out.push(path.join(b, 'results'));
  }
  return out;
}

/** The results in one folder written since `since` (ms), and every document there (the paced
 *  results a Quick Test's verdicts may rest on). Files that are not results are skipped: tests
 *  plant hostile ones on purpose. */
async function written(folder: string, since: number): Promise<{ fresh: ResultDocument[]; all: ResultDocument[] }> {
  let names: string[];
  try {
    names = (await fsp.readdir(folder)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return { fresh: [], all: [] };
  }
  const fresh: ResultDocument[] = [];
  const all: ResultDocument[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      const st = await fsp.lstat(file);
      if (!st.isFile()) continue;
      const doc = parseResultText(await readUserText(file, { what: 'a result', maxBytes: 64 * 1024 ** 2, follow: false }));
      all.push(doc);
      const key = `${file}@${st.mtimeMs}`;
      if (st.mtimeMs >= since && !seen.has(key)) {
        seen.add(key);
        fresh.push(doc);
      }
    } catch {
      // gone already, or not a result
    }
  }
  return { fresh, all };
}

beforeEach(() => {
  began = Date.now() - 1000; // mtimes are coarse on some file systems
});

afterEach(async () => {
  const bad: string[] = [];
  for (const folder of await resultsFolders()) {
    const { fresh, all } = await written(folder, began);
    const paced = all.filter((d) => d.kind === 'video');
    for (const doc of fresh) bad.push(...auditResult(doc, paced), ...auditRenders(doc));
  }
  if (bad.length > 0) throw new Error(`claims audit: a result this test wrote states what its figures contradict:\n${bad.join('\n')}`);
});
