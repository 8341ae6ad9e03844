// The Quick Test's cost per progress event: a burst of events (what a loaded machine delivers
// between two frames) must cost one render of the dials and at most one of the chart, not one
// per event, or the page stops answering (issue 13 point 13).
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentProps } from 'react';
import type * as LiveChartModule from '../../../../renderer/src/components/live-chart';
import type * as DialModule from '../../../../renderer/src/components/dial/dial';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../../renderer/src/app/app';
import { useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { PROGRESS_MAX_WAIT_MS } from '../../../../renderer/src/features/quick-test/use-quick-events';
import { REDRAW_MS } from '../../../../renderer/src/features/quick-test/throughput-chart';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import { createFakeBridge, progress } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { noResizeObserver } from '../../helpers/dom';

const seen = vi.hoisted(() => ({ chartData: [] as unknown[], dialRenders: 0 }));

// Count how often the chart renders and the points it is handed (its write line's, one per
// series point); both it and the dials still render for real.
vi.mock('../../../../renderer/src/components/live-chart', async (importOriginal) => {
  const actual = await importOriginal<typeof LiveChartModule>();
  function LiveChart(props: ComponentProps<typeof actual.LiveChart>) {
    seen.chartData.push(props.lines[0]!.points);
    return <actual.LiveChart {...props} />;
  }
  return { ...actual, LiveChart };
});
vi.mock('../../../../renderer/src/components/dial/dial', async (importOriginal) => {
  const actual = await importOriginal<typeof DialModule>();
  function Dial(props: ComponentProps<typeof actual.Dial>) {
    seen.dialRenders++;
    return <actual.Dial {...props} />;
  }
  return { ...actual, Dial };
});

noResizeObserver();

/** The app with a running Quick Test whose chart already shows one point. */
async function startWithAPoint() {
  const user = userEvent.setup();
  const fake = createFakeBridge();
  setBridgeForTests(fake.bridge);
  render(<App />);
  await screen.findByRole('button', { name: /Target: T7/ });
  await user.click(screen.getByRole('button', { name: 'Start' }));
  act(() => fake.emitProgress(progress({ phase: 'write', instMBps: 100 })));
  await waitFor(() => expect(seen.chartData.length).toBeGreaterThan(0));
  return fake;
}

describe('Quick Test under a burst of progress events', () => {
  beforeEach(() => {
    resetStores();
    seen.chartData = [];
    seen.dialRenders = 0;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    resetStores();
  });

  it('events arriving one task apart between two frames cost one render of the dials and the chart', async () => {
    const fake = await startWithAPoint();

    // From here display frames come only when the test says (a loaded machine draws rarely).
    const frames = new Map<number, FrameRequestCallback>();
    let nextId = 1;
    const raf = (cb: FrameRequestCallback): number => (frames.set(nextId, cb), nextId++);
    const caf = (id: number): void => void frames.delete(id);
    vi.stubGlobal('requestAnimationFrame', raf);
    vi.stubGlobal('cancelAnimationFrame', caf);
    Object.assign(window, { requestAnimationFrame: raf, cancelAnimationFrame: caf });
    let updates = 0;
    const unsubscribe = useQuickTestStore.subscribe(() => updates++);
    const chartBefore = seen.chartData.length;
    const dataBefore = new Set(seen.chartData).size;
    const dialsBefore = seen.dialRenders;

    // Each event in its own task, as WebSocket or IPC messages arrive.
    const N = 60;
    const began = performance.now();
    for (let i = 1; i <= N; i++) {
      fake.emitProgress(progress({ phase: i % 2 ? 'write' : 'read', instMBps: 100 + i }));
      await new Promise((r) => setTimeout(r, 0));
    }
    const elapsed = performance.now() - began;
    act(() => {
      const due = [...frames.values()];
      frames.clear();
      for (const cb of due) cb(performance.now());
    });
    unsubscribe();

    // Every event is kept, though applied together.
    await waitFor(() => expect(useQuickTestStore.getState().series).toHaveLength(N + 1));
    expect(useQuickTestStore.getState().live).toEqual({ write: 100 + N - 1, read: 100 + N });
    expect(useQuickTestStore.getState().peak).toEqual({ write: 100 + N - 1, read: 100 + N });
    expect(screen.getByTestId('value-read').textContent).toBe(String(100 + N));
    // One update for the frame, plus one per PROGRESS_MAX_WAIT_MS the burst took without a frame.
    const allowed = 1 + Math.floor(elapsed / PROGRESS_MAX_WAIT_MS);
    expect(allowed).toBeLessThan(N / 4);
    expect(updates).toBeLessThanOrEqual(allowed);
    // Two dials per screen render.
    expect(seen.dialRenders - dialsBefore).toBeLessThanOrEqual(2 * allowed);
    // The chart follows at most every REDRAW_MS: the burst's last points are drawn within it.
    await waitFor(() => expect(seen.chartData.at(-1)).toHaveLength(N + 1), { timeout: REDRAW_MS + 1000 });
    expect(seen.chartData.length - chartBefore).toBeLessThanOrEqual(allowed);
    expect(new Set(seen.chartData).size - dataBefore).toBeLessThanOrEqual(allowed);
  });

  it('an event without new figures redraws neither the chart nor the dials', async () => {
    const fake = await startWithAPoint();
    const chartBefore = seen.chartData.length;
    const dialsBefore = seen.dialRenders;
    // A step change moves the status line's state but no figure: only the small parts that show
    // the step follow it (the store's update renders synchronously inside act).
    act(() => fake.emitProgress(progress({ phase: 'write', stage: 'flush', instMBps: 0, bytesDone: 5e8 })));
    await waitFor(() => expect(useQuickTestStore.getState().stage).toBe('flush'));
    expect(seen.dialRenders).toBe(dialsBefore);
    expect(seen.chartData.length).toBe(chartBefore);
    // And a figure moves the dials again, not the chart until its interval.
    act(() => fake.emitProgress(progress({ phase: 'write', instMBps: 140 })));
    await waitFor(() => expect(screen.getByTestId('value-write').textContent).toBe('140'));
    expect(seen.dialRenders).toBeGreaterThan(dialsBefore);
  });
});
