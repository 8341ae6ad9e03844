// The whole app in jsdom on a fake bridge, charts at a fixed 800 × 240 (jsdom has no layout),
// once the first target is selected; optionally on one tab.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DiskDialBridge } from '@ipc/contract';
import { App } from '../../../renderer/src/app/app';
import { FixedChartSize } from '../../../renderer/src/components/chart-frame';
import { setBridgeForTests } from '../../../renderer/src/lib/bridge';

export async function renderApp(bridge: DiskDialBridge, tab?: string) {
  const user = userEvent.setup();
  setBridgeForTests(bridge);
  const view = render(
    <FixedChartSize width={800} height={240}>
      <App />
    </FixedChartSize>,
  );
  await screen.findByRole('button', { name: /Target: T7/ });
  if (tab) await user.click(screen.getByTestId(tab));
  return { user, view };
}
