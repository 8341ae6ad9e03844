// Sharing: the share dialog (modal, focus in and back, Esc), its card from shareCard at twice the
// CSS size, Save PNG as base64 and Copy image; the test screens remembering where a finished
// result was saved and offering Share; and browser mode's bridge for the new verbs — history
// requests on the socket, saves as downloads, the page's clipboard.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResultDocument } from '@model/result';
import { useDetailedStore } from '../../../../renderer/src/features/detailed/store';
import { useHashStore } from '../../../../renderer/src/features/hash/store';
import { useQuickTestStore } from '../../../../renderer/src/features/quick-test/store';
import { copyImageInPage, copyTextInPage, createWsBridge } from '../../../../renderer/src/lib/ws-bridge';
import quickJson from '../../../fixtures/results/quick.json';
import { createFakeBridge, PNG_1X1, progress, resultDoc } from '../../helpers/fake-bridge';
import { resetStores } from '../../helpers/reset-stores';
import { renderApp as renderAppOn } from '../../helpers/render-app';
import { FakeSocket, openSocket } from '../../helpers/fake-socket';
import { noResizeObserver, text } from '../../helpers/dom';

noResizeObserver();

const clone = (x: unknown): ResultDocument => JSON.parse(JSON.stringify(x)) as ResultDocument;

async function renderApp(fake = createFakeBridge()) {
  const { user } = await renderAppOn(fake.bridge);
  return { fake, user };
}

beforeEach(resetStores);
afterEach(() => {
  resetStores();
  vi.unstubAllGlobals();
});

