// What a screen says after an action or a failed bridge call: a status note, and an IPC error in
// plain words (the core's own, else a fallback). Shared by every feature that talks to the core.
import type { IpcError } from '@model/events';

/** A line under the toolbar or an action bar: what just happened, or what went wrong. */
export interface StatusNote {
  text: string;
  tone: 'ok' | 'error';
}

const FALLBACK: Record<string, string> = {
  ERR_BUSY: 'Another test is running. Stop it or wait for it to finish, then start this one.',
  ERR_DISCONNECTED: 'Lost the connection to DiskDial.',
};

/** An IPC error as a sentence to show: the core's own words, else a plain fallback. */
export function plainError(err: IpcError | undefined): string {
  const message = err?.message?.trim();
  if (message) return message;
  return FALLBACK[err?.code ?? ''] ?? 'The test failed.';
}

/** The core's words, else a plain fallback. */
export function errorText(err: IpcError | undefined, fallback = 'Something went wrong.'): string {
  return err?.message?.trim() || fallback;
}
