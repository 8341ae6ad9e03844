// Browser mode's DiskDialBridge: every verb as a WireRequest over a WebSocket to
// `diskdial serve`, replies paired by id, events fanned out to subscribers. When the socket
// closes (the server stopped, or refused the page's token) what is pending fails with
// ERR_DISCONNECTED, calls fail at once while disconnected, and the bridge keeps trying to
// connect again by itself, so a restarted server (same port and token) is picked up without a
// reload. The server stops a page's jobs when its socket closes, so every job started over the
// lost socket is reported as failed (a `*.done` event), never left to wait for events that will
// not come. Saving a file and the clipboard stay in the page: a save is a download, and the
// clipboard is the browser's; the report's PDF is the page printed (saveReportPdf answers
// ERR_UNSUPPORTED without a round trip).
import {
  bindBridge,
  events,
  jobEndOf,
  type DiskDialBridge,
  type EventChannel,
  type IpcResult,
  type RequestChannel,
  type WireRequest,
} from '@ipc/contract';

import type { IpcError } from '@model/events';

/** The slice of the WebSocket API the bridge uses, so tests can inject a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
export type WebSocketFactory = (url: string) => WebSocketLike;

const OPEN = 1;

export const DISCONNECTED: IpcError = {
  code: 'ERR_DISCONNECTED',
  message: 'Not connected to DiskDial. If `diskdial serve` stopped, start it again and open the URL it prints.',
};
export const PDF_UNSUPPORTED: IpcError = {
  code: 'ERR_UNSUPPORTED',
  message: 'Saving a PDF needs the desktop app; in browser mode, print the report and choose “Save as PDF”.',
};

/** 'connecting': the first socket has not opened yet (calls wait); 'connected'; 'disconnected':
 *  calls fail at once while the bridge tries again; 'refused': likewise, but the server is there
 *  and refused this page's token (started again with a new one, or a mistyped URL). */
export type ConnectionState = 'connecting' | 'connected' | 'disconnected' | 'refused';

/** Why a socket would not open: the server answered and refused the token, or it did not answer. */
export type SocketProbe = () => Promise<'refused' | 'unreachable' | 'accepted'>;

export interface WsBridge extends DiskDialBridge {
  /** Closes the socket for good; pending calls fail with ERR_DISCONNECTED; no reconnect. */
  close(): void;
  connection(): ConnectionState;
  /** Called on every change of connection(); returns the unsubscribe. */
  onConnection(cb: (state: ConnectionState) => void): () => void;
}

export interface WsBridgeOptions {
  /** Delays between reconnect attempts, ms: doubling from `min` up to `max`. */
  retry?: { min: number; max: number };
  /** Asked after a socket fails (default: probeFor(url)). */
  probe?: SocketProbe;
}

/** Asks `diskdial serve` over plain HTTP whether the socket URL's token is its own (serve.ts answers
 *  GET /ws with 204 or 401). */
export function probeFor(url: string): SocketProbe {
  const http = url.replace(/^ws/, 'http');
  return async () => {
    try {
      const res = await fetch(http, { cache: 'no-store' });
      return res.status === 401 ? 'refused' : 'accepted';
    } catch {
      return 'unreachable';
    }
  };
}

