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
    act(() => fake.emitDone({ jobId: 'job-1', outcome: 'finished', result: resultDoc(500, 500), saved: { id: 'quick-saved-1' } }));
    await user.click(within(screen.getByTestId('video-table')).getByTestId('check-format-prores-hq'));
    await user.click(screen.getByTestId('video-start'));
    expect(fake.calls.detailedStart.at(-1)).toMatchObject({ kind: 'video', from: 'quick-saved-1' });
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
