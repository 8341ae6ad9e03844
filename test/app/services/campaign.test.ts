// CampaignService with the real engine in a child process, as the app runs it: it waits for the
// person before each setup, runs the plan's tests, saves each result under its setup's name and
// campaign, answers Stop while waiting by leaving the campaign resumable, and resumes it.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CampaignStore } from '../../../app/src/core/campaign.js';
import { HistoryStore } from '../../../app/src/core/history.js';
import type { EventMap } from '../../../app/src/ipc/contract.js';
import { CampaignSettings } from '../../../app/src/model/settings.js';
import { CampaignService } from '../../../app/src/services/campaign.js';
import { EngineHost } from '../../../app/src/services/engine-host.js';
import { HistoryService } from '../../../app/src/services/history.js';
import { recorder, type Recorded } from '../../helpers/event-recorder.js';

const MiB = 1 << 20;
let home: string;
let dir: string;
let host: EngineHost;
let history: HistoryService;
let service: CampaignService;

beforeAll(() => {
  host = new EngineHost();
});
afterAll(() => host.close());
beforeEach(async () => {
  home = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-campaign-svc-'));
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-campaign-dir-'));
  history = new HistoryService(new HistoryStore(path.join(home, 'results')));
  service = new CampaignService({
    engine: host.runTest,
    history: history.record,
    store: new CampaignStore(path.join(home, 'campaigns')),
    progressIntervalMs: 20,
  });
});
afterEach(async () => {
  await service.stopAll();
  await fsp.rm(home, { recursive: true, force: true });
  await fsp.rm(dir, { recursive: true, force: true });
});

const settings = (over: Partial<CampaignSettings> = {}): CampaignSettings =>
  CampaignSettings.parse({ target: dir, setups: ['Dock', 'Hub'], kinds: ['seq-write'], runs: 1, sizeBytes: 16 * MiB, ...over });

/** A sink that answers each waiting event with `answer(setup)`. */
function answering(answer: (e: EventMap['campaign.waiting']) => boolean) {
  return recorder('campaign.done', (e: Recorded) => {
    if (e.channel === 'campaign.waiting') setTimeout(() => service.continue(e.data.campaignId, answer(e.data)), 10);
  });
}

