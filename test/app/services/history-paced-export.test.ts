// Exports of a saved Quick Test take a frame-paced test's verdict for the rows it decided — when it
// was launched from that Quick Test ("Check this format"): a real paced document
// (test/fixtures/results/video.json: ProRes 422 Proxy HD 25 fps, 2 late frames writing, absorbed by
// its 4-frame buffer, none dropped) marks that row ✓† in Markdown and says "frame-paced test,
// <date>" with its verdict; the CSV's decided_by says so; the JSON's rows carry it. One of the same
// drive not launched from it is a dated line that decides nothing.
import { readFileSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../app/src/core/history.js';
import type { ResultDocument } from '../../../app/src/model/result.js';
import { HistoryService } from '../../../app/src/services/history.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixture = (kind: string): ResultDocument =>
  JSON.parse(readFileSync(path.join(root, 'test/fixtures/results', `${kind}.json`), 'utf8')) as ResultDocument;

let dir: string;
let service: HistoryService;
let quick: ResultDocument;
beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-paced-export-'));
  service = new HistoryService(new HistoryStore(path.join(dir, 'results')));
  quick = fixture('quick');
  for (const t of quick.tests) t.mbps = 500;
  await service.store.import(JSON.stringify(quick));
});
afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

const text = async (format: 'md' | 'csv' | 'json', fps = 25) => (await service.export([quick.id], format, undefined, fps)).text;

describe('exports with a paced test on the same drive', () => {
  it('mark the paced row and say which test decided it; without one, the average decides', async () => {
    expect(await text('md')).toMatch(/\| ProRes 422 Proxy \| HD \| [\d.]+ \| ✓ \| ✓ \|/);
    const paced = { ...fixture('video'), target: quick.target, startedAt: '2026-11-26T16:59:00.000Z' };
    paced.settings.video = { ...paced.settings.video!, from: quick.id };
    await service.store.import(JSON.stringify(paced));
    const md = await text('md');
    expect(md).toMatch(/\| ProRes 422 Proxy \| HD \| [\d.]+ \| ✓† \| ✓† \|/);
    expect(md).toMatch(/\| ProRes 422 Proxy \| UHD \| [\d.]+ \| ✓ \| ✓ \|/);
    expect(md).toContain(
      '✓† ProRes 422 Proxy HD write: frame-paced test, 2026-11-26 — ProRes 422 Proxy HD 25 fps: ✓ no frame dropped; 2 frames late, absorbed by the 4-frame buffer',
    );
    expect(md).toContain('decided by a frame-paced test launched from this result');
    expect(await text('csv')).toMatch(/ProRes 422 Proxy,HD,25,[\d.]+,yes,yes,\d+,\d+,"?frame-paced test, 2026-11-26"?/);
    const json = JSON.parse(await text('json')) as {
      willItWork: { rows: Array<{ formatId: string; resolutionId: string; paced?: { resultId: string; date: string } }> };
    };
    expect(json.willItWork.rows.find((r) => r.formatId === 'prores-proxy' && r.resolutionId === 'hd')!.paced).toMatchObject({
      resultId: paced.id,
      date: '2026-11-26',
    });
    // At 29.97 fps Proxy HD needs more than the 25 fps test carried: nothing there is decided by it.
    expect(await text('md', 29.97)).not.toMatch(/\| ProRes 422 Proxy \| HD \| [\d.]+ \| ✓†/);
  });

  it('a paced test of the same drive not launched from this Quick Test is a dated line, deciding no row', async () => {
    const before = await text('md');
    await service.store.import(JSON.stringify({ ...fixture('video'), target: quick.target, startedAt: '2026-11-26T16:59:00.000Z' }));
    const md = await text('md');
    expect(md).not.toContain('†');
    expect(md).toContain('frame-paced test on this drive, 2026-11-26, not launched from this result (decides nothing here)');
    expect(md.replace(/\n.*not launched from this result.*\n/, '\n')).toBe(before);
  });

  it('a paced test on another drive changes nothing', async () => {
    const before = await text('md');
    await service.store.import(
      JSON.stringify({ ...fixture('video'), target: { ...quick.target, path: '/media/other', mountPoint: '/media/other' } }),
    );
    expect(await text('md')).toBe(before);
  });
});
