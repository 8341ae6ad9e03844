// The sustained-write panel: the settings it sends; the live curve from progress events; a
// document with a knee draws the cache-full line with its label, the before/after levels and
// the verdict; a steady document draws no knee; a varying one a band; the link's ceiling.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge, target } from '../../helpers/fake-bridge';
import { JOB, kneeDoc, plan, progress, renderDetailed, sustainedDoc, variesDoc } from '../../helpers/detailed-fixtures';
import { resetStores } from '../../helpers/reset-stores';
import type { ResultDocument } from '@model/result';
import { DetailedSettings } from '@model/settings';
import { retype } from '../../helpers/dom';

const panel = () => screen.getByTestId('sustained-panel');
const knees = () => panel().querySelectorAll('[data-testid="sustained-knee"]');

async function finishWith(doc: ResultDocument, fake = createFakeBridge()) {
  const r = await renderDetailed(fake);
  await r.user.click(screen.getByTestId('sustained-start'));
  act(() => r.fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: doc }));
  return r;
}

describe('Sustained-write panel', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start sends the size, runs and rest the controls show', async () => {
    const { fake, user } = await renderDetailed();
    expect(screen.getByRole('radio', { name: '50 GB' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.queryByTestId('sustained-rest')).toBeNull();
    await user.click(screen.getByRole('radio', { name: '200 GB' }));
    await retype(user, 'sustained-runs', '3');
    // More than one run: the rest appears, five minutes by default.
    expect((screen.getByTestId('sustained-rest') as HTMLInputElement).value).toBe('5');
    await user.click(screen.getByTestId('sustained-start'));
    const sent = { kind: 'sustained', target: '/media/t7', maxBytes: 200e9, runs: 3, restSeconds: 300 };
    expect(fake.calls.detailedStart).toEqual([sent]);
    expect(DetailedSettings.parse(fake.calls.detailedStart[0])).toEqual(sent);
  });

  it('an invalid run count disables Start and says why', async () => {
    const { fake, user } = await renderDetailed();
    await retype(user, 'sustained-runs', '0');
    expect(within(panel()).getByRole('alert').textContent).toMatch(/Runs: a whole number from 1 to 10/);
    const start = screen.getByTestId('sustained-start') as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(document.getElementById(start.getAttribute('aria-describedby')!)!.textContent).toBe('Correct the settings marked above.');
    await user.click(start);
    expect(fake.calls.detailedStart).toHaveLength(0);
  });

  it('draws the curve live from progress while writing', async () => {
    const { fake, user } = await renderDetailed();
    await user.click(screen.getByTestId('sustained-start'));
    expect(within(panel()).getByText('The write speed will be drawn here against the amount written.')).toBeTruthy();
    act(() => fake.emitDetailedPlan(plan({ kind: 'sustained', steps: ['SEQ1M Q8T1 Sustained Write'], bytes: 50e9 })));
    // Preparing is not the disk's speed: not drawn.
    act(() =>
      fake.emitDetailedProgress(
        progress({
          kind: 'sustained',
          stage: 'prepare',
          testCount: 1,
          testName: 'SEQ1M Q8T1 Sustained Write',
          instMBps: 9999,
          bytesTotal: 50e9,
        }),
      ),
    );
    expect(panel().querySelector('.recharts-line')).toBeNull();
    for (let i = 1; i <= 20; i++) {
      act(() =>
        fake.emitDetailedProgress(
          progress({
            kind: 'sustained',
            testCount: 1,
            testName: 'SEQ1M Q8T1 Sustained Write',
            instMBps: i < 10 ? 3000 : 800,
            bytesDone: i * 1e9,
            bytesTotal: 50e9,
            secondsTotal: 0,
          }),
        ),
      );
    }
    expect(panel().querySelectorAll('.recharts-line')).toHaveLength(1);
    expect(screen.getByTestId('sustained-verdict').textContent).toBe('Writing… 20.0 GB of 50.0 GB');
    expect(screen.getByRole('progressbar', { name: /sustained-write/ }).getAttribute('aria-valuenow')).toBe('40');
    // No verdict yet, so no knee.
    expect(knees()).toHaveLength(0);
  });

  it('a knee: the cache-full line and label, the levels before and after, the verdict', async () => {
    await finishWith(kneeDoc());
    expect(screen.getByTestId('sustained-verdict').textContent).toBe('Fast cache ≈ 12.4 GB, then 800 MB/s (−73 %)');
    expect(knees()).toHaveLength(1);
    expect(within(panel()).getByText('cache full ≈ 12.4 GB')).toBeTruthy();
    expect(within(panel()).getByText('before 3,000 MB/s')).toBeTruthy();
    expect(within(panel()).getByText('after 800 MB/s')).toBeTruthy();
    const levels = panel().querySelectorAll('[data-testid="sustained-level"]');
    expect(levels).toHaveLength(2);
    expect(levels[0]!.getAttribute('stroke-dasharray')).toBe('5 4');
    // At 12.4 GB of a 0–40 GB axis: the plot spans x = 68 (a 4 px margin and the 64 px y axis) to 784 (800 less the 16 px margin).
    expect(Number(knees()[0]!.getAttribute('x1'))).toBeCloseTo(68 + (12.4 / 40) * 716, 0);
    expect(screen.getByTestId('sustained-cache-badge').textContent).toMatch(/direct I\/O/);
  });

  it('steady (the real engine’s document): the verdict, no knee line, no levels', async () => {
    await finishWith(sustainedDoc());
    expect(screen.getByTestId('sustained-verdict').textContent).toBe('No slowdown within 2 GB: 2,936 MB/s throughout');
    expect(panel().querySelectorAll('.recharts-line')).toHaveLength(1);
    expect(knees()).toHaveLength(0);
    expect(panel().querySelectorAll('[data-testid="sustained-level"]')).toHaveLength(0);
    expect(within(panel()).queryByText(/cache full/)).toBeNull();
  });

  it('varies: a shaded band from the lowest to the highest speed', async () => {
    await finishWith(variesDoc());
    expect(screen.getByTestId('sustained-verdict').textContent).toMatch(/Speed falls and recovers \(3 drops\)/);
    expect(panel().querySelectorAll('[data-testid="sustained-band"]')).toHaveLength(1);
    expect(knees()).toHaveLength(0);
  });

  it('several runs: one line and one verdict per run', async () => {
    const doc = kneeDoc();
    const r1 = doc.sustained!.runs[0]!;
    doc.sustained!.runs.push({
      ...r1,
      run: 2,
      verdict: { ...(r1.verdict as Extract<typeof r1.verdict, { kind: 'knee' }>), kneeBytes: 6e9 },
      summary: 'Fast cache ≈ 6 GB, then 800 MB/s (−73 %)',
    });
    doc.settings.runs = 2;
    await finishWith(doc);
    expect([...screen.getByTestId('sustained-verdict').querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Run 1: Fast cache ≈ 12.4 GB, then 800 MB/s (−73 %)',
      'Run 2: Fast cache ≈ 6 GB, then 800 MB/s (−73 %)',
    ]);
    expect(panel().querySelectorAll('.recharts-line')).toHaveLength(2);
    expect(knees()).toHaveLength(2);
    expect(within(panel()).getByText('run 2: cache full ≈ 6 GB')).toBeTruthy();
  });

  it('the link’s ceiling is a labelled line; a free-space limit is said', async () => {
    const t = target({
      path: '/tmp/dd',
      name: 'T7',
      device: { model: 'T7', bus: 'usb', link: { label: 'USB 3.2 Gen 2', ceilingMBps: 1212.12 } },
    });
    const doc = kneeDoc();
    doc.sustained!.limitedBy = 'free-space';
    doc.notes = ['Writing 40 GB, not 50 GB: that is what free space allows with 13.5 GB kept free.'];
    await finishWith(doc, createFakeBridge([t]));
    expect(panel().querySelectorAll('[data-testid="sustained-ceiling"]')).toHaveLength(1);
    expect(within(panel()).getByText('interface ceiling ≈ 1,212 MB/s')).toBeTruthy();
    const notes = screen.getByTestId('sustained-notes');
    expect(notes.textContent).toContain('limited by free space');
    expect(notes.textContent).toContain('Writing 40 GB, not 50 GB');
  });

  it('no ceiling line when the link has none', async () => {
    await finishWith(kneeDoc());
    expect(panel().querySelectorAll('[data-testid="sustained-ceiling"]')).toHaveLength(0);
  });
});
