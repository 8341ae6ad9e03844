// Compare setups against the fake bridge: the form says what is missing before Start, Start sends
// the setups and tests, the waiting card asks for each setup and Continue / Stop here answer it,
// progress names the setup, and the end shows the report with a row per setup.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import type { CampaignProgressEvent } from '@model/events';
import quickJson from '../../../fixtures/results/quick.json';
import sweepJson from '../../../fixtures/results/sweep.json';
import { buildFormatReport } from '@model/report/format-report';
import { DIRECTION_COLOURS } from '../../../../renderer/src/components/charts';
import { reportCharts } from '../../../../renderer/src/components/report-view';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { noResizeObserver, text } from '../../helpers/dom';
import { renderApp } from '../../helpers/render-app';
import { resetStores } from '../../helpers/reset-stores';

noResizeObserver();
beforeEach(resetStores);
afterEach(resetStores);

/** The quick fixture as setup `n` of campaign camp-1, every MB/s times `scale`. */
function setupDoc(n: number, name: string, scale: number): ResultDocument {
  const d = JSON.parse(JSON.stringify(quickJson)) as ResultDocument;
  d.id = `r-${n}`;
  d.label = name;
  d.campaign = { planId: 'camp-1', format: `setup-${n}`, formatLabel: name, of: 'setups' };
  d.tests.forEach((t, i) => (t.mbps *= scale * (1 + 0.01 * ((i % 3) - 1))));
  return d;
}

const progress = (over: Partial<CampaignProgressEvent> = {}): CampaignProgressEvent => ({
  jobId: 'cjob-1',
  campaignId: 'camp-1',
  step: 0,
  stepCount: 2,
  setupName: 'GigE',
  kind: 'quick',
  testName: 'Write',
  run: 1,
  runs: 3,
  bytesDone: 5e8,
  bytesTotal: 1e9,
  instMBps: 110,
  avgMBps: 108,
  elapsed: 4.5,
  secondsTotal: 0,
  ...over,
});

/** Renders the screen, names two setups, presses Start and brings the core's ask for `setup`. */
async function startedAndAsked(fake: ReturnType<typeof createFakeBridge>, names: [string, string], setup: number, progress: string) {
  const { user } = await renderApp(fake.bridge, 'nav-campaign');
  await user.type(screen.getByTestId('campaign-setup-0'), names[0]);
  await user.type(screen.getByTestId('campaign-setup-1'), names[1]);
  await user.click(screen.getByTestId('campaign-start'));
  act(() => fake.emitCampaignWaiting({ jobId: 'cjob-1', campaignId: 'camp-1', setup, setupCount: 2, setupName: names[setup]!, progress }));
  return user;
}

