// Issue 8 in the renderer: the target picker shows the link and its ceiling; a cycle's flags
// appear in the Trust panel with severity icons and words; no flags, no panel; the dials mark
// the interface ceiling when it is known and within their scale.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/app/app';
import { useQuickTestStore } from '../../../renderer/src/features/quick-test/store';
import { linkText, targetLink } from '../../../renderer/src/lib/target-link';
import { setBridgeForTests } from '../../../renderer/src/lib/bridge';
import { createFakeBridge, progress, resultDoc, target } from '../helpers/fake-bridge';
import { resetStores } from '../helpers/reset-stores';
import type { TargetInfo } from '@model/history';
import { noResizeObserver } from '../helpers/dom';

noResizeObserver();

const USB_GEN2 = {
  kind: 'usb',
  label: 'USB 3.2 Gen 2',
  rawMbps: 10000,
  encoding: '128b/132b',
  ceilingMBps: 1212.12,
  typicalMBps: [900, 1050],
  source: 'sysfs',
};

/** A target whose device carries a link (the field is optional on TargetInfo). */
function linked(link: unknown = USB_GEN2, over: Partial<TargetInfo> = {}): TargetInfo {
  const t = target(over);
  return { ...t, device: { ...t.device, link } as TargetInfo['device'] };
}

const FLAGS = [
  {
    code: 'above-interface-ceiling',
    message: 'Read 1,480 MB/s is above what USB 3.2 Gen 2 can carry (≈ 1,212 MB/s): the figure cannot be the disk’s.',
    fix: 'Run again with a larger stress size, or check the cache mode.',
  },
  // A note: a cache flag is a warning whatever severity a document gives it (model/verdict/trust.ts).
  {
    code: 'network-fs',
    message: 'The folder is on a network share: the figures measure the network and the server together.',
    fix: 'Compare with what the link carries.',
    severity: 'info',
  },
];

async function renderApp(targets: TargetInfo[]) {
  const fake = createFakeBridge(targets);
  setBridgeForTests(fake.bridge);
  render(<App />);
  await screen.findByRole('button', { name: /Target: T7/ });
  return fake;
}

describe('link in the target picker', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('formats the link with its ceiling and typical range', () => {
    const link = targetLink(linked())!;
    expect(linkText(link)).toBe('USB 3.2 Gen 2 · ≤ 1,212 MB/s (typ. 900–1,050)');
    expect(targetLink(target())).toBeUndefined();
    expect(targetLink(linked({ label: 42 }))).toBeUndefined();
    expect(linkText(targetLink(linked({ label: 'SATA III', ceilingMBps: -1, typicalMBps: [5] }))!)).toBe('SATA III');
  });

  it('shows the link label and ceiling on the button and in each option, with an explanation', async () => {
    const user = userEvent.setup();
    await renderApp([linked(), target({ path: '/', name: 'System', mountPoint: '/', device: { bus: 'nvme' } })]);
    // The visible text is part of the name (WCAG 2.5.3), with the mount point after it.
    const button = screen.getByRole('button', { name: /^Target: T7 USB 3\.2 Gen 2 · ≤ 1,212 MB\/s.*, at \/media\/t7\. Change target$/ });
    const onButton = within(button).getByTestId('target-link');
    expect(onButton.textContent).toBe('USB 3.2 Gen 2 · ≤ 1,212 MB/s (typ. 900–1,050)');
    expect(onButton.getAttribute('title')).toMatch(
      /most this connection can carry after line encoding; figures above it cannot be the disk’s/,
    );

    await user.click(button);
    const options = screen.getAllByRole('option');
    expect(within(options[0]!).getByTestId('target-link').textContent).toBe('USB 3.2 Gen 2 · ≤ 1,212 MB/s (typ. 900–1,050)');
    // A target without a link shows no link line.
    expect(within(options[1]!).queryByTestId('target-link')).toBeNull();
  });

  it('without a link the button keeps the bus name', async () => {
    await renderApp([target()]);
    const button = screen.getByRole('button', { name: /Target: T7/ });
    expect(within(button).queryByTestId('target-link')).toBeNull();
    expect(button.textContent).toMatch(/USB · 600 GB free of 1\.0 TB/);
  });
});

