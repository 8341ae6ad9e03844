// The Quick Test screen with a fake bridge: Start sends the settings, events move the dials and
// fill the video table, Stop stops, a read-only target cannot start, and the keyboard works.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../../renderer/src/app/app';
import { useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import { createFakeBridge, progress, resultDoc, target } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { noResizeObserver } from '../../helpers/dom';

noResizeObserver();

async function renderApp(fake = createFakeBridge()) {
  setBridgeForTests(fake.bridge);
  render(<App />);
  await screen.findByText(/DiskDial 0\.1\.0 · engine 0\.1\.0/);
  await screen.findByRole('button', { name: /Target: T7/ });
  return fake;
}

describe('Quick Test screen', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Start calls startQuickTest with the chosen settings', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    await user.click(screen.getByRole('radio', { name: '5 GB' }));
    await user.click(screen.getByRole('radio', { name: 'Continuous' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(fake.calls.start).toEqual([{ target: '/media/t7', sizeBytes: 5e9, mode: 'continuous', runs: 1 }]);
    expect(await screen.findByRole('button', { name: 'Stop' })).toBeTruthy();
    // Settings are locked while the test runs.
    expect(screen.getByRole('radio', { name: '1 GB' }).matches(':disabled')).toBe(true);
  });

  it('a custom size is validated and sent', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const input = screen.getByRole('textbox', { name: 'Custom stress size' });
    await user.type(input, '8 MB');
    // In the page's own unit (its sizes are 1, 2, 3 and 5 GB): never GiB beside GB.
    expect(screen.getByRole('alert').textContent).toBe('Between 17 MB and 68 GB.');
    await user.clear(input);
    // Typed in binary units, the limits follow them.
    await user.type(input, '8 MiB');
    expect(screen.getByRole('alert').textContent).toBe('Between 16 MiB and 64 GiB.');
    await user.clear(input);
    await user.type(input, '750 MB');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(fake.calls.start[0]).toMatchObject({ sizeBytes: 750e6 });
  });

  it('a custom size below the minimum disables Start with the reason, instead of running the last size', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const start = screen.getByRole('button', { name: 'Start' });
    // An empty custom field is no size either.
    expect(start.matches(':disabled')).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Custom stress size' }), '16 MB');
    expect(start.matches(':disabled')).toBe(true);
    expect(screen.getByTestId('start-reason').textContent).toBe('Custom size: Between 17 MB and 68 GB.');
    await user.click(start);
    expect(fake.calls.start).toEqual([]);
    // Back on a preset, Start is available again.
    await user.click(screen.getByRole('radio', { name: '1 GB' }));
    expect(start.matches(':disabled')).toBe(false);
  });

  it('a test that cannot fit is not offered: Start disabled with what it needs and keeps free, and the largest size that fits', async () => {
    const user = userEvent.setup();
    const fake = createFakeBridge([target({ freeBytes: 52.7e6, totalBytes: 1.1e9 })]);
    await renderApp(fake);
    const start = screen.getByRole('button', { name: 'Start' });
    await waitFor(() => expect(start.matches(':disabled')).toBe(true));
    expect(screen.getByTestId('start-reason').textContent).toBe(
      "Not enough free space: this test needs 1 GB and keeps 16.8 MB free for the file system's own bookkeeping and other programs writing meanwhile; 52.7 MB is free. The largest that fits is 35 MB.",
    );
    expect(start.getAttribute('aria-describedby')).toBe(screen.getByTestId('start-reason').id);
    await user.click(screen.getByRole('button', { name: 'Use 35 MB' }));
    expect(start.matches(':disabled')).toBe(false);
    expect(screen.getByRole('radio', { name: 'Custom' }).getAttribute('aria-checked')).toBe('true');
    expect((screen.getByRole('textbox', { name: 'Custom stress size' }) as HTMLInputElement).value).toBe('35 MB');
    await user.click(start);
    expect(fake.calls.start[0]).toMatchObject({ sizeBytes: 35e6 });
  });

  it('progress events move the dials; a cycle event fills the video table; Stop stops', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    expect(screen.getByText('Run a test to see what this drive can record and play.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Start' }));

    // Progress reaches the screen on the next display frame (use-quick-events.ts).
    act(() => fake.emitProgress(progress({ phase: 'write', instMBps: 812 })));
    await waitFor(() => expect(screen.getByTestId('value-write').textContent).toBe('812'));
    expect(screen.getByText('writing')).toBeTruthy();
    act(() => fake.emitProgress(progress({ phase: 'read', instMBps: 1045.6 })));
    await waitFor(() => expect(screen.getByTestId('value-read').textContent).toBe('1,046'));
    expect(useQuickTestStore.getState().series).toHaveLength(2);

    act(() => fake.emitCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(138.2, 100) }));
    expect(screen.queryByText('Run a test to see what this drive can record and play.')).toBeNull();
    expect(screen.getByTestId('cache-badge').textContent).toMatch(/direct I\/O · random data/);
    // ProRes 422 HQ UHD at 29.97 needs 110.5 MB/s: 138.2 × 0.8 fits for writing; 100 × 0.8 does not for reading.
    expect(screen.getByTestId('work-prores-hq-uhd-write').textContent).toBe('✓yes');
    expect(screen.getByTestId('work-prores-hq-uhd-read').textContent).toBe('✗no');

    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(fake.calls.stop).toEqual(['job-1']);
    act(() => fake.emitDone({ jobId: 'job-1', outcome: 'stopped' }));
    expect(await screen.findByRole('button', { name: 'Start' })).toBeTruthy();
  });

  it('a planned run longer than 10 s says where it is and about how long is left, its bar driven by the bytes done', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    const runs = screen.getByRole('spinbutton', { name: 'Number of runs' });
    await user.clear(runs);
    await user.type(runs, '5');
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      await user.click(screen.getByRole('button', { name: 'Start' }));
      // Run 1 (write and read) done, run 2's write half way: 2.5 of 10 steps in 20 s, so 60 s are left.
      now.mockReturnValue(1_020_000);
      act(() => fake.emitProgress(progress({ cycle: 2, cycles: 5, phase: 'write', bytesDone: 0.5e9, bytesTotal: 1e9 })));
      const status = () => document.querySelector('.dials__status')!.textContent;
      await waitFor(() => expect(status()).toBe('run 2 of 5 · writing · about 1 min left'));
      expect(screen.getByRole('progressbar', { name: 'Progress of the Quick Test' }).getAttribute('aria-valuenow')).toBe('25');
      now.mockReturnValue(1_030_000);
      act(() => fake.emitProgress(progress({ cycle: 2, cycles: 5, phase: 'read', bytesDone: 0.5e9, bytesTotal: 1e9 })));
      // 3.5 of 10 in 30 s: about 56 s left.
      await waitFor(() => expect(status()).toBe('run 2 of 5 · reading · about 55 s left'));
      expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('35');
    } finally {
      now.mockRestore();
    }
  });

  it('a run too short to read a time left shows only what it does', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      await user.click(screen.getByRole('button', { name: 'Start' }));
      // Half of one cycle in 2 s: about 4 s in all, under the 10 s that earns a time left.
      now.mockReturnValue(1_002_000);
      act(() => fake.emitProgress(progress({ phase: 'read', bytesDone: 0, bytesTotal: 1e9 })));
      await waitFor(() => expect(document.querySelector('.dials__status')!.textContent).toBe('reading'));
      expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    } finally {
      now.mockRestore();
    }
  });

  it('continuous mode has no end: it counts cycles, with no time left and no bar', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    await user.click(screen.getByRole('radio', { name: 'Continuous' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitProgress(progress({ cycle: 3, cycles: 0, phase: 'read', bytesDone: 0.9e9, bytesTotal: 1e9 })));
    await waitFor(() => expect(document.querySelector('.dials__status')!.textContent).toBe('continuous · cycle 3 · reading'));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('switching family and frame rate recomputes the table', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(200, 200) }));
    await user.click(screen.getByRole('tab', { name: 'Uncompressed' }));
    await user.selectOptions(screen.getByRole('combobox'), '30');
    // 10-bit 4:2:2 HD 30p needs 155.52 MB/s ≤ 200 × 0.8 = 160: fits; 12-bit 4:4:4 needs 279.9: does not
    expect(screen.getByTestId('work-unc-10-422-hd-write').textContent).toBe('✓yes');
    expect(screen.getByTestId('work-unc-12-444-hd-write').textContent).toBe('✗no');
  });

  it('a read-only target disables Start and shows the reason', async () => {
    const fake = createFakeBridge([target({ readOnly: true, startable: false, reason: 'Mounted read-only: a test needs to write.' })]);
    await renderApp(fake);
    const start = screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByText('Mounted read-only: a test needs to write.')).toBeTruthy();
    expect(start.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('the picker shows non-startable volumes disabled with the reason; browser mode offers a path field', async () => {
    const user = userEvent.setup();
    const fake = await renderApp(
      createFakeBridge([
        target(),
        target({
          path: '/ro',
          name: 'Archive',
          mountPoint: '/ro',
          readOnly: true,
          startable: false,
          reason: 'Read-only.',
          device: { bus: 'sata', removable: false },
        }),
      ]),
    );
    await user.click(screen.getByRole('button', { name: /Target: T7/ }));
    const list = screen.getByRole('listbox');
    const archive = within(list).getByRole('option', { name: /Archive/ });
    expect(archive.getAttribute('aria-disabled')).toBe('true');
    expect(within(archive).getByText('Read-only.')).toBeTruthy();
    expect(within(archive).getByText('SATA')).toBeTruthy();
    expect(within(archive).getByText('internal')).toBeTruthy();
    await user.click(archive);
    expect(useQuickTestStore.getState().status).toBe('idle');
    await user.click(screen.getByRole('button', { name: 'Choose folder…' }));
    await user.type(await screen.findByPlaceholderText('/media/me/Footage'), '/srv/clips');
    await user.click(screen.getByRole('button', { name: 'Use' }));
    expect(fake.calls.describe).toEqual(['/srv/clips']);
    await waitFor(() => expect(screen.getByRole('button', { name: /Target: \/srv\/clips/ })).toBeTruthy());
  });

  it('keyboard: Tab reaches Start and Enter starts', async () => {
    const user = userEvent.setup();
    const fake = await renderApp();
    const start = screen.getByRole('button', { name: 'Start' });
    for (let i = 0; i < 30 && document.activeElement !== start; i++) await user.tab();
    expect(document.activeElement).toBe(start);
    await user.keyboard('{Enter}');
    expect(fake.calls.start).toHaveLength(1);
  });

  it('unsubscribes from bridge events on unmount', async () => {
    const fake = await renderApp();
    expect(fake.listeners()).toBe(3);
    resetStores();
    expect(fake.listeners()).toBe(0);
  });
});
