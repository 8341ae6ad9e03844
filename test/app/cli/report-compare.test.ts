// Issue 29's first seed, as a user meets it: two results imported into history — a baseline whose
// read runs vary 7× (1100, 150, 180 MB/s: run 1 cached) and a candidate at a steady 5 MB/s — and
// `diskdial report A B`. A 98 % drop is a real change with its interval, the noisy baseline is
// flagged with its outlying run, and nothing says "no measurable difference".
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { runCli } from '../../helpers/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const quick = (): ResultDocument => JSON.parse(readFileSync(path.join(root, 'test/fixtures/results/quick.json'), 'utf8')) as ResultDocument;

/** The Quick Test fixture (3 runs) with its own id, label and read runs. */
function withReads(id: string, label: string, reads: [number, number, number]): ResultDocument {
  const d = quick();
  d.id = id;
  d.label = label;
  for (const t of d.tests) if (t.name === 'Read') t.mbps = reads[t.run - 1]!;
  return d;
}

let tmp: string;
beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-cli-report-'));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

describe('diskdial report on two imported results', () => {
  it('calls a 98 % drop against a noisy baseline a real change with its interval, and flags run 1', async () => {
    const home = path.join(tmp, 'home');
    const a = withReads('a0000000-0000-4000-8000-000000000001', 'Baseline noisy', [1100, 150, 180]);
    const b = withReads('b0000000-0000-4000-8000-000000000002', 'Throttled', [5.02, 5.0, 4.99]);
    await fsp.writeFile(path.join(tmp, 'a.json'), JSON.stringify(a));
    await fsp.writeFile(path.join(tmp, 'b.json'), JSON.stringify(b));
    const cli = (...args: string[]) => runCli(args, { cwd: tmp, home, timeout: 60_000 });
    expect(cli('import', 'a.json', 'b.json').status).toBe(0);
    const r = cli('report', 'a0000000', 'b0000000');
    expect(r.status, r.stderr).toBe(0);
    const md = r.stdout;
    // Ratio of geometric means 0.0162 (−98 %), 95 % interval −99.9 to −75 % (Welch on log values,
    // df 2.0; the same figures hand-checked with mpmath in test/app/model/verdict/compare.test.ts).
    expect(md).toMatch(/\n\| Throttled \| 5\.00 ± 0\.02 \(−98 %\) \|/);
    expect(md).toContain('read −98 %, CI −99.9 to −75 % at 1 GiB (the runs of Baseline noisy vary 7.3× — run 1 looks cached)');
    expect(md).not.toMatch(/no measurable difference/i);
    expect(md).not.toMatch(/\(≈\)[^\n]*\n\| Throttled/);
    // The rule is printed under the report.
    expect(md).toMatch(/_Rule: Each change is the ratio of the runs' geometric means, with a 95 % confidence interval/);
  });
});
