// A small stand-in for the `electron` module, for tests of app/src/main (no Electron binary can
// run here). Each test file mocks electron with it:
//   vi.mock('electron', () => import('../helpers/electron-fake.js'));
// and imports the same module to drive the fakes and look at what the code under test did.
// The fakes keep Electron's shapes (events with preventDefault, handlers stored where Electron
// stores them) and nothing more; `resetElectronFake()` restores a fresh state between tests.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { vi } from 'vitest';

/** An Electron event: records whether a handler called preventDefault. */
export function fakeEvent<T extends object>(fields: T = {} as T): T & { defaultPrevented: boolean; preventDefault(): void } {
  const event = {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

type PermissionRequestHandler = (wc: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void;

export class FakeSession {
  permissionRequestHandler: PermissionRequestHandler | null = null;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null = null;
  devicePermissionHandler: ((...args: unknown[]) => boolean) | null = null;
  setPermissionRequestHandler(h: PermissionRequestHandler | null): void {
    this.permissionRequestHandler = h;
  }
  setPermissionCheckHandler(h: ((...args: unknown[]) => boolean) | null): void {
    this.permissionCheckHandler = h;
  }
  setDevicePermissionHandler(h: ((...args: unknown[]) => boolean) | null): void {
    this.devicePermissionHandler = h;
  }
}

let nextWebContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  readonly session = new FakeSession();
  /** Every webContents.send, in order. */
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  private destroyed = false;

  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(h: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = h;
  }
  /** What Electron does when the window closes or the renderer is gone for good. */
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static readonly all: FakeBrowserWindow[] = [];
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.all.filter((w) => !w.destroyed);
  }
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.all.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  focus(): void {
    this.focused = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
}

class FakeApp extends EventEmitter {
  lock = true;
  quitCalls = 0;
  ready = Promise.resolve();
  requestSingleInstanceLock(): boolean {
    return this.lock;
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  getVersion(): string {
    return '0.1.0-test';
  }
  /** Electron emits before-quit, and quits unless a handler prevented it. */
  quit(): void {
    this.quitCalls++;
    this.emit('before-quit', fakeEvent());
  }
}

type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;

class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>();
  handle(channel: string, fn: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, fn);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

class FakeProtocol {
  readonly privileged: unknown[] = [];
  readonly handlers = new Map<string, (req: Request) => Promise<Response> | Response>();
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    this.privileged.push(...schemes);
  }
  handle(scheme: string, fn: (req: Request) => Promise<Response> | Response): void {
    this.handlers.set(scheme, fn);
  }
}

export class FakeUtilityProcess extends EventEmitter {
  pid: number | undefined = 4242;
  readonly posted: unknown[] = [];
  killed = false;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  postMessage(msg: unknown): void {
    this.posted.push(msg);
  }
  kill(): boolean {
    this.killed = true;
    return true;
  }
}

class FakeIpcRenderer extends EventEmitter {
  readonly invoke = vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, value: null }));
}

class FakeContextBridge {
  readonly exposed = new Map<string, unknown>();
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api);
  }
}

// ---- the module's exports, named as electron names them --------------------------------------

export const app = new FakeApp();
export const ipcMain = new FakeIpcMain();
export const protocol = new FakeProtocol();
export const session = { defaultSession: new FakeSession() };
export const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
export const dialog = {
  showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: true, filePaths: [] as string[] })),
  showSaveDialog: vi.fn(async (..._args: unknown[]): Promise<{ canceled: boolean; filePath?: string }> => ({ canceled: true })),
  /** Resolves with the index of the button pressed; 0 (the first, Cancel) unless a test says. */
  showMessageBox: vi.fn(async (..._args: unknown[]): Promise<{ response: number; checkboxChecked: boolean }> => ({
    response: 0,
    checkboxChecked: false,
  })),
};
export const clipboard = {
  writeText: vi.fn(async (_text: string) => undefined),
  write: vi.fn(async (_items: FakeClipboardItem[]) => undefined),
};
/** Electron 45's ClipboardItem: MIME type → payload, as the W3C one. */
export class FakeClipboardItem {
  constructor(readonly items: Record<string, Blob>) {}
  get types(): string[] {
    return Object.keys(this.items);
  }
}
export const ClipboardItem = FakeClipboardItem;
/** nativeImage.createFromBuffer: an image that knows whether its bytes were a PNG. */
export const nativeImage = {
  createFromBuffer: vi.fn((buffer: Buffer) => ({
    bytes: buffer,
    isEmpty: () => buffer.length < 8 || buffer.subarray(1, 4).toString('latin1') !== 'PNG',
  })),
};
export const utilityProcess = {
  children: [] as FakeUtilityProcess[],
  fork: vi.fn((_modulePath: string, _args?: string[], _options?: unknown) => {
    const child = new FakeUtilityProcess();
    utilityProcess.children.push(child);
    return child;
  }),
};
export const contextBridge = new FakeContextBridge();
export const ipcRenderer = new FakeIpcRenderer();
export const BrowserWindow = FakeBrowserWindow;

/** A fresh state for the next test. The objects stay the same (importers hold them); their
 *  contents are cleared. */
export function resetElectronFake(): void {
  app.removeAllListeners();
  app.lock = true;
  app.quitCalls = 0;
  ipcMain.handlers.clear();
  protocol.privileged.length = 0;
  protocol.handlers.clear();
  session.defaultSession = new FakeSession();
  shell.openExternal.mockClear();
  dialog.showOpenDialog.mockReset();
  dialog.showOpenDialog.mockImplementation(async () => ({ canceled: true, filePaths: [] }));
  dialog.showSaveDialog.mockReset();
  dialog.showSaveDialog.mockImplementation(async () => ({ canceled: true }));
  dialog.showMessageBox.mockReset();
  dialog.showMessageBox.mockImplementation(async () => ({ response: 0, checkboxChecked: false }));
  clipboard.writeText.mockClear();
  clipboard.write.mockClear();
  nativeImage.createFromBuffer.mockClear();
  utilityProcess.fork.mockClear();
  utilityProcess.children.length = 0;
  contextBridge.exposed.clear();
  ipcRenderer.removeAllListeners();
  ipcRenderer.invoke.mockClear();
  FakeBrowserWindow.all.length = 0;
}
