// The Quick Test's stress-size and mode chips are radio groups: one Tab stop each (the checked
// chip), and the arrow keys move the choice, as native radios do.
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { renderApp } from '../../helpers/render-app';
import { resetStores } from '../../helpers/reset-stores';
import { noResizeObserver } from '../../helpers/dom';

noResizeObserver();

describe('Quick Test setting chips', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('one Tab stop per group; arrows, Home and End change the choice and move the focus', async () => {
    const { user } = await renderApp(createFakeBridge().bridge);
    const sizes = screen.getAllByRole('radio').filter((r) => r.closest('[aria-label="Stress size"]'));
    expect(sizes.map((r) => r.tabIndex)).toEqual([0, -1, -1, -1, -1]); // 1 GB is checked
    sizes[0]!.focus();
    await user.keyboard('{ArrowRight}');
    expect(useQuickTestStore.getState().sizeBytes).toBe(2e9);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: '2 GB' }));
    expect(screen.getByRole('radio', { name: '2 GB' }).tabIndex).toBe(0);
    expect(screen.getByRole('radio', { name: '1 GB' }).tabIndex).toBe(-1);
    await user.keyboard('{End}');
    expect(screen.getByRole('radio', { name: 'Custom' }).getAttribute('aria-checked')).toBe('true');
    await user.keyboard('{Home}');
    expect(useQuickTestStore.getState().sizeBytes).toBe(1e9);
    // Tab leaves the group in one step, to the mode group's checked radio.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Runs' }));
    await user.keyboard('{ArrowLeft}');
    expect(useQuickTestStore.getState().mode).toBe('continuous');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Continuous' }));
  });
});
