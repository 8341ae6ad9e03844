// What a screen says after an action or a failed bridge call (an IPC error reads through
// ipcErrorText in @model/events). Shared by every feature that talks to the core.

/** A line under the toolbar or an action bar: what just happened, or what went wrong. */
export interface StatusNote {
  text: string;
  tone: 'ok' | 'error';
}
