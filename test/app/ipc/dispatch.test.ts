// The dispatcher behind both front doors: every channel with good and hostile payloads. It must
// answer every input with a result, never a throw, and say in plain words what was wrong.
import { createHash } from 'node:crypto';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHash, runTest } from '../../../app/src/core/engine.js';
import { HistoryStore } from '../../../app/src/core/history.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { PlanStore } from '../../../app/src/core/wizard/plan-store.js';

import { createDispatcher } from '../../../app/src/ipc/dispatch.js';
import { WizardService } from '../../../app/src/services/wizard.js';
import { requests, type EventChannel, type EventMap, type EventSink, type IpcResult } from '../../../app/src/ipc/contract.js';
import { DetailedTestService } from '../../../app/src/services/detailed-test.js';
import { HashTestService } from '../../../app/src/services/hash-test.js';
import { HistoryService } from '../../../app/src/services/history.js';
import { QuickTestService } from '../../../app/src/services/quick-test.js';
import { TargetsService } from '../../../app/src/services/targets.js';
import type { AppInfo, ExportFile, HistoryEntry, HistoryListing, ShareCard, TargetInfo } from '../../../app/src/model/history.js';
import type { QuickDoneEvent } from '../../../app/src/model/events.js';
import { listingProvider, usbDisk, wizardSettings } from '../../helpers/wizard-plans.js';

const MiB = 1 << 20;
const appInfo: AppInfo = { appVersion: '0.1.0', engineVersion: 'x', platform: process.platform, shell: 'browser' };
let dir: string;
let quick: QuickTestService;
let detailed: DetailedTestService;
let hash: HashTestService;

function sink(): EventSink & { events: Array<{ channel: EventChannel; data: unknown }>; done: Promise<QuickDoneEvent> } {
  let finish!: (e: QuickDoneEvent) => void;
  const done = new Promise<QuickDoneEvent>((r) => (finish = r));
  const events: Array<{ channel: EventChannel; data: unknown }> = [];
  return {
    events,
    done,
    alive: true,
    send<C extends EventChannel>(channel: C, data: EventMap[C]) {
      events.push({ channel, data });
      if (channel === 'quick.done') finish(data as QuickDoneEvent);
    },
  };
}

