// One size unit per page: the sizes a page offers and the limits and reserves it states share one
// unit system — decimal (GB, MB), as Blackmagic, drive makers and the target's free space count —
// so no page names a test size in GB beside one in GiB. CrystalDiskMark's grid keeps its own MiB
// and GiB (its naming), transfer and file-block sizes (4 KiB, 1 MiB) are another kind of figure,
// and a size typed in MiB is answered in MiB.
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge } from '../helpers/fake-bridge';
import { renderApp } from '../helpers/render-app';
import { resetStores } from '../helpers/reset-stores';
import { noResizeObserver, text } from '../helpers/dom';

noResizeObserver();

/** A size in binary units: "16 MiB", "1 GiB", "1.5 GiB". */
const BINARY = /\d\s?[KMGT]iB\b/;
const page = (id: string): string => document.getElementById(`screen-${id}`)!.textContent ?? '';

describe('one size unit per page', () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it('Quick Test: its 1–5 GB sizes, a custom size’s limits and the target in decimal units', async () => {
    const { user } = await renderApp(createFakeBridge().bridge);
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const input = screen.getByRole('textbox', { name: 'Custom stress size' });
    await user.type(input, '8 MB');
    expect(text(screen.getByRole('alert'))).toBe('Between 17 MB and 68 GB.');
    expect(page('quick')).toMatch(/5 GB/);
    expect(page('quick')).not.toMatch(BINARY);
    // A size typed in MiB is answered in MiB: the user's own unit.
    await user.clear(input);
    await user.type(input, '8 MiB');
    expect(text(screen.getByRole('alert'))).toBe('Between 16 MiB and 64 GiB.');
  });

  it('Compare setups: every test’s size offered in the units of the Quick Test beside it', async () => {
    const { user } = await renderApp(createFakeBridge().bridge, 'nav-campaign');
    await user.click(screen.getByTestId('campaign-kind-cdm'));
    const sizes = (id: string) =>
      within(screen.getByTestId(id))
        .getAllByRole('option')
        .map((o) => text(o));
    expect(sizes('campaign-size')).toEqual(['100 MB', '250 MB', '1 GB', '5 GB']);
    expect(sizes('campaign-size-quick')).toEqual(['size as below (1 GB)', '100 MB', '250 MB', '1 GB', '5 GB']);
    expect(sizes('campaign-size-cdm')).toEqual(['size as below (1 GB)', '100 MB', '250 MB', '1 GB', '5 GB']);
    expect(page('campaign')).not.toMatch(BINARY);
  });

  it('Detailed: MiB and GiB only on the CrystalDiskMark grid; the sized tests’ reserve in GB and MB', async () => {
    await renderApp(createFakeBridge().bridge, 'nav-detailed');
    expect(text(screen.getByTestId('cdm-panel'))).toMatch(/1 GiB/);
    expect(text(screen.getByTestId('sustained-fit'))).toBe(
      'Writes at most what is free and keeps 50 GB free so the system and other apps keep working (5 % of the volume, at least 537 MB).',
    );
    for (const id of ['sustained-panel', 'files-panel', 'verify-panel']) expect(text(screen.getByTestId(id)), id).not.toMatch(BINARY);
  });
});
