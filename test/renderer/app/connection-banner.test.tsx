// Browser mode losing `diskdial serve`: the app shows a lasting "Not connected" banner with what
// to do, disables its controls, and when the bridge connects again the banner goes, the controls
// come back and the targets are read again.
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/app/app';
import { setBridgeForTests } from '../../../renderer/src/lib/bridge';
import { createWsBridge } from '../../../renderer/src/lib/ws-bridge';
import { createFakeBridge } from '../helpers/fake-bridge';
import { FakeSocket } from '../helpers/fake-socket';
import { resetStores } from '../helpers/reset-stores';
import { noResizeObserver } from '../helpers/dom';

noResizeObserver();

describe('connection banner', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('shows while disconnected, disables the controls, and goes when the connection is back', async () => {
    const fake = createFakeBridge();
    let listed = 0;
    const list = fake.bridge.listTargets;
    fake.bridge.listTargets = () => {
      listed++;
      return list();
    };
    // The socket bridge only reports the connection; the verbs are the fake's.
    const socketBridge = createWsBridge('ws://h/ws?token=t', (u) => new FakeSocket(u), { retry: { min: 5, max: 5 } });
    FakeSocket.last.open();
    setBridgeForTests(fake.bridge, socketBridge);
    render(<App />);
    await screen.findByRole('button', { name: /Target: T7/ });
    expect(screen.queryByTestId('connection-banner')).toBeNull();
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(false);
    expect(listed).toBe(1);

    act(() => FakeSocket.last.close());
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toMatch(/Not connected to DiskDial/);
    expect(banner.textContent).toMatch(/diskdial serve.*open the URL it prints/);
    expect(screen.getByRole('button', { name: 'Start' }).closest('fieldset')!.disabled).toBe(true);
    expect((screen.getByRole('button', { name: /Target: T7/ }) as HTMLButtonElement).disabled).toBe(true);

    // The bridge retries by itself; the new socket opens.
    await waitFor(() => expect(FakeSocket.last.readyState).toBe(0));
    act(() => FakeSocket.last.open());
    await waitFor(() => expect(screen.queryByTestId('connection-banner')).toBeNull());
    expect(screen.getByRole('button', { name: 'Start' }).closest('fieldset')!.disabled).toBe(false);
    await waitFor(() => expect(listed).toBe(2));
    socketBridge.close();
  });
});
