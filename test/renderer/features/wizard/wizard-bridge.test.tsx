// Browser mode's bridge speaks the wizard's verbs: each a WireRequest on the socket with the
// contract's payload, its events fanned out to subscribers, and Save PDF answered in the page
// (ERR_UNSUPPORTED: the page prints itself) without a round trip.
import { describe, expect, it } from 'vitest';

import { requests } from '@ipc/contract';
import { createWsBridge } from '../../../../renderer/src/lib/ws-bridge';
import { FakeSocket, openSocket } from '../../helpers/fake-socket';
import type { WizardSettings } from '@model/settings';

const settings: WizardSettings = {
  device: '/dev/loop7',
  identity: { path: '/dev/loop7', sizeBytes: 2e9 },
  confirmName: 'loop7',
  formats: ['ext4', 'xfs', 'btrfs'],
  plan: 'quick',
  sizes: [256 * 1024 * 1024],
  runs: 2,
  restSeconds: 0,
  finalFormat: 'ext4',
};

describe('the wizard over the socket', () => {
  it('sends each verb on its channel with a payload the contract accepts', () => {
    const bridge = createWsBridge('ws://127.0.0.1:9/ws?token=t', () => openSocket());
    const sock = FakeSocket.last;
    void bridge.listDisks();
    void bridge.listDisks(true);
    void bridge.listFormats();
    void bridge.startWizard(settings);
    void bridge.stopWizard('wjob-1');
    void bridge.listPlans();
    void bridge.resumePlan('plan-1', 'loop7');
    void bridge.discardPlan('plan-1');
    void bridge.exportReport(['a', 'b'], 'md');
    void bridge.exportReport(['a', 'b'], 'csv', 'xfs');
    expect(sock.sent.map((m) => [m.channel, m.payload])).toEqual([
      ['disks.list', {}],
      ['disks.list', { includeInternal: true }],
      ['formats.list', {}],
      ['wizard.start', settings],
      ['wizard.stop', { jobId: 'wjob-1' }],
      ['wizard.plans', {}],
      ['wizard.resume', { planId: 'plan-1', confirmName: 'loop7' }],
      ['wizard.discard', { planId: 'plan-1' }],
      ['report.export', { ids: ['a', 'b'], format: 'md' }],
      ['report.export', { ids: ['a', 'b'], format: 'csv', baseline: 'xfs' }],
    ]);
    for (const m of sock.sent) expect(requests[m.channel as keyof typeof requests].safeParse(m.payload).success).toBe(true);
  });

  it('answers Save PDF in the page without a round trip, and fans wizard events out', async () => {
    const bridge = createWsBridge('ws://127.0.0.1:9/ws?token=t', () => openSocket());
    const sock = FakeSocket.last;
    const r = await bridge.saveReportPdf(['a']);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('ERR_UNSUPPORTED');
    expect(sock.sent).toEqual([]);

    const got: string[] = [];
    const off = bridge.onWizardProgress((e) => got.push(`progress ${e.stage}`));
    bridge.onWizardFormat((e) => got.push(`format ${e.format}`));
    bridge.onWizardDone((e) => got.push(`done ${e.outcome}`));
    sock.reply({ event: 'wizard.progress', data: { jobId: 'j', stage: 'erasing' } });
    sock.reply({ event: 'wizard.format', data: { jobId: 'j', format: 'xfs' } });
    off();
    sock.reply({ event: 'wizard.progress', data: { jobId: 'j', stage: 'testing' } });
    sock.reply({ event: 'wizard.done', data: { jobId: 'j', outcome: 'finished' } });
    expect(got).toEqual(['progress erasing', 'format xfs', 'done finished']);
  });
});
