// Browser mode's server on a real port: static files and their headers, the doors it keeps shut
// (traversal, foreign Host, WebSocket without token or from another Origin), and the contract
// over a real WebSocket with the real services and engine (in a child process).
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { createDispatcher } from '../../../app/src/ipc/dispatch.js';
import { MAX_MESSAGE_BYTES, startServer, type RunningServer } from '../../../app/src/server/serve.js';
import { EngineHost } from '../../../app/src/services/engine-host.js';
import { DetailedTestService } from '../../../app/src/services/detailed-test.js';
import { HashTestService } from '../../../app/src/services/hash-test.js';
import { HistoryService } from '../../../app/src/services/history.js';
import { QuickTestService } from '../../../app/src/services/quick-test.js';
import { TargetsService } from '../../../app/src/services/targets.js';
import { connectWs, wsClient, type WsClient } from '../../helpers/ws-client.js';

const MiB = 1 << 20;
let rendererDir: string;
let target: string;
let host: EngineHost;
let quick: QuickTestService;
let server: RunningServer;
let origin: string;

beforeAll(async () => {
  const base = await fsp.mkdtemp(path.join(os.tmpdir(), 'dd-serve-'));
  rendererDir = path.join(base, 'renderer');
  target = path.join(base, 'target');
  await fsp.mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await fsp.mkdir(target);
  await fsp.writeFile(
    path.join(rendererDir, 'index.html'),
    '<!doctype html><title>DiskDial</title><script type="module" src="/assets/app.js"></script>',
  );
  await fsp.writeFile(path.join(rendererDir, 'assets/app.js'), 'console.log(1)');
  await fsp.writeFile(path.join(rendererDir, 'assets/app.css'), 'body{}');
  await fsp.writeFile(path.join(base, 'secret.txt'), 'outside');
  await fsp.symlink(path.join(base, 'secret.txt'), path.join(rendererDir, 'link.txt'));
  host = new EngineHost();
  quick = new QuickTestService({ engine: host.runTest });
  const dispatcher = createDispatcher({
    quick,
    detailed: new DetailedTestService({ engine: host.runTest }),
    hash: new HashTestService({ engine: { runHash: host.runHash, runTest: host.runTest } }),
    targets: new TargetsService(),
    history: new HistoryService(),
    appInfo: { appVersion: '0.1.0', engineVersion: 'test', platform: process.platform, shell: 'browser' },
  });
  server = await startServer({ rendererDir, dispatcher });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server?.close();
  await quick?.stopAll();
  await host?.close();
  await fsp.rm(path.dirname(rendererDir), { recursive: true, force: true });
});

