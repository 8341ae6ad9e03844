// lifecycle.ts: single instance, quitting, closing the core before quit, the folder picker —
// with `electron` replaced by test/helpers/electron-fake.ts.
import type { App, BrowserWindow } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  app,
  clipboard,
  ClipboardItem,
  dialog,
  FakeBrowserWindow,
  fakeEvent,
  nativeImage,
  resetElectronFake,
} from '../../helpers/electron-fake.js';

vi.mock('electron', () => import('../../helpers/electron-fake.js'));

const {
  clipboardWriter,
  closeBeforeQuit,
  fileChooser,
  fileSaver,
  folderChooser,
  pdfSaver,
  quitWhenAllWindowsClosed,
  takeSingleInstanceLock,
} = await import('../../../app/src/main/lifecycle.js');

const theApp = app as unknown as App;

beforeEach(() => resetElectronFake());

describe('single instance', () => {
  it('a second instance gets no lock', () => {
    app.lock = false;
    expect(takeSingleInstanceLock(theApp, () => undefined)).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });

  it('the first instance brings its window forward when a second one starts', () => {
    const win = new FakeBrowserWindow({});
    win.minimized = true;
    expect(takeSingleInstanceLock(theApp, () => win as unknown as BrowserWindow)).toBe(true);
    app.emit('second-instance', fakeEvent(), ['diskdial'], '/');
    expect(win.minimized).toBe(false);
    expect(win.focused).toBe(true);
  });
});

describe('window-all-closed', () => {
  it('quits on Linux and Windows', () => {
    for (const platform of ['linux', 'win32'] as const) {
      resetElectronFake();
      quitWhenAllWindowsClosed(theApp, platform);
      app.emit('window-all-closed');
      expect(app.quitCalls, platform).toBe(1);
    }
  });

  it('stays open on macOS', () => {
    quitWhenAllWindowsClosed(theApp, 'darwin');
    app.emit('window-all-closed');
    expect(app.quitCalls).toBe(0);
  });
});

describe('closeBeforeQuit', () => {
  it('holds the first quit, closes, then quits for real — once', async () => {
    const order: string[] = [];
    let finish!: () => void;
    const close = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          order.push('close started');
          finish = () => {
            order.push('close finished');
            resolve();
          };
        }),
    );
    closeBeforeQuit(theApp, close);
    const first = fakeEvent();
    app.emit('before-quit', first);
    expect(first.defaultPrevented).toBe(true);
    // A second quit while closing is held too, and does not close twice.
    const second = fakeEvent();
    app.emit('before-quit', second);
    expect(second.defaultPrevented).toBe(true);
    expect(close).toHaveBeenCalledTimes(1);
    expect(app.quitCalls).toBe(0);

    finish();
    await vi.waitFor(() => expect(app.quitCalls).toBe(1));
    expect(order).toEqual(['close started', 'close finished']);
    // The quit it issued went through.
    const last = fakeEvent();
    app.emit('before-quit', last);
    expect(last.defaultPrevented).toBe(false);
  });

  it('quits anyway when closing fails or hangs', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    closeBeforeQuit(theApp, () => Promise.reject(new Error('stuck')));
    app.emit('before-quit', fakeEvent());
    await vi.waitFor(() => expect(app.quitCalls).toBe(1));
    err.mockRestore();

    resetElectronFake();
    closeBeforeQuit(theApp, () => new Promise<void>(() => {}), 20);
    app.emit('before-quit', fakeEvent());
    await vi.waitFor(() => expect(app.quitCalls).toBe(1));
  });
});

describe('fileChooser', () => {
  it('opens a one-file picker attached to the window; null when cancelled', async () => {
    const win = new FakeBrowserWindow({});
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: ['/Volumes/T7/clip.mov'] });
    await expect(fileChooser(dialog as never, () => win as unknown as BrowserWindow)()).resolves.toBe('/Volumes/T7/clip.mov');
    const [parent, options] = dialog.showOpenDialog.mock.calls.at(-1)!;
    expect(parent).toBe(win);
    expect(options).toMatchObject({ properties: ['openFile'] });
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    await expect(fileChooser(dialog as never, () => undefined)()).resolves.toBeNull();
  });
});