describe('CampaignService', () => {
  it('waits before each setup, runs its tests and saves each result as that setup’s', async () => {
    const sink = answering(() => true);
    const { campaignId } = await service.request(settings({ kinds: ['seq-write', 'seq-read'] }), sink);
    const done = await sink.done;
    expect(done).toMatchObject({ outcome: 'finished', campaignId });
    expect(done.resultIds).toHaveLength(4);
    const waits = sink.events.filter((e) => e.channel === 'campaign.waiting').map((e) => e.data as EventMap['campaign.waiting']);
    expect(waits.map((w) => [w.setup, w.setupName, w.setupCount])).toEqual([
      [0, 'Dock', 2],
      [1, 'Hub', 2],
    ]);
    expect(waits[1]!.progress).toBe('Dock done (2 tests), Hub 0 of 2 tests');
    // It says how long the testing takes before the first test and again before the second setup
    // (then scaled by how the first setup's steps compared with their estimates: no fixed order
    // between the two); every progress event says what is left.
    expect(waits[0]!.secondsLeft).toBeGreaterThan(0);
    expect(waits[1]!.secondsLeft).toBeGreaterThan(0);
    const lefts = sink.events
      .filter((e) => e.channel === 'campaign.progress')
      .map((e) => (e.data as EventMap['campaign.progress']).secondsLeft);
    expect(lefts.every((x) => typeof x === 'number' && x >= 0)).toBe(true);
    // Progress names the setup and the step; no test ran before its setup was confirmed.
    const steps = sink.events.filter((e) => e.channel === 'campaign.progress').map((e) => (e.data as EventMap['campaign.progress']).step);
    expect(new Set(steps)).toEqual(new Set([0, 1, 2, 3]));
    const order = sink.events
      .map((e) =>
        e.channel === 'campaign.waiting'
          ? 'wait'
          : e.channel === 'campaign.progress'
            ? `s${(e.data as EventMap['campaign.progress']).step}`
            : '',
      )
      .filter(Boolean);
    expect(order.indexOf('wait', 1)).toBeLessThan(order.indexOf('s2'));
    expect(order.lastIndexOf('s1')).toBeLessThan(order.indexOf('wait', 1));
    const docs = await Promise.all(done.resultIds.map((id) => history.get(id)));
    expect(docs.map((d) => [d.label, d.kind, d.campaign])).toEqual([
      ['Dock', 'seq-write', { planId: campaignId, format: 'setup-1', formatLabel: 'Dock', of: 'setups' }],
      ['Dock', 'seq-read', { planId: campaignId, format: 'setup-1', formatLabel: 'Dock', of: 'setups' }],
      ['Hub', 'seq-write', { planId: campaignId, format: 'setup-2', formatLabel: 'Hub', of: 'setups' }],
      ['Hub', 'seq-read', { planId: campaignId, format: 'setup-2', formatLabel: 'Hub', of: 'setups' }],
    ]);
    expect(docs[0]!.settings.size).toBe(16 * MiB);
    expect(await fsp.readdir(dir)).toEqual([]);
    expect(await service.unfinished()).toEqual([]);
  }, 120_000);

  it('"Stop here" leaves it resumable; resume asks for the setup again and finishes', async () => {
    const first = answering((w) => w.setup === 0);
    const { campaignId } = await service.request(settings(), first);
    expect(await first.done).toMatchObject({ outcome: 'stopped', reason: 'Stopped before Hub.' });
    const open = await service.unfinished();
    expect(open.map((c) => [c.id, c.status])).toEqual([[campaignId, 'stopped']]);

    const second = answering(() => true);
    await service.requestResume(campaignId, second);
    const done = await second.done;
    expect(done.outcome).toBe('finished');
    expect(done.resultIds).toHaveLength(2);
    const waits = second.events
      .filter((e) => e.channel === 'campaign.waiting')
      .map((e) => (e.data as EventMap['campaign.waiting']).setupName);
    expect(waits).toEqual(['Hub']);
    expect(await service.unfinished()).toEqual([]);
  }, 120_000);

  it('Stop while waiting ends the job stopped; the slot is free again', async () => {
    const sink = recorder('campaign.done');
    const { jobId } = await service.request(settings(), sink);
    await expect.poll(() => sink.events.some((e) => e.channel === 'campaign.waiting')).toBe(true);
    expect(service.stop(jobId)).toBe(true);
    expect(await sink.done).toMatchObject({ outcome: 'stopped' });
    expect(service.slot.runningJobId).toBeUndefined();
    expect((await service.unfinished())[0]?.status).toBe('stopped');
  }, 60_000);

  it('checks every test before the first: a size the sweep cannot take is refused, naming the sweep; its own size is taken', async () => {
    const sink = recorder('campaign.done');
    await expect(service.request(settings({ kinds: ['seq-write', 'sweep'], sizeBytes: 16 * MiB }), sink)).rejects.toThrow(
      "The plan cannot run as chosen, so nothing was tested: sweep: --size 16 MiB is smaller than the sweep's largest transfer (64 MiB); use at least 64 MiB.",
    );
    expect(sink.events).toEqual([]);
    expect(await fsp.readdir(dir)).toEqual([]);
    // The sweep's own size (the screen's per-test size) overrides the campaign's; the state keeps it.
    const { campaignId, jobId } = await service.request(
      settings({ kinds: ['seq-write', 'sweep'], sizeBytes: 16 * MiB, testSizes: { sweep: 64 * MiB } }),
      sink,
    );
    await expect.poll(() => sink.events.some((e) => e.channel === 'campaign.waiting')).toBe(true);
    expect((await service.store.get(campaignId))?.testArgs).toEqual({ sweep: ['--size', String(64 * MiB)] });
    service.stop(jobId);
    await sink.done;
  }, 60_000);

  it('refuses setups of one name, and resuming a campaign the CLI started with options the app lacks', async () => {
    await expect(service.request(settings({ setups: ['Hub', 'hub'] }), recorder('campaign.done'))).rejects.toThrow(
      'Two setups are both called "hub"',
    );
    const store = new CampaignStore(path.join(home, 'campaigns'));
    const { newCampaign } = await import('../../../app/src/core/campaign.js');
    const cli = newCampaign({
      target: dir,
      setups: [
        { key: 'setup-1', name: 'A' },
        { key: 'setup-2', name: 'B' },
      ],
      kinds: ['quick'],
      runArgs: ['--seconds', '3'],
    });
    cli.status = 'stopped';
    await store.save(cli);
    await expect(service.requestResume(cli.id, recorder('campaign.done'))).rejects.toThrow(
      `This campaign was started with --seconds, which the app does not offer: resume it with diskdial campaign --resume ${cli.id.slice(0, 8)}.`,
    );
  });
});