/** The socket URL for a page served by `diskdial serve` at `loc` (token from `?token=`). */
export function wsUrlFor(loc: { protocol: string; host: string; search: string }): string {
  const token = new URLSearchParams(loc.search).get('token') ?? '';
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ws?token=${encodeURIComponent(token)}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

export function createWsBridge(
  url: string,
  factory: WebSocketFactory = (u) => new WebSocket(u) as unknown as WebSocketLike,
  options: WsBridgeOptions = {},
): WsBridge {
  const retry = options.retry ?? { min: 500, max: 5000 };
  const probe = options.probe ?? probeFor(url);
  let nextId = 1;
  let closed = false;
  let state: ConnectionState = 'connecting';
  let delay = retry.min;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stateListeners = new Set<(s: ConnectionState) => void>();
  const pending = new Map<number, { channel: RequestChannel; resolve: (r: IpcResult<unknown>) => void }>();
  // Jobs started over the current socket that have not ended: jobId → its done channel (and the
  // wizard's plan id, which its done event carries).
  const jobs = new Map<string, { done: EventChannel; planId?: string }>();
  // Requests made before the first socket opens wait here, in order.
  const queue: string[] = [];
  const listeners = Object.fromEntries(Object.keys(events).map((e) => [e, new Set<(data: unknown) => void>()])) as Record<
    EventChannel,
    Set<(data: unknown) => void>
  >;

  const setState = (next: ConnectionState): void => {
    if (state === next) return;
    state = next;
    for (const cb of [...stateListeners]) cb(next);
  };

  const emit = (channel: EventChannel, data: unknown): void => {
    for (const cb of [...listeners[channel]]) cb(data);
  };

  /** The socket is gone: fail what waits, end the jobs the server is now stopping. */
  const lost = (): void => {
    queue.length = 0;
    const waiting = [...pending.values()];
    pending.clear();
    const ended = [...jobs.entries()];
    jobs.clear();
    for (const { resolve } of waiting) resolve({ ok: false, error: DISCONNECTED });
    for (const [jobId, job] of ended) {
      emit(job.done, {
        jobId,
        outcome: 'failed',
        error: DISCONNECTED,
        ...(job.done === 'wizard.done' ? { planId: job.planId ?? '', resultIds: [] } : {}),
      });
    }
  };

  let socket: WebSocketLike;
  const connect = (): void => {
    const sock = factory(url);
    socket = sock;
    sock.onopen = () => {
      if (sock !== socket || closed) return;
      delay = retry.min;
      setState('connected');
      for (const msg of queue.splice(0)) sock.send(msg);
    };
    const down = (): void => {
      // Browsers follow an error with a close: only the first of the two counts.
      if (sock !== socket || closed || timer) return;
      // A refused page stays refused through its retries until the server says otherwise.
      if (state !== 'refused') setState('disconnected');
      lost();
      void probe().then((why) => {
        if (sock === socket && !closed && state !== 'connected') setState(why === 'refused' ? 'refused' : 'disconnected');
      });
      timer = setTimeout(() => {
        timer = null;
        if (!closed) connect();
      }, delay);
      delay = Math.min(retry.max, delay * 2);
    };
    sock.onclose = down;
    sock.onerror = down;
    sock.onmessage = (ev) => {
      if (sock !== socket || typeof ev.data !== 'string') return;
      let msg: unknown;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return; // not ours to interpret; the server only sends JSON
      }
      if (!isObject(msg)) return;
      if (typeof msg.id === 'number' && isObject(msg.result) && typeof msg.result.ok === 'boolean') {
        const req = pending.get(msg.id);
        pending.delete(msg.id);
        if (!req) return;
        const result = msg.result as IpcResult<unknown>;
        const done = jobEndOf(req.channel);
        if (done && result.ok && isObject(result.value) && typeof result.value.jobId === 'string') {
          const planId = typeof result.value.planId === 'string' ? result.value.planId : undefined;
          jobs.set(result.value.jobId, planId === undefined ? { done } : { done, planId });
        }
        req.resolve(result);
        return;
      }
      if (typeof msg.event === 'string' && Object.hasOwn(listeners, msg.event) && isObject(msg.data)) {
        const channel = msg.event as EventChannel;
        if (channel.endsWith('.done') && typeof msg.data.jobId === 'string') jobs.delete(msg.data.jobId);
        emit(channel, msg.data);
      }
    };
  };
  connect();

  /** One request over the socket; queued until the first socket opens. */
  function invoke(channel: RequestChannel, payload: unknown): Promise<IpcResult<unknown>> {
    if (closed || state === 'disconnected' || state === 'refused') return Promise.resolve({ ok: false, error: DISCONNECTED });
    const id = nextId++;
    const req: WireRequest = { id, channel, payload };
    const text = JSON.stringify(req);
    return new Promise((resolve) => {
      pending.set(id, { channel, resolve });
      if (socket.readyState === OPEN) socket.send(text);
      else queue.push(text);
    });
  }

  function on(channel: EventChannel, cb: (data: unknown) => void): () => void {
    const set = listeners[channel];
    set.add(cb);
    return () => {
      set.delete(cb);
    };
  }

  // Saving and the clipboard stay in the page; the page prints itself instead of a PDF (the
  // print stylesheet shows only the report).
  const inPage: Partial<DiskDialBridge> = {
    saveFile: (filename, data, encoding, mime) => Promise.resolve(downloadFile(filename, data, encoding, mime)),
    copyText: (text) => copyTextInPage(text),
    copyImage: (pngBase64) => copyImageInPage(pngBase64),
    saveReportPdf: () => Promise.resolve({ ok: false, error: PDF_UNSUPPORTED }),
  };

  return {
    ...bindBridge({ invoke, on }, inPage),
    close: () => {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      socket.close();
      setState('disconnected');
      lost();
    },
    connection: () => state,
    onConnection: (cb) => {
      stateListeners.add(cb);
      return () => {
        stateListeners.delete(cb);
      };
    },
  };
}

