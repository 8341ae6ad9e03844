// A browser-mode page reduced to its wire: requests by id over the server's WebSocket, replies
// matched to them, events kept and waited for.
import { spawn, type ChildProcess } from 'node:child_process';
import { WebSocket } from 'ws';
import { bin } from './cli.js';
import type { WireMessage } from '../../app/src/ipc/contract.js';

export interface WsClient {
  ws: WebSocket;
  /** Sends `{id, channel, payload}` and resolves with the reply of that id. */
  call(channel: string, payload?: unknown): Promise<WireMessage>;
  /** Sends text as it is and resolves with the next reply. */
  raw(text: string): Promise<WireMessage>;
  events: WireMessage[];
  /** The first event already kept that matches, else the next message that does. Events are
   *  searched too because one can arrive in the same read as the reply before it, ahead of a
   *  waiter made after that reply (test/app/server/ws-client.test.ts). */
  waitFor(pred: (m: WireMessage) => boolean): Promise<WireMessage>;
}

/** Opens `url` (ws://…/ws?token=…) with these headers; the HTTP status when the server refuses. */
export function connectWs(url: string, headers: Record<string, string>): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}

/** A connected client on an open socket. */
export function wsClient(ws: WebSocket): WsClient {
  const events: WireMessage[] = [];
  const waiters: Array<{ pred: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }> = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as WireMessage;
    if ('event' in msg) events.push(msg);
    for (const w of [...waiters]) {
      if (w.pred(msg)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(msg);
      }
    }
  });
  const next = (pred: (m: WireMessage) => boolean) => new Promise<WireMessage>((resolve) => waiters.push({ pred, resolve }));
  const waitFor = (pred: (m: WireMessage) => boolean) => {
    const kept = events.find(pred);
    return kept ? Promise.resolve(kept) : next(pred);
  };
  let nextId = 1;
  return {
    ws,
    events,
    waitFor,
    call(channel, payload = {}) {
      const id = nextId++;
      const reply = next((m) => 'id' in m && m.id === id);
      ws.send(JSON.stringify({ id, channel, payload }));
      return reply;
    },
    raw(text) {
      const reply = next((m) => 'id' in m);
      ws.send(text);
      return reply;
    },
  };
}

/** `diskdial serve [args]` started as a user starts it (the compiled CLI, `env` over this
 *  process's), and a page's socket to it once it says where it runs. */
export async function serveWithSocket(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ server: ChildProcess; client: WsClient }> {
  const server = spawn(process.execPath, [bin, 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /running at (http:\/\/127\.0\.0\.1:\d+)\/\?token=([\w-]+)/.exec(out);
      if (m) resolve(`${m[1]!.replace('http', 'ws')}/ws?token=${m[2]}`);
    });
    server.once('exit', (code) => reject(new Error(`serve exited (${code})`)));
  });
  const ws = await connectWs(url, { origin: new URL(url.replace('ws', 'http')).origin });
  if (typeof ws === 'number') throw new Error(`refused: ${ws}`);
  return { server, client: wsClient(ws) };
}
