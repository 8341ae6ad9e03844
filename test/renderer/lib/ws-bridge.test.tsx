// Browser mode's bridge against a fake WebSocket: requests on the wire, replies paired by id,
// events to subscribers, and a closed socket failing pending calls.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWsBridge, DISCONNECTED, wsUrlFor } from '../../../renderer/src/lib/ws-bridge';
import { FakeSocket } from '../helpers/fake-socket';

/** A bridge that retries after 100–400 ms, keeping every socket it opens; `why` answers its probe. */
const retrying = (why: () => 'refused' | 'unreachable') => {
  const sockets: FakeSocket[] = [];
  const bridge = createWsBridge(
    'ws://h/ws?token=t',
    (u) => {
      const s = new FakeSocket(u);
      sockets.push(s);
      return s;
    },
    { retry: { min: 100, max: 400 }, probe: () => Promise.resolve(why()) },
  );
  return { bridge, sockets };
};

const make = () => {
  const bridge = createWsBridge('ws://127.0.0.1:9/ws?token=t', (u) => new FakeSocket(u), { probe: () => Promise.resolve('unreachable') });
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
    const err = { ok: false, error: DISCONNECTED };
    expect(DISCONNECTED.message).toMatch(/diskdial serve.*URL it prints/);
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

  it('ends the jobs started over a lost socket with a failed done event (the server stops them)', async () => {
    const { bridge, sock } = make();
    sock.open();
    const dones: unknown[] = [];
    bridge.onQuickDone((e) => dones.push(e));
    bridge.onWizardDone((e) => dones.push(e));
    const quick = bridge.startQuickTest({ target: '/m', sizeBytes: 1e9, mode: 'runs', runs: 1 });
    const wizard = bridge.startWizard({} as never);
    const finished = bridge.startQuickTest({ target: '/m', sizeBytes: 1e9, mode: 'runs', runs: 1 });
    sock.reply({ id: 1, result: { ok: true, value: { jobId: 'q1' } } });
    sock.reply({ id: 2, result: { ok: true, value: { jobId: 'w1', planId: 'p1' } } });
    sock.reply({ id: 3, result: { ok: true, value: { jobId: 'q2' } } });
    await Promise.all([quick, wizard, finished]);
    sock.reply({ event: 'quick.done', data: { jobId: 'q2', outcome: 'finished' } });
    sock.close();
    expect(dones).toEqual([
      { jobId: 'q2', outcome: 'finished' },
      { jobId: 'q1', outcome: 'failed', error: DISCONNECTED },
      { jobId: 'w1', outcome: 'failed', error: DISCONNECTED, planId: 'p1', resultIds: [] },
    ]);
  });
});

describe('createWsBridge reconnects', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports its state, retries with a growing delay, and works again once a socket opens', async () => {
    vi.useFakeTimers();
    const { bridge, sockets } = retrying(() => 'unreachable');
    const states: string[] = [];
    bridge.onConnection((s) => states.push(s));
    expect(bridge.connection()).toBe('connecting');
    // A refused token: the socket errors, then closes, without opening.
    sockets[0]!.onerror?.({});
    sockets[0]!.close();
    expect(bridge.connection()).toBe('disconnected');
    expect(await bridge.appInfo()).toEqual({ ok: false, error: DISCONNECTED });
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.close();
    vi.advanceTimersByTime(199);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    sockets[2]!.open();
    expect(bridge.connection()).toBe('connected');
    expect(states).toEqual(['disconnected', 'connected']);
    const info = bridge.appInfo();
    expect(sockets[2]!.sent).toEqual([{ id: 1, channel: 'app.info', payload: {} }]);
    sockets[2]!.reply({ id: 1, result: { ok: true, value: { appVersion: '2' } } });
    expect(await info).toEqual({ ok: true, value: { appVersion: '2' } });
    // Events of an old socket are ignored once replaced; close() stops retrying.
    bridge.close();
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(3);
    expect(bridge.connection()).toBe('disconnected');
  });

  it('a token the server refuses: state refused (not stopped), kept through the retries, calls fail, and a socket that opens ends it', async () => {
    vi.useFakeTimers();
    let why: 'refused' | 'unreachable' = 'refused';
    const { bridge, sockets } = retrying(() => why);
    const states: string[] = [];
    bridge.onConnection((s) => states.push(s));
    sockets[0]!.close();
    await vi.waitFor(() => expect(bridge.connection()).toBe('refused'));
    expect(await bridge.appInfo()).toEqual({ ok: false, error: DISCONNECTED });
    vi.advanceTimersByTime(100);
    sockets[1]!.close();
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    expect(bridge.connection()).toBe('refused');
    // The server went away meanwhile: stopped, not refused.
    why = 'unreachable';
    vi.advanceTimersByTime(200);
    sockets[2]!.close();
    await vi.waitFor(() => expect(bridge.connection()).toBe('disconnected'));
    vi.advanceTimersByTime(400);
    sockets[3]!.open();
    expect(bridge.connection()).toBe('connected');
    expect(states).toEqual(['disconnected', 'refused', 'disconnected', 'connected']);
    bridge.close();
  });
});