describe('Trust panel and ceiling marker', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('a cycle with two flags lists both, with fixes, severity icons and words', async () => {
    const user = userEvent.setup();
    const fake = await renderApp([linked()]);
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.queryByTestId('flags-panel')).toBeNull();

    act(() => fake.emitCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(900, 1480, { flags: FLAGS as never }) }));
    expect(useQuickTestStore.getState().flags).toHaveLength(2);
    const panel = screen.getByRole('region', { name: 'Trust' });
    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(2);

    expect(items[0]!.textContent).toContain(FLAGS[0]!.message);
    expect(items[0]!.textContent).toContain(FLAGS[0]!.fix);
    expect(within(items[0]!).getByTestId('flag-icon-warning')).toBeTruthy();
    expect(within(items[0]!).getByText('Warning:', { exact: false })).toBeTruthy();

    expect(items[1]!.textContent).toContain(FLAGS[1]!.message);
    expect(items[1]!.textContent).toContain(FLAGS[1]!.fix);
    expect(within(items[1]!).getByTestId('flag-icon-info')).toBeTruthy();
    expect(within(items[1]!).getByText('Note:', { exact: false })).toBeTruthy();
    expect(within(panel).getByText(/1 thing may make these figures not the disk’s alone/)).toBeTruthy();

    // A next cycle without flags keeps them: the panel shows the result's flags (every cycle's, as
    // the saved result and History carry them), for the mean the screen shows includes that cycle.
    act(() => fake.emitCycle({ jobId: 'job-1', cycle: 2, result: resultDoc(900, 1000) }));
    expect(within(screen.getByRole('region', { name: 'Trust' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('no flags, no panel', async () => {
    const user = userEvent.setup();
    const fake = await renderApp([target()]);
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(500, 600) }));
    expect(screen.queryByTestId('flags-panel')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Trust' })).toBeNull();
  });

  it('marks the ceiling on both dials when it is within the scale, and notes it under the cache badge', async () => {
    const user = userEvent.setup();
    const fake = await renderApp([linked()]);
    // Before any test the scale already comes from what is known: the 1,212 MB/s ceiling fits on 0–3000.
    expect(screen.getByRole('img', { name: /WRITE: .*scale 0 to 3000, interface ceiling 1,212/ })).toBeTruthy();
    expect(screen.getByTestId('ceiling-read')).toBeTruthy();
    expect(screen.getByTestId('ceiling-note').textContent).toMatch(/interface ceiling ≈ 1,212 MB\/s/);

    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitProgress(progress({ phase: 'read', instMBps: 1050 })));
    await waitFor(() => expect(useQuickTestStore.getState().live.read).toBe(1050));
    expect(useQuickTestStore.getState().scale).toBe(3000);
    for (const side of ['write', 'read'] as const) {
      const mark = screen.getByTestId(`ceiling-${side}`);
      expect(Number(mark.getAttribute('data-value'))).toBeCloseTo(1212.12);
      // 1212.12 / 3000 of the 270° sweep from −135°.
      expect(Number(mark.getAttribute('data-angle'))).toBeCloseTo(-135 + (1212.12 / 3000) * 270, 1);
      expect(mark.querySelector('title')?.textContent).toMatch(/Interface ceiling ≈ 1,212 MB\/s/);
    }
    expect(screen.getByRole('img', { name: /READ: .*interface ceiling 1,212/ })).toBeTruthy();
  });

  it('no link, no ceiling marker and no note', async () => {
    const user = userEvent.setup();
    const fake = await renderApp([target()]);
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => fake.emitProgress(progress({ phase: 'read', instMBps: 1050 })));
    expect(screen.queryByTestId('ceiling-read')).toBeNull();
    expect(screen.queryByTestId('ceiling-note')).toBeNull();
  });
});