// ---- in the page: downloads and the clipboard ------------------------------------------------

const CLIPBOARD_TEXT: IpcError = {
  code: 'ERR_CLIPBOARD',
  message: 'The browser did not allow copying to the clipboard. Allow clipboard access for this page, or save the file instead.',
};
const CLIPBOARD_IMAGE: IpcError = {
  code: 'ERR_CLIPBOARD',
  message: 'This browser cannot copy images to the clipboard here. Use Save PNG instead.',
};

function base64Bytes(data: string): Uint8Array<ArrayBuffer> {
  const bin = atob(data);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** Browser mode's save: a download of that name (the browser decides where it goes). */
export function downloadFile(filename: string, data: string, encoding: 'utf8' | 'base64', mime: string): IpcResult<{ path: string }> {
  try {
    const blob = new Blob([encoding === 'base64' ? base64Bytes(data) : data], { type: mime || 'application/octet-stream' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    a.rel = 'noopener';
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The download has started by the time the click returns; the URL is kept a little longer
    // for browsers that read it later.
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
    return { ok: true, value: { path: filename } };
  } catch {
    return { ok: false, error: { code: 'ERR_SAVE', message: `Could not download ${filename}.` } };
  }
}

/** Copies text with the async clipboard; without one (or refused), with a selection and
 *  execCommand('copy'), which older browsers and insecure pages still allow on a click. */
export async function copyTextInPage(text: string): Promise<IpcResult<{ written: true }>> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return { ok: true, value: { written: true } };
    }
  } catch {
    // fall through to the selection
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const copied = typeof document.execCommand === 'function' && document.execCommand('copy');
    area.remove();
    if (copied) return { ok: true, value: { written: true } };
  } catch {
    // reported below
  }
  return { ok: false, error: CLIPBOARD_TEXT };
}

/** Copies a PNG with the async clipboard (ClipboardItem). */
export async function copyImageInPage(pngBase64: string): Promise<IpcResult<{ written: true }>> {
  const Item = (globalThis as { ClipboardItem?: typeof ClipboardItem }).ClipboardItem;
  if (!Item || !navigator.clipboard?.write) return { ok: false, error: CLIPBOARD_IMAGE };
  try {
    const blob = new Blob([base64Bytes(pngBase64)], { type: 'image/png' });
    await navigator.clipboard.write([new Item({ 'image/png': blob })]);
    return { ok: true, value: { written: true } };
  } catch {
    return { ok: false, error: CLIPBOARD_IMAGE };
  }
}
