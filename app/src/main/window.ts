// The main window: its size, its look before the page paints, and the webPreferences that make
// the renderer an ordinary sandboxed web page. Security checklist items:
//   2 "Do not enable Node.js integration for remote content" — nodeIntegration(InWorker) false;
//   3 "Enable context isolation" — the preload's world is separate from the page's;
//   4 "Enable process sandboxing" — the renderer is an OS-sandboxed Chromium renderer;
//   6 "Do not disable webSecurity"; 8 "Do not enable allowRunningInsecureContent";
//   9 "Do not enable experimental features"; 11/12 no <webview> at all (webviewTag false);
//   18 the page is loaded from app://, never file:// (protocol.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebPreferences } from 'electron';
import { BrowserWindow } from 'electron';
import type { TrustedSenders } from './ipc-main.js';
import { APP_ORIGIN } from './security.js';

/** The page every window opens. */
export const START_URL = `${APP_ORIGIN}/index.html`;

/** The renderer's page background (--bg in renderer/src/styles/tokens.css), shown before first paint. */
export const BACKGROUND_COLOR = '#0d0f12';

/** dist/main/preload.cjs, next to this file once compiled (tsc emits .cts as .cjs). */
export function defaultPreloadPath(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'preload.cjs');
}

/** Exactly the preferences the window gets; exported so a test can pin every one. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    spellcheck: false,
    preload,
  };
}

export interface MainWindowOptions {
  /** Where the window's web contents is registered as an IPC sender we trust. */
  trusted: TrustedSenders;
  preload?: string;
  url?: string;
}

/**
 * Creates the window hidden and shows it on `ready-to-show`, so the user never sees a white
 * flash; registers its web contents as trusted before any page code can run.
 */
export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 900,
    minHeight: 640,
    title: 'DiskDial',
    backgroundColor: BACKGROUND_COLOR,
    show: false,
    webPreferences: secureWebPreferences(opts.preload ?? defaultPreloadPath()),
  });
  opts.trusted.add(win.webContents);
  win.once('ready-to-show', () => win.show());
  // A failed load (missing build) leaves the window hidden; the rejection is reported, not thrown
  // into an unhandled-rejection crash.
  win.loadURL(opts.url ?? START_URL).catch((err: unknown) => {
    console.error(`diskdial: could not load ${opts.url ?? START_URL}:`, err);
  });
  return win;
}
