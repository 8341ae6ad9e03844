// Browser mode's DiskDialBridge: every verb as a WireRequest over one WebSocket to
// `diskdial serve`, replies paired by id, events fanned out to subscribers. A closed socket
// fails what is pending (and everything after) with ERR_DISCONNECTED; no reconnect, because a
// new socket would not own the job the old one started.
import type {
  AppInfo,
  DetailedSettings,
  DiskDialBridge,
  HashSettings,
  EventChannel,
  EventMap,
  IpcError,
  IpcResult,
  QuickTestSettings,
  RequestChannel,
  TargetInfo,
  WireRequest,
} from '../../../app/src/ipc/contract';

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

export const DISCONNECTED: IpcError = { code: 'ERR_DISCONNECTED', message: 'Lost the connection to DiskDial.' };

export interface WsBridge extends DiskDialBridge {
  /** Closes the socket; pending calls fail with ERR_DISCONNECTED. */
  close(): void;
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

export function createWsBridge(url: string, factory: WebSocketFactory = (u) => new WebSocket(u) as unknown as WebSocketLike): WsBridge {
  let nextId = 1;
  let closed = false;
  const pending = new Map<number, (r: IpcResult<unknown>) => void>();
  // Requests made before the socket opens wait here, in order.
  const queue: string[] = [];
  const listeners: { [C in EventChannel]: Set<(e: EventMap[C]) => void> } = {
    'quick.progress': new Set(),
    'quick.cycle': new Set(),
    'quick.done': new Set(),
    'detailed.plan': new Set(),
    'detailed.progress': new Set(),
    'detailed.step': new Set(),
    'detailed.done': new Set(),
    'hash.progress': new Set(),
    'hash.stage': new Set(),
    'hash.done': new Set(),
  };

  const socket = factory(url);

  const failAll = (): void => {
    closed = true;
    queue.length = 0;
    const resolvers = [...pending.values()];
    pending.clear();
    for (const resolve of resolvers) resolve({ ok: false, error: DISCONNECTED });
  };

  socket.onopen = () => {
    for (const msg of queue.splice(0)) socket.send(msg);
  };
  socket.onclose = failAll;
  socket.onerror = () => {
    // A socket that errors before or after opening is as good as closed; browsers follow
    // with a close event, but fail now so the UI never waits on a dead socket.
    failAll();
  };
  socket.onmessage = (ev) => {
    if (typeof ev.data !== 'string') return;
    let msg: unknown;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return; // not ours to interpret; the server only sends JSON
    }
    if (!isObject(msg)) return;
    if (typeof msg.id === 'number' && isObject(msg.result) && typeof msg.result.ok === 'boolean') {
      const resolve = pending.get(msg.id);
      pending.delete(msg.id);
      resolve?.(msg.result as IpcResult<unknown>);
      return;
    }
    if (typeof msg.event === 'string' && msg.event in listeners && isObject(msg.data)) {
      const set = listeners[msg.event as EventChannel] as Set<(e: unknown) => void>;
      for (const cb of [...set]) cb(msg.data);
    }
  };

  function call<T>(channel: RequestChannel, payload: unknown): Promise<IpcResult<T>> {
    if (closed) return Promise.resolve({ ok: false, error: DISCONNECTED });
    const id = nextId++;
    const req: WireRequest = { id, channel, payload };
    const text = JSON.stringify(req);
    return new Promise((resolve) => {
      pending.set(id, resolve as (r: IpcResult<unknown>) => void);
      if (socket.readyState === OPEN) socket.send(text);
      else queue.push(text);
    });
  }

  function on<C extends EventChannel>(channel: C, cb: (e: EventMap[C]) => void): () => void {
    const set = listeners[channel] as Set<(e: EventMap[C]) => void>;
    set.add(cb);
    return () => {
      set.delete(cb);
    };
  }

  return {
    appInfo: () => call<AppInfo>('app.info', {}),
    listTargets: () => call<TargetInfo[]>('targets.list', {}),
    describeTarget: (path: string) => call<TargetInfo>('targets.describe', { path }),
    chooseFolder: () => call<TargetInfo | null>('targets.choose', {}),
    startQuickTest: (settings: QuickTestSettings) => call<{ jobId: string }>('quick.start', settings),
    stopQuickTest: (jobId: string) => call<{ stopped: boolean }>('quick.stop', { jobId }),
    onQuickProgress: (cb) => on('quick.progress', cb),
    onQuickCycle: (cb) => on('quick.cycle', cb),
    onQuickDone: (cb) => on('quick.done', cb),
    startDetailed: (settings: DetailedSettings) => call<{ jobId: string }>('detailed.start', settings),
    stopDetailed: (jobId: string) => call<{ stopped: boolean }>('detailed.stop', { jobId }),
    onDetailedPlan: (cb) => on('detailed.plan', cb),
    onDetailedProgress: (cb) => on('detailed.progress', cb),
    onDetailedStep: (cb) => on('detailed.step', cb),
    onDetailedDone: (cb) => on('detailed.done', cb),
    chooseFile: () => call<{ path: string; bytes: number } | null>('files.choose', {}),
    startHash: (settings: HashSettings) => call<{ jobId: string }>('hash.start', settings),
    stopHash: (jobId: string) => call<{ stopped: boolean }>('hash.stop', { jobId }),
    onHashProgress: (cb) => on('hash.progress', cb),
    onHashStage: (cb) => on('hash.stage', cb),
    onHashDone: (cb) => on('hash.done', cb),
    close: () => {
      socket.close();
      failAll();
    },
  };
}
