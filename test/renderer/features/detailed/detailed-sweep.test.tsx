// The transfer-size sweep panel: the settings Start sends (a time or a volume per step); the
// step in progress and the finished steps while it runs; after it, one chart of MB/s against
// size on a log axis with a write and a read line, the link's ceiling when the target has one,
// the 90 % sentences and the per-size table in KiB/MiB. The document is a real one
// (test/fixtures/results/sweep.json: the standard ladder at 0.3 s a step on this machine's virtio disk).
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import { DetailedSettings } from '@model/settings';
import { transferSizeText, SWEEP_LADDERS } from '@model/kinds/sweep/plan';
import { sweepAverages } from '@model/kinds/sweep/analysis';
import sweepJson from '../../../fixtures/results/sweep.json';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { JOB, plan, progress, renderDetailed, step } from '../../helpers/detailed-fixtures';
import { resetStores } from '../../helpers/reset-stores';

const MiB = 1024 * 1024;
const sweepDoc = (): ResultDocument => JSON.parse(JSON.stringify(sweepJson)) as ResultDocument;
const panel = () => screen.getByTestId('sweep-panel');

async function finishWith(doc: ResultDocument) {
  const r = await renderDetailed();
  await r.user.click(screen.getByTestId('sweep-start'));
  act(() => r.fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
  return r;
}

describe('Sweep panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start sends the preset, the time per step and the runs the controls show', async () => {
    const { fake, user } = await renderDetailed();
    // A sweep writes what its ladder needs or refuses to start: no "writes at most what is free".
    expect(within(panel()).queryByTestId('sweep-fit')).toBeNull();
    await user.click(within(panel()).getByTestId('sweep-preset-atto'));
    await user.click(within(panel()).getByTestId('sweep-seconds-0.5'));
    await user.click(screen.getByTestId('sweep-start'));
    const sent = { kind: 'sweep', target: '/media/t7', preset: 'atto', seconds: 0.5, runs: 1, restSeconds: 0 };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('a size per step, offered in GB as the Quick Test’s, sends a volume and no time', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(within(panel()).getByTestId('sweep-by-volume'));
    expect(within(panel()).queryByTestId('sweep-seconds-2')).toBeNull();
    const chips = within(panel())
      .getAllByRole('radio')
      .filter((r) => r.getAttribute('data-testid')?.startsWith('sweep-step-bytes-'));
    expect(chips.map((c) => c.textContent)).toEqual(['1 GB', '4 GB', '10 GB']);
    await user.click(within(panel()).getByTestId(`sweep-step-bytes-${4e9}`));
    await user.click(screen.getByTestId('sweep-start'));
    const sent = { kind: 'sweep', target: '/media/t7', preset: 'standard', stepBytes: 4e9, runs: 1, restSeconds: 0 };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('while it runs: the step in progress, and each finished step drawn where the idle chart was', async () => {
    const { fake, user } = await renderDetailed(createFakeBridge());
    // Idle: the empty chart on the preset's ladder, no line yet and no MB/s scale to read.
    const idle = within(panel()).getByRole('img', { name: /MB\/s against transfer size/ });
    expect([...idle.querySelectorAll('.live-chart__ticks--x .live-chart__tick')].map((t) => t.textContent)).toEqual([
      '4K',
      '64K',
      '1M',
      '16M',
      '64M',
    ]);
    expect(idle.querySelectorAll('circle')).toHaveLength(0);
    expect([...idle.querySelectorAll('.live-chart__ticks--y .live-chart__tick')].every((t) => t.textContent === '')).toBe(true);
    await user.click(screen.getByTestId('sweep-start'));
    act(() => fake.emitDetailedPlan(plan({ kind: 'sweep', steps: ['SEQ4K Q1T1 Write', 'SEQ4K Q1T1 Read'] })));
    act(() =>
      fake.emitDetailedProgress(progress({ kind: 'sweep', testIndex: 1, testCount: 30, testName: 'SEQ4K Q1T1 Read', instMBps: 79.4 })),
    );
    const doc = sweepDoc();
    const first = doc.tests[0]!;
    act(() => fake.emitDetailedStep(step(first, { kind: 'sweep', testIndex: 0 })));
    const live = within(panel()).getByTestId('sweep-live');
    expect(within(live).getByTestId('sweep-live-step').textContent).toBe('Now: SEQ4K Q1T1 Read · 79.4 MB/s (step 2 of 30)');
    expect(within(live).getByTestId('sweep-live-done').textContent).toContain(first.name);
    // The finished write is a dot on the write line at its size; its read, not yet run, is nothing.
    const chart = within(live).getByTestId('sweep-live-chart');
    expect(first.rw).toBe('write');
    expect(chart.querySelectorAll('[data-line="1-write"] circle')).toHaveLength(1);
    expect(chart.querySelectorAll('[data-line="1-read"] circle')).toHaveLength(0);
    expect([...chart.querySelectorAll('.live-chart__ticks--y .live-chart__tick')].some((t) => t.textContent !== '')).toBe(true);
    // Stopped: what finished stays drawn, and the line says so (it read "no curve" beside one).
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'stopped' }));
    expect(within(panel()).getByTestId('sweep-live-step').textContent).toBe(
      'Stopped before the end: the steps that finished are drawn; no full-speed sentence or table.',
    );
    expect(within(panel()).getByTestId('sweep-live-chart').querySelectorAll('[data-line="1-write"] circle')).toHaveLength(1);
  });

  it('after the run: one chart on a log axis, the 90 % sentences and the table in KiB and MiB', async () => {
    await finishWith(sweepDoc());
    const result = within(panel()).getByTestId('sweep-result');
    const chart = within(result).getByTestId('sweep-chart');
    expect(chart.querySelectorAll('.live-chart__line')).toHaveLength(2);
    expect([...chart.querySelectorAll('.live-chart__ticks--x .live-chart__tick')].map((t) => t.textContent)).toEqual([
      '4K',
      '64K',
      '1M',
      '16M',
      '64M',
    ]);
    expect([...chart.querySelectorAll('.live-chart__legend li')].map((t) => t.textContent)).toEqual(['Write', 'Read']);
    // This virtio disk reports no link ceiling: no line.
    expect(chart.querySelectorAll('[data-testid="sweep-ceiling"]')).toHaveLength(0);
    expect(within(result).getByTestId('sweep-full-speed').textContent).toBe(
      'Write reaches 90 % of its top speed (490 MB/s) at 64 MiB.Read reaches 90 % of its top speed (1,077 MB/s) at 64 MiB.',
    );
    // The axis names what it is in words; its ticks are the sizes (issue 33, screen item 8).
    expect(chart.textContent).toContain('transfer size');
    expect(chart.textContent).not.toContain('(bytes)');
    // The standard ladder has no headline averages (they are QuickBench's).
    expect(within(result).queryByTestId('sweep-averages')).toBeNull();
    const rows = [...within(result).getByTestId('sweep-table').querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(15);
    const labels = rows.map((r) => r.querySelector('th')!.textContent);
    expect(labels).toEqual(SWEEP_LADDERS.standard.map(transferSizeText));
    expect([labels[0], labels[8], labels[12], labels[14]]).toEqual(['4 KiB', '1 MiB', '16 MiB', '64 MiB']);
    expect([...rows[0]!.querySelectorAll('td')].map((c) => c.textContent)).toEqual(['47.6', '79.4', '11,616', '19,374']);
    expect(result.textContent).not.toMatch(/16,384 KiB/);
  });

  it('QuickBench: its 4 KB and 20–100 MB averages, and a write that falls after full speed says where', async () => {
    const doc = sweepDoc();
    const sizes = [...SWEEP_LADDERS.quickbench];
    // Write reaches 4,134 MB/s at 1 MiB, then falls to 1,612 MB/s at 8 MiB (issue 33's screen item 8).
    const write = (bs: number): number => (bs === 8 * MiB ? 1612 : Math.min(4134, bs / 256));
    const points = sizes.map((bs) => ({ bs, writeMBps: write(bs), readMBps: Math.min(5000, bs / 200), writeIops: 1, readIops: 1 }));
    doc.settings.preset = 'quickbench';
    doc.sweep = {
      ...doc.sweep!,
      preset: 'quickbench',
      sizes,
      runs: [{ run: 1, points, averages: sweepAverages('quickbench', points) }],
    };
    await finishWith(doc);
    const result = within(panel()).getByTestId('sweep-result');
    const large = [20, 40, 60, 80, 100].map((m) => Math.min(4134, (m * MiB) / 256));
    const mean = large.reduce((a, b) => a + b, 0) / large.length;
    expect([...within(result).getByTestId('sweep-averages').querySelectorAll('div')].map((d) => d.textContent)).toEqual([
      'Write · 4 KB average16.0 MB/s',
      'Read · 4 KB average20.5 MB/s',
      `Write · 20–100 MB average${Math.round(mean).toLocaleString('en-US')} MB/s`,
      'Read · 20–100 MB average5,000 MB/s',
    ]);
    expect(within(result).getByTestId('sweep-full-speed').textContent).toContain(
      'Write reaches 90 % of its top speed (4,134 MB/s) at 1 MiB, then falls to 1,612 MB/s (39 % of top) at 8 MiB.',
    );
  });

  it('draws the link’s ceiling when the result’s target has one (a drive’s link, or a share’s interface)', async () => {
    const doc = sweepDoc();
    doc.target.device.linkInfo = { ...doc.target.device.linkInfo!, ceilingMBps: 1212.12 };
    await finishWith(doc);
    expect(panel().querySelectorAll('[data-testid="sweep-ceiling"]')).toHaveLength(1);
    expect(within(panel()).getByText('interface ceiling ≈ 1,212 MB/s')).toBeTruthy();
  });

  it('a share’s interface ceiling is drawn too', async () => {
    const doc = sweepDoc();
    doc.target.network = { protocol: 'SMB', version: '3.1.1', client: 'kernel', ceilingMBps: 117.5 };
    await finishWith(doc);
    expect(panel().querySelectorAll('[data-testid="sweep-ceiling"]')).toHaveLength(1);
    expect(within(panel()).getByText('interface ceiling ≈ 118 MB/s')).toBeTruthy();
  });
});
