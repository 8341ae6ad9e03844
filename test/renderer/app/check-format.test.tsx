// "Check this format": a button on each row of the Quick Test's Will-it-work table opens the
// Detailed screen's video panel with that format and the table's frame rate, through the app's
// navigation store (features never import each other). Not while a detailed test runs: its
// settings stay as they were sent.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge, resultDoc } from '../helpers/fake-bridge';
import { renderApp } from '../helpers/render-app';
import { resetStores } from '../helpers/reset-stores';
import { useDetailedStore } from '../../../renderer/src/features/detailed/store';
import type { ResultDocument } from '@model/result';
import { pacedFormat } from '@model/kinds/video/paced';
import videoJson from '../../fixtures/results/video.json';

const value = (id: string) => (screen.getByTestId(id) as HTMLSelectElement).value;

describe('Check this format', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('opens Detailed with the row’s format at the table’s frame rate', async () => {
    const { user } = await renderApp(createFakeBridge().bridge);
    const table = screen.getByTestId('video-table');
    await user.selectOptions(within(table).getByLabelText('Frame rate'), '50');
    await user.click(within(table).getByRole('tab', { name: 'DNxHR' }));
    await user.click(within(table).getByRole('button', { name: 'Check this format: DNxHR HQX at 50 fps, with a frame-paced test' }));
    expect(screen.getByTestId('nav-detailed').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('brand-tag').textContent).toBe('Detailed');
    expect(value('video-format')).toBe('dnxhr-hqx');
    expect(value('video-fps')).toBe('50');
    expect(value('video-resolution')).toBe('uhd');
    // Again from the Quick Test, another row: the panel follows.
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(within(table).getByTestId('check-format-dnxhr-lb'));
    expect(screen.getByTestId('nav-detailed').getAttribute('aria-selected')).toBe('true');
    expect(value('video-format')).toBe('dnxhr-lb');
  });

  it('from a finished Quick Test, the paced test it starts names that saved result: the one whose verdicts it decides', async () => {
    const fake = createFakeBridge();
    const { user } = await renderApp(fake.bridge);
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(500, 500) }));
    const saved = resultDoc(500, 500, { id: 'quick-saved-1' });
    act(() => fake.emitDone({ jobId: 'job-1', outcome: 'finished', result: saved, saved: { id: saved.id } }));
    await user.click(within(screen.getByTestId('video-table')).getByTestId('check-format-prores-hq'));
    await user.click(screen.getByTestId('video-start'));
    expect(fake.calls.detailedStart.at(-1)).toMatchObject({ kind: 'video', from: 'quick-saved-1' });
    // It ends having dropped frames writing (from 5 s on): back on the Quick Test, its result's
    // row is ✗ by that test, and every heavier ProRes 422 HQ size with it.
    const doc = JSON.parse(JSON.stringify(videoJson)) as ResultDocument;
    const f = pacedFormat('prores-hq-uhd-2997')!;
    const run = doc.video!.runs[0]!;
    doc.id = 'paced-1';
    doc.startedAt = '2026-11-27T10:00:00.000Z';
    doc.settings.video = { format: f.id, layout: 'stream', buffer: 4, from: 'quick-saved-1' };
    doc.video = {
      ...doc.video!,
      ...f,
      frames: 300,
      budgetMs: 1000 / f.fps,
      runs: [
        {
          ...run,
          write: {
            ...run.write,
            frames: 300,
            completed: 294,
            late: 9,
            dropped: 6,
            firstLateSeconds: 5,
            timeline: '.'.repeat(150) + 'D'.repeat(6) + 'L'.repeat(9) + '.'.repeat(135),
          },
        },
      ],
    };
    act(() => fake.emitDetailedDone({ jobId: 'djob-1', outcome: 'finished', result: doc }));
    await user.click(screen.getByTestId('nav-quick'));
    const table = screen.getByTestId('video-table');
    expect(within(table).getByTestId('work-prores-hq-uhd-write').textContent).toBe('✗no (frame-paced test, 2026-11-27)');
    expect(within(table).getByTestId('work-prores-hq-8k-write').textContent).toMatch(
      /^✗no \(✗ implied by a paced test of ProRes 422 HQ UHD 29.97 fps/,
    );
    expect(within(table).getByTestId('work-prores-hq-hd-write').textContent).toBe('✓yes');
  });

  it('leaves a running test’s settings as they are', async () => {
    const { user } = await renderApp(createFakeBridge().bridge, 'nav-detailed');
    await user.click(screen.getByTestId('video-start'));
    expect(useDetailedStore.getState().status).not.toBe('idle');
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(within(screen.getByTestId('video-table')).getByTestId('check-format-prores-proxy'));
    expect(value('video-format')).toBe('prores-hq');
  });
});
