// Browser mode's server: serves the built renderer and speaks the IPC contract over one
// WebSocket, on 127.0.0.1 only. It is a door into a program that writes to disks, so it trusts
// nothing: the Host header must name this server (DNS rebinding), the WebSocket needs the random
// token from the printed URL and this server's own Origin (another site's page cannot connect),
// static files never leave rendererDir, and every message goes through the dispatcher's checks.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Dispatcher, EventChannel, EventMap, EventSink, IpcResult, WireMessage } from '../ipc/contract.js';

export interface ServerOptions {
  /** 0 or absent: a free port chosen by the system. */
  port?: number;
  /** The built renderer (index.html and its assets). */
  rendererDir: string;
  dispatcher: Dispatcher;
  /** Fixed token (tests); default 32 random bytes, base64url. */
  token?: string;
}

export interface RunningServer {
  /** http://127.0.0.1:PORT/?token=T — the page reads its token from here. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export const HOST = '127.0.0.1';
/** Requests are small JSON objects, except the two that carry a file: importing a result
 *  (history.import, up to 32 MiB of JSON) — anything larger than that is an attack, not a request. */
export const MAX_MESSAGE_BYTES = 33 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      // Inline style attributes: React and recharts set them.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/** The names this server answers to; anything else in Host is a rebinding attempt. */
function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}
function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

function tokenMatches(given: string | null, token: Buffer): boolean {
  if (given === null) return false;
  const g = Buffer.from(given, 'utf8');
  // timingSafeEqual needs equal lengths; the length of a random token is no secret.
  return g.length === token.length && timingSafeEqual(g, token);
}

