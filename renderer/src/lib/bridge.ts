// The renderer's one door to the outside and the only module that touches window.diskdial:
// Electron's preload puts a generic transport there, and the verbs are built on it from the
// channel map; in browser mode there is none, and the same verbs go over a WebSocket. Everything else calls getBridge(), and asks here whether the door is
// open (the desktop app's always is; browser mode's closes when `diskdial serve` stops).
import { useSyncExternalStore } from 'react';
import { bindBridge, type BridgeTransport, type DiskDialBridge } from '@ipc/contract';
import { createWsBridge, wsUrlFor, type ConnectionState, type WsBridge } from './ws-bridge';

declare global {
  interface Window {
    diskdial?: BridgeTransport;
  }
}

let override: DiskDialBridge | null = null;
let cached: DiskDialBridge | null = null;
let ws: WsBridge | null = null;

export function getBridge(): DiskDialBridge {
  if (override) return override;
  if (!cached) {
    if (window.diskdial) cached = bindBridge(window.diskdial);
    else cached = ws = createWsBridge(wsUrlFor(window.location));
  }
  return cached;
}

/** Tests hand in a fake bridge (with a browser-mode socket bridge to follow its connection);
 *  null goes back to the real one. */
export function setBridgeForTests(bridge: DiskDialBridge | null, socketBridge: WsBridge | null = null): void {
  override = bridge;
  ws = socketBridge;
}

function subscribe(cb: () => void): () => void {
  getBridge();
  return ws ? ws.onConnection(cb) : () => undefined;
}
function snapshot(): ConnectionState {
  getBridge();
  return ws ? ws.connection() : 'connected';
}

/** Browser mode (`diskdial serve`): no OS file or folder pickers, so screens offer a typed path. */
export function isBrowserMode(): boolean {
  getBridge();
  return ws !== null;
}

/** Whether the renderer can reach DiskDial now, re-rendering on every change. */
export function useConnection(): ConnectionState {
  return useSyncExternalStore(subscribe, snapshot);
}
