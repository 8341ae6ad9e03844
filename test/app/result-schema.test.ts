// The result document as the CLI prints it, checked against the published JSON Schema
// (docs/result.schema.json, the one the README describes) for every kind of test.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const schema = JSON.parse(readFileSync(path.join(root, 'docs/result.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);
let tmp: string;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-schema-'));
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

function runJson(...args: string[]): unknown {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/diskdial.js'), 'run', tmp, ...args, '--json'], { encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

describe('result JSON schema', () => {
  const runs: Array<[string, string[]]> = [
    ['quick', ['--test', 'quick', '--size', '16MiB', '--label', 'schema']],
    ['cdm', ['--test', 'cdm', '--size', '16MiB', '--seconds', '0.2']],
    ['mix, zeros, 2 runs, warm-up', ['--test', 'mix', '--size', '8MiB', '--seconds', '0.2', '--pattern', 'zeros', '--runs', '2', '--warmup', '0.1']],
    ['buffered on request', ['--test', 'seq-write', '--size', '8MiB', '--cache', 'buffered']],
  ];
  for (const [what, args] of runs) {
    it(`describes what the CLI prints: ${what}`, () => {
      const doc = runJson(...args);
      const ok = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    });
  }

  it('rejects documents that break it', () => {
    const doc = runJson('--test', 'seq-read', '--size', '8MiB') as Record<string, unknown> & { tests: Array<Record<string, unknown>> };
    expect(validate(doc)).toBe(true);
    expect(validate({ ...doc, schema: 2 })).toBe(false);
    expect(validate({ ...doc, cacheMode: 'fast' })).toBe(false);
    expect(validate({ ...doc, tests: [{ ...doc.tests[0], mbps: undefined }] })).toBe(false);
    expect(validate({ ...doc, surprise: true })).toBe(false);
  });
});