describe('Compare setups', () => {
  it('says what is missing, then starts with the named setups and the chosen tests', async () => {
    const fake = createFakeBridge();
    const { user } = await renderApp(fake.bridge, 'nav-campaign');
    const start = screen.getByTestId('campaign-start');
    // Before anything is typed the missing names are help, not an error; Start says what it does.
    const help = screen.getByTestId('campaign-problem');
    expect(text(help)).toBe('Name at least two setups (what you will change between them).');
    expect([help.className, help.getAttribute('role'), help.hasAttribute('data-error')]).toEqual(['card__subtitle', null, false]);
    expect(text(start)).toBe('Compare setups');
    // An attempt to start makes it an error.
    await user.click(start);
    const error = screen.getByTestId('campaign-problem');
    expect([error.className, error.getAttribute('role')]).toEqual(['field-error', 'alert']);
    expect(fake.campaignCalls.start).toEqual([]);
    await user.type(screen.getByTestId('campaign-setup-0'), 'GigE');
    await user.type(screen.getByTestId('campaign-setup-1'), 'gige');
    expect(text(screen.getByTestId('campaign-problem'))).toBe('Two setups are both called "gige": give each its own name.');
    await user.clear(screen.getByTestId('campaign-setup-1'));
    await user.type(screen.getByTestId('campaign-setup-1'), 'Wi-Fi');
    await user.click(screen.getByTestId('campaign-kind-cdm'));
    expect(screen.queryByTestId('campaign-problem')).toBeNull();
    // Each test can have its own size: the Quick Test at 5 GB, the grid at the campaign's.
    await user.selectOptions(screen.getByTestId('campaign-size-quick'), String(5e9));
    // Before it starts it says how long the testing takes: the sum of its tests' estimates.
    expect(text(screen.getByTestId('campaign-estimate'))).toMatch(
      /^4 tests \(2 on each of 2 setups\): about \d+ min of testing at 500 MB\/s, plus the time you take to change setups\.$/,
    );
    await user.click(start);
    expect(fake.campaignCalls.start).toEqual([
      {
        target: '/media/t7',
        setups: ['GigE', 'Wi-Fi'],
        kinds: ['quick', 'cdm'],
        runs: 3,
        sizeBytes: 1e9,
        testSizes: { quick: 5e9 },
      },
    ]);
    // While it runs the other screens say why they cannot start.
    await user.click(screen.getByTestId('nav-quick'));
    expect(await screen.findByText('Compare setups is running. Stop it or wait for it to finish.')).toBeTruthy();
  });

  it('asks for each setup, answers Continue and Stop here, shows progress, and ends in the report', async () => {
    const fake = createFakeBridge();
    fake.history.add(setupDoc(1, 'GigE', 1), setupDoc(2, 'Wi-Fi', 0.2));
    const user = await startedAndAsked(fake, ['GigE', 'Wi-Fi'], 0, 'GigE 0 of 1 tests, Wi-Fi 0 of 1 tests');
    const waiting = await screen.findByTestId('campaign-waiting');
    expect(text(waiting)).toContain('Setup 1 of 2: GigE');
    await user.click(within(waiting).getByTestId('campaign-continue'));
    expect(fake.campaignCalls.continue).toEqual([{ campaignId: 'camp-1', go: true }]);
    // Before the first measured figure the live line says "—", never 0.
    act(() => fake.emitCampaignProgress(progress({ bytesDone: 0, instMBps: 0, avgMBps: 0 })));
    expect(text(await screen.findByTestId('campaign-progress-line'))).toBe('Write · run 1 of 3 · now — · average —');
    act(() => fake.emitCampaignProgress(progress({ secondsLeft: 300 })));
    expect(text(await screen.findByTestId('campaign-testing'))).toContain('Testing GigE · test 1 of 2');
    expect(text(screen.getByTestId('campaign-progress-line'))).toBe('Write · run 1 of 3 · now 110.0 MB/s · average 108.0 MB/s');
    expect(text(screen.getByTestId('campaign-left'))).toBe('about 5 min of testing left');
    // A step between measurements (the next write starting, a flush) holds the last figures.
    act(() => fake.emitCampaignProgress(progress({ testName: 'SEQ 4K Write', bytesDone: 0, instMBps: 0, avgMBps: 0 })));
    expect(text(screen.getByTestId('campaign-progress-line'))).toBe('SEQ 4K Write · run 1 of 3 · now 110.0 MB/s · average 108.0 MB/s');
    // Another job's events are not ours.
    act(() => fake.emitCampaignProgress(progress({ jobId: 'other', setupName: 'Elsewhere' })));
    expect(text(screen.getByTestId('campaign-testing'))).toContain('GigE');
    act(() =>
      fake.emitCampaignWaiting({
        jobId: 'cjob-1',
        campaignId: 'camp-1',
        setup: 1,
        setupCount: 2,
        setupName: 'Wi-Fi',
        progress: 'GigE done (1 test), Wi-Fi 0 of 1 tests',
      }),
    );
    expect(text(await screen.findByTestId('campaign-waiting'))).toContain('Setup 2 of 2: Wi-Fi');
    await user.click(screen.getByTestId('campaign-continue'));
    act(() => fake.emitCampaignDone({ jobId: 'cjob-1', outcome: 'finished', campaignId: 'camp-1', resultIds: ['r-1', 'r-2'] }));
    const table = await screen.findByTestId('report-table');
    expect(text(table.querySelector('th'))).toBe('Setup');
    await expect
      .poll(() => text(screen.getByTestId('report-findings')))
      .toMatch(/Wi-Fi is worse than GigE: worse on all \d+ throughput figures/);
    // One way back to a new comparison, named as the screen is.
    expect(screen.queryByTestId('report-back')).toBeNull();
    expect(text(screen.getByTestId('campaign-new'))).toBe('Compare other setups');
    await user.click(screen.getByTestId('campaign-new'));
    expect(screen.getByTestId('campaign-start')).toBeTruthy();
  });

  it('Stop here ends it stopped and offers to resume it from the banner', async () => {
    const fake = createFakeBridge();
    const user = await startedAndAsked(fake, ['Dock', 'Hub'], 1, 'Dock done (1 test), Hub 0 of 1 tests');
    await user.click(await screen.findByTestId('campaign-stop-here'));
    expect(fake.campaignCalls.continue).toEqual([{ campaignId: 'camp-1', go: false }]);
    fake.campaign.list = [
      {
        schema: 1,
        id: 'camp-1',
        createdAt: '2026-11-26T10:00:00.000Z',
        updatedAt: '2026-11-26T10:05:00.000Z',
        status: 'stopped',
        target: '/media/t7',
        setups: [
          { key: 'setup-1', name: 'Dock' },
          { key: 'setup-2', name: 'Hub' },
        ],
        kinds: ['quick'],
        runArgs: ['--runs', '3'],
        steps: [
          { setup: 0, kind: 'quick', resultId: 'r-1' },
          { setup: 1, kind: 'quick' },
        ],
        reason: 'Stopped before Hub.',
      },
    ];
    act(() =>
      fake.emitCampaignDone({
        jobId: 'cjob-1',
        outcome: 'stopped',
        campaignId: 'camp-1',
        resultIds: ['r-1'],
        reason: 'Stopped before Hub.',
      }),
    );
    expect(text(await screen.findByTestId('campaign-stopped'))).toBe(
      'Stopped before Hub. Finished setups are saved; resume it from the banner above.',
    );
    const banner = await screen.findByTestId('campaign-unfinished');
    expect(text(banner)).toContain('A setup comparison did not finish (Dock vs Hub on /media/t7): Dock done (1 test), Hub 0 of 1 tests.');
    await user.click(within(banner).getByRole('button', { name: 'Resume' }));
    expect(fake.campaignCalls.resume).toEqual(['camp-1']);
  });

  it("draws each setup's sweep as the exports draw it: MB/s against transfer size, both lines, named by the setup", async () => {
    const sweepDoc = (n: number, name: string, scale: number): ResultDocument => {
      const d = JSON.parse(JSON.stringify(sweepJson)) as ResultDocument;
      d.id = `s-${n}`;
      d.label = name;
      d.campaign = { planId: 'camp-1', format: `setup-${n}`, formatLabel: name, of: 'setups' };
      for (const p of d.sweep!.runs[0]!.points) Object.assign(p, { writeMBps: p.writeMBps * scale, readMBps: p.readMBps * scale });
      return d;
    };
    const fake = createFakeBridge();
    fake.history.add(sweepDoc(1, 'Dock', 1), sweepDoc(2, 'Hub', 0.25));
    const user = await startedAndAsked(fake, ['Dock', 'Hub'], 0, 'Dock 0 of 1 tests, Hub 0 of 1 tests');
    await user.click(await screen.findByTestId('campaign-continue'));
    act(() => fake.emitCampaignDone({ jobId: 'cjob-1', outcome: 'finished', campaignId: 'camp-1', resultIds: ['s-1', 's-2'] }));
    await screen.findByTestId('report-table');
    await expect.poll(() => screen.queryAllByTestId('report-section-chart').length).toBe(2);
    const figures = screen.getAllByTestId('report-section-chart');
    expect(figures.map((f) => text(f.querySelector('figcaption')))).toEqual([
      'Dock: MB/s against transfer size',
      'Hub: MB/s against transfer size',
    ]);
    figures.forEach((f, i) => {
      const img = f.querySelector('img')!;
      expect(img.getAttribute('alt')).toBe(text(f.querySelector('figcaption')));
      // The picture is the exports' SVG: read it back and find both lines, a dot per size at this setup's figures.
      const svg = new DOMParser().parseFromString(decodeURIComponent(img.getAttribute('src')!.split(',')[1]!), 'image/svg+xml');
      const doc = sweepDoc(i + 1, '', i === 0 ? 1 : 0.25);
      for (const dir of ['write', 'read'] as const) {
        const dots = [...svg.querySelectorAll(`g[data-series="${dir}"] circle`)];
        expect(dots.map((c) => Number(c.getAttribute('data-bs')))).toEqual(doc.sweep!.sizes);
        dots.forEach((c, k) => {
          const p = doc.sweep!.runs[0]!.points[k]!;
          expect(Math.abs(Number(c.getAttribute('data-mbps')) - (dir === 'write' ? p.writeMBps : p.readMBps))).toBeLessThanOrEqual(0.05);
        });
      }
      expect(svg.documentElement.textContent).toContain('transfer size');
    });
  });

  it('colours read and write alike on every chart of the report: the Quick Test’s and the sweep’s', () => {
    const sweepDoc = (n: number, name: string): ResultDocument => {
      const d = JSON.parse(JSON.stringify(sweepJson)) as ResultDocument;
      d.id = `s-${n}`;
      d.label = name;
      d.campaign = { planId: 'camp-1', format: `setup-${n}`, formatLabel: name, of: 'setups' };
      return d;
    };
    const charts = reportCharts(
      buildFormatReport([setupDoc(1, 'Dock', 1), sweepDoc(1, 'Dock'), setupDoc(2, 'Hub', 0.5), sweepDoc(2, 'Hub')]),
    );
    const series = charts.flatMap((c) => c.series);
    // The sweep's "Write · top speed" was drawn in a column colour while the Quick Test's "Write" was orange.
    expect(charts.length).toBeGreaterThanOrEqual(2);
    for (const s of series) {
      const dir = /write/i.test(s.name) ? 'write' : /read/i.test(s.name) ? 'read' : undefined;
      expect([s.name, s.colour]).toEqual([s.name, dir ? DIRECTION_COLOURS[dir] : s.colour]);
    }
    expect(series.filter((s) => /write/i.test(s.name)).length).toBeGreaterThanOrEqual(2);
  });
});
