// The History list against the fake bridge's saved results (the engine's real documents from
// test/fixtures/results, and a copy made on another drive): rows and their figures, the drive
// and kind filters, renaming in place, delete with its confirm step, import of a JSON file, the
// unreadable files' notice and the empty state.
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResultDocument } from '@model/result';
import cdmJson from '../../../fixtures/results/cdm.json';
import hashJson from '../../../fixtures/results/hash.json';
import quickJson from '../../../fixtures/results/quick.json';
import sustainedJson from '../../../fixtures/results/sustained.json';
import { createFakeBridge } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { renderApp } from '../../helpers/render-app';
import { noResizeObserver, text } from '../../helpers/dom';

noResizeObserver();

const clone = (x: unknown): ResultDocument => JSON.parse(JSON.stringify(x)) as ResultDocument;

/** The quick fixture measured again on a Samsung T7 over USB, through the page cache. */
function t7Doc(): ResultDocument {
  const doc = clone(quickJson);
  doc.id = 'quick-t7';
  doc.label = 'Through the hub';
  doc.startedAt = '2026-11-22T10:00:00.000Z';
  doc.cacheMode = 'buffered';
  doc.target = {
    ...doc.target,
    path: '/media/t7',
    volume: 'T7',
    fs: 'exfat',
    totalBytes: 1e12,
    device: { model: 'Samsung PSSD T7', serial: 'S6XNNS0T', bus: 'usb', link: 'USB 3.2 Gen 2 (10 Gb/s)' },
  };
  doc.flags = [{ code: 'cached', message: 'Measured through the page cache.', fix: 'Run again.', severity: 'warning' }];
  return doc;
}

async function renderHistory(fake = createFakeBridge()) {
  const { user } = await renderApp(fake.bridge, 'nav-history');
  return { fake, user };
}

const disabled = (el: Element): boolean => (el as HTMLButtonElement).disabled;
const rows = () => screen.queryAllByTestId('history-row');
const rowOf = (id: string) => rows().find((r) => r.dataset.id === id)!;

function seeded() {
  const fake = createFakeBridge();
  fake.history.add(t7Doc(), clone(quickJson), clone(hashJson), clone(sustainedJson), clone(cdmJson));
  return fake;
}

beforeEach(resetStores);
afterEach(resetStores);

