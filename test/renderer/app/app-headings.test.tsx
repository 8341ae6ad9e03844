// The headings a screen reader navigates by: one h1 per screen, and a heading for the dial area.
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge } from '../helpers/fake-bridge';
import { renderApp } from '../helpers/render-app';
import { resetStores } from '../helpers/reset-stores';
import { noResizeObserver } from '../helpers/dom';

noResizeObserver();

describe('headings', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('every screen has exactly one h1; the Quick Test dials sit under a heading', async () => {
    await renderApp(createFakeBridge().bridge);
    for (const [id, name] of [
      ['quick', 'Quick Test'],
      ['detailed', 'Detailed'],
      ['hash', 'Hash'],
      ['wizard', 'Format & compare'],
      ['campaign', 'Compare setups'],
      ['history', 'History'],
    ] as const) {
      const panel = document.getElementById(`screen-${id}`)!;
      const h1s = panel.querySelectorAll('h1');
      expect(h1s).toHaveLength(1);
      expect(h1s[0]!.textContent).toBe(`DiskDial · ${name}`);
    }
    const dials = screen.getByRole('region', { name: 'Write and read speed' });
    expect(within(dials).getByRole('heading', { level: 2, name: 'Write and read speed' })).toBeTruthy();
    expect(within(dials).getByTestId('dial-write')).toBeTruthy();
  });
});
