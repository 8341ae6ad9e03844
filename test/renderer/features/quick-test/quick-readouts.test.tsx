// The Quick Test's dials in runs mode: while one phase runs, the other dial shows the average its
// phase measured this run, said as "average", never the last instant (a write stall's 0 MB/s).
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../../renderer/src/app/app';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import { createFakeBridge, progress } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { noResizeObserver } from '../../helpers/dom';

noResizeObserver();

const caption = (side: 'write' | 'read') => document.querySelector(`[data-testid=dial-${side}] .dial__caption`)!.textContent;

describe('Quick Test readouts in runs mode', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('during the read phase WRITE shows the write average this run measured, and READ the read average during the next write', async () => {
    const user = userEvent.setup();
    const fake = createFakeBridge();
    setBridgeForTests(fake.bridge);
    render(<App />);
    await screen.findByRole('button', { name: /Target: T7/ });
    const runs = screen.getByRole('spinbutton', { name: 'Number of runs' });
    await user.clear(runs);
    await user.type(runs, '2');
    await user.click(screen.getByRole('button', { name: 'Start' }));

    // Run 1 writes at about 300 MB/s, its last instant a stall (0 MB/s), then flushes.
    const run1 = { cycle: 1, cycles: 2 };
    act(() => fake.emitProgress(progress({ ...run1, phase: 'write', instMBps: 320, avgMBps: 320 })));
    act(() => fake.emitProgress(progress({ ...run1, phase: 'write', instMBps: 0, avgMBps: 287.4 })));
    act(() => fake.emitProgress(progress({ ...run1, phase: 'write', stage: 'flush', instMBps: 0, avgMBps: 0 })));
    await waitFor(() => expect(caption('write')).toBe('peak 320'));
    expect(screen.getByTestId('value-write').textContent).toBe('0');

    // The read phase: WRITE now shows the write's average, said as such.
    act(() => fake.emitProgress(progress({ ...run1, phase: 'read', instMBps: 886, avgMBps: 850 })));
    await waitFor(() => expect(screen.getByTestId('value-read').textContent).toBe('886'));
    expect(screen.getByTestId('value-write').textContent).toBe('287');
    expect(caption('write')).toBe('average · peak 320');
    expect(caption('read')).toBe('peak 886');
    act(() => fake.emitProgress(progress({ ...run1, phase: 'read', instMBps: 0, avgMBps: 812 })));

    // Run 2's write: READ keeps run 1's read average, not its last 0 instant.
    act(() => fake.emitProgress(progress({ cycle: 2, cycles: 2, phase: 'write', instMBps: 310, avgMBps: 310 })));
    await waitFor(() => expect(screen.getByTestId('value-write').textContent).toBe('310'));
    expect(screen.getByTestId('value-read').textContent).toBe('812');
    expect(caption('read')).toBe('average · peak 886');
    expect(caption('write')).toBe('peak 320');
  });
});
