// The main-process end of the one IPC contract, and the ONLY module that imports ipcMain (as in
// GitHub Desktop, where a lint rule keeps ipcMain/ipcRenderer inside tiny wrappers).
// Security checklist item 17, "Validate the sender of all IPC messages": a request is answered
// only when it comes from a frame of a window we created, showing our own app:// origin.
// Payloads are validated by the dispatcher (zod, contract.ts); this module adds the sender check,
// sends each job's events only to the window that asked, and never lets a throw cross `invoke`
// (Electron would strip the error's code on the way).
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { ipcMain } from 'electron';
import type { Dispatcher, EventChannel, EventMap, EventSink, IpcResult } from '../ipc/contract.js';
import { isAppUrl } from './security.js';

/** Renderer → main: every request, as (channel, payload). The preload hard-codes the same names. */
export const INVOKE_CHANNEL = 'diskdial:invoke';
/** Main → renderer: every event, as (event channel, data). */
export const EVENT_CHANNEL = 'diskdial:event';

/**
 * The web contents of windows we created (window.ts adds each). Ids, not objects: a sender is
 * compared by identity with what we made, and an id leaves the set when its contents die so a
 * reused id cannot inherit trust.
 */
export class TrustedSenders {
  private readonly ids = new Set<number>();
  /** When each window last saw the user click, tap or type (see GESTURE_CHANNELS). */
  private readonly gestures = new Map<number, number>();

  add(contents: WebContents): void {
    const id = contents.id;
    this.ids.add(id);
    contents.on('input-event', (_event, input) => {
      if (GESTURE_INPUTS.has(input.type)) this.gestures.set(id, performance.now());
    });
    contents.once('destroyed', () => {
      this.ids.delete(id);
      this.gestures.delete(id);
    });
  }

  has(contents: WebContents): boolean {
    return this.ids.has(contents.id) && !contents.isDestroyed();
  }

  /** The sender check, bound so it can be handed to registerIpc as is. */
  readonly isTrusted = (event: IpcMainInvokeEvent): boolean => isTrustedSender(event, this);

  /** Whether the user clicked, tapped or typed in this window within GESTURE_WINDOW_MS. Input
   *  events come from the browser process, which a compromised page cannot forge. */
  readonly hadGesture = (contents: WebContents): boolean => {
    const at = this.gestures.get(contents.id);
    return at !== undefined && performance.now() - at <= GESTURE_WINDOW_MS;
  };
}

/** Requests honoured only right after a user gesture in the sending window, as a browser allows
 *  clipboard writes only with transient user activation: a page must not fill the clipboard on
 *  its own. */
export const GESTURE_CHANNELS: ReadonlySet<string> = new Set(['clipboard.write']);
/** Chromium's transient user activation lasts 5 s. */
export const GESTURE_WINDOW_MS = 5000;
const GESTURE_INPUTS: ReadonlySet<string> = new Set([
  'mouseDown',
  'mouseUp',
  'rawKeyDown',
  'keyDown',
  'char',
  'touchEnd',
  'gestureTap',
  'pointerDown',
  'pointerUp',
]);

/**
 * True only when all three hold: the request names the frame that sent it (Electron gives null
 * when that frame has gone or navigated away meanwhile), that frame shows our app:// origin, and
 * the sending web contents is one of our windows. Anything else — another origin loaded by a bug
 * in navigation hardening, a devtools extension, a web contents we never made — is refused.
 */
export function isTrustedSender(event: IpcMainInvokeEvent, trusted: Pick<TrustedSenders, 'has'>): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (!isAppUrl(frame.url)) return false;
  return trusted.has(event.sender);
}

/** Where a job's events go: the web contents that started it, and only while it is alive. */
export function sinkFor(contents: WebContents): EventSink {
  return {
    send<C extends EventChannel>(channel: C, data: EventMap[C]): void {
      if (contents.isDestroyed()) return;
      try {
        contents.send(EVENT_CHANNEL, channel, data);
      } catch {
        // The renderer went away between the check and the send; the event has nobody to reach.
      }
    },
    get alive(): boolean {
      return !contents.isDestroyed();
    },
  };
}

function failure(code: string, message: string): IpcResult<never> {
  return { ok: false, error: { code, message } };
}

/**
 * One sink per web contents, so every job a window starts reports to the same sink and the
 * dispatcher can stop them all when that window goes away (`release`): its page is gone or its
 * renderer crashed, nobody would see the test, and nothing should run unattended.
 */
function sinkRegistry(dispatcher: Dispatcher): (contents: WebContents) => EventSink {
  const sinks = new WeakMap<WebContents, EventSink>();
  return (contents) => {
    const known = sinks.get(contents);
    if (known) return known;
    const sink = sinkFor(contents);
    sinks.set(contents, sink);
    const release = (): void => {
      dispatcher.release?.(sink).catch((err: unknown) => console.error('diskdial: could not stop a test:', err));
    };
    contents.once('destroyed', release);
    contents.on('render-process-gone', release);
    return sink;
  };
}

/**
 * Answers every INVOKE_CHANNEL request: sender check first (an untrusted sender gets
 * ERR_UNTRUSTED_SENDER and nothing else happens), the gesture check for GESTURE_CHANNELS, then
 * the dispatcher, which validates the payload. Returns a function that removes the handler (tests, and a clean quit).
 */
export function registerIpc(
  dispatcher: Dispatcher,
  isTrusted: (event: IpcMainInvokeEvent) => boolean,
  /** TrustedSenders.hadGesture; without it GESTURE_CHANNELS are always refused. */
  hadGesture?: (contents: WebContents) => boolean,
): () => void {
  const sinkOf = sinkRegistry(dispatcher);
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel: unknown, payload: unknown): Promise<IpcResult<unknown>> => {
    let trusted: boolean;
    try {
      trusted = isTrusted(event);
    } catch {
      trusted = false; // a check that fails is a no
    }
    if (!trusted) return failure('ERR_UNTRUSTED_SENDER', 'This request did not come from a DiskDial window.');
    // Same code the dispatcher gives an unknown name; checked here because its type says string.
    if (typeof channel !== 'string') return failure('ERR_UNKNOWN_CHANNEL', 'The request names no channel.');
    if (GESTURE_CHANNELS.has(channel) && !hadGesture?.(event.sender)) {
      return failure('ERR_NO_USER_GESTURE', 'Copying needs a click or a key press in DiskDial just before it.');
    }
    try {
      return await dispatcher.handle(channel, payload, sinkOf(event.sender));
    } catch (err) {
      // The dispatcher promises results, not throws; should one slip through, the renderer still
      // gets a typed answer and the main process keeps running.
      const message = err instanceof Error ? err.message : String(err);
      return failure('ERR_INTERNAL', `DiskDial hit an internal error: ${message}`);
    }
  });
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}