describe('Share dialog', () => {
  it('shows the card at CSS size; Save PNG saves base64; Copy image copies; Esc closes and focus returns', async () => {
    const fake = createFakeBridge();
    fake.history.add(clone(quickJson));
    const { user } = await renderApp(fake);
    await user.click(screen.getByTestId('nav-history'));
    const share = await screen.findByTestId('history-share');
    await user.click(share);

    const dialog = await screen.findByTestId('share-dialog');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).toBe('Share result');
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(fake.historyCalls.share).toEqual([{ id: quickJson.id, scale: 2 }]);

    const img = (await within(dialog).findByTestId('share-image')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${PNG_1X1}`);
    expect(img.getAttribute('width')).toBe('600');
    expect(img.alt).toBe('Result card: Boot disk');

    await user.click(within(dialog).getByTestId('share-save'));
    expect(fake.historyCalls.save).toEqual([
      { filename: 'diskdial-quick-2026-11-22.png', data: PNG_1X1, encoding: 'base64', mime: 'image/png' },
    ]);
    expect(await within(dialog).findByText('Saved /home/ana/Downloads/diskdial-quick-2026-11-22.png')).toBeTruthy();

    await user.click(within(dialog).getByTestId('share-copy'));
    expect(fake.historyCalls.copyImage).toEqual([PNG_1X1]);
    expect(await within(dialog).findByText('Copied the image')).toBeTruthy();

    await user.click(within(dialog).getByTestId('share-copy-md'));
    expect(await within(dialog).findByText('Copied Markdown')).toBeTruthy();

    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('share-dialog')).toBeNull();
    expect(document.activeElement).toBe(share);
  });

  it('says plainly when the card cannot be drawn, and a refused clipboard', async () => {
    const fake = createFakeBridge();
    fake.history.add(clone(quickJson));
    fake.bridge.copyImage = () =>
      Promise.resolve({
        ok: false,
        error: { code: 'ERR_CLIPBOARD', message: 'This browser cannot copy images to the clipboard here. Use Save PNG instead.' },
      });
    const { user } = await renderApp(fake);
    await user.click(screen.getByTestId('nav-history'));
    await user.click(await screen.findByTestId('history-share'));
    const dialog = await screen.findByTestId('share-dialog');
    await within(dialog).findByTestId('share-image');
    await user.click(within(dialog).getByTestId('share-copy'));
    expect(await within(dialog).findByText(/cannot copy images/)).toBeTruthy();
    await user.click(within(dialog).getByText('Close'));
    expect(screen.queryByTestId('share-dialog')).toBeNull();

    fake.bridge.shareCard = () =>
      Promise.resolve({ ok: false, error: { code: 'ERR_CARD', message: 'Could not draw the card: no fonts.' } });
    await user.click(screen.getByTestId('history-share'));
    const again = await screen.findByTestId('share-dialog');
    expect(await within(again).findByText('Could not draw the card: no fonts.')).toBeTruthy();
    expect((within(again).getByTestId('share-save') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Saved to History on the test screens', () => {
  it('the quick store records saved.id from quick.done; the screen offers Share', async () => {
    const { fake, user } = await renderApp();
    fake.history.add(clone(quickJson));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => {
      fake.emitProgress(progress());
      fake.emitCycle({ jobId: 'job-1', cycle: 1, result: resultDoc(900, 1000) });
      fake.emitDone({ jobId: 'job-1', outcome: 'finished', result: resultDoc(900, 1000), saved: { id: quickJson.id } });
    });
    expect(useQuickTestStore.getState().saved).toEqual({ id: quickJson.id });
    const note = screen.getByTestId('saved-note');
    expect(text(note)).toContain('Saved to History');
    await user.click(within(note).getByTestId('saved-note-share'));
    expect(await screen.findByTestId('share-dialog')).toBeTruthy();
    expect(fake.historyCalls.share).toEqual([{ id: quickJson.id, scale: 2 }]);

    // A new run forgets it.
    await user.click(screen.getByText('Close'));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(useQuickTestStore.getState().saved).toBeNull();
  });

  it('a result that could not be saved says why, quietly', async () => {
    const { fake, user } = await renderApp();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    act(() => {
      fake.emitDone({
        jobId: 'job-1',
        outcome: 'finished',
        result: resultDoc(900, 1000),
        saved: { error: { code: 'ENOSPC', message: 'The disk holding your results is full.' } },
      });
    });
    expect(text(screen.getByTestId('saved-note'))).toBe('Not saved to History: The disk holding your results is full.');
  });

  it('the detailed and hash stores keep the saved note of a finished document', () => {
    const d = useDetailedStore.getState();
    useDetailedStore.setState({
      status: 'running',
      job: { kind: 'cdm', settings: {} as never, jobId: 'd1', plan: null, progress: null, steps: [], live: [], outcome: null },
    });
    d.onDone({ jobId: 'd1', outcome: 'finished', result: clone(quickJson), saved: { id: 'abc' } });
    expect(useDetailedStore.getState().saved.cdm).toEqual({ id: 'abc' });

    useHashStore.setState({ status: 'running', job: { settings: {} as never, jobId: 'h1', progress: null, stages: [], outcome: null } });
    useHashStore.getState().onDone({ jobId: 'h1', outcome: 'finished', result: clone(quickJson), saved: { id: 'def' } });
    expect(useHashStore.getState().saved).toEqual({ id: 'def' });
  });
});

describe('browser mode bridge: history verbs', () => {
  it('sends history and share requests on the socket with the contract’s payloads', () => {
    const bridge = createWsBridge('ws://x/ws', () => openSocket());
    const sock = FakeSocket.last;
    void bridge.listHistory();
    void bridge.getResult('a');
    void bridge.labelResult('a', 'Hub');
    void bridge.deleteResults(['a', 'b']);
    void bridge.importResult('{}', 'x.json');
    void bridge.exportResults(['a', 'b'], 'md', 'b');
    void bridge.exportResults(['a'], 'csv');
    void bridge.shareCard('a', 2);
    expect(sock.sent.map((m) => [m.channel, m.payload])).toEqual([
      ['history.list', {}],
      ['history.get', { id: 'a' }],
      ['history.label', { id: 'a', label: 'Hub' }],
      ['history.delete', { ids: ['a', 'b'] }],
      ['history.import', { json: '{}', name: 'x.json' }],
      ['history.export', { ids: ['a', 'b'], format: 'md', baseline: 'b' }],
      ['history.export', { ids: ['a'], format: 'csv' }],
      ['share.card', { id: 'a', scale: 2 }],
    ]);
  });

  it('saveFile downloads in the page (base64 decoded) and answers with the file name', async () => {
    const bridge = createWsBridge('ws://x/ws', () => openSocket());
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), 'blob:1'), revokeObjectURL: () => {} }));
    const clicks: Array<{ download: string; href: string }> = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ download: this.download, href: this.href });
    });
    const r = await bridge.saveFile('card.png', PNG_1X1, 'base64', 'image/png');
    expect(r).toEqual({ ok: true, value: { path: 'card.png' } });
    expect(clicks).toEqual([{ download: 'card.png', href: 'blob:1' }]);
    expect(blobs[0]!.type).toBe('image/png');
    expect(blobs[0]!.size).toBe(atob(PNG_1X1).length);
    expect(FakeSocket.last.sent).toEqual([]);
    click.mockRestore();
  });

  it('the clipboard: text and images through navigator.clipboard, a refusal as ERR_CLIPBOARD', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    const write = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { clipboard: { writeText, write } });
    vi.stubGlobal(
      'ClipboardItem',
      class {
        constructor(public items: Record<string, Blob>) {}
      },
    );
    expect(await copyTextInPage('| a |')).toEqual({ ok: true, value: { written: true } });
    expect(writeText).toHaveBeenCalledWith('| a |');
    expect(await copyImageInPage(PNG_1X1)).toEqual({ ok: true, value: { written: true } });
    expect(write).toHaveBeenCalledTimes(1);

    vi.stubGlobal('navigator', { clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    vi.stubGlobal('ClipboardItem', undefined);
    const t = await copyTextInPage('x');
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.error.code).toBe('ERR_CLIPBOARD');
    const i = await copyImageInPage(PNG_1X1);
    expect(i.ok).toBe(false);
    if (!i.ok) expect(i.error).toMatchObject({ code: 'ERR_CLIPBOARD', message: expect.stringContaining('Save PNG') });
  });
});
