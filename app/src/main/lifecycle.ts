// App lifetime rules that main.ts wires up, kept here so they can be tested with `electron` mocked:
// one instance at a time, quit when the last window closes (except on macOS, where apps stay in
// the Dock), and stop running tests (their files removed) before the process exits; and the OS
// dialogs and clipboard behind the requests that need them.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { App, BrowserWindow, Clipboard, ClipboardItem, Dialog, NativeImage, OpenDialogOptions, SaveDialogOptions } from 'electron';

/**
 * Takes the single-instance lock. A second launch hands over to the first, which brings its
 * window forward; two instances would race on the one engine and on test folders.
 * Returns false when another instance holds the lock (the caller quits).
 */
export function takeSingleInstanceLock(app: App, focusWindow: () => BrowserWindow | undefined): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => {
    const win = focusWindow();
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  return true;
}

export function quitWhenAllWindowsClosed(app: App, platform: NodeJS.Platform = process.platform): void {
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });
}

/** How long quitting waits for running tests to stop and clean up before giving up. */
export const CLOSE_TIMEOUT_MS = 5000;

/**
 * Runs `close` (dispatcher and engine host) once before the app quits. `before-quit` cannot wait
 * for a promise, so the first quit is held back, `close` runs, and the quit is issued again.
 * A close that hangs does not keep the app open forever.
 */
export function closeBeforeQuit(app: App, close: () => Promise<void>, timeoutMs = CLOSE_TIMEOUT_MS): void {
  let state: 'running' | 'closing' | 'closed' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    Promise.race([close().catch((err: unknown) => console.error('diskdial: error while closing:', err)), timeout])
      .finally(() => {
        clearTimeout(timer);
        state = 'closed';
        app.quit();
      })
      .catch(() => undefined);
  });
}

/** The OS file picker for the hash test: one existing file (read-only use). */
export function fileChooser(dialog: Pick<Dialog, 'showOpenDialog'>, parent: () => BrowserWindow | undefined): () => Promise<string | null> {
  return async () => {
    const options: OpenDialogOptions = { title: 'Choose a file to hash', properties: ['openFile'] };
    const win = parent();
    const picked = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    if (picked.canceled) return null;
    return picked.filePaths[0] ?? null;
  };
}

/**
 * The OS folder picker behind the `targets.choose` request (the dispatcher describes the folder).
 * Returns null when the user cancels.
 */
export function folderChooser(
  dialog: Pick<Dialog, 'showOpenDialog'>,
  parent: () => BrowserWindow | undefined,
): () => Promise<string | null> {
  return async () => {
    // createDirectory: macOS shows "New Folder", so a user can make a test folder on the spot.
    const options: OpenDialogOptions = {
      title: 'Choose a folder to test',
      properties: ['openDirectory', 'createDirectory'],
    };
    const win = parent();
    // Attached to the window (a sheet on macOS) when there is one.
    const picked = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    if (picked.canceled) return null;
    return picked.filePaths[0] ?? null;
  };
}

const SAVE_FILTERS: Record<string, { name: string; extensions: string[] }> = {
  '.png': { name: 'PNG image', extensions: ['png'] },
  '.md': { name: 'Markdown', extensions: ['md'] },
  '.txt': { name: 'Text', extensions: ['txt'] },
  '.csv': { name: 'CSV', extensions: ['csv'] },
  '.json': { name: 'JSON', extensions: ['json'] },
  '.html': { name: 'Web page', extensions: ['html'] },
};

/**
 * The OS save dialog behind `files.save` (share card, exports): suggests `filename` in the
 * Downloads folder, writes the bytes where the user chose. Returns the path, or null when the
 * user cancels.
 */
export function fileSaver(
  dialog: Pick<Dialog, 'showSaveDialog'>,
  parent: () => BrowserWindow | undefined,
  downloads: () => string,
): (filename: string, data: Buffer) => Promise<string | null> {
  return async (filename, data) => {
    const filter = SAVE_FILTERS[path.extname(filename).toLowerCase()];
    const options: SaveDialogOptions = {
      title: 'Save',
      defaultPath: path.join(downloads(), path.basename(filename)),
      ...(filter ? { filters: [filter] } : {}),
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const win = parent();
    const picked = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    if (picked.canceled || !picked.filePath) return null;
    await writeFile(picked.filePath, data);
    return picked.filePath;
  };
}

/** The system clipboard behind `clipboard.write`: text, or a PNG as an image. Electron 45's
 *  clipboard is asynchronous and takes an image as a ClipboardItem of type image/png. */
export function clipboardWriter(
  clipboard: Pick<Clipboard, 'writeText' | 'write'>,
  images: { createFromBuffer(buffer: Buffer): NativeImage },
  Item: new (items: Record<string, Blob>) => ClipboardItem,
): (content: { text: string } | { png: Buffer }) => Promise<void> {
  return async (content) => {
    if ('text' in content) return clipboard.writeText(content.text);
    // The clipboard would take any bytes labelled image/png; decoding first refuses what is not one.
    if (images.createFromBuffer(content.png).isEmpty()) throw new Error('The image could not be read.');
    return clipboard.write([new Item({ 'image/png': new Blob([new Uint8Array(content.png)], { type: 'image/png' }) })]);
  };
}

/** The part of a BrowserWindow the PDF printer uses. */
export interface PdfWindow {
  loadURL(url: string): Promise<void>;
  webContents: { printToPDF(options: { printBackground: boolean; pageSize: 'A4' }): Promise<Buffer> };
  destroy(): void;
}

/**
 * The report as PDF (`report.pdf`): the self-contained HTML export printed by Chromium in a hidden
 * window with JavaScript off (the page has none; it is a data: URL, never the app's origin), then
 * saved through the OS save dialog. Returns the path, or null when the user cancels.
 */
export function pdfSaver(
  createWindow: () => PdfWindow,
  save: (filename: string, data: Buffer) => Promise<string | null>,
): (html: string, filename: string) => Promise<string | null> {
  return async (html, filename) => {
    const win = createWindow();
    let pdf: Buffer;
    try {
      await win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
      // Chromium's default margins (1 cm) since Electron 45 dropped marginType.
      pdf = await win.webContents.printToPDF({ printBackground: true, pageSize: 'A4' });
    } finally {
      win.destroy();
    }
    return save(filename, pdf);
  };
}
