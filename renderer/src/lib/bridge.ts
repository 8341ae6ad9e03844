// The renderer's one door to the outside and the only module that touches window.diskdial:
// Electron's preload puts the bridge there; in browser mode there is none, and the same verbs
// go over a WebSocket. Everything else calls getBridge().
import type { DiskDialBridge } from '../../../app/src/ipc/contract';
import { createWsBridge, wsUrlFor } from './ws-bridge';

declare global {
  interface Window {
    diskdial?: DiskDialBridge;
  }
}

let override: DiskDialBridge | null = null;
let cached: DiskDialBridge | null = null;

export function getBridge(): DiskDialBridge {
  if (override) return override;
  if (!cached) cached = window.diskdial ?? createWsBridge(wsUrlFor(window.location));
  return cached;
}

/** Tests hand in a fake bridge; null goes back to the real one. */
export function setBridgeForTests(bridge: DiskDialBridge | null): void {
  override = bridge;
}