describe('fileSaver', () => {
  it('suggests the name in Downloads with a filter for its type, writes the bytes where the user chose; null when cancelled', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-save-'));
    try {
      const win = new FakeBrowserWindow({});
      const chosen = path.join(dir, 'my card.png');
      dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: chosen });
      const save = fileSaver(
        dialog as never,
        () => win as unknown as BrowserWindow,
        () => '/home/u/Downloads',
      );
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      await expect(save('diskdial-quick-2026-11-22.png', png)).resolves.toBe(chosen);
      expect(await fsp.readFile(chosen)).toEqual(png);
      const [parent, options] = dialog.showSaveDialog.mock.calls.at(-1)!;
      expect(parent).toBe(win);
      expect(options).toMatchObject({
        defaultPath: '/home/u/Downloads/diskdial-quick-2026-11-22.png',
        filters: [{ name: 'PNG image', extensions: ['png'] }],
      });
      dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true });
      await expect(save('a.md', Buffer.from('x'))).resolves.toBeNull();
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('clipboardWriter', () => {
  it('writes text as text and a PNG as one image/png item; bytes that are not an image are refused', async () => {
    const write = clipboardWriter(clipboard as never, nativeImage as never, ClipboardItem as never);
    await write({ text: '| Test | MB/s |' });
    expect(clipboard.writeText).toHaveBeenCalledWith('| Test | MB/s |');
    const png = Buffer.from('\x89PNG\r\n\x1a\n', 'latin1');
    await write({ png });
    expect(nativeImage.createFromBuffer).toHaveBeenCalledWith(png);
    expect(clipboard.write).toHaveBeenCalledTimes(1);
    const [items] = clipboard.write.mock.calls[0]!;
    expect(items).toHaveLength(1);
    expect(items[0]!.types).toEqual(['image/png']);
    const blob = items[0]!.items['image/png']!;
    expect(blob.type).toBe('image/png');
    expect(Buffer.from(await blob.arrayBuffer())).toEqual(png);
    await expect(write({ png: Buffer.from('nope') })).rejects.toThrow('The image could not be read.');
    expect(clipboard.write).toHaveBeenCalledTimes(1);
  });
});

describe('pdfSaver', () => {
  it('prints the report HTML in a hidden window as a data: URL, saves the PDF through the dialog, and always closes the window', async () => {
    const loaded: string[] = [];
    let destroyed = 0;
    const pdf = Buffer.from('%PDF-1.7 report');
    const win = {
      loadURL: async (url: string) => void loaded.push(url),
      webContents: { printToPDF: vi.fn(async () => pdf) },
      destroy: () => void destroyed++,
    };
    const saved: Array<[string, Buffer]> = [];
    const save = pdfSaver(
      () => win,
      async (name, data) => (saved.push([name, data]), `/home/u/Downloads/${name}`),
    );
    await expect(save('<h1>ext4 vs XFS</h1><p>a & b</p>', 'diskdial-report-2026-11-22.pdf')).resolves.toBe(
      '/home/u/Downloads/diskdial-report-2026-11-22.pdf',
    );
    expect(loaded).toEqual([`data:text/html;charset=utf-8,${encodeURIComponent('<h1>ext4 vs XFS</h1><p>a & b</p>')}`]);
    expect(win.webContents.printToPDF).toHaveBeenCalledWith({ printBackground: true, pageSize: 'A4' });
    expect(saved).toEqual([['diskdial-report-2026-11-22.pdf', pdf]]);
    expect(destroyed).toBe(1);
    // A print that fails still closes the window, and nothing is saved.
    win.webContents.printToPDF.mockRejectedValueOnce(new Error('print failed'));
    await expect(save('<p>x</p>', 'x.pdf')).rejects.toThrow('print failed');
    expect(destroyed).toBe(2);
    expect(saved).toHaveLength(1);
  });
});

describe('folderChooser', () => {
  it('opens a folder picker attached to the window and returns the chosen folder', async () => {
    const win = new FakeBrowserWindow({});
    dialog.showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/Volumes/T7'] });
    const choose = folderChooser(dialog as never, () => win as unknown as BrowserWindow);
    await expect(choose()).resolves.toBe('/Volumes/T7');
    const [parent, options] = dialog.showOpenDialog.mock.calls[0]!;
    expect(parent).toBe(win);
    expect(options).toMatchObject({ properties: ['openDirectory', 'createDirectory'] });
  });

  it('returns null when the user cancels, and works without a window', async () => {
    const choose = folderChooser(dialog as never, () => undefined);
    await expect(choose()).resolves.toBeNull();
    expect(dialog.showOpenDialog.mock.calls[0]![0]).toMatchObject({ properties: ['openDirectory', 'createDirectory'] });
  });
});
