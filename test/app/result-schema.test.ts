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

  it('describes the link, firmware, temperatures and flag severities where they are known', () => {
    const doc = runJson('--test', 'seq-read', '--size', '8MiB', '--pattern', 'zeros') as Record<string, unknown> & {
      target: Record<string, unknown> & { device: Record<string, unknown> };
      flags: Array<Record<string, unknown>>;
    };
    // This disk may have no classified link or sensor; give the document what a USB SSD has.
    const linkInfo = { kind: 'usb', label: 'USB 3.2 Gen 2 (10 Gb/s)', rawMbps: 10000, encoding: '128b/132b', ceilingMBps: 1212, typicalMBps: [900, 1050], driver: 'uas', source: 'sysfs' };
    const device = { ...doc.target.device, link: linkInfo.label, linkInfo, firmware: 'SVT02B6Q' };
    const full = { ...doc, target: { ...doc.target, device }, context: { temperatureC: { before: 38, after: 45.5 } } };
    expect(doc.flags.map((f) => f.severity)).toContain('warning'); // zeros
    expect(validate(full)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    const bad = (d: unknown): boolean => validate(d) as boolean;
    expect(bad({ ...full, flags: [{ ...doc.flags[0], severity: 'error' }] })).toBe(false);
    expect(bad({ ...full, target: { ...doc.target, device: { ...device, linkInfo: { ...linkInfo, kind: 'carrier-pigeon' } } } })).toBe(false);
    expect(bad({ ...full, target: { ...doc.target, device: { ...device, linkInfo: { ...linkInfo, typicalMBps: [900] } } } })).toBe(false);
    expect(bad({ ...full, context: { temperatureC: { during: 50 } } })).toBe(false);
    expect(bad({ ...full, context: { fanRpm: 1 } })).toBe(false);
  });
});