/** A raw GET: Node's client sends the path exactly as given (no ../ normalising). */
function get(
  rawPath: string,
  hostHeader = `127.0.0.1:${server.port}`,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    // '' means no Host header at all (an HTTP/1.0-style request).
    const opts = hostHeader ? { headers: { host: hostHeader } } : { setHost: false };
    const req = http.request({ host: '127.0.0.1', port: server.port, path: rawPath, ...opts }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket; resolves with it, or with the HTTP status the upgrade was refused with. */
function connect(query: string, headers: Record<string, string> = { origin }): Promise<WebSocket | number> {
  return connectWs(`ws://127.0.0.1:${server.port}/ws${query}`, headers);
}

/** A connected client: request/reply by id, and the events it received. */
async function client(): Promise<WsClient> {
  const ws = await connect(`?token=${server.token}`);
  if (typeof ws === 'number') throw new Error(`refused: ${ws}`);
  return wsClient(ws);
}

describe('static files', () => {
  it('serves index.html at / with the CSP and the other headers', async () => {
    const r = await get(`/?token=${server.token}`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>DiskDial</title>');
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(r.headers['content-security-policy']);
    for (const part of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      `connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ])
      expect(csp).toContain(part);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('serves assets with their types, also to localhost:PORT', async () => {
    expect((await get('/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await get('/assets/app.css', `localhost:${server.port}`);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('never leaves rendererDir: ../, encoded ../, NUL, symlinks out, missing files', async () => {
    for (const p of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/..%2fsecret.txt',
      '/link.txt',
      '/nope.js',
      '/assets',
    ]) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.body).not.toContain('outside');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    for (const p of ['/index.html%00.png', '/%00', '/%E0%A4%A', '/..%5csecret.txt']) {
      expect((await get(p)).status, p).toBe(400);
    }
  });

  it('refuses a foreign Host (DNS rebinding) with 403', async () => {
    for (const h of ['evil.example:' + server.port, `127.0.0.1:${server.port + 1}`, '127.0.0.1', `[::1]:${server.port}`]) {
      const r = await get('/', h);
      expect(r.status, h).toBe(403);
      expect(r.body).not.toContain('DiskDial');
    }
    // No Host at all: Node refuses an HTTP/1.1 request without one before we see it.
    expect((await get('/', '')).status).toBe(400);
  });
});

describe('the WebSocket door', () => {
  it('refuses no token, a wrong token, a wrong Origin, no Origin, a wrong Host', async () => {
    expect(await connect('')).toBe(401);
    expect(await connect('?token=')).toBe(401);
    expect(await connect(`?token=${server.token}x`)).toBe(401);
    expect(await connect(`?token=${'A'.repeat(server.token.length)}`)).toBe(401);
    expect(await connect(`?token=${server.token}`, { origin: 'http://evil.example' })).toBe(403);
    expect(await connect(`?token=${server.token}`, { origin: `http://127.0.0.1:${server.port + 1}` })).toBe(403);
    expect(await connect(`?token=${server.token}`, {})).toBe(403);
    expect(await connect(`?token=${server.token}`, { origin, host: `evil.example:${server.port}` })).toBe(403);
  });

  it('tells a page whether its token is the one (GET /ws: 204 or 401, nothing else), behind the Host check', async () => {
    expect((await get(`/ws?token=${encodeURIComponent(server.token)}`)).status).toBe(204);
    expect((await get(`/ws?token=${server.token}x`)).status).toBe(401);
    expect((await get('/ws')).status).toBe(401);
    expect((await get(`/ws?token=${server.token}`, `evil.example:${server.port}`)).status).toBe(403);
  });

  it('with token and Origin: app.info works; malformed messages get ERR_INVALID_MESSAGE and the socket stays usable', async () => {
    const c = await client();
    try {
      expect(await c.call('app.info')).toMatchObject({ id: 1, result: { ok: true, value: { shell: 'browser' } } });
      expect(await c.raw('{not json')).toMatchObject({ id: -1, result: { ok: false, error: { code: 'ERR_INVALID_MESSAGE' } } });
      expect(await c.raw('[1,2]')).toMatchObject({ id: -1, result: { ok: false, error: { code: 'ERR_INVALID_MESSAGE' } } });
      expect(await c.raw('{"id": 7, "channel": 5}')).toMatchObject({
        id: 7,
        result: { ok: false, error: { code: 'ERR_INVALID_MESSAGE' } },
      });
      expect(await c.raw('{"id": "x", "channel": "app.info"}')).toMatchObject({
        id: -1,
        result: { ok: false, error: { code: 'ERR_INVALID_MESSAGE' } },
      });
      expect(await c.raw('{"id": 8, "channel": "nope", "payload": {}}')).toMatchObject({
        id: 8,
        result: { ok: false, error: { code: 'ERR_UNKNOWN_CHANNEL' } },
      });
      expect(await c.raw('{"id": 9, "channel": "quick.start", "payload": {"sizeBytes": 5}}')).toMatchObject({
        id: 9,
        result: { ok: false, error: { code: 'ERR_INVALID_PAYLOAD' } },
      });
      expect(await c.call('app.info')).toMatchObject({ result: { ok: true } });
    } finally {
      c.ws.close();
    }
  });

  it('a frame over the cap (33 MiB: a 32 MiB result import plus framing) closes that socket (1009) and only that one', async () => {
    const c = await client();
    const closed = new Promise<number>((r) => c.ws.once('close', (code) => r(code)));
    c.ws.send(JSON.stringify({ id: 1, channel: 'app.info', payload: { x: 'y'.repeat(MAX_MESSAGE_BYTES) } }));
    expect(await closed).toBe(1009);
    const d = await client();
    expect(await d.call('app.info')).toMatchObject({ result: { ok: true } });
    d.ws.close();
  });

  it('a quick test over the socket delivers progress, cycle and done', async () => {
    const c = await client();
    try {
      const started = await c.call('quick.start', { target, sizeBytes: 16 * MiB, mode: 'runs', runs: 1 });
      expect(started).toMatchObject({ result: { ok: true } });
      const jobId = (started as { result: { ok: true; value: { jobId: string } } }).result.value.jobId;
      const done = await c.waitFor((m) => 'event' in m && m.event === 'quick.done');
      expect(done).toMatchObject({ event: 'quick.done', data: { jobId, outcome: 'finished', result: { kind: 'quick' } } });
      const kinds = c.events.map((m) => ('event' in m ? m.event : ''));
      expect(kinds[0]).toBe('quick.progress');
      expect(kinds.filter((k) => k === 'quick.cycle')).toHaveLength(1);
      expect(kinds.indexOf('quick.cycle')).toBe(kinds.length - 2);
      expect(await fsp.readdir(target)).toEqual([]);
    } finally {
      c.ws.close();
    }
  });

  it('closing the socket mid-test stops the test and leaves nothing', async () => {
    const c = await client();
    const progress = c.waitFor((m) => 'event' in m && m.event === 'quick.progress');
    expect(await c.call('quick.start', { target, sizeBytes: 32 * MiB, mode: 'continuous', runs: 1 })).toMatchObject({
      result: { ok: true },
    });
    await progress;
    expect(quick.runningJobId).toBeDefined();
    c.ws.close();
    await vi.waitFor(() => expect(quick.runningJobId).toBeUndefined(), { timeout: 30_000, interval: 10 });
    expect(await fsp.readdir(target)).toEqual([]);
  });
});