function error(r: IpcResult<unknown>): { code: string; message: string } {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value).slice(0, 200)}`);
  return r.error;
}
function value<T>(r: IpcResult<unknown>): T {
  if (!r.ok) throw new Error(`expected a value, got ${r.error.code}: ${r.error.message}`);
  return r.value as T;
}

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-dispatch-'));
  quick = new QuickTestService({ engine: runTest });
  detailed = new DetailedTestService({ engine: runTest });
  hash = new HashTestService({ engine: { runHash, runTest }, memorySeconds: 0.2 });
});
afterAll(async () => {
  await quick.stopAll();
  await detailed.stopAll();
  await hash.stopAll();
  await fsp.rm(dir, { recursive: true, force: true });
});

const good = () => ({ target: dir, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 });

describe('dispatcher', () => {
  const d = () => createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history: new HistoryService(), appInfo });

  it('app.info answers with the app info; payload may be {} or absent', async () => {
    const s = sink();
    expect(value(await d().handle('app.info', {}, s))).toEqual(appInfo);
    expect(value(await d().handle('app.info', undefined, s))).toEqual(appInfo);
    expect(error(await d().handle('app.info', { x: 1 }, s))).toEqual({ code: 'ERR_INVALID_PAYLOAD', message: 'Unknown field "x"' });
    expect(error(await d().handle('app.info', null, s))).toEqual({
      code: 'ERR_INVALID_PAYLOAD',
      message: 'The request must be an object, not null',
    });
  });

  it('targets.list lists / as ext4', async () => {
    const list = value<TargetInfo[]>(await d().handle('targets.list', {}, sink()));
    expect(list.find((t) => t.mountPoint === '/')).toMatchObject({ fs: 'ext4', startable: true });
    expect(error(await d().handle('targets.list', [], sink())).message).toBe('The request must be an object, not a list');
  });

  it('targets.describe: a folder, a missing path, a file, bad payloads', async () => {
    expect(value<TargetInfo>(await d().handle('targets.describe', { path: dir }, sink()))).toMatchObject({
      path: dir,
      name: path.basename(dir),
      startable: true,
    });
    const missing = path.join(dir, 'missing');
    expect(error(await d().handle('targets.describe', { path: missing }, sink()))).toEqual({
      code: 'ENOENT',
      message: `No such folder: ${missing}. Check the path, or choose another folder.`,
    });
    const file = path.join(dir, 'f.txt');
    await fsp.writeFile(file, 'x');
    expect(error(await d().handle('targets.describe', { path: file }, sink()))).toMatchObject({ code: 'ENOTDIR' });
    expect(error(await d().handle('targets.describe', { path: 'relative/dir' }, sink()))).toMatchObject({ code: 'ERR_INVALID_PATH' });
    expect(error(await d().handle('targets.describe', {}, sink()))).toEqual({ code: 'ERR_INVALID_PAYLOAD', message: 'path: is required' });
    expect(error(await d().handle('targets.describe', { path: 42 }, sink())).message).toBe('path: must be text, not a number');
    expect(error(await d().handle('targets.describe', { path: '' }, sink())).message).toBe('path: must not be empty');
    const huge = await d().handle('targets.describe', { path: `/${'a'.repeat(1 << 20)}` }, sink());
    expect(error(huge)).toEqual({ code: 'ERR_INVALID_PAYLOAD', message: 'path: must be at most 4096 characters' });
  });

  it('targets.choose: unsupported without a picker; with one, describes the choice or null', async () => {
    expect(error(await d().handle('targets.choose', {}, sink()))).toEqual({
      code: 'ERR_UNSUPPORTED',
      message: 'Choosing a folder needs the desktop app; type a path instead.',
    });
    const withPicker = (answer: string | null) =>
      createDispatcher({
        quick,
        detailed,
        hash,
        targets: new TargetsService(),
        history: new HistoryService(),
        appInfo,
        chooseFolder: async () => answer,
      });
    expect(value(await withPicker(null).handle('targets.choose', {}, sink()))).toBeNull();
    expect(value<TargetInfo>(await withPicker(dir).handle('targets.choose', {}, sink()))).toMatchObject({ path: dir });
  });

  it('quick.start validates every field in plain words', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...good(), sizeBytes: 1024 }, 'sizeBytes: must be at least 16 MiB'],
      [{ ...good(), sizeBytes: 1e20 }, 'sizeBytes: must be at most 64 GiB'],
      [{ ...good(), sizeBytes: NaN }, 'sizeBytes: must be a number, not NaN'],
      [{ ...good(), sizeBytes: '16777216' }, 'sizeBytes: must be a number, not text'],
      [{ ...good(), ...(JSON.parse('{"sizeBytes": 1e999}') as object) }, 'sizeBytes: must be a finite number, not infinity'],
      [{ ...good(), sizeBytes: 16 * MiB + 0.5 }, 'sizeBytes: must be a whole number'],
      [{ ...good(), mode: 'forever' }, 'mode: must be one of runs, continuous'],
      [{ ...good(), runs: 0 }, 'runs: must be at least 1'],
      [{ ...good(), runs: 101 }, 'runs: must be at most 100'],
      [{ ...good(), extra: true }, 'Unknown field "extra"'],
      [{ target: dir }, 'sizeBytes: is required; mode: is required; runs: is required'],
      [{ ...good(), target: 'x'.repeat(1 << 20) }, 'target: must be at most 4096 characters'],
      [
        JSON.parse(`{"__proto__": {"polluted": true}, "target": "${dir}", "sizeBytes": 16777216, "mode": "runs", "runs": 1}`),
        'Unknown field "__proto__"',
      ],
      [null, 'The request must be an object, not null'],
      [[], 'The request must be an object, not a list'],
      ['start', 'The request must be an object, not text'],
    ];
    for (const [payload, message] of cases) {
      const s = sink();
      expect(await d().handle('quick.start', payload, s)).toEqual({ ok: false, error: { code: 'ERR_INVALID_PAYLOAD', message } });
      expect(s.events).toEqual([]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(quick.runningJobId).toBeUndefined();
  });

  it('quick.start runs a job whose events go to the caller’s sink; quick.stop; busy', async () => {
    const s = sink();
    const { jobId } = value<{ jobId: string }>(await d().handle('quick.start', { ...good(), mode: 'continuous' }, s));
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const other = sink();
    expect(error(await d().handle('quick.start', good(), other))).toEqual({ code: 'ERR_BUSY', message: 'A test is already running.' });
    expect(value(await d().handle('quick.stop', { jobId: 'someone-else' }, other))).toEqual({ stopped: false });
    expect(value(await d().handle('quick.stop', { jobId }, other))).toEqual({ stopped: true });
    expect(await s.done).toEqual({ jobId, outcome: 'stopped' });
    expect(other.events).toEqual([]);
    expect(error(await d().handle('quick.stop', {}, s)).message).toBe('jobId: is required');
    expect(error(await d().handle('quick.stop', { jobId: 'x'.repeat(101) }, s)).message).toBe('jobId: must be at most 100 characters');
  });

  it('quick.start on a target that cannot work is refused as a reply', async () => {
    const missing = path.join(dir, 'gone');
    expect(error(await d().handle('quick.start', { ...good(), target: missing }, sink()))).toEqual({
      code: 'ENOENT',
      message: `No such folder: ${missing}. Check the path, or choose another folder.`,
    });
  });

  const goodCdm = () => ({
    kind: 'cdm',
    target: dir,
    preset: 'default',
    mode: 'read',
    sizeBytes: 16 * MiB,
    seconds: 1,
    intervalSeconds: 0,
    runs: 1,
    restSeconds: 0,
  });

  it('detailed.start validates each kind’s fields in plain words', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...goodCdm(), kind: 'hash' }, 'kind: must be one of cdm, sustained, files, video, sweep, small-files, verify, share'],
      [{ ...goodCdm(), preset: 'turbo' }, 'preset: must be one of default, nvme, peak, realworld, fast'],
      [{ ...goodCdm(), mode: 'both' }, 'mode: must be one of readwrite, read, write, mix, all'],
      [{ ...goodCdm(), sizeBytes: 65 * 1024 * MiB }, 'sizeBytes: must be at most 64 GiB'],
      [{ ...goodCdm(), seconds: 0 }, 'seconds: must be at least 1'],
      [{ ...goodCdm(), restSeconds: -1 }, 'restSeconds: must be at least 0'],
      [{ ...goodCdm(), maxBytes: 1e9 }, 'Unknown field "maxBytes"'],
      [{ kind: 'sustained', target: dir, maxBytes: MiB, runs: 1, restSeconds: 0 }, 'maxBytes: must be at least 64 MiB'],
      [{ kind: 'files', target: dir, preset: 'custom', count: 1, runs: 1, restSeconds: 0 }, 'count: must be at least 2'],
      [
        { kind: 'files', target: dir, preset: 'custom', count: 4, minBytes: 8 * MiB, maxBytes: 4 * MiB, runs: 1, restSeconds: 0 },
        'maxBytes: must be at least minBytes',
      ],
      [{ kind: 'files', target: dir, preset: 'huge', runs: 1, restSeconds: 0 }, 'preset: must be one of quick, standard, custom'],
      [{ target: dir }, 'kind: must be one of cdm, sustained, files, video, sweep, small-files, verify, share'],
    ];
    for (const [payload, message] of cases) {
      const s = sink();
      expect(await d().handle('detailed.start', payload, s)).toEqual({ ok: false, error: { code: 'ERR_INVALID_PAYLOAD', message } });
      expect(s.events).toEqual([]);
    }
    expect(detailed.runningJobId).toBeUndefined();
  });

  it('one test at a time across both screens: a detailed job makes quick.start busy, and the other way round', async () => {
    const s = sink();
    const { jobId } = value<{ jobId: string }>(await d().handle('detailed.start', { ...goodCdm(), seconds: 30 }, s));
    expect(error(await d().handle('quick.start', good(), sink()))).toEqual({ code: 'ERR_BUSY', message: 'A test is already running.' });
    expect(error(await d().handle('detailed.start', goodCdm(), sink()))).toMatchObject({ code: 'ERR_BUSY' });
    expect(value(await d().handle('detailed.stop', { jobId }, sink()))).toEqual({ stopped: true });
    await new Promise<void>((resolve) => {
      const wait = (): void => void (detailed.runningJobId === undefined ? resolve() : setTimeout(wait, 10));
      wait();
    });
    const q = sink();
    const quickJob = value<{ jobId: string }>(await d().handle('quick.start', { ...good(), mode: 'continuous' }, q));
    expect(error(await d().handle('detailed.start', goodCdm(), sink()))).toMatchObject({ code: 'ERR_BUSY' });
    expect(value(await d().handle('quick.stop', quickJob, q))).toEqual({ stopped: true });
    await q.done;
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
  });

  it('detailed.start on a target that cannot work is refused as a reply', async () => {
    const missing = path.join(dir, 'gone');
    expect(error(await d().handle('detailed.start', { ...goodCdm(), target: missing }, sink()))).toEqual({
      code: 'ENOENT',
      message: `No such folder: ${missing}. Check the path, or choose another folder.`,
    });
  });

  it('release(sink) stops the detailed job that sink started', async () => {
    const dispatcher = d();
    const s = sink();
    value(await dispatcher.handle('detailed.start', { ...goodCdm(), seconds: 30 }, s));
    await dispatcher.release!(s);
    expect(detailed.runningJobId).toBeUndefined();
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
  });

  it('hash.start validates the source, the algorithm and the verify text; files.choose needs the desktop app', async () => {
    const file = path.join(dir, 'h.bin');
    await fsp.writeFile(file, 'abc');
    const cases: Array<[unknown, string]> = [
      [{ source: { kind: 'file', path: file }, algo: 'md5' }, 'algo: must be one of sha256, sha512'],
      [{ source: { kind: 'url', path: file }, algo: 'sha256' }, 'source.kind: must be one of file, generate'],
      [{ source: { kind: 'generate', target: dir, sizeBytes: 1024 }, algo: 'sha256' }, 'source.sizeBytes: must be at least 16 MiB'],
      [{ source: { kind: 'file', path: file }, algo: 'sha256', verify: '' }, 'verify: must not be empty'],
      // Only a checksum file, by its full path, is ever read: not any file a page names.
      [
        { source: { kind: 'file', path: file }, algo: 'sha256', verify: '/etc/shadow' },
        'verify: must be a SHA-256 or SHA-512 digest, or the full path of a checksum file (.sha256, .sha512, SHA256SUMS, SHA512SUMS)',
      ],
      [
        { source: { kind: 'file', path: file }, algo: 'sha256', verify: file },
        'verify: must be a SHA-256 or SHA-512 digest, or the full path of a checksum file (.sha256, .sha512, SHA256SUMS, SHA512SUMS)',
      ],
      [
        { source: { kind: 'file', path: file }, algo: 'sha256', verify: 'SHA256SUMS' },
        'verify: must be a SHA-256 or SHA-512 digest, or the full path of a checksum file (.sha256, .sha512, SHA256SUMS, SHA512SUMS)',
      ],
      [{ source: { kind: 'file', path: file, extra: 1 }, algo: 'sha256' }, 'source: unknown field "extra"'],
      // --cache's values, as run takes them.
      [{ source: { kind: 'file', path: file }, algo: 'sha256', cache: 'direct' }, 'cache: must be one of auto, buffered-flushed, buffered'],
    ];
    for (const [payload, message] of cases) {
      expect(await d().handle('hash.start', payload, sink())).toEqual({ ok: false, error: { code: 'ERR_INVALID_PAYLOAD', message } });
    }
    expect(await d().handle('check.start', { folder: dir, action: 'check', cache: 'nocache' }, sink())).toEqual({
      ok: false,
      error: { code: 'ERR_INVALID_PAYLOAD', message: 'cache: must be one of auto, buffered-flushed, buffered' },
    });
    expect(error(await d().handle('hash.start', { source: { kind: 'file', path: 'h.bin' }, algo: 'sha256' }, sink()))).toMatchObject({
      code: 'ERR_INVALID_PATH',
    });
    expect(
      error(
        await d().handle(
          'hash.start',
          { source: { kind: 'generate', target: path.join(dir, 'gone'), sizeBytes: 16 * MiB }, algo: 'sha256' },
          sink(),
        ),
      ),
    ).toMatchObject({ code: 'ENOENT' });
    expect(error(await d().handle('files.choose', {}, sink()))).toEqual({
      code: 'ERR_UNSUPPORTED',
      message: 'Choosing a file needs the desktop app; type its path instead.',
    });
    expect(hash.runningJobId).toBeUndefined();
  });

  it('hash.start runs the test: stage events in order, then done with the document; busy for the other screens meanwhile', async () => {
    const file = path.join(dir, 'h2.bin');
    await fsp.writeFile(file, Buffer.alloc(2 * MiB, 1));
    const events: Array<{ channel: string; data: unknown }> = [];
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    const s: EventSink = {
      alive: true,
      send(channel, data) {
        events.push({ channel, data });
        if (channel === 'hash.done') finished();
      },
    };
    const { jobId } = value<{ jobId: string }>(
      await d().handle('hash.start', { source: { kind: 'file', path: file }, algo: 'sha256', cache: 'buffered' }, s),
    );
    expect(error(await d().handle('quick.start', good(), sink()))).toMatchObject({ code: 'ERR_BUSY' });
    await done;
    const stages = events.filter((e) => e.channel === 'hash.stage').map((e) => (e.data as { stage: string }).stage);
    expect(stages).toEqual(['read', 'read-hash', 'memory', 'memory-parallel']);
    const last = events.at(-1)!.data as { jobId: string; outcome: string; result: ResultDocument };
    expect(last).toMatchObject({ jobId, outcome: 'finished' });
    // The cache mode asked for reaches the engine, and the result records the mode achieved.
    expect(last.result.settings.cache).toBe('buffered');
    expect(last.result.cacheMode).toBe('buffered');
    expect(last.result.hash!.digest).toBe(
      createHash('sha256')
        .update(Buffer.alloc(2 * MiB, 1))
        .digest('hex'),
    );
  }, 60_000);

  it('unknown channels, including prototype names and non-strings, are ERR_UNKNOWN_CHANNEL', async () => {
    for (const channel of ['nope', '__proto__', 'constructor', 'toString', 'x'.repeat(1 << 20), 42, null, undefined, {}]) {
      const r = await d().handle(channel as string, {}, sink());
      expect(error(r).code).toBe('ERR_UNKNOWN_CHANNEL');
      expect(error(r).message.length).toBeLessThan(200);
    }
  });

  it('every channel in the contract is handled (no ERR_UNKNOWN_CHANNEL for a known name)', async () => {
    for (const channel of Object.keys(requests)) {
      const r = await d().handle(channel, { definitely: 'not valid' }, sink());
      expect(error(r).code).toBe('ERR_INVALID_PAYLOAD');
    }
  });

  it('close() stops a running job', async () => {
    const dispatcher = d();
    const s = sink();
    const { jobId } = value<{ jobId: string }>(await dispatcher.handle('quick.start', { ...good(), mode: 'continuous' }, s));
    await dispatcher.close();
    expect(await s.done).toEqual({ jobId, outcome: 'stopped' });
    expect(quick.runningJobId).toBeUndefined();
    expect((await fsp.readdir(dir)).filter((n) => n.startsWith('.diskdial-'))).toEqual([]);
  });
});

describe('history, export, share and the desktop-only verbs through the dispatcher', () => {
  const fixture = (kind: string): ResultDocument =>
    JSON.parse(
      readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/results', `${kind}.json`), 'utf8'),
    ) as ResultDocument;

  it('lists, gets, labels, exports, shares and deletes saved results', async () => {
    const store = new HistoryStore(path.join(dir, 'history-a'));
    const history = new HistoryService(store);
    const d = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history, appInfo });
    const doc = fixture('quick');
    await store.save(doc);
    const s = sink();
    const listing = value<HistoryListing>(await d.handle('history.list', {}, s));
    expect(listing.entries.map((e) => e.id)).toEqual([doc.id]);
    // A page, a search and one drive's results over the time, through the same channel map.
    await store.save({
      ...doc,
      id: 'b141b8d5-0000-4000-8000-000000000002',
      label: 'Through the hub',
      startedAt: '2026-12-01T00:00:00.000Z',
    });
    const hub = value<HistoryListing>(await d.handle('history.list', { search: 'HUB', limit: 1 }, s));
    expect([hub.total, hub.entries.map((e) => e.label)]).toEqual([1, ['Through the hub']]);
    expect(value<HistoryListing>(await d.handle('history.list', { offset: 1, limit: 1 }, s)).entries.map((e) => e.id)).toEqual([doc.id]);
    const overTime = value<HistoryEntry[]>(await d.handle('history.drive', { driveKey: listing.entries[0]!.driveKey }, s));
    expect(overTime.map((e) => e.startedAt)).toEqual([doc.startedAt, '2026-12-01T00:00:00.000Z']);
    expect(error(await d.handle('history.list', { limit: 0 }, s)).code).toBe('ERR_INVALID_PAYLOAD');
    expect(error(await d.handle('history.list', { since: 'yesterday' }, s)).code).toBe('ERR_INVALID_PAYLOAD');
    await store.delete(['b141b8d5-0000-4000-8000-000000000002']);
    expect(value(await d.handle('history.get', { id: doc.id }, s))).toEqual(doc);
    expect(value(await d.handle('history.label', { id: doc.id, label: 'Direct to the port' }, s))).toMatchObject({
      name: 'Direct to the port',
    });
    const md = value<ExportFile>(await d.handle('history.export', { ids: [doc.id], format: 'md' }, s));
    expect(md.filename).toMatch(/^diskdial-quick-\d{4}-\d\d-\d\d\.md$/);
    expect(md.text).toContain('Direct to the port');
    // A Quick Test's "Will it work?" section follows the frame rate the view chose.
    expect(md.text).toContain('### Will it work? At 29.97 fps');
    const at25 = value<ExportFile>(await d.handle('history.export', { ids: [doc.id], format: 'md', fps: 25 }, s));
    expect(at25.text).toContain('### Will it work? At 25 fps');
    expect(error(await d.handle('history.export', { ids: [doc.id], format: 'md', fps: 31 }, s)).message).toMatch(
      /31 fps is not one of the frame rates the table knows/,
    );
    const card = value<ShareCard>(await d.handle('share.card', { id: doc.id }, s));
    expect([card.width, card.height]).toEqual([1600, 900]);
    expect(Buffer.from(card.pngBase64, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(value(await d.handle('history.delete', { ids: [doc.id] }, s))).toEqual({ deleted: 1 });
    expect(error(await d.handle('history.get', { id: doc.id }, s))).toEqual({
      code: 'ENOENT',
      message: `No saved result has the id "${doc.id}".`,
    });
  });

  it('imports a result from text, knows a duplicate, and explains a refusal', async () => {
    const history = new HistoryService(new HistoryStore(path.join(dir, 'history-b')));
    const d = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history, appInfo });
    const doc = fixture('cdm');
    const s = sink();
    expect(value(await d.handle('history.import', { json: JSON.stringify(doc), name: 'cdm.json' }, s))).toMatchObject({
      duplicate: false,
      entry: { id: doc.id, origin: 'imported' },
    });
    expect(value(await d.handle('history.import', { json: JSON.stringify(doc) }, s))).toMatchObject({ duplicate: true });
    expect(error(await d.handle('history.import', { json: '{"schema": 3}', name: 'new.json' }, s))).toEqual({
      code: 'ERR_NOT_A_RESULT',
      message:
        'new.json cannot be imported: It was made by a newer DiskDial (result schema 3); this version reads schema 1. Update DiskDial to open it.',
    });
  });

  it('validates ids, formats and scales in plain words', async () => {
    const d = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history: new HistoryService(), appInfo });
    const s = sink();
    expect(error(await d.handle('history.get', { id: '../../etc/passwd' }, s))).toEqual({
      code: 'ERR_INVALID_PAYLOAD',
      message: 'id: must be a result id (letters, digits, . _ -)',
    });
    expect(error(await d.handle('history.export', { ids: ['a'], format: 'docx' }, s)).message).toBe(
      'format: must be one of md, txt, csv, json, html',
    );
    expect(error(await d.handle('history.export', { ids: [], format: 'md' }, s)).message).toBe('ids: must have at least 1 items');
    expect(error(await d.handle('share.card', { id: 'a', scale: 9 }, s)).message).toBe('scale: must be at most 4');
    expect(error(await d.handle('history.delete', { ids: 'a' }, s)).message).toBe('ids: must be a list, not text');
  });

  it("files.save and clipboard.write are the desktop's: browser mode answers ERR_UNSUPPORTED, Electron gets the bytes", async () => {
    const browser = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history: new HistoryService(), appInfo });
    const s = sink();
    expect(error(await browser.handle('files.save', { filename: 'a.md', data: 'x', encoding: 'utf8' }, s)).code).toBe('ERR_UNSUPPORTED');
    expect(error(await browser.handle('clipboard.write', { text: 'x' }, s)).code).toBe('ERR_UNSUPPORTED');

    const saved: Array<[string, Buffer]> = [];
    const clip: unknown[] = [];
    const desktop = createDispatcher({
      quick,
      detailed,
      hash,
      targets: new TargetsService(),
      history: new HistoryService(),
      appInfo,
      saveFile: async (name, data) => (saved.push([name, data]), name === 'cancel.png' ? null : `/home/u/Downloads/${name}`),
      writeClipboard: (c) => void clip.push(c),
    });
    expect(value(await desktop.handle('files.save', { filename: '../../card.png', data: 'iVBORw0K', encoding: 'base64' }, s))).toEqual({
      path: '/home/u/Downloads/card.png',
    });
    expect(saved[0]![0]).toBe('card.png'); // only a name: the dialog picks the folder
    expect(saved[0]![1]).toEqual(Buffer.from('iVBORw0K', 'base64'));
    expect(value(await desktop.handle('files.save', { filename: 'cancel.png', data: '', encoding: 'base64' }, s))).toBeNull();
    expect(value(await desktop.handle('clipboard.write', { text: '| a |' }, s))).toEqual({ written: true });
    expect(value(await desktop.handle('clipboard.write', { pngBase64: 'iVBORw0K' }, s))).toEqual({ written: true });
    expect(clip).toEqual([{ text: '| a |' }, { png: Buffer.from('iVBORw0K', 'base64') }]);
    expect(error(await desktop.handle('clipboard.write', { text: 'x', pngBase64: 'y' }, s)).code).toBe('ERR_INVALID_PAYLOAD');
  });
});

describe('the wizard and the report through the dispatcher', () => {
  const fixture = (kind: string): ResultDocument =>
    JSON.parse(
      readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/results', `${kind}.json`), 'utf8'),
    ) as ResultDocument;
  const disk = usbDisk({ name: 'Test SSD', sizeBytes: 1e12 });
  const settings = wizardSettings({
    device: '/dev/sdx',
    identity: { path: '/dev/sdx', sizeBytes: 1e12, model: 'Test SSD' },
    confirmName: 'Test SSD',
  });

  it('without a wizard (a platform with no provider) the wizard requests say so; plans are none', async () => {
    const d = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history: new HistoryService(), appInfo });
    expect(error(await d.handle('disks.list', {}, sink()))).toEqual({
      code: 'ERR_UNSUPPORTED',
      message: 'The format-and-compare wizard is not available on this system.',
    });
    expect(value(await d.handle('wizard.plans', {}, sink()))).toEqual([]);
  });

  it('validates a plan in plain words before anything runs', async () => {
    const d = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history: new HistoryService(), appInfo });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...settings, formats: [] }, 'formats: must have at least 1 items'],
      [
        { ...settings, formats: ['zfs'] },
        'formats.0: must be one of ext4, ext4-fscrypt, ext4-luks, xfs, btrfs, exfat, ntfs, fat32, apfs, apfs-encrypted, apfs-cs, apfs-cs-encrypted, hfs+, hfs+-cs, refs, ntfs-bitlocker',
      ],
      [{ ...settings, runs: 0 }, 'runs: must be at least 1'],
      [{ ...settings, volumeLabel: 'a;rm -rf /' }, 'volumeLabel: must be 1–11 letters, digits, - or _'],
      [{ ...settings, confirmName: '' }, 'confirmName: must not be empty'],
      [{ ...settings, shell: 'rm -rf /' }, 'Unknown field "shell"'],
    ];
    for (const [payload, message] of cases)
      expect(error(await d.handle('wizard.start', payload, sink()))).toEqual({ code: 'ERR_INVALID_PAYLOAD', message });
  });

  it('a running plan makes every other test wait (ERR_BUSY), and the other way round', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const provider = listingProvider([disk], {
      formats: async () => [{ id: 'ext4', label: 'ext4', encrypted: false, available: true }],
      prepare: async () => {
        await held;
        throw new Error('the test ends the plan here');
      },
    });
    const home = await fsp.mkdtemp(path.join(dir, 'wiz-'));
    const wizard = new WizardService({
      provider,
      engine: runTest,
      history: { save: async () => undefined, delete: async () => undefined },
      plans: new PlanStore(path.join(home, 'plans')),
      workRoot: path.join(home, 'work'),
    });
    const d = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history: new HistoryService(), appInfo, wizard });
    const s = sink();
    expect(error(await d.handle('wizard.start', { ...settings, confirmName: 'test ssd' }, s))).toMatchObject({
      code: 'ERR_CONFIRM_MISMATCH',
    });
    const started = value<{ jobId: string; planId: string }>(await d.handle('wizard.start', settings, s));
    expect(started.planId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error(await d.handle('quick.start', good(), sink()))).toEqual({ code: 'ERR_BUSY', message: 'A test is already running.' });
    expect(error(await d.handle('wizard.start', settings, sink()))).toEqual({ code: 'ERR_BUSY', message: 'A test is already running.' });
    release();
    await expect.poll(() => s.events.some((e) => e.channel === 'wizard.done')).toBe(true);
    expect(s.events.find((e) => e.channel === 'wizard.done')!.data).toMatchObject({
      outcome: 'failed',
      error: { message: 'the test ends the plan here' },
    });
    // The failed plan is offered for resume; discarding forgets it.
    expect(value<Array<{ id: string }>>(await d.handle('wizard.plans', {}, s)).map((p) => p.id)).toEqual([started.planId]);
    expect(value(await d.handle('wizard.discard', { planId: started.planId }, s))).toEqual({ discarded: true });
  });

  it('report.export renders saved results; report.pdf needs the desktop, which gets the HTML', async () => {
    const store = new HistoryStore(path.join(dir, 'history-report'));
    const a = { ...fixture('quick'), id: 'port', label: 'Direct to the port' };
    const b = { ...fixture('quick'), id: 'hub', label: 'Through the hub' };
    await store.save(a);
    await store.save(b);
    const pdfs: Array<[string, string]> = [];
    const d = createDispatcher({
      quick,
      detailed,
      hash,
      targets: new TargetsService(),
      history: new HistoryService(store),
      appInfo,
      savePdf: async (html, name) => (pdfs.push([html, name]), `/tmp/${name}`),
    });
    const md = value<ExportFile>(await d.handle('report.export', { ids: ['port', 'hub'], format: 'md' }, sink()));
    expect(md.text).toContain('| Direct to the port (baseline) |');
    expect(md.text).toContain('| Through the hub |');
    expect(value(await d.handle('report.pdf', { ids: ['port', 'hub'], baseline: 'Through the hub' }, sink()))).toEqual({
      path: `/tmp/${pdfs[0]![1]}`,
    });
    expect(pdfs[0]![1]).toMatch(/^diskdial-report-\d{4}-\d\d-\d\d\.pdf$/);
    expect(pdfs[0]![0]).toMatch(/^<!doctype html>/i);
    const browser = createDispatcher({ quick, detailed, hash, targets: new TargetsService(), history: new HistoryService(store), appInfo });
    expect(error(await browser.handle('report.pdf', { ids: ['port'] }, sink())).code).toBe('ERR_UNSUPPORTED');
  });
});
