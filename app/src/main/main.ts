// The Electron app's entry (package.json "main" → dist/main/main.js). Wiring only: every rule it
// applies lives in a small module next to it, each tested with `electron` mocked —
// security.ts (navigation, new windows, webviews, permissions, CSP), protocol.ts (app://),
// window.ts (webPreferences), ipc-main.ts (sender check, events), engine-spawner.ts (the engine in
// a utilityProcess), lifecycle.ts (single instance, quitting), erase-confirm.ts (the wizard's
// erase question).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, ClipboardItem, dialog, nativeImage, session } from 'electron';
import { createDispatcher } from '../ipc/dispatch.js';
import { EngineHost } from '../services/engine-host.js';
import { frontDoorServices } from '../services/index.js';
import { electronSpawner } from './engine-spawner.js';
import { eraseConfirmer } from './erase-confirm.js';
import { registerIpc, TrustedSenders } from './ipc-main.js';
import {
  clipboardWriter,
  closeBeforeQuit,
  fileChooser,
  fileSaver,
  folderChooser,
  pdfSaver,
  quitWhenAllWindowsClosed,
  takeSingleInstanceLock,
} from './lifecycle.js';
import { registerAppProtocol, registerAppScheme } from './protocol.js';
import { hardenApp, hardenSession } from './security.js';
import { createMainWindow } from './window.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** vite builds the renderer into dist/renderer, next to dist/main. */
const rendererDir = path.join(here, '../renderer');

let mainWindow: BrowserWindow | undefined;

if (!takeSingleInstanceLock(app, () => mainWindow)) {
  app.quit();
} else {
  // Scheme privileges must be registered before `ready`; hardening must be in place before the
  // first web contents exists.
  registerAppScheme();
  hardenApp(app);
  quitWhenAllWindowsClosed(app);

  const trusted = new TrustedSenders();
  const openWindow = (): void => {
    mainWindow = createMainWindow({ trusted });
    mainWindow.on('closed', () => {
      mainWindow = undefined;
    });
  };

  void app.whenReady().then(async () => {
    hardenSession(session.defaultSession);
    registerAppProtocol(rendererDir);

    const engineHost = new EngineHost({ spawner: electronSpawner });
    // The same history folder as `diskdial history` and browser mode (core/history.ts). Before a
    // plan's first erase (or a test that overwrites a whole disk), main asks the person itself: a
    // renderer cannot authorise it. The engine's version comes from its own process.
    const services = await frontDoorServices(
      engineHost,
      { authorizeErase: eraseConfirmer(dialog, () => mainWindow) },
      { appVersion: app.getVersion(), shell: 'electron' },
    );
    const dispatcher = createDispatcher({
      ...services,
      chooseFolder: folderChooser(dialog, () => mainWindow),
      chooseFile: fileChooser(dialog, () => mainWindow),
      saveFile: fileSaver(
        dialog,
        () => mainWindow,
        () => app.getPath('downloads'),
      ),
      savePdf: pdfSaver(
        () =>
          new BrowserWindow({
            show: false,
            webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, webSecurity: true },
          }),
        fileSaver(
          dialog,
          () => mainWindow,
          () => app.getPath('downloads'),
        ),
      ),
      writeClipboard: clipboardWriter(clipboard, nativeImage, ClipboardItem),
    });
    registerIpc(dispatcher, trusted.isTrusted, trusted.hadGesture);
    closeBeforeQuit(app, async () => {
      await dispatcher.close();
      await engineHost.close();
    });

    openWindow();
    // macOS: clicking the Dock icon with no window open opens one.
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openWindow();
    });
  });
}
