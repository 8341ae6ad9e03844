// `diskdial run --json` as a user runs it: one result document and no flag about its figures.
// Solo in `npm test` (vitest.config.ts): the write/read ratio behind the cache flags is measured on
// the machine's shared disk, which the other chains' I/O would skew.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';

let tmp: string;
beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-json-'));
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

it('--json prints exactly one result document, direct I/O on ext4, and cleans up', async () => {
  const dir = await fsp.mkdtemp(path.join(tmp, 'json-'));
  const r = runCli(['run', dir, '--test', 'quick', '--size', '32MiB', '--json', '--label', 'ci'], { cwd: tmp, home: tmp, timeout: 60_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const doc = JSON.parse(r.stdout) as ResultDocument;
  expect(doc).toMatchObject({ schema: 1, kind: 'quick', label: 'ci', cacheMode: 'direct', dataPattern: 'random' });
  expect(doc.tests.map((t) => t.name)).toEqual(['Write', 'Read']);
  expect(doc.tests.every((t) => t.bytes === 32 << 20 && t.mbps > 0)).toBe(true);
  expect(doc.target).toMatchObject({ path: dir, fs: 'ext4' });
  // No flag about the figures; the busy-machine note may come with a loaded CI machine (info only).
  expect(doc.flags.filter((f) => f.code !== 'machine-busy')).toEqual([]);
  expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
});
