// window.ts: the main window's webPreferences, pinned one by one (checklist items 2, 3, 4, 6, 8,
// 9, 11/12, 18), with `electron` replaced by test/helpers/electron-fake.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeBrowserWindow, resetElectronFake } from '../../helpers/electron-fake.js';

vi.mock('electron', () => import('../../helpers/electron-fake.js'));

const { BACKGROUND_COLOR, START_URL, createMainWindow, defaultPreloadPath } = await import('../../../app/src/main/window.js');
const { TrustedSenders } = await import('../../../app/src/main/ipc-main.js');

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

beforeEach(() => resetElectronFake());

function make(): FakeBrowserWindow {
  return createMainWindow({ trusted: new TrustedSenders(), preload: '/app/dist/main/preload.cjs' }) as unknown as FakeBrowserWindow;
}

describe('createMainWindow', () => {
  it('gives the renderer exactly the secure webPreferences', () => {
    const win = make();
    expect(win.options.webPreferences).toStrictEqual({
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
      preload: '/app/dist/main/preload.cjs',
    });
  });

  it('sizes the window and paints the dark background before the page', () => {
    const win = make();
    expect(win.options).toMatchObject({
      width: 1100,
      height: 760,
      minWidth: 900,
      minHeight: 640,
      backgroundColor: BACKGROUND_COLOR,
      show: false,
    });
    // The same colour as the page's own background, so nothing flashes when it paints.
    expect(readFileSync(path.join(repoRoot, 'renderer/src/styles/tokens.css'), 'utf8')).toContain(`--bg: ${BACKGROUND_COLOR};`);
  });

  it('loads app://diskdial/index.html, never file://', () => {
    const win = make();
    expect(win.loaded).toEqual(['app://diskdial/index.html']);
    expect(START_URL).toBe('app://diskdial/index.html');
  });

  it('stays hidden until ready-to-show', () => {
    const win = make();
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
  });

  it('registers its web contents as a trusted IPC sender, until it is destroyed', () => {
    const trusted = new TrustedSenders();
    const win = createMainWindow({ trusted }) as unknown as FakeBrowserWindow;
    expect(trusted.has(win.webContents as never)).toBe(true);
    win.webContents.destroy();
    expect(trusted.has(win.webContents as never)).toBe(false);
  });

  it('uses the compiled preload next to the compiled main by default', () => {
    const win = createMainWindow({ trusted: new TrustedSenders() }) as unknown as FakeBrowserWindow;
    const preload = (win.options.webPreferences as { preload: string }).preload;
    expect(preload).toBe(defaultPreloadPath());
    // From source the folder is app/src/main; built, window.js and preload.cjs share dist/main.
    expect(preload).toBe(path.join(repoRoot, 'app/src/main/preload.cjs'));
  });
});
