// Browser mode's bridge against a fake WebSocket: requests on the wire, replies paired by id,
// events to subscribers, and a closed socket failing pending calls.
import { describe, expect, it } from 'vitest';
import { createWsBridge, wsUrlFor } from '../../renderer/src/lib/ws-bridge';
import { FakeSocket } from './helpers/fake-socket';

const make = () => {
  const bridge = createWsBridge('ws://127.0.0.1:9/ws?token=t', (u) => new FakeSocket(u));
  return { bridge, sock: FakeSocket.last };
};

describe('wsUrlFor', () => {
  it('builds the socket URL with the page token', () => {
    expect(wsUrlFor({ protocol: 'http:', host: '127.0.0.1:8123', search: '?token=abc%2B1' })).toBe('ws://127.0.0.1:8123/ws?token=abc%2B1');
  });
});

describe('createWsBridge', () => {
  it('queues requests until open, then sends each verb as a WireRequest and pairs replies by id', async () => {
    const { bridge, sock } = make();
    expect(sock.url).toBe('ws://127.0.0.1:9/ws?token=t');
    const info = bridge.appInfo();
    const start = bridge.startQuickTest({ target: '/m', sizeBytes: 1e9, mode: 'runs', runs: 2 });
    expect(sock.sent).toEqual([]);
    sock.open();
    expect(sock.sent).toEqual([
      { id: 1, channel: 'app.info', payload: {} },
      { id: 2, channel: 'quick.start', payload: { target: '/m', sizeBytes: 1e9, mode: 'runs', runs: 2 } },
    ]);
    // Replies out of order still reach the right caller.
    sock.reply({ id: 2, result: { ok: true, value: { jobId: 'j' } } });
    sock.reply({ id: 1, result: { ok: true, value: { appVersion: '1' } } });
    expect(await start).toEqual({ ok: true, value: { jobId: 'j' } });
    expect(await info).toEqual({ ok: true, value: { appVersion: '1' } });

    void bridge.listTargets();
    void bridge.describeTarget('/x');
    void bridge.chooseFolder();
    void bridge.stopQuickTest('j');
    expect(sock.sent.slice(2)).toEqual([
      { id: 3, channel: 'targets.list', payload: {} },
      { id: 4, channel: 'targets.describe', payload: { path: '/x' } },
      { id: 5, channel: 'targets.choose', payload: {} },
      { id: 6, channel: 'quick.stop', payload: { jobId: 'j' } },
    ]);
  });

  it('delivers events to subscribers until they unsubscribe, and ignores junk', () => {
    const { bridge, sock } = make();
    sock.open();
    const got: unknown[] = [];
    const off = bridge.onQuickProgress((e) => got.push(e));
    const offDone = bridge.onQuickDone((e) => got.push(['done', e]));
    sock.reply({ event: 'quick.progress', data: { jobId: 'j', instMBps: 5 } });
    sock.onmessage?.({ data: 'not json' });
    sock.reply({ event: 'nope', data: {} });
    off();
    sock.reply({ event: 'quick.progress', data: { jobId: 'j', instMBps: 6 } });
    sock.reply({ event: 'quick.done', data: { jobId: 'j', outcome: 'finished' } });
    offDone();
    expect(got).toEqual([{ jobId: 'j', instMBps: 5 }, ['done', { jobId: 'j', outcome: 'finished' }]]);
  });

  it('fails pending and later calls with ERR_DISCONNECTED when the socket closes', async () => {
    const { bridge, sock } = make();
    sock.open();
    const pending = bridge.listTargets();
    sock.close();
    const err = { ok: false, error: { code: 'ERR_DISCONNECTED', message: 'Lost the connection to DiskDial.' } };
    expect(await pending).toEqual(err);
    expect(await bridge.appInfo()).toEqual(err);
    expect(sock.sent).toHaveLength(1);
  });

  it('fails queued calls when the socket never opens', async () => {
    const { bridge, sock } = make();
    const p = bridge.appInfo();
    sock.onerror?.({});
    expect((await p).ok).toBe(false);
  });
});
