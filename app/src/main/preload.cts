// The sandboxed preload: puts window.diskdial in the page — one generic request and one generic
// subscription (BridgeTransport in contract.ts), on which the renderer builds its DiskDialBridge
// verbs from the channel map. Never ipcRenderer, never Electron's own channel names.
// Security checklist item 20, "Do not expose Electron APIs to untrusted web content", and item 3,
// context isolation: contextBridge copies only these two functions into the page's world. Any
// channel name and payload a page sends is checked in main (sender, gesture, zod schema).
//
// Why CommonJS and no imports: a sandboxed preload is not an ES module and its `require` knows
// only 'electron' (and a few Node built-ins), so this file cannot load the contract at run time;
// `import type` is erased, and the two names below are repeated from ipc-main.ts (a test checks
// they match).
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { BridgeTransport } from '../ipc/contract.js';

const INVOKE_CHANNEL = 'diskdial:invoke';
const EVENT_CHANNEL = 'diskdial:event';

const transport: BridgeTransport = {
  // Exactly two arguments cross, whatever the page passes.
  invoke: (channel, payload) => ipcRenderer.invoke(INVOKE_CHANNEL, channel, payload),
  /**
   * One listener per subscription, filtered to one event channel. The callback gets the data only:
   * the IpcRendererEvent carries `sender` (ipcRenderer itself), which must not reach the page.
   */
  on: (wanted, cb) => {
    const listener = (_event: IpcRendererEvent, channel: unknown, data: unknown): void => {
      if (channel === wanted) cb(data);
    };
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, listener);
    };
  },
};

contextBridge.exposeInMainWorld('diskdial', transport);
