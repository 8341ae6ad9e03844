// The result document as the CLI prints it, checked against the published JSON Schema
// (docs/result.schema.json, the one the README describes) for every kind of test.
import { spawnSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCoreIfChanged } from '../../helpers/build-core.js';
import { USB32G2 } from '../../helpers/links.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const schema = JSON.parse(readFileSync(path.join(root, 'docs/result.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);
let tmp: string;

/** The parts of ResultDocument the checks below reach into (the schema checks the rest). */
interface Doc {
  settings: Record<string, unknown> & { files?: Record<string, unknown> };
  summary?: Array<Record<string, unknown> & { name: string; rw: string; runs: number; mbps: Record<string, unknown> }>;
  sustained?: Record<string, unknown> & { runs: Array<Record<string, unknown> & { run: number }> };
  files?: Record<string, unknown> & {
    runs: Array<{
      items: Array<Record<string, unknown>>;
      write: Record<string, unknown>;
      read: Record<string, unknown> & { leastSquares?: Record<string, unknown> };
    }>;
  };
  [k: string]: unknown;
}

beforeAll(async () => {
  buildCoreIfChanged();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-schema-'));
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

function runJson(...args: string[]): unknown {
  const r = spawnSync(process.execPath, [path.join(root, 'bin/diskdial.js'), 'run', tmp, ...args, '--json'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

// Some documents serve more than one test: run each of those once (the tests copy, never mutate).
const printed = new Map<string, unknown>();
function runJsonOnce(...args: string[]): unknown {
  const key = args.join(' ');
  if (!printed.has(key)) printed.set(key, runJson(...args));
  return printed.get(key);
}
const SUSTAINED_2_RUNS = ['--test', 'sustained', '--size', '64MiB', '--runs', '2', '--rest', '1s', '--reserve', '0'];
const FILES_6 = ['--test', 'files', '--files', '6', '--min-size', '1MiB', '--max-size', '8MiB', '--reserve', '0'];

describe('result JSON schema', () => {
  const runs: Array<[string, string[]]> = [
    ['quick', ['--test', 'quick', '--size', '16MiB', '--label', 'schema']],
    ['cdm', ['--test', 'cdm', '--size', '16MiB', '--seconds', '0.2']],
    [
      'mix, zeros, 2 runs, warm-up',
      ['--test', 'mix', '--size', '8MiB', '--seconds', '0.2', '--pattern', 'zeros', '--runs', '2', '--warmup', '0.1'],
    ],
    ['buffered on request', ['--test', 'seq-write', '--size', '8MiB', '--cache', 'buffered']],
    ['sustained write', ['--test', 'sustained', '--size', '96MiB', '--reserve', '0']],
    ['many files', FILES_6],
    ['video, one file a frame', ['--test', 'video', '--format', 'prores-proxy-hd-24', '--seconds', '1', '--layout', 'frames']],
    ['sweep, timed steps', ['--test', 'sweep', '--seconds', '0.05']],
    ['sweep atto', ['--test', 'sweep', '--preset', 'atto', '--seconds', '0.05']],
    ['small files', ['--test', 'small-files', '--files', '20', '--file-size', '8KiB']],
    ['verify', ['--test', 'verify', '--size', '64MiB', '--reserve', '0']],
  ];
  for (const [what, args] of runs) {
    it(`describes what the CLI prints: ${what}`, () => {
      const doc = runJsonOnce(...args);
      const ok = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    });
  }

  it('describes what the CLI prints: cdm, peak, all modes, 2 runs, an interval (summary, SEQ Mix as rw)', () => {
    const doc = runJson(
      '--test',
      'cdm',
      '--size',
      '16MiB',
      '--seconds',
      '0.2',
      '--preset',
      'peak',
      '--mode',
      'all',
      '--runs',
      '2',
      '--interval',
      '0.1',
    ) as Doc;
    expect(validate(doc)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(doc.settings).toMatchObject({ preset: 'peak', mode: 'all', runs: 2, intervalSeconds: 0.1 });
    // CrystalDiskMark's order: the read column, then the write column, then the mixes.
    expect(doc.summary!.map((s) => [s.name, s.rw, s.runs])).toEqual([
      ['SEQ1M Q8T1 Read', 'read', 2],
      ['RND4K Q32T1 Read', 'randread', 2],
      ['SEQ1M Q8T1 Write', 'write', 2],
      ['RND4K Q32T1 Write', 'randwrite', 2],
      ['SEQ1M Q8T1 Mix 70/30', 'rw', 2],
      ['RND4K Q32T1 Mix 70/30', 'randrw', 2],
    ]);
  });

  it('describes what the CLI prints: sustained write, 2 runs with a rest (summary, curve per run)', () => {
    const doc = runJsonOnce(...SUSTAINED_2_RUNS) as Doc;
    expect(validate(doc)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(doc.settings).toMatchObject({ runs: 2, restSeconds: 1, reserveBytes: 0 });
    expect(doc.summary).toHaveLength(1);
    expect(doc.sustained!.runs.map((r) => r.run)).toEqual([1, 2]);
  });

  it('describes what the CLI prints: cipher (the ceiling, the kernel driver); and rejects a malformed cipher section', () => {
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'bin/diskdial.js'), 'cipher', '--seconds', '0.2', '--threads', '1', '--json', '--no-save'],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc & { cipher: Record<string, unknown> & { xts: { oneCore: Record<string, unknown> } } };
    expect(validate(doc)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(doc.kind).toBe('cipher');
    const broken = (edit: (d: typeof doc) => void): boolean => {
      const copy = JSON.parse(JSON.stringify(doc)) as typeof doc;
      edit(copy);
      return validate(copy);
    };
    expect(broken((d) => void delete d.cipher.provider)).toBe(false);
    expect(broken((d) => void (d.cipher.xts.oneCore.threads = 0))).toBe(false);
    expect(broken((d) => void (d.cipher.dataUnit = 4))).toBe(false);
    expect(broken((d) => void ((d.target as Record<string, unknown>).encryption = { kind: 'rot13' }))).toBe(false);
    expect(
      broken(
        (d) => void ((d.target as Record<string, unknown>).encryption = { kind: 'fscrypt', contents: 'AES_256_XTS', policyVersion: 2 }),
      ),
    ).toBe(true);
  });

  it('describes what the CLI prints: hash, with a verification; and rejects a malformed hash section', async () => {
    const file = path.join(tmp, 'hash-me.bin');
    await fsp.writeFile(file, Buffer.alloc(1 << 20, 3));
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'bin/diskdial.js'), 'hash', file, '--threads', '1', '--verify', '0'.repeat(64), '--json'],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(1); // the digest does not match: the document is printed all the same
    const doc = JSON.parse(r.stdout) as Doc & { hash: Record<string, unknown> & { verify: Record<string, unknown> } };
    expect(validate(doc)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(doc.kind).toBe('hash');
    expect(doc.hash.verify).toMatchObject({ match: false, source: 'pasted' });
    const broken = (edit: (d: typeof doc) => void): boolean => {
      const copy = JSON.parse(JSON.stringify(doc)) as typeof doc;
      edit(copy);
      return validate(copy);
    };
    expect(broken((d) => void (d.hash.digest = 'XYZ'))).toBe(false);
    expect(broken((d) => void (d.hash.verdict = { bound: 'disk', factor: 1, efficiency: 1, text: '' }))).toBe(false);
    expect(broken((d) => void delete (d.hash.readHash as Record<string, unknown>).hasherWaitSeconds)).toBe(false);
    expect(broken((d) => void ((d.hash.memory as Record<string, unknown>).threads = 2))).toBe(false);
  });

  it('describes what the CLI prints: check, a re-check that found a change; and rejects a malformed check section', async () => {
    const folder = path.join(tmp, 'check-me');
    await fsp.mkdir(folder, { recursive: true });
    await fsp.writeFile(path.join(folder, 'a.bin'), 'a');
    const check = (): ReturnType<typeof spawnSync> =>
      spawnSync(process.execPath, [path.join(root, 'bin/diskdial.js'), 'check', folder, '--no-save', '--json'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
    expect(check().status).toBe(0);
    await fsp.writeFile(path.join(folder, 'a.bin'), 'b');
    const r = check();
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout as string) as Doc & { check: Record<string, unknown> & { counts: Record<string, unknown> } };
    expect(validate(doc)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(doc.kind).toBe('check');
    expect(doc.check).toMatchObject({ mode: 'verify', changed: ['a.bin'] });
    const broken = (edit: (d: typeof doc) => void): boolean => {
      const copy = JSON.parse(JSON.stringify(doc)) as typeof doc;
      edit(copy);
      return validate(copy);
    };
    expect(broken((d) => void (d.check.algo = 'crc32'))).toBe(false);
    expect(broken((d) => void delete d.check.counts.missing)).toBe(false);
    expect(broken((d) => void (d.check.changed = 'a.bin'))).toBe(false);
  });

  it('describes a result the wizard made (campaign), and rejects a campaign missing its format', () => {
    const doc = structuredClone(runJsonOnce('--size', '16MiB')) as Record<string, unknown>;
    doc.campaign = { planId: 'p1', format: 'ext4-fscrypt', formatLabel: 'ext4 (fscrypt encrypted)' };
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    doc.campaign = { planId: 'p1', formatLabel: 'ext4' };
    expect(validate(doc)).toBe(false);
    // A setup campaign's result (diskdial campaign) says so; nothing else may stand there.
    doc.campaign = { planId: 'c1', format: 'setup-2', formatLabel: 'Over Wi-Fi', of: 'setups' };
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    doc.campaign = { planId: 'c1', format: 'setup-2', formatLabel: 'Over Wi-Fi', of: 'formats' };
    expect(validate(doc)).toBe(false);
  });

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
    const linkInfo = { ...USB32G2, driver: 'uas' };
    const device = { ...doc.target.device, link: linkInfo.label, linkInfo, firmware: 'SVT02B6Q' };
    const full = { ...doc, target: { ...doc.target, device }, context: { temperatureC: { before: 38, after: 45.5 } } };
    expect(doc.flags.map((f) => f.severity)).toContain('warning'); // zeros
    expect(validate(full)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    const bad = (d: unknown): boolean => validate(d) as boolean;
    expect(bad({ ...full, flags: [{ ...doc.flags[0], severity: 'error' }] })).toBe(false);
    expect(bad({ ...full, target: { ...doc.target, device: { ...device, linkInfo: { ...linkInfo, kind: 'carrier-pigeon' } } } })).toBe(
      false,
    );
    expect(bad({ ...full, target: { ...doc.target, device: { ...device, linkInfo: { ...linkInfo, typicalMBps: [900] } } } })).toBe(false);
    expect(bad({ ...full, context: { temperatureC: { during: 50 } } })).toBe(false);
    expect(bad({ ...full, context: { fanRpm: 1 } })).toBe(false);
  });

  it('describes every sustained-write verdict, and rejects broken summaries, verdicts and file passes', () => {
    const sus = runJsonOnce(...SUSTAINED_2_RUNS) as Doc;
    const files = runJsonOnce(...FILES_6) as Doc;
    expect(validate(sus)).toBe(true);
    expect(validate(files)).toBe(true);
    const ok = (d: unknown): boolean => {
      const r = validate(d) as boolean;
      if (r) expect(validate.errors ?? []).toEqual([]);
      return r;
    };
    const s = sus.sustained!;
    const withVerdict = (verdict: Record<string, unknown>): Doc => ({
      ...sus,
      sustained: { ...s, runs: [{ ...s.runs[0]!, verdict }, ...s.runs.slice(1)] },
    });
    // Verdicts a write this small never reaches, with figures like a real drive's.
    const knee = { kind: 'knee', kneeBytes: 12.4e9, beforeMBps: 2150, afterMBps: 480, lowestMBps: 402.5, change: -0.777 };
    const varies = { kind: 'varies', minMBps: 600, maxMBps: 1900, medianMBps: 1200, drops: 3 };
    expect(ok(withVerdict(knee))).toBe(true);
    expect(ok(withVerdict(varies))).toBe(true);
    expect(ok(withVerdict({ kind: 'steady', mbps: 950 }))).toBe(true);

    const { kneeBytes: _k, ...noKneeBytes } = knee;
    expect(ok(withVerdict(noKneeBytes))).toBe(false);
    expect(ok(withVerdict({ ...varies, kind: 'knee' }))).toBe(false);
    expect(ok(withVerdict({ kind: 'steady', mbps: 950, kneeBytes: 1 }))).toBe(false);
    expect(ok(withVerdict({ ...varies, drops: 1.5 }))).toBe(false);

    const sum = sus.summary!;
    expect(ok({ ...sus, summary: [{ ...sum[0]!, runs: '2' }] })).toBe(false);
    expect(ok({ ...sus, summary: [{ ...sum[0]!, mbps: { ...sum[0]!.mbps, best: undefined } }] })).toBe(false);
    expect(ok({ ...sus, settings: { ...sus.settings, mode: 'sideways' } })).toBe(false);

    const f = files.files!;
    const run0 = f.runs[0]!;
    const withRun0 = (r: Record<string, unknown>): Doc => ({ ...files, files: { ...f, runs: [{ ...run0, ...r }] } });
    expect(ok(withRun0({ write: { ...run0.write, surprise: 1 } }))).toBe(false);
    expect(ok(withRun0({ read: { ...run0.read, leastSquares: { ...run0.read.leastSquares, rateMbps: 1 } } }))).toBe(false);
    expect(ok(withRun0({ items: [{ ...run0.items[0], write: { seconds: 0.1 } }] }))).toBe(false);
    expect(ok({ ...files, files: { ...f, scaled: 'Free space was short: 4 files, not 6.' } })).toBe(true);
    expect(ok({ ...files, files: { ...f, preset: 'huge' } })).toBe(false);
    expect(ok({ ...files, settings: { ...files.settings, files: { ...files.settings.files, seed: undefined } } })).toBe(false);
    expect(ok({ ...files, notes: ['Writing less: free space is short.'] })).toBe(true);
    expect(ok({ ...files, notes: [1] })).toBe(false);
  });
});
