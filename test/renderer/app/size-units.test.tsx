// One size unit per page: the sizes a page offers and the limits and reserves it states share one
// unit system — decimal (GB, MB), as Blackmagic, drive makers and the target's free space count —
// so no page names a test size in GB beside one in GiB. CrystalDiskMark's grid keeps its own MiB
// and GiB (its naming), transfer and file-block sizes (4 KiB, 1 MiB) are another kind of figure,
// and a size typed in MiB is answered in MiB. Every other Detailed panel offers and names its
// sizes in GB and MB, and a test run at them says them as chosen.
import { act, screen, within } from '@testing-library/react';
import type { ResultDocument } from '@model/result';
import shareJson from '../../fixtures/results/share.json';
import sweepJson from '../../fixtures/results/sweep.json';
import { JOB } from '../helpers/detailed-fixtures';
import { useTargetsStore } from '../../../renderer/src/lib/targets-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeBridge, shareTarget, target } from '../helpers/fake-bridge';
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
    const { user } = await renderApp(createFakeBridge().bridge, 'nav-detailed');
    expect(text(screen.getByTestId('cdm-panel'))).toMatch(/1 GiB/);
    expect(text(screen.getByTestId('sustained-fit'))).toBe(
      'Writes at most what is free and keeps 50 GB free so the system and other apps keep working (5 % of the volume, at least 537 MB).',
    );
    // Every other panel, with the choices that bring more sizes up (the sweep's "Over a size").
    await user.click(screen.getByTestId('sweep-by-volume'));
    const others = [...document.querySelectorAll<HTMLElement>('#screen-detailed section.detailed-panel')].filter(
      (p) => p.dataset.testid !== 'cdm-panel',
    );
    expect(others.map((p) => p.dataset.testid)).toEqual(expect.arrayContaining(['sweep-panel', 'share-panel', 'verify-panel']));
    expect(others.length).toBeGreaterThanOrEqual(7);
    for (const p of others) expect(testSizesInBinary(p), p.dataset.testid).toEqual([]);
    expect(text(screen.getByTestId('sweep-panel'))).toMatch(/1 GB.*4 GB.*10 GB/);
    expect(text(screen.getByTestId('share-panel'))).toMatch(/1 GB.*4 GB.*16 GB/);
  });

  it('Detailed: a sweep and a share test run at the sizes offered say them in GB, as chosen', async () => {
    const fake = createFakeBridge([target(), shareTarget()]);
    const { user } = await renderApp(fake.bridge, 'nav-detailed');
    act(() => useTargetsStore.getState().select('/mnt/nas'));
    // A sweep of 1 GB a step (its 64 MiB transfers moved 15 of them, 1.007 GB).
    const sweep = JSON.parse(JSON.stringify(sweepJson)) as ResultDocument;
    delete sweep.sweep!.stepSeconds;
    delete sweep.settings.seconds;
    sweep.sweep!.stepBytes = sweep.settings.size = 1e9;
    await user.click(screen.getByTestId('sweep-start'));
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: sweep }));
    const swept = await within(screen.getByTestId('sweep-panel')).findByTestId('sweep-result');
    expect(text(swept)).toContain('each step over 1 GB.');
    // A share test of the 1 GB large file: 952 MiB of whole 4 MiB reads, named as chosen.
    const share = JSON.parse(JSON.stringify(shareJson)) as ResultDocument;
    share.settings.size = 1e9;
    share.share!.diskFileBytes = 952 * 1024 ** 2;
    await user.click(screen.getByTestId('share-start'));
    act(() => fake.emitDetailedDone({ jobId: JOB, outcome: 'finished', result: share }));
    const shared = await within(screen.getByTestId('share-panel')).findByTestId('share-result');
    expect(text(shared)).toContain("1 GB written and read cold; 33.6 MB read twice from the server's memory;");
    for (const id of ['sweep-panel', 'share-panel']) expect(testSizesInBinary(screen.getByTestId(id)), id).toEqual([]);
  });
});

/** The sizes in binary units that are not a transfer or file-block size (a power of two up to
 *  64 MiB: the sweep's ladder, the small files' 4 KiB – 1 MiB): a test size in the wrong unit. */
function testSizesInBinary(el: Element): string[] {
  // Each text node apart: in textContent chips and cells run together ("1 GiB4 GiB", "19,3748 KiB").
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const nodes: string[] = [];
  while (walk.nextNode()) nodes.push(walk.currentNode.textContent ?? '');
  return [...nodes.join(' ').matchAll(/(\d[\d,.]*)\s?([KMGT])iB/g)]
    .filter(([, n = '', u = '']) => {
      const bytes = Number(n.replace(/,/g, '')) * 1024 ** ('KMGT'.indexOf(u) + 1);
      return !(Number.isInteger(Math.log2(bytes)) && bytes <= 64 * 1024 ** 2);
    })
    .map((m) => m[0]);
}