describe('History list', () => {
  it('has its own tab, the last (after Compare setups), reached with End; it locks nothing', async () => {
    const { user } = await renderHistory(seeded());
    const tab = screen.getByTestId('nav-history');
    expect(text(tab)).toBe('History');
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(text(screen.getByTestId('brand-tag'))).toBe('History');
    await user.click(screen.getByTestId('nav-quick'));
    screen.getByTestId('nav-quick').focus();
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(tab);
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('nav-campaign').getAttribute('aria-selected')).toBe('true');
  });

  it('lists every saved result with its name, title, drive, headline figures and badges', async () => {
    await renderHistory(seeded());
    await screen.findAllByTestId('history-row');
    expect(rows().map((r) => r.dataset.id)).toEqual(['quick-t7', quickJson.id, hashJson.id, sustainedJson.id, cdmJson.id]);
    const t7 = rowOf('quick-t7');
    expect(text(t7)).toContain('Through the hub');
    expect(text(t7)).toContain('Quick Test · 1 GiB · 3 runs');
    expect(text(t7)).toContain('Samsung PSSD T7 · USB 3.2 Gen 2 (10 Gb/s) · exfat · 1 TB');
    expect(text(t7)).toContain('Write 1,769 MB/s · Read 1,450 MB/s');
    expect(within(t7).getByText('buffered')).toBeTruthy();
    expect(within(t7).getByText(/1 warning/)).toBeTruthy();
    // The uncached result on the boot disk has no badges.
    expect(within(rowOf(quickJson.id)).queryByText(/warning|buffered|imported/)).toBeNull();
    expect(screen.getByText('/home/ana/.local/share/diskdial/results')).toBeTruthy();
  });

  it('names a size as it was chosen: a 20 MB Quick Test (run as 19 MiB) is "20 MB", one of 19 MiB "19 MiB"', async () => {
    // settings.size keeps the size asked; the 19 MiB the engine ran is in each test's spec.
    const asked = (id: string, size: number) => {
      const doc = clone(quickJson);
      doc.id = id;
      delete doc.label;
      doc.settings = { ...doc.settings, size, runs: 1 };
      return doc;
    };
    const fake = createFakeBridge();
    fake.history.add(asked('quick-20mb', 20e6));
    fake.history.add(asked('quick-19mib', 19 * 1024 ** 2));
    await renderHistory(fake);
    await screen.findAllByTestId('history-row');
    const row = rowOf('quick-20mb');
    expect(text(row)).toContain('Quick Test · 20 MB');
    expect(text(row)).toMatch(/ · 20 MB/);
    expect(text(row)).not.toContain('MiB');
    // Never a guess at the round decimal size 19 MiB might have been aligned down from.
    expect(text(rowOf('quick-19mib'))).toContain('Quick Test · 19 MiB');
    expect(text(rowOf('quick-19mib'))).not.toContain('20 MB');
  });

  it('filters by drive and by kind', async () => {
    const { user } = await renderHistory(seeded());
    await screen.findAllByTestId('history-row');
    const drive = screen.getByTestId('history-filter-drive') as HTMLSelectElement;
    expect([...drive.options].map((o) => o.textContent)).toEqual([
      'All drives',
      'Samsung PSSD T7 · USB 3.2 Gen 2 (10 Gb/s) · exfat · 1 TB',
      expect.stringContaining('virtio'),
    ]);
    await user.selectOptions(drive, 'S6XNNS0T');
    expect(rows().map((r) => r.dataset.id)).toEqual(['quick-t7']);
    expect(screen.getByText('Showing 1 of 5 results')).toBeTruthy();

    await user.selectOptions(drive, '');
    const kind = screen.getByTestId('history-filter-kind') as HTMLSelectElement;
    expect([...kind.options].map((o) => o.textContent)).toEqual([
      'All tests',
      'Quick Test',
      'CrystalDiskMark grid',
      'Sustained write',
      'Many-file test',
      'Video playback (paced)',
      'Transfer-size sweep',
      'Small-file test',
      'Verify capacity',
      'Share limits',
      'Hash test',
      'Folder check',
    ]);
    await user.selectOptions(kind, 'quick');
    expect(rows().map((r) => r.dataset.id)).toEqual(['quick-t7', quickJson.id]);
    await user.selectOptions(drive, 'overlayblk');
    expect(rows().map((r) => r.dataset.id)).toEqual([quickJson.id]);
    await user.selectOptions(kind, 'files');
    expect(rows()).toHaveLength(0);
    expect(screen.getByText('No saved results match these filters.')).toBeTruthy();
  });

  it('renames a result in place: Enter saves through labelResult, Esc leaves it', async () => {
    const { user, fake } = await renderHistory(seeded());
    await screen.findAllByTestId('history-row');
    const row = rowOf(sustainedJson.id);
    await user.click(within(row).getByTestId('label-edit'));
    const input = within(rowOf(sustainedJson.id)).getByTestId('label-input');
    expect(document.activeElement).toBe(input);
    await user.type(input, 'Direct to the port{Escape}');
    expect(fake.historyCalls.label).toEqual([]);
    expect(within(rowOf(sustainedJson.id)).queryByTestId('label-input')).toBeNull();
    expect(document.activeElement).toBe(within(rowOf(sustainedJson.id)).getByTestId('label-edit'));

    await user.click(within(rowOf(sustainedJson.id)).getByTestId('label-edit'));
    await user.type(within(rowOf(sustainedJson.id)).getByTestId('label-input'), 'Direct to the port{Enter}');
    expect(fake.historyCalls.label).toEqual([{ id: sustainedJson.id, label: 'Direct to the port' }]);
    expect(await within(rowOf(sustainedJson.id)).findByText('Direct to the port')).toBeTruthy();
    expect(within(rowOf(sustainedJson.id)).queryByTestId('label-input')).toBeNull();
  });

  it('a refused label keeps the field open and says why', async () => {
    const fake = seeded();
    fake.bridge.labelResult = () => Promise.resolve({ ok: false, error: { code: 'EACCES', message: 'The results folder is read-only.' } });
    const { user } = await renderHistory(fake);
    await screen.findAllByTestId('history-row');
    await user.click(within(rowOf(cdmJson.id)).getByTestId('label-edit'));
    await user.type(within(rowOf(cdmJson.id)).getByTestId('label-input'), 'x{Enter}');
    expect(await screen.findByText('The results folder is read-only.')).toBeTruthy();
    expect(within(rowOf(cdmJson.id)).getByTestId('label-input')).toBeTruthy();
  });

  it('deletes the ticked results only after the in-place confirm', async () => {
    const { user, fake } = await renderHistory(seeded());
    await screen.findAllByTestId('history-row');
    const del = screen.getByTestId('history-delete');
    const compare = screen.getByTestId('history-compare');
    expect(disabled(del)).toBe(true);
    expect(disabled(compare)).toBe(true);
    await user.click(within(rowOf(hashJson.id)).getByTestId('history-select'));
    expect(text(del)).toContain('Delete (1)');
    expect(disabled(compare)).toBe(true);
    await user.click(within(rowOf(cdmJson.id)).getByTestId('history-select'));
    expect(disabled(compare)).toBe(false);
    expect(text(compare)).toContain('Compare results (2)');

    // Cancel first: nothing is deleted.
    await user.click(del);
    expect(screen.getByText(/Delete 2 results\?/)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByTestId('history-delete-confirm'));
    await user.click(screen.getByTestId('history-delete-cancel'));
    expect(fake.historyCalls.delete).toEqual([]);
    expect(rows()).toHaveLength(5);

    await user.click(del);
    await user.click(screen.getByTestId('history-delete-confirm'));
    expect(fake.historyCalls.delete).toEqual([[hashJson.id, cdmJson.id]]);
    expect(await screen.findByText('Deleted 2 results')).toBeTruthy();
    expect(rows().map((r) => r.dataset.id)).toEqual(['quick-t7', quickJson.id, sustainedJson.id]);
    expect(text(screen.getByTestId('history-delete'))).toContain('Delete (0)');
  });

  it('imports a JSON file: reads it, calls importResult with its name, lists it as imported', async () => {
    const { user, fake } = await renderHistory(seeded());
    await screen.findAllByTestId('history-row');
    const doc = clone(quickJson);
    doc.id = 'from-colleague';
    doc.label = 'Ana’s T9';
    const text = JSON.stringify(doc);
    const input = screen.getByTestId('history-import-input') as HTMLInputElement;
    expect(input.accept).toBe('.json,application/json');
    await user.upload(input, new File([text], 'ana-t9.json', { type: 'application/json' }));
    expect(await screen.findByText('Imported Ana’s T9')).toBeTruthy();
    expect(fake.historyCalls.import).toEqual([{ json: text, name: 'ana-t9.json' }]);
    const row = await screen.findByText('Ana’s T9', { selector: '.history-name' });
    expect(within(row.closest('tr')!).getByText('imported')).toBeTruthy();

    // The same file again: a duplicate.
    await user.upload(input, new File([text], 'ana-t9.json', { type: 'application/json' }));
    expect(await screen.findByText('Already in history')).toBeTruthy();

    // Not a result: the core's words.
    fake.bridge.importResult = () =>
      Promise.resolve({ ok: false, error: { code: 'ERR_INVALID_RESULT', message: 'notes.txt is not a DiskDial result.' } });
    await user.upload(input, new File(['hello'], 'notes.json', { type: 'application/json' }));
    expect(await screen.findByText('notes.txt is not a DiskDial result.')).toBeTruthy();
  });

  it('shows the files that could not be read, with each reason', async () => {
    const fake = seeded();
    fake.history.skipped.push(
      { file: 'broken.json', reason: 'Not JSON.' },
      { file: 'future.json', reason: 'Made by a newer DiskDial (schema 2).' },
    );
    const { user } = await renderHistory(fake);
    const notice = await screen.findByTestId('history-skipped');
    expect(text(notice)).toContain('2 files in /home/ana/.local/share/diskdial/results could not be read');
    await user.click(within(notice).getByText(/could not be read/));
    expect(within(notice).getByText(/Made by a newer DiskDial/)).toBeTruthy();
  });

  it('says what History is for when nothing is saved yet, and reloads each time it is shown', async () => {
    const fake = createFakeBridge();
    const { user } = await renderHistory(fake);
    expect(text(await screen.findByTestId('history-empty'))).toContain('No saved results yet. Every finished test is saved here.');
    const before = fake.historyCalls.list;
    fake.history.add(clone(quickJson));
    await user.click(screen.getByTestId('nav-quick'));
    await user.click(screen.getByTestId('nav-history'));
    await screen.findAllByTestId('history-row');
    expect(fake.historyCalls.list).toBe(before + 1);
  });
});
