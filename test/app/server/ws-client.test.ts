// The tests' browser-mode client must not lose an event that arrives in the same read as the
// reply it follows: a hash verified against a FIFO fails in a few ms, so on a loaded machine its
// `hash.done` reached the client with `hash.start`'s reply, and a waiter registered after the
// reply never saw it (hostile-files.test.ts timed out at 15 s in a clean-clone CI run).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { connectWs, wsClient } from '../../helpers/ws-client.js';

let server: WebSocketServer;
let url: string;

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('connection', (ws) => {
    ws.on('message', (data) => {
      const { id } = JSON.parse(String(data)) as { id: number };
      // The reply and the event the job ends with, back to back, as a job that fails at once sends them.
      ws.send(JSON.stringify({ id, result: { ok: true, value: { jobId: 'j1' } } }));
      ws.send(JSON.stringify({ event: 'hash.done', data: { jobId: 'j1', outcome: 'failed' } }));
    });
  });
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('an event that arrives in the same read as the reply before it is still found by waitFor', async () => {
  const ws = await connectWs(url, {});
  if (typeof ws === 'number') throw new Error(`refused: ${ws}`);
  const c = wsClient(ws);
  try {
    const reply = c.call('hash.start', {});
    // Hold this thread while the server answers, so both frames wait in the socket for one read:
    // what a loaded machine does by chance, done here every time.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    await reply;
    const done = c.waitFor((m) => 'event' in m && m.event === 'hash.done');
    // 2 s is thousands of times a loopback round trip; a lost event never resolves at all.
    const outcome = await Promise.race([done, new Promise((r) => setTimeout(() => r('lost'), 2_000))]);
    expect(outcome).toMatchObject({ event: 'hash.done', data: { jobId: 'j1' } });
  } finally {
    ws.close();
  }
});
