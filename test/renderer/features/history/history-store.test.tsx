// The History store when answers cross: a listing asked for earlier must never replace what a
// later listing, a rename or a delete has already shown (the list would go back in time).
import { beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import type { IpcResult } from '@ipc/contract';
import { useHistoryStore } from '../../../../renderer/src/features/history/store';
import { setBridgeForTests } from '../../../../renderer/src/lib/bridge';
import quickJson from '../../../fixtures/results/quick.json';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import type { HistoryListing } from '@model/history';

beforeEach(resetStores);

const quick = (over: Partial<ResultDocument>): ResultDocument => ({
  ...(JSON.parse(JSON.stringify(quickJson)) as ResultDocument),
  ...over,
});

/** A fake bridge whose listHistory answers only when the test says, in any order. */
function heldListings() {
  const fake = createFakeBridge();
  fake.history.add(quick({ id: 'a', label: 'Old name' }), quick({ id: 'b', label: 'Other' }));
  const held: Array<(now: HistoryListing) => void> = [];
  fake.bridge.listHistory = () =>
    new Promise<IpcResult<HistoryListing>>((resolve) => held.push((listing) => resolve({ ok: true, value: listing })));
  setBridgeForTests(fake.bridge);
  const listing = (): HistoryListing => ({
    dir: fake.history.dir,
    entries: [...fake.history.entries],
    total: fake.history.entries.length,
    offset: 0,
    drives: [],
    skipped: [],
  });
  return { fake, held, listing };
}

const names = (): string[] => useHistoryStore.getState().listing!.entries.map((e) => e.label ?? '');

describe('history store, answers out of order', () => {
  it('an older listing answering last does not replace a newer one', async () => {
    const { fake, held, listing } = heldListings();
    const first = useHistoryStore.getState().load();
    const before = listing(); // what the first request saw: both results
    fake.history.entries = fake.history.entries.filter((e) => e.id !== 'b'); // deleted elsewhere
    const second = useHistoryStore.getState().load();
    held[1]!(listing());
    await second;
    held[0]!(before);
    await first;
    expect(names()).toEqual(['Old name']);
    expect(useHistoryStore.getState().loading).toBe(false);
  });

  it('a listing asked for before a rename does not bring the old name back', async () => {
    const { held, listing } = heldListings();
    const shown = useHistoryStore.getState().load();
    held[0]!(listing());
    await shown;
    const stale = useHistoryStore.getState().load(); // e.g. the screen shown again
    const before = listing();
    expect(await useHistoryStore.getState().label('a', 'Through the hub')).toBe(true);
    held[1]!(before);
    await stale;
    expect(names()).toContain('Through the hub');
    expect(names()).not.toContain('Old name');
    expect(useHistoryStore.getState().loading).toBe(false);
  });
});