/** The file a URL path names inside root, or a status to answer with. */
async function resolveStatic(root: string, rawUrl: string): Promise<{ file: string } | { status: number }> {
  if (!rawUrl.startsWith('/')) return { status: 400 };
  const rawPath = rawUrl.split(/[?#]/, 1)[0] ?? '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { status: 400 };
  // Refused before resolving, so "/a/../b" cannot be used to probe what exists outside.
  if (decoded.split('/').some((seg) => seg === '..' || seg === '.')) return { status: 404 };
  const rel = decoded === '/' ? 'index.html' : decoded.slice(1);
  const file = path.resolve(root, rel);
  if (!file.startsWith(root + path.sep)) return { status: 404 };
  try {
    // Symlinks inside the folder must not lead out of it either.
    const real = await fsp.realpath(file);
    const realRoot = await fsp.realpath(root);
    if (!real.startsWith(realRoot + path.sep)) return { status: 404 };
    const st = await fsp.stat(real);
    if (!st.isFile()) return { status: 404 };
    return { file: real };
  } catch {
    return { status: 404 };
  }
}

function refuseUpgrade(socket: Duplex, status: 400 | 401 | 403 | 404, headers: Record<string, string>): void {
  const text = http.STATUS_CODES[status] ?? 'Refused';
  const lines = [
    `HTTP/1.1 ${status} ${text}`,
    'Connection: close',
    'Content-Length: 0',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n`);
  socket.destroy();
}

/** One connected page: its events go to this socket only, while it is open. */
function socketSink(ws: WebSocket): EventSink {
  return {
    send<C extends EventChannel>(channel: C, data: EventMap[C]): void {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ event: channel, data } satisfies WireMessage));
    },
    get alive(): boolean {
      return ws.readyState === WebSocket.OPEN;
    },
  };
}

function invalidMessage(message: string): IpcResult<never> {
  return { ok: false, error: { code: 'ERR_INVALID_MESSAGE', message } };
}

/** Parses one frame as a WireRequest, or says (with the request's id if it had one) why not. */
function parseWire(raw: RawData, isBinary: boolean): { id: number; channel: string; payload: unknown } | { id: number; error: string } {
  if (isBinary) return { id: -1, error: 'Messages must be JSON text.' };
  let msg: unknown;
  try {
    msg = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.concat(raw as Buffer[]).toString('utf8'));
  } catch {
    return { id: -1, error: 'The message is not valid JSON.' };
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
    return { id: -1, error: 'A message must be an object {id, channel, payload}.' };
  const m = msg as Record<string, unknown>;
  const id = Number.isSafeInteger(m.id) ? (m.id as number) : -1;
  if (id === -1) return { id, error: 'id: must be a whole number.' };
  if (typeof m.channel !== 'string') return { id, error: 'channel: must be text.' };
  return { id, channel: m.channel, payload: m.payload };
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const root = path.resolve(opts.rendererDir);
  const token = opts.token ?? randomBytes(32).toString('base64url');
  if (!token) throw new Error('startServer: the token must not be empty');
  const tokenBytes = Buffer.from(token, 'utf8');
  const { dispatcher } = opts;
  let port = 0;
  let headers: Record<string, string> = {};
  let hosts = new Set<string>();
  let origins = new Set<string>();

  const server = http.createServer((req, res) => {
    void (async () => {
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      const end = (status: number, body = `${http.STATUS_CODES[status] ?? ''}\n`): void => {
        res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      };
      if (!hosts.has((req.headers.host ?? '').toLowerCase())) return end(403);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        return end(405);
      }
      // A page whose socket will not open asks here whether its token is the problem (204 or 401),
      // so it can say "refused" rather than "stopped": a browser hides a refused upgrade's status.
      const asked = new URL(req.url ?? '/', `http://${HOST}:${port}`);
      if (asked.pathname === '/ws') return end(tokenMatches(asked.searchParams.get('token'), tokenBytes) ? 204 : 401);
      const found = await resolveStatic(root, req.url ?? '/');
      if ('status' in found) return end(found.status);
      const ext = path.extname(found.file).toLowerCase();
      const body = await fsp.readFile(found.file);
      res.writeHead(200, {
        'Content-Type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
        'Content-Length': body.length,
        // The page is tiny and must always match the running server; hashed assets may be revalidated.
        'Cache-Control': ext === '.html' ? 'no-store' : 'no-cache',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!hosts.has((req.headers.host ?? '').toLowerCase())) return refuseUpgrade(socket, 403, headers);
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    if (url.pathname !== '/ws') return refuseUpgrade(socket, 404, headers);
    if (!tokenMatches(url.searchParams.get('token'), tokenBytes)) return refuseUpgrade(socket, 401, headers);
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !origins.has(origin)) return refuseUpgrade(socket, 403, headers);
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws));
  });

  function onConnection(ws: WebSocket): void {
    const sink = socketSink(ws);
    const reply = (id: number, result: IpcResult<unknown>): void => {
      if (ws.readyState !== WebSocket.OPEN) return;
      let text: string;
      try {
        text = JSON.stringify({ id, result } satisfies WireMessage);
      } catch {
        text = JSON.stringify({
          id,
          result: { ok: false, error: { code: 'ERR_INTERNAL', message: 'DiskDial could not encode its answer.' } },
        });
      }
      ws.send(text);
    };
    ws.on('message', (raw: RawData, isBinary: boolean) => {
      const req = parseWire(raw, isBinary);
      if ('error' in req) return reply(req.id, invalidMessage(req.error));
      void dispatcher.handle(req.channel, req.payload, sink).then((result) => reply(req.id, result));
    });
    // Too-large frames and protocol errors close the socket (ws does that); the close below
    // then stops what it started.
    ws.on('error', () => undefined);
    ws.on('close', () => {
      void dispatcher.release?.(sink);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  headers = securityHeaders(port);
  hosts = allowedHosts(port);
  origins = allowedOrigins(port);

  let closing: Promise<void> | undefined;
  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    token,
    close(): Promise<void> {
      closing ??= (async () => {
        // A clean close (1001 "going away") tells the page the server stopped, rather than
        // that the network broke; a page that does not answer is cut off.
        await Promise.all(
          [...wss.clients].map(
            (ws) =>
              new Promise<void>((resolve) => {
                const timer = setTimeout(() => ws.terminate(), 500);
                ws.once('close', () => (clearTimeout(timer), resolve()));
                ws.close(1001, 'DiskDial stopped');
              }),
          ),
        );
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        wss.close();
      })();
      return closing;
    },
  };
}
